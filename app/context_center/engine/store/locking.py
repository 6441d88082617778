"""Cross-process locks: one ``flock`` per guarded thing, through filelock.

The kernel drops an ``flock`` when its process dies, so a killed writer never leaves a lock
stuck. A lock that stays taken longer than the timeout is a known problem for the person
("busy, try again"), reported as ``StoreUnavailable``; only the acquisition is guarded, so a
``TimeoutError`` raised by the work done under the lock is never mistaken for a busy lock.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from filelock import FileLock, Timeout

from context_center.engine.errors import StoreUnavailable


@contextlib.contextmanager
def hold(lock: FileLock, what: str) -> Iterator[None]:
    """Hold ``lock`` for the ``with`` body; ``what`` names the guarded thing in the error."""
    try:
        lock.acquire()
    except Timeout as exc:
        raise StoreUnavailable(
            f"{what} is busy: another process has held its lock for more than "
            f"{lock.timeout:.0f} s; try again"
        ) from exc
    try:
        yield
    finally:
        lock.release()
