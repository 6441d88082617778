"""The one guarded file read: a regular file, never through a symlink, never past a size cap.

Every engine read of a file a person or another program may have replaced (fact files,
revisions, archive entries, approval records, instruction files) goes through ``read_regular``:

* the last path component is opened with ``O_NOFOLLOW`` (a symlink there is refused, with the
  code ``symlink``; callers that follow links on purpose resolve the real path first);
* ``O_NONBLOCK``, so a FIFO in place of the file never blocks the reader;
* the open file must be a regular file (``not_regular_file``), optionally the very file a
  caller already vetted by ``stat`` (``changed``);
* at most ``max_bytes`` are read (``too_large``), even if the file grows while it is read.

A refusal raises ``UnsafeFile`` (an ``OSError`` with a ``code``); any other ``OSError`` from
the system (missing file, permission) propagates unchanged.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

from context_center.engine.errors import StoreUnavailable

DEFAULT_MAX_BYTES = 1024 * 1024
O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
O_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CHUNK = 1 << 20


_ERRNO = {"symlink": errno.ELOOP, "too_large": errno.EFBIG}


class UnsafeFile(OSError):
    """A file that must not be read: ``code`` is symlink, not_regular_file, too_large or changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(_ERRNO.get(code, errno.EINVAL), message)  # strerror is the message
        self.code = code

    def __str__(self) -> str:
        return str(self.strerror)


class UnsafeStoreFolder(StoreUnavailable):
    """A folder of the store (archive, revisions, cache) is a symlink: never written through."""

    code = "unsafe_store_folder"


class UnsafeStoreFile(StoreUnavailable):
    """A file the store writes or locks (``MEMORY.md``, ``.lock``) is a symlink: refused."""

    code = "unsafe_store_file"


MESSAGES = {
    "symlink": "a symlink stands in place of the file",
    "not_regular_file": "not a regular file",
    "changed": "the file changed while it was being opened",
}


def is_link(path: Path | str) -> bool:
    """True when ``path`` itself is a symbolic link (never raises)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except (OSError, ValueError):
        return False


def _open(path: Path | str) -> int:
    try:
        return os.open(path, os.O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
    except OSError as exc:
        if exc.errno == errno.ELOOP or (O_NOFOLLOW and is_link(path)):
            raise UnsafeFile("symlink", MESSAGES["symlink"]) from exc
        raise


def read_regular(
    path: Path | str,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    expect: os.stat_result | None = None,
) -> tuple[bytes, os.stat_result]:
    """Read ``path`` whole under the guards above; returns (data, fstat of the open file)."""
    fd = _open(path)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnsafeFile("not_regular_file", MESSAGES["not_regular_file"])
        if expect is not None and (st.st_dev, st.st_ino) != (expect.st_dev, expect.st_ino):
            raise UnsafeFile("changed", MESSAGES["changed"])
        if st.st_size > max_bytes:
            raise UnsafeFile("too_large", f"file is {st.st_size} bytes; the limit is {max_bytes}")
        chunks = []
        total = 0
        while True:
            chunk = os.read(fd, min(_CHUNK, max_bytes + 1 - total))
            if not chunk:
                break
            total += len(chunk)
            if total > max_bytes:
                raise UnsafeFile("too_large", f"file is over the limit of {max_bytes} bytes")
            chunks.append(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def own_folder(root: Path, *parts: str) -> Path:
    """A folder inside the store ``root``, created if missing; a symlink on the way (which
    could lead writes out of the store) is refused with ``unsafe_store_folder``."""
    folder = root
    for part in parts:
        folder = folder / part
        if is_link(folder):
            raise UnsafeStoreFolder(
                f"the store's {folder.relative_to(root)} folder is a symbolic link; "
                "refusing to write through it"
            )
        folder.mkdir(exist_ok=True)
    return folder
