"""How long a store stamp stays racy: it follows the grain of the folder's own times."""

from __future__ import annotations

import os
import time
from pathlib import Path

from context_center.engine.store import stamp

SECOND = 1_000_000_000


def test_the_window_follows_the_grain_of_the_folder_time() -> None:
    t = 1_764_000_000 * SECOND
    assert stamp.racy_window(t) == stamp.RACY_NS  # whole seconds (FAT, HFS+, shares)
    assert stamp.racy_window(t + 123_456_789) == stamp.FINE_RACY_NS  # nanoseconds
    assert stamp.racy_window(t + 120_000_000) == stamp.FINE_RACY_NS  # 10 ms grain: 2 × 10 ms
    assert stamp.racy_window(t + 100_000_000) == 200_000_000  # a 100 ms grain: twice that
    assert stamp.racy_window(t + 500_000_000) == 200_000_000


def test_is_racy_at_the_edges() -> None:
    t = 1_764_000_000 * SECOND + 987_654_321
    fine = stamp.FINE_RACY_NS
    assert stamp.is_racy((t, 1, 0), t)
    assert stamp.is_racy((t, 1, 0), t + fine - 1)
    assert not stamp.is_racy((t, 1, 0), t + fine)
    assert stamp.is_racy((t, 1, 0), t - SECOND)  # the clock went back: never trusted
    whole = 1_764_000_000 * SECOND
    assert stamp.is_racy((whole, 1, 0), whole + SECOND)
    assert not stamp.is_racy((whole, 1, 0), whole + stamp.RACY_NS)
    assert not stamp.is_racy((0, 0, 3), whole)  # a missing folder


def test_a_real_folder_is_racy_right_after_a_rename_and_not_long_after(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    folder.mkdir()
    (folder / ".tmp").write_text("x")
    os.replace(folder / ".tmp", folder / "a.md")
    st = stamp.store_stamp(folder)
    assert stamp.is_racy(st, st[0])
    window = stamp.racy_window(st[0])
    time.sleep(window / 1e9 + 0.01)
    assert not stamp.is_racy(st, stamp.now_ns())
