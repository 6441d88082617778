"""``memtrim.release`` hands freed heap memory back where the C library can (issue 13)."""

from __future__ import annotations

import platform
import sys

import pytest

from context_center.engine import memtrim


@pytest.mark.skipif(
    sys.platform != "linux" or platform.libc_ver()[0] != "glibc", reason="glibc only"
)
def test_release_returns_freed_heap_memory_on_glibc() -> None:
    def rss_kb() -> int:
        with open("/proc/self/status") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))

    # mid-sized blocks, each followed by a small one that stays: once the big ones are freed
    # the heap is full of holes that glibc keeps (only a free top is given back on its own)
    blocks, pins = [], []
    for _ in range(1600):  # about 100 MB, touched
        blocks.append(bytearray(64 * 1024))
        pins.append(bytearray(600))
    held = rss_kb()
    del blocks
    before = rss_kb()
    assert before > held - 20 * 1024, "without a trim the freed blocks stay resident"
    assert memtrim.release() is True
    after = rss_kb()
    assert after < held - 50 * 1024, (held, before, after)
    assert len(pins) == 1600


def test_release_is_harmless_to_call_again() -> None:
    first = memtrim.release()
    assert memtrim.release() is first
