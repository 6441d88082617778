"""Notices changes other processes make to the home and turns them into ``sig_changed`` flags.

Two sources feed one check: ``QFileSystemWatcher`` on the store, archive, approval, state and
instruction directories (immediate on Linux), and a 1 s poll of the same few paths (a fallback
for file systems without notifications, and for directories that did not exist yet). A check
compares small stat signatures per group (store directories, approval folders, trace file,
history and decision files, instruction files) and, after a short debounce, emits the flags of
the groups that changed with ``source=None``.

The window's own writes are absorbed: when a view announces a change it made, the groups with
those flags are re-baselined at once. That is safe because the view's refresh reads the disk
after this point, so nothing written before it is missed, and anything written later changes
the signature again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer

from context_center.engine import DOCUMENT_NAMES, LOCAL_DOCUMENT_NAMES, Engine
from context_center.ui.context import (
    APPROVALS,
    ARCHIVE,
    FACTS,
    INSTRUCTIONS,
    SUGGESTIONS,
    TRACE,
    AppContext,
)

# Files in <project>/state that views show (the recall index cache there is deliberately left
# out: rebuilding it must not look like a change).
TRACE_FILES = ("recall-trace.json",)
SUGGESTION_FILES = ("history.jsonl", "suggestions.json")

Signature = tuple[tuple[str, int, int, int] | None, ...]


def _stat(path: Path) -> tuple[str, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (path.name, st.st_mtime_ns, st.st_size, st.st_ino)


@dataclass(frozen=True)
class Group:
    flags: frozenset[str]
    paths: tuple[Path, ...]  # stat'ed for the signature
    watch: tuple[Path, ...]  # directories handed to QFileSystemWatcher

    def signature(self) -> Signature:
        return tuple(_stat(p) for p in self.paths)


def groups_for(engine: Engine) -> list[Group]:
    layout = engine.layout
    stores = [layout.project_store, layout.global_store]
    archives = [s / ".archive" for s in stores]
    approvals = [layout.approvals_dir] + [
        layout.approvals_dir / name for name in ("pending", "approved", "rejected")
    ]
    state = layout.state_dir
    instruction_files = [
        base / name
        for base in (engine.home, engine.workspace)
        for name in DOCUMENT_NAMES + LOCAL_DOCUMENT_NAMES
    ]
    return [
        Group(frozenset({FACTS}), tuple(stores), tuple(stores)),
        Group(frozenset({ARCHIVE}), tuple(archives), tuple(archives)),
        Group(frozenset({APPROVALS}), tuple(approvals), tuple(approvals)),
        Group(frozenset({TRACE}), tuple(state / n for n in TRACE_FILES), (state,)),
        Group(frozenset({SUGGESTIONS}), tuple(state / n for n in SUGGESTION_FILES), (state,)),
        Group(
            frozenset({INSTRUCTIONS}),
            tuple(instruction_files),
            (engine.home, engine.workspace),
        ),
    ]


class ChangeWatcher(QObject):
    """Owned by the main window; follows ``ctx.engine`` across workspace switches."""

    def __init__(
        self,
        ctx: AppContext,
        parent: QObject | None = None,
        *,
        poll_ms: int = 1000,
        debounce_ms: int = 150,
    ) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._fs = QFileSystemWatcher(self)
        self._fs.directoryChanged.connect(self._on_fs_event)
        self._fs.fileChanged.connect(self._on_fs_event)
        self._poll = QTimer(self)
        self._poll.setInterval(poll_ms)
        self._poll.timeout.connect(self.check)
        self._debounce = QTimer(self)
        self._debounce.setSingleShot(True)
        self._debounce.setInterval(debounce_ms)
        self._debounce.timeout.connect(self._emit)
        self._groups: list[Group] = []
        self._signatures: list[Signature] = []
        self._pending: set[str] = set()
        self.emitted: list[frozenset[str]] = []  # history, for tests and the status bar
        ctx.sig_changed.connect(self._on_ctx_changed)
        ctx.sig_engine_changed.connect(lambda _e: self.retarget())
        self.retarget()

    def start(self) -> None:
        self._poll.start()

    def stop(self) -> None:
        self._poll.stop()
        self._debounce.stop()

    def retarget(self) -> None:
        self._groups = groups_for(self.ctx.engine)
        self._signatures = [g.signature() for g in self._groups]
        self._pending.clear()
        old = self._fs.directories() + self._fs.files()
        if old:
            self._fs.removePaths(old)
        self._arm()

    def _arm(self) -> None:
        """Watch every directory that exists now (called again by each poll)."""
        have = set(self._fs.directories())
        want = {str(p) for g in self._groups for p in g.watch if p.is_dir()}
        missing = sorted(want - have)
        if missing:
            self._fs.addPaths(missing)

    def _on_fs_event(self, _path: str) -> None:
        self.check()

    def check(self) -> None:
        self._arm()
        for i, group in enumerate(self._groups):
            sig = group.signature()
            if sig != self._signatures[i]:
                self._signatures[i] = sig
                self._pending |= group.flags
        if self._pending and not self._debounce.isActive():
            self._debounce.start()

    def _emit(self) -> None:
        flags = frozenset(self._pending)
        self._pending.clear()
        if flags:
            self.emitted.append(flags)
            self.ctx.changed(flags, None)

    def _on_ctx_changed(self, flags: frozenset[str], source: object | None) -> None:
        if source is None or source is self:
            return
        for i, group in enumerate(self._groups):
            if group.flags & flags:
                self._signatures[i] = group.signature()
                self._pending -= group.flags
