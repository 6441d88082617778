"""Creating the private folders of derived data outside the home (see ``paths.cache_root``).

Every level below the cache root is 0700 and every file written there 0600: the parsed-facts
cache holds fact bodies. A folder that is a symlink is refused (None), so a cache is never
written or read through a link. Failing to create one only costs speed: callers treat None as
"no cache".
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from context_center.engine.errors import StoreUnavailable
from context_center.engine.store.paths import cache_root, store_cache_dir
from context_center.engine.store.private import DIR_MODE, ensure_private_dir

FILE_MODE = 0o600


def _usable(folder: Path) -> bool:
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    return stat.S_ISDIR(st.st_mode) and not stat.S_ISLNK(st.st_mode)


def readable_store_cache(store_root: Path) -> Path | None:
    """The store's cache folder if it exists as a real folder (nothing is created)."""
    folder = store_cache_dir(store_root)
    return folder if _usable(folder) and _usable(folder.parent) else None


def private_levels(folder: Path) -> None:
    """Create ``folder`` and every level between it and the cache root as 0700 folders
    (``ensure_private_dir`` on each: a missing level would otherwise be made with the
    umask's mode, and a looser existing one is tightened); raises ``StoreUnavailable``."""
    root = cache_root()
    try:
        parts = folder.relative_to(root).parts
    except ValueError:
        parts = ()
        root = folder
    current = root
    ensure_private_dir(current, "the cache folder")
    for part in parts:
        current = current / part
        ensure_private_dir(current, "the cache folder")


def private_folder(folder: Path) -> Path | None:
    """Create ``folder`` and every level between it and the cache root as 0700 folders;
    None when that fails or ``folder`` is not 0700 afterwards."""
    try:
        private_levels(folder)
    except StoreUnavailable:
        return None
    with contextlib.suppress(OSError):
        if stat.S_IMODE(os.lstat(folder).st_mode) != DIR_MODE:
            return None
    return folder


def read_derived(path: Path) -> bytes | None:
    """The bytes of a derived file under the cache root; None when it is missing, unreadable
    or no regular file (a link, a folder): the caller makes its value again."""
    from context_center.engine.store.guarded import UnsafeFile, read_regular

    try:
        raw, _ = read_regular(path)
    except (OSError, UnsafeFile):  # (an unreadable working folder included)
        return None
    return raw


def write_derived(path: Path, data: bytes) -> None:
    """Write a derived file under the cache root: 0600 in 0700 folders, atomically, without
    fsyncs, and quietly (failing only costs the next process the work it saves)."""
    from context_center.engine.store import atomic

    if private_folder(path.parent) is None:
        return
    with contextlib.suppress(OSError):
        atomic.write_bytes(path, data, mode=FILE_MODE, durable=False)


def writable_store_cache(store_root: Path) -> Path | None:
    """The store's cache folder, created private if missing; None when that is impossible."""
    return private_folder(store_cache_dir(store_root))
