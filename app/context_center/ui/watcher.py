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
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer

from context_center.engine import Area, Changes, Engine, WatchGroup, watch_groups
from context_center.ui.context import AppContext

Signature = tuple[tuple[str, int, int, int] | None, ...]


def _stat(path: Path) -> tuple[str, int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (path.name, st.st_mtime_ns, st.st_size, st.st_ino)


def signature(group: WatchGroup) -> Signature:
    return tuple(_stat(p) for p in group.paths)


def groups_for(engine: Engine) -> list[WatchGroup]:
    """The engine's own watch groups (which files mean which area)."""
    return watch_groups(engine.layout)


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
        self._groups: list[WatchGroup] = []
        self._signatures: list[Signature] = []
        self._pending: set[Area] = set()
        self.emitted: list[frozenset[Area]] = []  # history, for tests and the status bar
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
        self._signatures = [signature(g) for g in self._groups]
        self._pending.clear()
        old = self._fs.directories() + self._fs.files()
        if old:
            self._fs.removePaths(old)
        self._arm()

    def _arm(self) -> None:
        """Watch every directory that exists now (called again by each poll)."""
        have = set(self._fs.directories())
        want = {str(p) for g in self._groups for p in g.folders if p.is_dir()}
        missing = sorted(want - have)
        if missing:
            self._fs.addPaths(missing)

    def _on_fs_event(self, _path: str) -> None:
        self.check()

    def check(self) -> None:
        self._arm()
        for i, group in enumerate(self._groups):
            sig = signature(group)
            if sig != self._signatures[i]:
                self._signatures[i] = sig
                self._pending.add(group.area)
        if self._pending and not self._debounce.isActive():
            self._debounce.start()

    def _emit(self) -> None:
        flags = frozenset(self._pending)
        self._pending.clear()
        if flags:
            self.emitted.append(flags)
            self.ctx.apply(Changes.seen_on_disk(flags), None)

    def _on_ctx_changed(self, changes: Changes[object], source: object | None) -> None:
        if source is None or source is self:
            return
        areas = changes.areas
        for i, group in enumerate(self._groups):
            if group.area in areas:
                self._signatures[i] = signature(group)
                self._pending.discard(group.area)
