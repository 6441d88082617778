"""Cheap freshness for a long-lived process: has a store folder changed since it was read?

A fact store changes on disk only by files appearing, disappearing or being replaced, and the
engine (and every editor that saves safely) replaces a file by renaming a temp file into the
folder, which moves the folder's mtime. So one ``stat`` of each store folder per call tells a
long-lived server whether to reload that store; reloading all of them on every call would cost
seconds at 50,000 facts.

File-system timestamps are coarse (a kernel tick): two changes in one tick leave the same
mtime. A stamp whose mtime is within ``RACY_S`` of the moment the folder was read is therefore
not trusted, and the folder is read again on the next call (the "racy" rule git uses for its
index). A change made in place without a rename (``echo >> file``) does not move the folder's
mtime; it is seen on the next reload of that store.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

RACY_S = 2.0


@dataclass(frozen=True)
class Stamp:
    """A folder's identity and mtime (None: the folder does not exist)."""

    mtime_ns: int | None
    ino: int | None
    dev: int | None

    @classmethod
    def of(cls, folder: Path) -> Stamp:
        try:
            st = os.stat(folder)
        except OSError:
            return cls(None, None, None)
        return cls(st.st_mtime_ns, st.st_ino, st.st_dev)


@dataclass
class _Seen:
    stamp: Stamp
    trusted: bool


class FolderWatch:
    """Remembers the stamp each folder had when it was last read."""

    def __init__(self) -> None:
        self._seen: dict[Path, _Seen] = {}

    def before_read(self, folder: Path) -> tuple[Stamp, float]:
        """Take the stamp just before reading ``folder``; pass the result to ``read_done``."""
        return Stamp.of(folder), time.time()

    def read_done(self, folder: Path, taken: tuple[Stamp, float]) -> None:
        stamp, started = taken
        trusted = stamp.mtime_ns is None or stamp.mtime_ns / 1e9 < started - RACY_S
        self._seen[folder] = _Seen(stamp, trusted)

    def changed(self, folder: Path) -> bool:
        """True when ``folder`` must be read again: never read, moved, or read too soon after
        its last change to trust the stamp."""
        seen = self._seen.get(folder)
        if seen is None or not seen.trusted:
            return True
        return Stamp.of(folder) != seen.stamp

    def forget(self) -> None:
        self._seen.clear()
