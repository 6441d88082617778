"""Cross-process locks: one ``flock`` per guarded thing, through filelock; the one place for
lock timeouts.

The kernel drops an ``flock`` when its process dies, so a killed writer never leaves a lock
stuck. A lock that stays taken longer than the timeout is a known problem for the person
("busy, try again"), reported as ``StoreUnavailable``; only the acquisition is guarded, so a
``TimeoutError`` raised by the work done under the lock is never mistaken for a busy lock.

A lock file that is a symbolic link is refused (``unsafe_store_file``) instead of being
followed or ending in an ``ELOOP`` traceback; a lock file that cannot be opened at all is
``store_unavailable`` with the system's reason.

``brief_lock`` is for the best-effort logs a per-turn process appends to (the agents' access
log): the same ``flock`` taken with ``fcntl`` directly, because importing filelock costs a
cold hook process about 17 ms of its 175 (filelock 4 loads some twenty modules), while the
lock itself is two system calls. Where ``fcntl.flock`` is missing or the file system refuses
it, it takes the filelock lock instead. Every user of one lock file takes it the same way.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine.errors import StoreUnavailable
from context_center.engine.store.guarded import UnsafeStoreFile, is_link
from context_center.engine.store.private import O_NOFOLLOW

if TYPE_CHECKING:
    from filelock import FileLock

# A fact store or the approval queue: the work under them (a rename, an approval) may take a
# while on a slow disk, so a waiter is patient.
STORE_TIMEOUT_S = 30.0
# The history log and the suggestion decisions: one short write each.
LOG_TIMEOUT_S = 10.0
# Best-effort logs that give up rather than hold a caller up (the agents' access log).
BEST_EFFORT_TIMEOUT_S = 2.0


def file_lock(
    path: Path | str, *, timeout: float = STORE_TIMEOUT_S, mode: int | None = None
) -> FileLock:
    """A (reentrant, per-thread) lock on ``path``; ``mode`` is the lock file's permission."""
    from filelock import FileLock

    if mode is None:
        return FileLock(str(path), timeout=timeout)
    return FileLock(str(path), timeout=timeout, mode=mode)


def _refuse_link(path: str, what: str) -> UnsafeStoreFile:
    return UnsafeStoreFile(
        f"the lock file of {what} ({Path(path).name}) is a symbolic link; refusing to follow it"
    )


@contextlib.contextmanager
def hold(lock: FileLock, what: str) -> Iterator[None]:
    """Hold ``lock`` for the ``with`` body; ``what`` names the guarded thing in the error."""
    from filelock import Timeout

    if is_link(lock.lock_file):
        raise _refuse_link(lock.lock_file, what)
    try:
        lock.acquire()
    except Timeout as exc:
        raise _busy(what, lock.timeout) from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP or is_link(lock.lock_file):
            raise _refuse_link(lock.lock_file, what) from exc
        raise _unavailable(what, exc) from exc
    try:
        yield
    finally:
        lock.release()


def _busy(what: str, timeout: float) -> StoreUnavailable:
    return StoreUnavailable(
        f"{what} is busy: another process has held its lock for more than "
        f"{timeout:.0f} s; try again"
    )


def _unavailable(what: str, exc: OSError) -> StoreUnavailable:
    return StoreUnavailable(f"cannot take the lock of {what}: {exc.strerror}")


def try_hold(lock: FileLock) -> bool:
    """Take ``lock`` only if it is free right now (for optional work such as repairs)."""
    from filelock import Timeout

    if is_link(lock.lock_file):
        return False
    try:
        lock.acquire(timeout=0)
    except (Timeout, OSError):
        return False
    return True


# How often a waiting ``brief_lock`` tries again.
_POLL_S = 0.005
# What ``flock`` answers where the file system has no such locks: then filelock decides.
_NO_FLOCK = frozenset({errno.ENOLCK, errno.EOPNOTSUPP, errno.ENOSYS, errno.EINVAL})


@contextlib.contextmanager
def brief_lock(path: Path, what: str, *, timeout: float, mode: int = 0o600) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` for the ``with`` body, as ``hold(file_lock(
    path))`` would (the same kernel lock, the same errors), without importing filelock; see
    the module's text. Not reentrant: each ``with`` opens the file anew, so two threads of
    one process exclude each other too."""
    try:
        import fcntl
    except ImportError:  # no flock here: filelock's own choice
        with hold(file_lock(path, timeout=timeout, mode=mode), what):
            yield
        return
    flags = os.O_RDWR | os.O_CREAT | O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP or is_link(str(path)):
            raise _refuse_link(str(path), what) from exc
        raise _unavailable(what, exc) from exc
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise _busy(what, timeout) from None
                time.sleep(_POLL_S)
            except OSError as exc:
                if exc.errno not in _NO_FLOCK:
                    raise _unavailable(what, exc) from exc
                os.close(fd)
                fd = -1
                with hold(file_lock(path, timeout=timeout, mode=mode), what):
                    yield
                return
        try:
            yield
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        if fd >= 0:
            os.close(fd)
