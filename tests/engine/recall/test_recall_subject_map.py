"""The same-subject groups of one index state, against a plain reference (issue 13: built
once per state with one sort of the live keys)."""

from __future__ import annotations

import numpy as np
import pytest

from context_center.engine.recall.subjects import SubjectMap


def _reference(subject: np.ndarray, alive: np.ndarray) -> dict[int, list[int]]:
    """Live facts grouped by a nonzero key that at least two live facts share."""
    groups: dict[int, list[int]] = {}
    for o in range(len(subject)):
        if alive[o] and subject[o] != 0:
            groups.setdefault(int(subject[o]), []).append(o)
    return {k: v for k, v in groups.items() if len(v) > 1}


def _map(subject: np.ndarray, alive: np.ndarray) -> SubjectMap:
    updated = np.arange(len(subject), dtype=np.float64)
    return SubjectMap(lambda o: None, subject, alive, updated, (), lambda f, t: None)


@pytest.mark.parametrize("seed", range(40))
def test_groups_are_the_live_facts_sharing_a_key(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(0, 300))
    # few distinct keys (many groups), zero keys (no subject), huge 64-bit keys
    pool = np.concatenate(
        [[0], rng.integers(1, 2**63, int(rng.integers(1, 40)), dtype=np.uint64) * 2 - 1]
    ).astype(np.uint64)
    subject = pool[rng.integers(0, len(pool), n)] if n else np.zeros(0, dtype=np.uint64)
    alive = rng.random(n) < 0.8
    m = _map(subject, alive)
    want = _reference(subject, alive)
    assert m._members == want
    ords = np.arange(n, dtype=np.int64)
    grouped = m.maybe_superseded(ords)
    member = {o for v in want.values() for o in v}
    live = ords[alive] if n else ords
    assert {int(o) for o in live[grouped[alive]]} == member
    assert sorted(m.involved()) == sorted(member)
    for o in member:  # the newest of its group (the highest ordinal here) is current
        newest = max(want[int(subject[o])])
        found = m.current_of(o)
        assert (found is None) == (o == newest)
        if found is not None:
            assert found == (newest, "same_title")


def test_no_live_key_shared_means_no_group() -> None:
    subject = np.array([5, 5, 7, 0, 0], dtype=np.uint64)
    alive = np.array([True, False, True, True, True])
    m = _map(subject, alive)
    assert m._members == {}
    assert not m.maybe_superseded(np.arange(5)).any()
