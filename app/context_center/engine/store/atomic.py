"""The one place that writes files: temp file in the same directory, fsync, rename, fsync dir.

A reader never sees a torn file: it sees the old content or the new content. A process killed
mid-write leaves at most a stray temp file (``.tmp-`` and 16 hex digits, the only names this
module creates), which loaders ignore and ``sweep_temp`` removes once it is older than
``ORPHAN_AGE_S`` (a writer alive at that age is impossible: no write holds a temp that long).
Growing logs (history, approval audit) are the exception: ``append_line`` appends to them.

Moves never replace: ``rename_noreplace`` is one ``renameat2(RENAME_NOREPLACE)`` where the
system has it (Linux), so a process killed mid-move leaves the file under one name or the
other, never both; elsewhere it falls back to link-then-unlink, whose middle state (one inode
under two names) the store recognises and repairs when it next opens.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import os
import re
import stat
import time
from collections.abc import Iterable
from pathlib import Path

from context_center.engine.errors import StoreUnavailable
from context_center.engine.store.guarded import O_NOFOLLOW, is_link

TEMP_PREFIX = ".tmp-"
TEMP_NAME = re.compile(r"^\.tmp-[0-9a-f]{16}$")
ORPHAN_AGE_S = 3600.0


def fsync_dir(directory: Path) -> None:
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def temp_path(directory: Path) -> Path:
    return directory / f"{TEMP_PREFIX}{os.urandom(8).hex()}"  # secrets.token_hex(8)


Buffer = bytes | bytearray | memoryview


def _write_all(fd: int, data: Buffer | Iterable[Buffer]) -> None:
    """Write ``data``, one buffer or several in order (a large file need not be joined into
    one buffer first)."""
    for part in (data,) if isinstance(data, bytes | bytearray | memoryview) else data:
        view = memoryview(part).cast("B")
        while view:
            written = os.write(fd, view)
            view = view[written:]


def write_temp(
    directory: Path, data: Buffer | Iterable[Buffer], mode: int = 0o644, *, durable: bool = True
) -> Path:
    """Write ``data`` to a new temp file in ``directory`` (fsynced unless not ``durable``)."""
    tmp = temp_path(directory)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW, mode)
    try:
        _write_all(fd, data)
        if durable:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.close(fd)
    return tmp


def write_bytes(
    path: Path,
    data: Buffer | Iterable[Buffer],
    *,
    mode: int = 0o644,
    sync_dir: bool = True,
    durable: bool = True,
) -> None:
    """Atomically replace (or create) ``path`` with ``data`` (one buffer, or several written
    in order).

    ``durable=False`` skips the fsyncs: readers still never see a torn file, but a power cut
    may leave the old content. Only for derived files that are rebuilt from the source.
    """
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    tmp = write_temp(directory, data, mode, durable=durable)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    if sync_dir and durable:
        fsync_dir(directory)


def _copy_range(src: int, dst: int, offset: int, count: int) -> None:
    """Copy ``count`` bytes of ``src`` from ``offset`` to the end of ``dst`` in the kernel
    (``copy_file_range``; ``pread``/``write`` where the system has no such call)."""
    while count > 0:
        try:
            done = os.copy_file_range(src, dst, count, offset)
        except (AttributeError, OSError):
            done = -1
        if done <= 0:
            chunk = os.pread(src, min(count, 1 << 20), offset)
            if not chunk:
                raise OSError(errno.EIO, "the file being copied became shorter")
            _write_all(dst, chunk)
            done = len(chunk)
        offset += done
        count -= done


def write_spliced(
    path: Path, source: int, size: int, cuts: list[tuple[int, int, bytes]], *, mode: int = 0o644
) -> None:
    """Atomically replace ``path`` with the first ``size`` bytes of the open file ``source``
    in which each ``(start, end, text)`` of ``cuts`` (in order, not overlapping) replaces the
    bytes ``start:end``. The unchanged ranges are copied by the kernel, so a one-line change
    to a large derived file costs no copy through Python. The new file takes the name by a
    swap (``renameat2_exchange``) and the old content's name is then removed; where the
    system cannot swap, by ``os.replace``. Either way a reader sees the old or the new file,
    and a kill between the swap and the removal leaves an orphan temp. Not fsynced (derived
    files only)."""
    tmp = temp_path(path.parent)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_NOFOLLOW, mode)
    try:
        at = 0
        for start, end, text in cuts:
            _copy_range(source, fd, at, start - at)
            _write_all(fd, text)
            at = end
        _copy_range(source, fd, at, size - at)
        os.close(fd)
        fd = -1
        if renameat2_exchange(tmp, path):
            with contextlib.suppress(OSError):  # left behind, it is an orphan temp (swept)
                os.unlink(tmp)  # now the old content
        else:
            os.replace(tmp, path)
    except BaseException:
        if fd >= 0:
            os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def write_text(path: Path, text: str, *, mode: int = 0o644, encoding: str = "utf-8") -> None:
    write_bytes(path, text.encode(encoding), mode=mode)


def link_temp(tmp: Path, path: Path | os.PathLike[str]) -> None:
    """Give the temp file ``tmp`` the name ``path`` (never replacing), then drop the temp name."""
    path = Path(path)
    try:
        os.link(tmp, path)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    fsync_dir(path.parent)


def create_exclusive(path: Path, data: bytes, *, mode: int = 0o644) -> None:
    """Create ``path`` with ``data`` only if nothing exists there; never overwrite.

    The content is written to a temp file first and then hard-linked into place, so the
    name appears atomically with its full content, and ``link`` fails if the name is taken
    (even by a file another process created a moment ago).
    """
    directory = path.parent
    directory.mkdir(parents=True, exist_ok=True)
    link_temp(write_temp(directory, data, mode), path)


# -- moves that never replace ------------------------------------------------------------------

_AT_FDCWD = -100
_RENAME_NOREPLACE = 1
_renameat2 = None
with contextlib.suppress(OSError, AttributeError, TypeError):  # not Linux, or an old libc
    # The symbols this process already has (libc among them): ``ctypes.util.find_library``
    # would run ``ldconfig -p`` in a child process, about 0.02 CPU-s of every cold process.
    _libc = ctypes.CDLL(None, use_errno=True)
    _renameat2 = _libc.renameat2
    _renameat2.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    _renameat2.restype = ctypes.c_int


_UNSUPPORTED = (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP, errno.EOPNOTSUPP)
_RENAME_EXCHANGE = 2


def _renameat2_call(src: Path, dst: Path, flags: int, declined: tuple[int, ...]) -> bool:
    """One ``renameat2(src, dst, flags)``: True when done, False when the system lacks it or
    it fails with one of ``declined``; any other failure raises."""
    if _renameat2 is None:
        return False
    if _renameat2(_AT_FDCWD, os.fsencode(src), _AT_FDCWD, os.fsencode(dst), flags) == 0:
        return True
    err = ctypes.get_errno()
    if err in declined:
        return False
    raise OSError(err, os.strerror(err), str(src), None, str(dst))


def renameat2_noreplace(src: Path, dst: Path) -> bool:
    """One ``renameat2(RENAME_NOREPLACE)``; False when the system or file system lacks it."""
    return _renameat2_call(src, dst, _RENAME_NOREPLACE, _UNSUPPORTED)


def renameat2_exchange(src: Path, dst: Path) -> bool:
    """Swap the names ``src`` and ``dst`` in one ``renameat2(RENAME_EXCHANGE)``; False when
    the system or file system lacks it, or ``dst`` is gone (then a plain replace is due).

    Why not ``os.replace`` for a large derived file: renaming over an existing file makes
    ext4 allocate and start writing back the new file's blocks at once, and frees the old
    one's synchronously (about 5 ms for a 6 MB ``MEMORY.md`` on the development machine);
    swapping and then unlinking the old content costs about 0.4 ms."""
    return _renameat2_call(src, dst, _RENAME_EXCHANGE, (*_UNSUPPORTED, errno.ENOENT))


def rename_noreplace(src: Path, dst: Path) -> None:
    """Move ``src`` to ``dst``; ``FileExistsError`` if ``dst`` is taken. Both dirs are synced."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    if not renameat2_noreplace(src, dst):
        os.link(src, dst)  # raises FileExistsError if taken
        os.unlink(src)
    fsync_dir(dst.parent)
    if src.parent != dst.parent:
        fsync_dir(src.parent)


