"""The shared lock helper: busy is a known error; errors from the guarded work pass through."""

from __future__ import annotations

from pathlib import Path

import pytest
from filelock import FileLock

from context_center.engine.errors import StoreUnavailable
from context_center.engine.store.locking import hold


def test_a_busy_lock_is_a_known_error(tmp_path: Path) -> None:
    path = str(tmp_path / ".lock")
    holder = FileLock(path, thread_local=False)
    with holder:
        waiter = FileLock(path, timeout=0.05, thread_local=False)
        # a second FileLock object on the same file is a second flock: it must wait
        with pytest.raises(StoreUnavailable, match="the thing is busy"), hold(waiter, "the thing"):
            pass  # pragma: no cover - never reached
    with hold(FileLock(path, timeout=0.05), "the thing"):
        pass  # free again once the holder let go


def test_a_timeout_raised_by_the_work_is_not_called_busy(tmp_path: Path) -> None:
    lock = FileLock(str(tmp_path / ".lock"), timeout=1)
    with pytest.raises(TimeoutError) as err, hold(lock, "the thing"):
        raise TimeoutError("the work itself timed out")
    assert not isinstance(err.value, StoreUnavailable)
    assert not lock.is_locked
