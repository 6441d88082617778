"""The store's primitives, one home each (issue 12): the guarded read, the line append, the
no-replace rename, the orphan sweep and the lock (timeouts, symlinked lock files)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from context_center.engine.errors import StoreUnavailable
from context_center.engine.store import atomic
from context_center.engine.store.guarded import UnsafeFile, read_regular
from context_center.engine.store.locking import (
    LOG_TIMEOUT_S,
    STORE_TIMEOUT_S,
    file_lock,
    hold,
    try_hold,
)


def test_the_guarded_read_refuses_links_fifos_and_oversized_files(tmp_path: Path) -> None:
    target = tmp_path / "real.md"
    target.write_bytes(b"x" * 10)
    assert read_regular(target)[0] == b"x" * 10
    link = tmp_path / "link.md"
    link.symlink_to(target)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for path, code in (
        (link, "symlink"),
        (fifo, "not_regular_file"),
        (tmp_path, "not_regular_file"),
    ):
        with pytest.raises(UnsafeFile) as err:
            read_regular(path)
        assert err.value.code == code and err.value.strerror
    with pytest.raises(UnsafeFile) as err:
        read_regular(target, max_bytes=9)
    assert err.value.code == "too_large"
    other = tmp_path / "other.md"
    other.write_bytes(b"y")
    with pytest.raises(UnsafeFile) as err:
        read_regular(target, expect=os.stat(other))
    assert err.value.code == "changed"
    with pytest.raises(FileNotFoundError):
        read_regular(tmp_path / "missing")


def test_one_line_append_never_follows_a_symlink(tmp_path: Path) -> None:
    log = tmp_path / "audit.jsonl"
    atomic.append_line(log, b'{"a": 1}\n', what="the log")
    with open(log, "ab") as handle:
        handle.write(b'{"torn')  # a writer killed mid-line
    atomic.append_line(log, b'{"b": 2}\n', what="the log")
    assert log.read_bytes() == b'{"a": 1}\n{"torn\n{"b": 2}\n'
    assert oct(os.stat(log).st_mode & 0o777) == "0o600"
    outside = tmp_path / "outside"
    outside.write_bytes(b"untouched")  # no newline at its end: the tail check must not read it
    linked = tmp_path / "linked.jsonl"
    linked.symlink_to(outside)
    with pytest.raises(StoreUnavailable, match="symbolic link"):
        atomic.append_line(linked, b"line\n", what="the log")
    assert outside.read_bytes() == b"untouched"
    fifo = tmp_path / "fifo.jsonl"
    os.mkfifo(fifo)
    with pytest.raises(StoreUnavailable, match="not a regular file"):
        atomic.append_line(fifo, b"line\n", what="the log")


def test_rename_noreplace_never_replaces(tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("a")
    b.write_text("b")
    with pytest.raises(FileExistsError):
        atomic.rename_noreplace(a, b)
    assert a.read_text() == "a" and b.read_text() == "b"
    atomic.rename_noreplace(a, tmp_path / "sub" / "c")
    assert not a.exists() and (tmp_path / "sub" / "c").read_text() == "a"


def test_the_link_fallback_never_replaces_either(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(atomic, "renameat2_noreplace", lambda src, dst: False)
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("a")
    b.write_text("b")
    with pytest.raises(FileExistsError):
        atomic.rename_noreplace(a, b)
    atomic.rename_noreplace(a, tmp_path / "c")
    assert not a.exists() and (tmp_path / "c").read_text() == "a"


def test_the_sweep_takes_only_old_regular_files_with_our_exact_name(tmp_path: Path) -> None:
    old = time.time() - 2 * atomic.ORPHAN_AGE_S

    def make(name: str, age: float | None = old) -> Path:
        path = tmp_path / name
        path.write_text("x")
        if age is not None:
            os.utime(path, (age, age))
        return path

    ours = make(".tmp-0123456789abcdef")
    young = make(".tmp-fedcba9876543210", None)
    longer = make(".tmp-0123456789abcdef0")
    other = make(".tmp-someone-elses")
    folder = tmp_path / ".tmp-aaaaaaaaaaaaaaaa"
    folder.mkdir()
    os.utime(folder, (old, old))
    link = tmp_path / ".tmp-bbbbbbbbbbbbbbbb"
    link.symlink_to(ours)
    assert atomic.orphan_temps(tmp_path) == [ours]
    assert atomic.sweep_temp(tmp_path) == 1
    assert not ours.exists()
    assert young.exists() and longer.exists() and other.exists() and folder.exists()
    assert link.is_symlink()


def test_one_place_for_lock_timeouts(tmp_path: Path) -> None:
    assert file_lock(tmp_path / ".lock").timeout == STORE_TIMEOUT_S
    assert file_lock(tmp_path / "log.lock", timeout=LOG_TIMEOUT_S).timeout == LOG_TIMEOUT_S
    assert STORE_TIMEOUT_S >= LOG_TIMEOUT_S > 0


def test_a_symlinked_lock_file_is_refused_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_text("")
    lock_path = tmp_path / ".lock"
    lock_path.symlink_to(target)
    lock = file_lock(lock_path, timeout=0.1)
    with pytest.raises(StoreUnavailable) as err, hold(lock, "the thing"):
        pass  # pragma: no cover - never reached
    assert err.value.code == "unsafe_store_file" and "symbolic link" in str(err.value)
    assert not try_hold(lock)
    lock_path.unlink()
    assert try_hold(lock)
    lock.release()


def test_a_file_written_from_several_buffers_is_them_in_order(tmp_path: Path) -> None:
    import numpy as np

    arr = np.arange(1000, dtype=np.uint32)
    parts = [b"head", memoryview(arr), bytearray(b"-"), memoryview(b"tail")[1:]]
    path = tmp_path / "f.bin"
    path.write_bytes(b"old")
    atomic.write_bytes(path, parts, mode=0o600)
    assert path.read_bytes() == b"head" + arr.tobytes() + b"-" + b"ail"
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert not [p for p in tmp_path.iterdir() if p.name != "f.bin"]  # no temp file left


def _glibc() -> bool:
    try:
        return bool(os.confstr("CS_GNU_LIBC_VERSION"))
    except (ValueError, OSError):
        return False


@pytest.mark.skipif(sys.platform != "linux" or not _glibc(), reason="renameat2 is glibc's")
def test_renameat2_is_found_in_the_process_and_reports_errno(tmp_path: Path) -> None:
    # found without ctypes.util.find_library (which runs ldconfig in a child process)
    assert atomic._renameat2 is not None
    with pytest.raises(FileNotFoundError):
        atomic.renameat2_noreplace(tmp_path / "missing", tmp_path / "x")
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_text("a")
    b.write_text("b")
    if atomic.renameat2_exchange(a, b):  # the file system may lack it (then False)
        assert a.read_text() == "b" and b.read_text() == "a"
