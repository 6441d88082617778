"""``filters.ranked``: the order of hits and of listed suppressions.

Higher score, then newer ``updated_at`` (a fact without one last), then id. These tests
compare ``ranked`` with that order taken from the facts themselves, on ties
of every kind (equal scores, equal times, times a microsecond apart, missing times), for
facts held and for rows read from a cache.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recall_env import MakeFact

from context_center.engine.model import Fact
from context_center.engine.recall import CACHE_FILE, Recaller
from context_center.engine.recall.filters import ranked
from context_center.engine.recall.index import RecallIndex
from context_center.engine.store.paths import Layout

BASE = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
# microsecond offsets: equal, one apart, far apart
OFFSETS = (0, 1, 2, 3, 1_000_000, 86_400_000_000)


def _reference(facts: dict[int, Fact], ords: list[int], scores: list[float], k: int) -> list:
    def key(i: int) -> tuple[float, float, str]:
        f = facts[ords[i]]
        upd = f.updated_at
        return (-scores[i], -(upd.timestamp() if upd is not None else -math.inf), f.id)

    order = sorted(range(len(ords)), key=key)
    best = sorted(scores, reverse=True)
    kth = best[min(k, len(best)) - 1]
    kept = [i for i in order if scores[i] >= kth][:k]
    return [(ords[i], facts[ords[i]].id, scores[i]) for i in kept]


def _facts(make_fact: MakeFact, times: list[int | None]) -> list[Fact]:
    out = []
    for i, off in enumerate(times):
        f = make_fact(f"fact-{i}", f"deploy note {i}", id=f"mem-{(97 * i) % 1000:032x}")
        upd = None if off is None else BASE + timedelta(microseconds=off)
        out.append(f.model_copy(update={"updated_at": upd, "created_at": upd or f.created_at}))
    return out


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    times=st.lists(st.one_of(st.none(), st.sampled_from(OFFSETS)), min_size=1, max_size=24),
    score_pool=st.lists(st.sampled_from([0.5, 1.0, 1.25, 2.0, 3.0]), min_size=1, max_size=3),
    data=st.data(),
)
def test_ranked_orders_as_the_facts_do(
    make_fact: MakeFact, times: list[int | None], score_pool: list[float], data: st.DataObject
) -> None:
    facts = _facts(make_fact, times)
    index = RecallIndex()
    index.sync(facts)
    by_ord = {o: f for o in range(index.size) if (f := index.fact_at(o)) is not None}
    ords = data.draw(st.lists(st.sampled_from(sorted(by_ord)), min_size=1, unique=True))
    ords.sort()
    scores = [data.draw(st.sampled_from(score_pool)) for _ in ords]
    k = data.draw(st.integers(min_value=1, max_value=len(ords) + 2))
    got = ranked(index, np.asarray(ords, dtype=np.int64), np.asarray(scores), k)
    assert [(r.ordinal, r.fact.id, r.score) for r in got] == _reference(by_ord, ords, scores, k)
    assert all(r.fact is by_ord[r.ordinal] for r in got)


def test_rows_read_from_a_cache_order_as_their_facts(
    make_fact: MakeFact, home: Path, workspace: Path
) -> None:
    layout = Layout(home, workspace)
    facts = _facts(make_fact, [None, 0, 1, 2, 0, 1_000_000, None, 3, 3, 0])
    Recaller(layout).sync(facts)  # built and saved
    index = RecallIndex()
    assert index.open(layout.cache_dir / CACHE_FILE, {}) is not None
    assert index.size == len(facts)
    ords = list(range(index.size))
    scores = [1.0, 2.0, 2.0, 2.0, 1.0, 2.0, 2.0, 1.0, 2.0, 2.0]
    by_id = {f.id: f for f in facts}
    reference = {o: by_id[index.key_of(o)[1]] for o in ords}
    for k in (1, 3, 6, 10):
        got = ranked(index, np.asarray(ords), np.asarray(scores), k)
        assert [(r.ordinal, r.fact.id, r.score) for r in got] == _reference(
            reference, ords, scores, k
        )
