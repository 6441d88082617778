"""Crash points of approving each kind of queued write, and of a rejection (issue 17), through
the same harness as the store's operations: the queue is settled (an interrupted decision
finished) before each look, and its records are part of the state compared."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from crash_harness import sweep
from crash_ops import approval_ops

FULL = os.environ.get("CONTEXT_CENTER_CRASH_FULL") == "1"
OPS = approval_ops()


@pytest.mark.parametrize("op", OPS, ids=[op.name for op in OPS])
def test_every_kill_point_of_a_decision_leaves_the_state_before_or_after(
    op, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    tally = sweep(op, tmp_path / "sweep", torn=FULL, fast=not FULL)
    assert tally.failures == []
    assert tally.kill_points >= 3 and tally.checks > tally.kill_points
    assert tally.before + tally.after == tally.kill_points + tally.torn_points
