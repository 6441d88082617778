"""Change notifications for the files *inside* watched folders, on Linux (inotify via ctypes).

``QFileSystemWatcher`` watches a folder with a mask that leaves out ``IN_MODIFY``: it reports
files created, removed or renamed there, but not a file rewritten in place (an editor saving
over it, ``echo >> fact.md``) — measured with PySide6 6.x on Linux. This watches the same
folders with ``IN_MODIFY``/``IN_CLOSE_WRITE``/``IN_ATTRIB`` too and reports the *file* each
event names, through a ``QSocketNotifier`` on the inotify descriptor (no polling, no thread).

``FolderNotifier.available`` is False where inotify is missing (another system, a seccomp
sandbox); the watcher then falls back to its bounded stat poll. ``drain()`` reads the events
queued so far without waiting, for absorbing the window's own writes.
"""

from __future__ import annotations

import ctypes
import errno
import os
import struct
import sys
from pathlib import Path

from PySide6.QtCore import QObject, QSocketNotifier, Signal

IN_MODIFY = 0x002
IN_ATTRIB = 0x004
IN_CLOSE_WRITE = 0x008
IN_MOVED_FROM = 0x040
IN_MOVED_TO = 0x080
IN_CREATE = 0x100
IN_DELETE = 0x200
IN_DELETE_SELF = 0x400
IN_MOVE_SELF = 0x800
IN_Q_OVERFLOW = 0x4000
IN_IGNORED = 0x8000
IN_ONLYDIR = 0x01000000
IN_NONBLOCK = os.O_NONBLOCK
IN_CLOEXEC = getattr(os, "O_CLOEXEC", 0o2000000)

MASK = (
    IN_MODIFY
    | IN_ATTRIB
    | IN_CLOSE_WRITE
    | IN_MOVED_FROM
    | IN_MOVED_TO
    | IN_CREATE
    | IN_DELETE
    | IN_DELETE_SELF
    | IN_MOVE_SELF
    | IN_ONLYDIR
)
_HEADER = struct.Struct("iIII")  # wd, mask, cookie, len


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        # the process's own symbols (libc is loaded): ``find_library`` would run ``ldconfig -p``
        libc = ctypes.CDLL(None, use_errno=True)
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        libc.inotify_rm_watch.argtypes = [ctypes.c_int, ctypes.c_int]
    except (OSError, AttributeError):
        return None
    return libc


class FolderNotifier(QObject):
    """Reports changed paths (a file inside a watched folder, or the folder itself)."""

    sig_changed = Signal(object)
    """(set[Path]) paths events named since the last report; the folder for an overflow."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._libc = _libc()
        self._fd = -1
        self._wds: dict[int, Path] = {}
        self._by_path: dict[Path, int] = {}
        self._notifier: QSocketNotifier | None = None
        if self._libc is not None:
            fd = self._libc.inotify_init1(IN_NONBLOCK | IN_CLOEXEC)
            if fd >= 0:
                self._fd = fd
                self._notifier = QSocketNotifier(fd, QSocketNotifier.Type.Read, self)
                self._notifier.activated.connect(self._on_ready)

    @property
    def available(self) -> bool:
        return self._fd >= 0

    def folders(self) -> list[Path]:
        return list(self._by_path)

    def watch(self, folder: Path) -> bool:
        """Start watching ``folder`` (True when it is watched now)."""
        if not self.available or self._libc is None:
            return False
        if folder in self._by_path:
            return True
        wd = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), MASK)
        if wd < 0:
            return False
        self._wds[wd] = folder
        self._by_path[folder] = wd
        return True

    def clear(self) -> None:
        if self._libc is not None:
            for wd in list(self._wds):
                self._libc.inotify_rm_watch(self._fd, wd)
        self._wds.clear()
        self._by_path.clear()
        self.drain()

    def close(self) -> None:
        if self._notifier is not None:
            self._notifier.setEnabled(False)
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1
        self._wds.clear()
        self._by_path.clear()

    def drain(self) -> set[Path]:
        """Read every event queued now (never blocks); the paths they name."""
        paths: set[Path] = set()
        while self._fd >= 0:
            try:
                data = os.read(self._fd, 64 * 1024)
            except BlockingIOError:
                break
            except OSError as exc:
                if exc.errno == errno.EINTR:
                    continue
                break
            if not data:
                break
            paths |= self._parse(data)
        return paths

    def _parse(self, data: bytes) -> set[Path]:
        paths: set[Path] = set()
        offset = 0
        while offset + _HEADER.size <= len(data):
            wd, mask, _cookie, length = _HEADER.unpack_from(data, offset)
            raw = data[offset + _HEADER.size : offset + _HEADER.size + length]
            offset += _HEADER.size + length
            if mask & IN_Q_OVERFLOW:
                paths.update(self._by_path)  # events were lost: every folder may have changed
                continue
            folder = self._wds.get(wd)
            if folder is None:
                continue
            if mask & IN_IGNORED:  # the folder went away; the watcher re-arms when it is back
                self._wds.pop(wd, None)
                self._by_path.pop(folder, None)
                paths.add(folder)
                continue
            name = raw.split(b"\0", 1)[0]
            paths.add(folder / os.fsdecode(name) if name else folder)
        return paths

    def _on_ready(self, *_args: object) -> None:
        paths = self.drain()
        if paths:
            self.sig_changed.emit(paths)
