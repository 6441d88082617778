"""Notices changes other processes make to the home and turns them into ``sig_changed`` flags.

What is followed comes from the engine (``engine.watch``): the stores, archives, approval
folders, the trace and suggestion files, and every instruction file of the chains — the root
files, nested ones in the workspace's instruction folders, and the files they import
(``chain_files``, worked out in the engine worker after each instructions change).

How, on Linux: inotify on each folder (``ui/inotify.py``) names the file that changed, also for
a file rewritten in place (an editor saving over a fact, ``echo >>``), which
``QFileSystemWatcher`` does not report. An event counts when the file's stat (mtime, size,
inode) differs from the last one seen, so opening a file or taking a lock is not a change.
Elsewhere (or when inotify is unavailable) ``QFileSystemWatcher`` reports created, removed and
renamed files, and a bounded content scan stats the files of the stores a slice at a time
(``scan_budget_ms`` per poll, a full round every poll for a few thousand files; longer rounds
for larger stores). A 1 s poll of the groups' own paths backs both up and arms folders that
did not exist yet. After a short debounce the areas that changed are emitted with
``source=None``.

For the stores, the watcher also says *which* fact files were edited in place: the change-set
then names them (``FactChange`` kind ``updated``, no id) instead of "facts changed somewhere",
so the Memory tab reads those files again rather than both stores (seconds at 50,000 facts).
A file created, removed or renamed, or a change seen only by a signature, still means
"reload".

The window's own writes are absorbed: when a view announces a change it made, events queued
for those areas are read and taken as the new baseline, and the groups are re-baselined. That
is safe because the view's refresh reads the disk after this point, so nothing written before
it is missed, and anything written later changes the signature again.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer
from qasync import asyncSlot

from context_center.engine import (
    Area,
    Changes,
    Engine,
    EngineError,
    FactChange,
    FactChangeKind,
    InstructionDocument,
    Scope,
    WatchGroup,
    chain_files,
    watch_groups,
)
from context_center.ui.context import INSTRUCTIONS, AppContext
from context_center.ui.i18n import translate
from context_center.ui.inotify import FolderNotifier

Stat = tuple[str, int, int, int] | None
Signature = tuple[Stat, ...]
AGENTS = ("reasonix", "claude-code", "codex")


def _stat(path: Path) -> Stat:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (path.name, st.st_mtime_ns, st.st_size, st.st_ino)


def signature(group: WatchGroup) -> Signature:
    return tuple(_stat(p) for p in group.paths)


def groups_for(engine: Engine, extra: tuple[Path, ...] = ()) -> list[WatchGroup]:
    """The engine's own watch groups (which files mean which area)."""
    return watch_groups(engine.layout, extra_instruction_files=extra)


def instruction_files(engine: Engine) -> tuple[Path, ...]:
    """Every file the instruction chains of the workspace's instruction folders read, for
    each agent (runs in the engine worker)."""
    documents: list[InstructionDocument] = []
    for folder in engine.instruction_folders():
        target = engine.workspace / folder
        for agent in AGENTS:
            try:
                documents.extend(engine.instructions(target, agent=agent).documents)
            except (EngineError, OSError, ValueError):
                continue
    return chain_files(documents)


class ContentScan:
    """The fallback for in-place edits without inotify: stat the files of the folders a
    slice at a time (listing included), within a time budget per call."""

    def __init__(self, budget_ms: float) -> None:
        self.budget_s = budget_ms / 1000
        self._folders: list[Path] = []
        self._iter: Iterator[os.DirEntry[str]] | None = None
        self._seen: dict[str, Stat] = {}
        self.last_ms = 0.0
        self.rounds = 0

    def reset(self) -> None:
        self._close()
        self._folders = []
        self._seen.clear()

    def _close(self) -> None:
        if self._iter is not None:
            close = getattr(self._iter, "close", None)
            if callable(close):
                close()
            self._iter = None

    def _next_entry(self, folders: list[Path]) -> os.DirEntry[str] | None:
        """The next file of the round (a new round starts after the last); None at the end
        of a round."""
        while True:
            if self._iter is None:
                if not self._folders:
                    return None
                try:
                    self._iter = os.scandir(self._folders.pop(0))
                except OSError:
                    continue
            entry = next(self._iter, None)
            if entry is not None:
                return entry
            self._close()

    def step(self, folders: list[Path]) -> set[Path]:
        """Stat the next slice; the files whose stat changed since the last round."""
        start = time.perf_counter()
        changed: set[Path] = set()
        if self._iter is None and not self._folders:
            self._folders = list(folders)
            self.rounds += 1
        count = 0
        while True:
            count += 1
            if count % 64 == 0 and time.perf_counter() - start >= self.budget_s:
                break
            entry = self._next_entry(folders)
            if entry is None:
                break
            if entry.name.startswith("."):
                continue
            try:
                st = entry.stat(follow_symlinks=False)
                now: Stat = (entry.name, st.st_mtime_ns, st.st_size, st.st_ino)
            except OSError:
                now = None
            before = self._seen.get(entry.path, "unseen")
            if before != "unseen" and before != now:
                changed.add(Path(entry.path))
            self._seen[entry.path] = now
        self.last_ms = (time.perf_counter() - start) * 1000
        return changed


