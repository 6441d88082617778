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


# -- brief_lock: the same flock without filelock ------------------------------------------------


def test_a_brief_lock_waits_for_a_filelock_holder_and_then_takes_it(tmp_path: Path) -> None:
    from context_center.engine.store.locking import brief_lock

    path = tmp_path / ".log.lock"
    holder = FileLock(str(path), thread_local=False)
    busy = pytest.raises(StoreUnavailable, match="the log is busy")
    with holder, busy, brief_lock(path, "the log", timeout=0.05):
        pass  # pragma: no cover - never reached
    # while it is held, a filelock on the same file waits too: one kernel lock
    waiter = FileLock(str(path), timeout=0.05, thread_local=False)
    busy = pytest.raises(StoreUnavailable, match="busy")
    with brief_lock(path, "the log", timeout=0.05), busy, hold(waiter, "the log"):
        pass  # pragma: no cover - never reached
    with hold(FileLock(str(path), timeout=0.05), "the log"):
        pass  # released when the body ended


def test_brief_locks_exclude_each_other_across_threads(tmp_path: Path) -> None:
    import threading
    import time

    from context_center.engine.store.locking import brief_lock

    path = tmp_path / ".log.lock"
    inside: list[int] = []
    overlaps: list[int] = []

    def work(n: int) -> None:
        for _ in range(20):
            with brief_lock(path, "the log", timeout=5):
                if inside:
                    overlaps.append(n)
                inside.append(n)
                time.sleep(0.0005)
                inside.remove(n)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == []


def test_a_brief_lock_refuses_a_linked_lock_file(tmp_path: Path) -> None:
    from context_center.engine.store.guarded import UnsafeStoreFile
    from context_center.engine.store.locking import brief_lock

    target = tmp_path / "elsewhere"
    target.write_text("keep me", encoding="utf-8")
    link = tmp_path / ".log.lock"
    link.symlink_to(target)
    refused = pytest.raises(UnsafeStoreFile, match="symbolic link")
    with refused, brief_lock(link, "the log", timeout=0.05):
        pass  # pragma: no cover - never reached
    assert target.read_text(encoding="utf-8") == "keep me"


def test_a_brief_lock_takes_filelock_where_the_file_system_has_no_flock(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import errno
    import fcntl

    from context_center.engine.store import locking

    def no_flock(fd: int, op: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    taken: list[str] = []
    real = locking.file_lock

    def spy(path: Path | str, **kw: object) -> FileLock:
        taken.append(str(path))
        return real(path, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(fcntl, "flock", no_flock)
    monkeypatch.setattr(locking, "file_lock", spy)
    refused = pytest.raises(StoreUnavailable)  # filelock's flock is refused the same way
    with refused, locking.brief_lock(tmp_path / ".log.lock", "the log", timeout=0.05):
        pass  # pragma: no cover - never reached
    assert taken == [str(tmp_path / ".log.lock")]


def test_a_work_error_under_a_brief_lock_passes_through_and_releases(tmp_path: Path) -> None:
    from context_center.engine.store.locking import brief_lock

    path = tmp_path / ".log.lock"
    with pytest.raises(ValueError, match="the work"), brief_lock(path, "the log", timeout=0.05):
        raise ValueError("the work failed")
    with hold(FileLock(str(path), timeout=0.05), "the log"):
        pass
