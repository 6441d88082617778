"""Cross-process locks: one ``flock`` per guarded thing, through filelock; the one place for
lock timeouts.

The kernel drops an ``flock`` when its process dies, so a killed writer never leaves a lock
stuck. A lock that stays taken longer than the timeout is a known problem for the person
("busy, try again"), reported as ``StoreUnavailable``; only the acquisition is guarded, so a
``TimeoutError`` raised by the work done under the lock is never mistaken for a busy lock.

A lock file that is a symbolic link is refused (``unsafe_store_file``) instead of being
followed or ending in an ``ELOOP`` traceback; a lock file that cannot be opened at all is
``store_unavailable`` with the system's reason.
"""

from __future__ import annotations

import contextlib
import errno
from collections.abc import Iterator
from pathlib import Path

from filelock import FileLock, Timeout

from context_center.engine.errors import StoreUnavailable
from context_center.engine.store.guarded import UnsafeStoreFile, is_link

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
    if is_link(lock.lock_file):
        raise _refuse_link(lock.lock_file, what)
    try:
        lock.acquire()
    except Timeout as exc:
        raise StoreUnavailable(
            f"{what} is busy: another process has held its lock for more than "
            f"{lock.timeout:.0f} s; try again"
        ) from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP or is_link(lock.lock_file):
            raise _refuse_link(lock.lock_file, what) from exc
        raise StoreUnavailable(f"cannot take the lock of {what}: {exc.strerror}") from exc
    try:
        yield
    finally:
        lock.release()


def try_hold(lock: FileLock) -> bool:
    """Take ``lock`` only if it is free right now (for optional work such as repairs)."""
    if is_link(lock.lock_file):
        return False
    try:
        lock.acquire(timeout=0)
    except (Timeout, OSError):
        return False
    return True
