"""Crash points of the store's operations and a person's instruction writes (issue 17).

The fast subset runs here (``crash_harness.fast_points``: every link, rename, replace and
unlink, and every third other step); ``CONTEXT_CENTER_CRASH_FULL=1`` runs every point and the
torn writes, like ``bench/crash_sweep.py``.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from crash_harness import sweep
from crash_ops import STORE_OPS

FULL = os.environ.get("CONTEXT_CENTER_CRASH_FULL") == "1"


@pytest.mark.parametrize("op", STORE_OPS, ids=[op.name for op in STORE_OPS])
def test_every_kill_point_leaves_the_state_before_or_after(op, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    tally = sweep(op, tmp_path / "sweep", torn=FULL, fast=not FULL)
    assert tally.failures == []
    assert tally.kill_points >= 3 and tally.checks > tally.kill_points
    assert tally.before + tally.after == tally.kill_points + tally.torn_points
