"""Store generation stamps: an O(1) proof that a store folder is as it was when last looked at.

A stamp is ``(folder st_mtime_ns, folder st_ino, write counter)``. Every write of ours and of
Reasonix replaces, creates or removes a file *by a rename or link in the store folder*, which
moves the folder's mtime; the counter (``generation`` in the store's private cache folder,
``paths.store_cache_dir``) is bumped after each of our writes, under the store lock, so two
writes within one tick of the file system's clock still give two stamps. A missing folder has
the stamp ``(0, 0, counter)``.

What a stamp does not see: a file edited *in place* (opened and rewritten without a rename).
Readers that trust a stamp therefore still check the files they actually read (size, mtime and
inode), and a stamp taken within ``RACY_NS`` of the folder's last change is *racy*: a foreign
rename later in the same clock tick would not move the mtime, so a racy stamp is never trusted
on its own (``is_racy``).

``folder_files`` lists a folder's fact files with their inode numbers without a ``stat`` per
file (``readdir`` returns them), which is how a reader whose stamp no longer matches finds the
few files that were replaced.
"""

from __future__ import annotations

import contextlib
import os
import stat as stat_mod
import time
from pathlib import Path

from context_center.engine.store.paths import store_cache_dir

GENERATION_FILE = "generation"
# A stamp observed this close to the folder's last change may miss a same-tick rename.
RACY_NS = 2_000_000_000
INDEX_NAME = "MEMORY.md"
O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

Stamp = tuple[int, int, int]


def _counter_path(root: Path) -> Path:
    return store_cache_dir(root) / GENERATION_FILE


def read_counter(root: Path) -> int:
    """The store's write counter (0 when it was never written or cannot be read)."""
    try:
        fd = os.open(_counter_path(root), os.O_RDONLY | O_NOFOLLOW)
    except (OSError, ValueError):
        return 0
    try:
        data = os.read(fd, 32)
    except OSError:
        return 0
    finally:
        os.close(fd)
    try:
        return int(data.strip() or b"0")
    except ValueError:
        return 0


def bump(root: Path) -> None:
    """Count one more write to the store (call with the store lock held, after the write).

    Best effort: a counter that cannot be written leaves the folder mtime, which every write
    moves anyway."""
    from context_center.engine.store.cachedirs import FILE_MODE, writable_store_cache

    if writable_store_cache(root) is None:
        return
    path = _counter_path(root)
    with contextlib.suppress(OSError, ValueError):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | O_NOFOLLOW, FILE_MODE)
        try:
            if not stat_mod.S_ISREG(os.fstat(fd).st_mode):
                return
            try:
                value = int(os.pread(fd, 32, 0).strip() or b"0")
            except ValueError:
                value = 0
            data = f"{value + 1:020d}\n".encode()
            os.pwrite(fd, data, 0)  # one small write at offset 0: never seen torn in practice
        finally:
            os.close(fd)


def folder_stamp(root: Path) -> tuple[int, int]:
    try:
        st = os.stat(root)
    except (OSError, ValueError):
        return (0, 0)
    return (st.st_mtime_ns, st.st_ino)


def store_stamp(root: Path) -> Stamp:
    """The folder's (mtime_ns, inode) and the write counter, read in that order."""
    mtime, ino = folder_stamp(root)
    return (mtime, ino, read_counter(root))


def is_racy(stamp: Stamp, observed_ns: int) -> bool:
    """True when the folder changed less than ``RACY_NS`` before the stamp was observed."""
    return stamp[0] != 0 and observed_ns - stamp[0] < RACY_NS


def now_ns() -> int:
    return time.time_ns()


def folder_files(root: Path) -> dict[str, int] | None:
    """``{stem: inode}`` of the fact files a loader would consider (``*.md``, not hidden, not
    the index); None when the folder cannot be listed (missing: an empty dict)."""
    out: dict[str, int] = {}
    try:
        it = os.scandir(root)
    except FileNotFoundError:
        return out
    except (OSError, ValueError):
        return None
    with it:
        for e in it:
            name = e.name
            if name.endswith(".md") and not name.startswith(".") and name != INDEX_NAME:
                try:
                    out[name[:-3]] = e.inode()
                except OSError:
                    return None
    return out