move_exclusive = rename_noreplace  # the name older callers use


# -- orphans -----------------------------------------------------------------------------------


def orphan_temps(directory: Path, *, older_than_s: float = ORPHAN_AGE_S) -> list[Path]:
    """Temp files a killed writer left in ``directory``: only regular files with this module's
    exact temp name and older than ``older_than_s`` (nothing is removed)."""
    now = time.time()
    try:
        entries = list(os.scandir(directory))
    except (OSError, ValueError):
        return []
    found = []
    for entry in entries:
        if not TEMP_NAME.match(entry.name):
            continue
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode) and now - st.st_mtime >= older_than_s:
            found.append(Path(entry.path))
    return found


def sweep_temp(directory: Path, *, older_than_s: float = ORPHAN_AGE_S) -> int:
    """Remove ``orphan_temps(directory)``. Returns how many were removed."""
    removed = 0
    for path in orphan_temps(directory, older_than_s=older_than_s):
        with contextlib.suppress(OSError):
            os.unlink(path)
            removed += 1
    return removed


# -- growing logs ------------------------------------------------------------------------------


def append_line(path: Path, line: bytes, *, mode: int = 0o600, what: str = "the log") -> None:
    """Append ``line`` to the log ``path`` (created with ``mode``), then fsync.

    For logs that grow (replacing them on every line would be quadratic): one ``O_APPEND``
    write, so concurrent writers holding the caller's lock never interleave. A writer killed
    mid-line leaves no newline at the end; the new line then starts on a fresh line. A symlink
    in place of the log is refused (``StoreUnavailable``, never followed), and so is anything
    but a regular file; a file looser than ``mode`` is tightened to it.
    """
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | O_NOFOLLOW | os.O_NONBLOCK, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP or is_link(path):
            raise StoreUnavailable(
                f"{what} {path.name} is a symbolic link; refusing to follow it"
            ) from exc
        raise StoreUnavailable(f"cannot open {what} {path.name}: {exc.strerror}") from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise StoreUnavailable(f"{what} {path.name} is not a regular file")
        if stat.S_IMODE(st.st_mode) & ~mode:
            with contextlib.suppress(OSError):  # not ours to change (another owner): leave it
                os.fchmod(fd, mode)
        if st.st_size and os.pread(fd, 1, st.st_size - 1) != b"\n":
            line = b"\n" + line
        _write_all(fd, line)
        os.fsync(fd)
    finally:
        os.close(fd)