class ChangeWatcher(QObject):
    """Owned by the main window; follows ``ctx.engine`` across workspace switches."""

    def __init__(
        self,
        ctx: AppContext,
        parent: QObject | None = None,
        *,
        poll_ms: int = 1000,
        debounce_ms: int = 150,
        use_inotify: bool = True,
        scan_budget_ms: float = 15.0,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._notify = FolderNotifier(self) if use_inotify else None
        if self._notify is not None and not self._notify.available:
            self._notify.close()
            self._notify = None
        if self._notify is not None:
            self._notify.sig_changed.connect(self._on_paths)
        self._fs = QFileSystemWatcher(self)
        self._fs.directoryChanged.connect(self._on_fs_event)
        self._fs.fileChanged.connect(self._on_fs_event)
        self.scan = ContentScan(scan_budget_ms)
        self._poll = QTimer(self)
        self._poll.setInterval(poll_ms)
        self._poll.timeout.connect(self.check)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(debounce_ms)
        self._debounce.timeout.connect(self._emit)
        self._groups: list[WatchGroup] = []
        self._signatures: list[Signature] = []
        self._files: dict[Path, Stat] = {}
        self._extra: tuple[Path, ...] = ()
        self._pending: set[Area] = set()
        self._edited: set[tuple[Scope, str]] = set()  # fact files edited in place
        self._facts_full = False  # a fact change the names above do not describe
        self.emitted: list[frozenset[Area]] = []  # history, for tests and the status bar
        self.last_check_ms = 0.0
        ctx.sig_changed.connect(self._on_ctx_changed)
        ctx.sig_engine_changed.connect(lambda _e: self.retarget())
        self.retarget()

    @property
    def uses_inotify(self) -> bool:
        return self._notify is not None

    @property
    def groups(self) -> list[WatchGroup]:
        return list(self._groups)

    def start(self) -> None:
        self._poll.start()
        self.follow_instructions()

    def stop(self) -> None:
        self._poll.stop()
        self._debounce.stop()
        if self._notify is not None:
            self._notify.close()
            self._notify = None

    def retarget(self, extra: tuple[Path, ...] = ()) -> None:
        self._extra = extra
        self._groups = groups_for(self.ctx.engine, extra)
        self._signatures = [signature(g) for g in self._groups]
        self._files.clear()
        self.scan.reset()
        self._pending.clear()
        old = self._fs.directories() + self._fs.files()
        if old:
            self._fs.removePaths(old)
        if self._notify is not None:
            self._notify.clear()
        self._arm()

    @asyncSlot()
    async def follow_instructions(self) -> None:
        """Add the nested and imported instruction files of the current chains."""
        engine = self.ctx.engine
        try:
            extra = await self.ctx.run(instruction_files, engine)
        except Exception as exc:  # never worth a dialog: the root files are followed anyway
            self.ctx.status(
                translate(
                    "MainWindow", "Instruction files are followed at the root only: {error}"
                ).format(error=exc)
            )
            return
        if engine is self.ctx.engine and extra != self._extra:
            self._regroup(extra)

    def _regroup(self, extra: tuple[Path, ...]) -> None:
        """New instruction files: keep every other group's baseline."""
        self._extra = extra
        groups = groups_for(self.ctx.engine, extra)
        for i, group in enumerate(groups):
            if group.area is INSTRUCTIONS:
                self._groups[i] = group
                self._signatures[i] = signature(group)
        self._arm()

    def _folders(self) -> list[Path]:
        return list(dict.fromkeys(p for g in self._groups for p in g.folders))

    def _arm(self) -> None:
        """Watch every folder that exists now (called again by each poll)."""
        folders = [p for p in self._folders() if p.is_dir()]
        if self._notify is not None:
            for folder in folders:
                self._notify.watch(folder)
            return
        have = set(self._fs.directories())
        missing = sorted(str(p) for p in folders if str(p) not in have)
        if missing:
            self._fs.addPaths(missing)

    def _on_fs_event(self, _path: str) -> None:
        self.check()

    def _changed_file(self, path: Path) -> bool:
        now = _stat(path)
        before = self._files.get(path, "unknown")
        self._files[path] = now
        return before != now

    def _on_paths(self, paths: set[Path], absorb: frozenset[Area] = frozenset()) -> None:
        """Files (or folders) inotify named: mark the areas whose file really changed."""
        touched: set[Area] = set()
        for path in paths:
            areas = {g.area for g in self._groups if g.covers(path)}
            if not areas and path in self._folders():  # the folder itself (gone, overflow)
                areas = {g.area for g in self._groups if path in g.folders}
                if Area.FACTS in areas:
                    self._facts_full = True
            if not areas or not self._changed_file(path):
                continue
            touched |= areas
            if Area.FACTS in areas - absorb:
                self._note_fact_file(path)
            self._pending |= areas - absorb
        # the events explain what moved the folders' own signatures: no second report
        for i, group in enumerate(self._groups):
            if group.area in touched:
                self._signatures[i] = signature(group)
        if self._pending and not self._debounce.isActive():
            self._debounce.start()

    def _note_fact_file(self, path: Path) -> None:
        layout = self.ctx.engine.layout
        scope = {layout.project_store: Scope.PROJECT, layout.global_store: Scope.GLOBAL}.get(
            path.parent
        )
        if scope is not None and path.suffix == ".md" and self._files.get(path) is not None:
            self._edited.add((scope, path.stem))
        else:
            self._facts_full = True

    def check(self) -> None:
        start = time.perf_counter()
        self._arm()
        for i, group in enumerate(self._groups):
            sig = signature(group)
            if sig != self._signatures[i]:
                self._signatures[i] = sig
                self._pending.add(group.area)
                self._facts_full = self._facts_full or group.area is Area.FACTS
        if self._notify is None:
            content = [g for g in self._groups if g.folder_contents]
            for path in self.scan.step([f for g in content for f in g.folders]):
                areas = {g.area for g in content if g.covers(path)}
                if Area.FACTS in areas:
                    self._files[path] = _stat(path)
                    self._note_fact_file(path)
                self._pending |= areas
        self.last_check_ms = (time.perf_counter() - start) * 1000
        if self._pending and not self._debounce.isActive():
            self._debounce.start()

    def _emit(self) -> None:
        flags = frozenset(self._pending)
        edited, full = self._edited, self._facts_full
        self._pending.clear()
        self._edited, self._facts_full = set(), False
        if not flags:
            return
        self.emitted.append(flags)
        if INSTRUCTIONS in flags:
            self.follow_instructions()  # an edit may add or drop an import
        if Area.FACTS in flags and edited and not full:
            named = tuple(
                FactChange(scope, name, "", FactChangeKind.UPDATED)
                for scope, name in sorted(edited)
            )
            self.ctx.apply(Changes(None, facts=named, outside=flags - {Area.FACTS}), None)
            return
        self.ctx.apply(Changes.seen_on_disk(flags), None)

    def _on_ctx_changed(self, changes: Changes[object], source: object | None) -> None:
        if source is None or source is self:
            return
        areas = frozenset(changes.areas)
        if self._notify is not None:
            self._on_paths(self._notify.drain(), absorb=areas)
        for i, group in enumerate(self._groups):
            if group.area in areas:
                self._signatures[i] = signature(group)
                self._pending.discard(group.area)
        if Area.FACTS in areas:
            self._edited.clear()
            self._facts_full = False
        if INSTRUCTIONS in areas:
            self.follow_instructions()
