"""The one place that writes files: temp file in the same directory, fsync, rename, fsync dir.

A reader never sees a torn file: it sees the old content or the new content. A process killed
mid-write leaves at most a stray ``.tmp-*`` file, which loaders ignore and ``sweep_temp`` removes.
Growing logs (history, approval audit) are the exception: ``append_line`` appends to them.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

TEMP_PREFIX = ".tmp-"


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_temp(directory: Path, data: bytes, mode: int, *, durable: bool = True) -> Path:
    tmp = directory / f"{TEMP_PREFIX}{secrets.token_hex(8)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        if durable:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    os.close(fd)
    return tmp


def write_bytes(
    path: Path, data: bytes, *, mode: int = 0o644, sync_dir: bool = True, durable: bool = True
) -> None:
    """Atomically replace (or create) ``path`` with ``data``.

    ``durable=False`` skips the fsyncs: readers still never see a torn file, but a power cut
    may leave the old content. Only for derived files that are rebuilt from the source.
    """
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    tmp = _write_temp(directory, data, mode, durable=durable)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise
    if sync_dir and durable:
        fsync_dir(directory)


def write_text(path: Path, text: str, *, mode: int = 0o644, encoding: str = "utf-8") -> None:
    write_bytes(path, text.encode(encoding), mode=mode)


def create_exclusive(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Create ``path`` with ``data`` only if nothing exists there; never overwrite.

    The content is written to a temp file first and then hard-linked into place, so the
    name appears atomically with its full content, and ``link`` fails if the name is taken
    (even by a file another process created a moment ago).
    """
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    tmp = _write_temp(directory, data, mode)
    try:
        os.link(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()
    fsync_dir(directory)


def move_exclusive(src: Path, dst: Path) -> None:
    """Move ``src`` to ``dst`` without ever replacing an existing ``dst``."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    os.link(src, dst)  # raises FileExistsError if taken
    os.unlink(src)
    fsync_dir(dst.parent)
    if src.parent != dst.parent:
        fsync_dir(src.parent)


def sweep_temp(directory: Path, *, older_than_s: float = 60.0) -> int:
    """Remove temp files a killed writer left behind. Returns how many were removed."""
    import time

    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return 0
    for entry in entries:
        if not entry.name.startswith(TEMP_PREFIX):
            continue
        try:
            if now - entry.stat(follow_symlinks=False).st_mtime >= older_than_s:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            continue
    return removed


def append_line(fd: int, path: Path, line: bytes) -> None:
    """Append ``line`` to ``path``, open as ``fd`` with ``O_APPEND``, then fsync.

    For logs that grow (replacing them on every line would be quadratic): one ``O_APPEND``
    write, so concurrent writers holding the caller's lock never interleave. A writer killed
    mid-line leaves no newline at the end; the new line then starts on a fresh line.
    """
    size = os.fstat(fd).st_size
    if size:
        with open(path, "rb") as handle:
            handle.seek(size - 1)
            if handle.read(1) != b"\n":
                line = b"\n" + line
    view = memoryview(line)
    while view:
        written = os.write(fd, view)
        view = view[written:]
    os.fsync(fd)
