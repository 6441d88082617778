"""The warm turn's shortcuts give exactly what the plain computation gives (issue 13).

Summed scores and counts bit for bit, membership by marks, adjusted scores over whole columns,
head checks read lazily, boolean selections as takes, a concept's sparse merge, the best few
by their exact k-th score, and superseded's candidates in argpartition's order where it
matters: each against the straightforward computation it replaces.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime

import numpy as np
import pytest
from recall_env import MakeFact

from context_center.engine.model import Scope
from context_center.engine.recall import filters, masks, matching, scoring
from context_center.engine.recall.index import RecallIndex
from context_center.engine.recall.matching import HeadForms, TermCache, head_terms
from context_center.engine.recall.policy import (
    ABOUT_COUNT,
    ABOUT_SPECIFIC,
    BROAD_FACTOR,
    HEAD_CHECK,
    PROJECT_BOOST,
    STALE_FACTOR,
)
from context_center.engine.recall.terms import plan

_WORDS = [
    "deploy", "release", "cache", "pipeline", "staging", "database", "token", "rotate",
    "nightly", "unit", "test", "local", "development", "browser", "queue", "worker",
]  # fmt: skip


_CJK = ["部署", "上线", "单元测试", "生产环境", "浏览器", "缓存", "数据库", "队列"]


_RARE = ["zeppelin", "quasar", "obsidian", "marmalade", "tundra", "kestrel"]


_MESSAGES = [
    "zeppelin deploy the release",
    "quasar obsidian cache 部署",
    "marmalade tundra kestrel pipeline",
    "how do we deploy the release after the nightly cache run",
    "unit test the local development pipeline 单元测试",
    "部署 生产环境 的 数据库 缓存 token 42",
    "rotate the staging database token before release 7",
    "浏览器 队列 worker queue browser",
    "deploy deploy cache 上线",
    "deploy the cache for kestrel and quasar",  # words not frequent after frequent ones
]


def _big_index(make_fact: MakeFact, n: int = 1200) -> RecallIndex:
    rng = random.Random(13)
    facts = []
    for i in range(n):
        words = rng.choices(_WORDS, k=rng.randint(3, 12)) + rng.choices(_CJK, k=rng.randint(0, 3))
        head = rng.choices(_WORDS + _CJK, k=rng.randint(0, 3))
        rare = _RARE[i % len(_RARE)]
        if i % 37 == 0:  # each rare word in a few facts' head fields, a few others' bodies
            head.append(rare)
        elif i % 41 == 0:
            words.append(rare)
        facts.append(
            make_fact(
                f"fact-{i}-{rng.choice(_WORDS)}",
                " ".join(words) + f" number {rng.randint(1, 50)}",
                description=" ".join(head),
                scope=Scope.PROJECT if i % 3 else Scope.GLOBAL,
                age_days=rng.choice([1.0, 40.0, 400.0]),
            )
        )
    index = RecallIndex()
    index.sync(tuple(facts))
    return index


def _reference_sums(index: RecallIndex, sc: scoring.Scored) -> tuple[np.ndarray, ...]:
    """Raw score, count and specific as ``raw[docs] += best`` concept by concept."""
    n = index.size
    raw = np.zeros(n, dtype=np.float64)
    count = np.zeros(n, dtype=np.int32)
    specific = np.zeros(n, dtype=np.int32)
    head = np.zeros(n, dtype=np.bool_)
    tc = TermCache(index)
    for i, (c, h) in enumerate(zip(sc.plan.concepts, sc.hits, strict=True)):
        if h is None:
            continue
        m = tc.concept(c)
        assert m is not None
        raw[m.docs] += m.best
        if c.number:
            continue
        head[m.head_docs] = True
        counted = m.docs
        for j in (c.follows, *c.covers):
            prev = sc.hits[j] if 0 <= j < i else None
            if prev is not None and len(counted) and len(prev.docs):
                pos = np.minimum(np.searchsorted(prev.docs, counted), len(prev.docs) - 1)
                counted = counted[prev.docs[pos] != counted]
        count[counted] += 1
        if not h.frequent:
            specific[counted] += 1
    return raw, count, specific, head


def test_summed_scores_and_counts_equal_the_per_concept_sums_bit_for_bit(
    make_fact: MakeFact,
) -> None:
    index = _big_index(make_fact)
    seen_chain = False
    ways = set()  # concepts added as whole columns, and by their ordinals
    for message in _MESSAGES:
        p = plan(message)
        seen_chain |= any(c.follows >= 0 or c.covers for c in p.concepts)
        tc = TermCache(index)
        for c in p.concepts:
            m = tc.concept(c)
            if m is not None:
                ways.add(tc.dense(c, m) is not None)
        sc = scoring.score(index, p)
        raw, count, specific, head = _reference_sums(index, sc)
        assert sc.raw.dtype == raw.dtype and sc.count.dtype == count.dtype
        assert np.array_equal(sc.raw.view(np.uint64), raw.view(np.uint64)), message
        assert np.array_equal(sc.count, count), message
        assert np.array_equal(sc.head, head), message
        frequent_only = (count > 0) & (specific == 0)
        assert np.array_equal(sc.frequent_only, frequent_only), message
        by_counts = (count >= ABOUT_COUNT) | (specific >= ABOUT_SPECIFIC)
        assert np.array_equal(sc.about | by_counts, sc.about), message
        assert not (sc.about & ~by_counts & ~sc.sure).any(), message  # else: an identifier
    assert seen_chain, "some message chains Chinese pairs or covers a phrase's words"
    assert ways == {True, False}, "some concepts are dense, some sparse"


@pytest.mark.parametrize("sizes", [(5, 9), (300, 400), (2000, 30), (3, 3000)])
def test_membership_by_marks_equals_a_binary_search(sizes: tuple[int, int]) -> None:
    rng = np.random.default_rng(sum(sizes))
    n = 6000
    docs = np.sort(rng.choice(n, sizes[0], replace=False)).astype(np.uint32)
    shared = rng.choice(docs, min(len(docs), sizes[1]) // 2 + 1, replace=False)
    of = np.union1d(rng.choice(n, sizes[1], replace=False), shared)  # both ends included
    of = np.union1d(of, [int(docs[0]), int(docs[-1])])
    got = scoring._member(docs, of, n)
    assert got.any() and np.array_equal(got, np.isin(docs, of))


@pytest.mark.parametrize("step", [1, 7])  # most ordinals (whole columns) or a few (gathered)
def test_adjusted_scores_equal_multiplying_every_score_by_its_factors(
    make_fact: MakeFact, step: int
) -> None:
    index = _big_index(make_fact)
    sc = scoring.score(index, plan("deploy the release cache pipeline 部署"))
    ords = np.flatnonzero(sc.raw > 0)[::step]
    assert (len(ords) >= scoring._WHOLE_SHARE * index.size) == (step == 1)
    broad = np.zeros(index.size, dtype=np.bool_)
    broad[::2] = True
    sc.frequent_only[::3] = True
    now = datetime(2026, 7, 27, 12, 0, tzinfo=UTC)
    _, scope, type_, upd = index.columns()
    want = sc.raw[ords] * np.where(scope[ords] == scoring._PROJECT, PROJECT_BOOST, 1.0)
    stale = (now.timestamp() - upd[ords]) > scoring._STALE_AFTER[type_[ords]]
    want = want * np.where(stale, STALE_FACTOR, 1.0)
    assert stale.any() and not stale.all(), "the index has stale and fresh facts"
    got, hit = scoring.adjusted(index, sc, ords, now)
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64)) and not hit.any()
    raw_before = sc.raw.copy()
    got, hit = scoring.adjusted(index, sc, ords, now, broad)
    want_hit = broad[ords] & sc.frequent_only[ords]
    want = want * np.where(want_hit, BROAD_FACTOR, 1.0)
    assert np.array_equal(got.view(np.uint64), want.view(np.uint64))
    assert np.array_equal(hit, want_hit) and hit.any()
    assert np.array_equal(sc.raw, raw_before), "the raw scores are never changed in place"


def _eager_refine_head(index: RecallIndex, sc: scoring.Scored, ords: np.ndarray) -> None:
    """``scoring._refine_head`` as it was: every head read first."""
    if len(ords) > HEAD_CHECK:
        ords = ords[np.argpartition(-sc.raw[ords], HEAD_CHECK)[:HEAD_CHECK]]
    if not len(ords):
        return
    named = np.zeros(len(ords), dtype=np.bool_)
    granted = np.zeros(len(ords), dtype=np.bool_)
    settled = sc.about[ords]
    heads = [head_terms(f) if (f := index.fact_at(o)) is not None else None for o in ords.tolist()]
    for c, h in zip(sc.plan.concepts, sc.hits, strict=True):
        if h is None or c.number or not len(h.docs):
            continue
        forms = HeadForms(c)
        pos = np.minimum(np.searchsorted(h.docs, ords), len(h.docs) - 1)
        for i in np.flatnonzero(h.docs[pos] == ords).tolist():
            ht = heads[i]
            if ht is None or ((granted[i] or not h.grants) and (named[i] or settled[i])):
                continue
            if forms.named(ht):
                named[i] = True
                granted[i] = granted[i] or h.grants
    sc.head[ords] = named | (sc.head[ords] & settled)
    sc.strong[ords] = sc.sure[ords] | granted


def test_head_checks_read_only_the_heads_they_need_and_decide_the_same(
    make_fact: MakeFact, monkeypatch: pytest.MonkeyPatch
) -> None:
    index = _big_index(make_fact, 400)
    read: list[int] = []
    real = index.head_terms  # the row's kept terms; the eager check tokenises the fields
    monkeypatch.setattr(index, "head_terms", lambda o: read.append(o) or real(o))
    fewer = changed = False
    for message in _MESSAGES:
        p = plan(message)
        base = scoring.score(index, p)
        matched = base.raw > 0
        granting = [h.docs for h in base.hits if h is not None and h.grants]
        picks = [
            np.flatnonzero(matched)[::3],  # mostly facts already about the message
            np.flatnonzero(matched & ~base.about),  # facts whose head decides
            *granting,  # facts a rare word may make strong through their head
        ]
        for ords in picks:
            lazy, eager = scoring.score(index, p), scoring.score(index, p)
            ords = np.asarray(ords, dtype=np.int64)
            read.clear()
            scoring._refine_head(index, lazy, ords)
            fewer |= len(read) < min(len(ords), HEAD_CHECK)
            _eager_refine_head(index, eager, ords)
            assert np.array_equal(lazy.head, eager.head), message
            assert np.array_equal(lazy.strong, eager.strong), message
            changed |= not np.array_equal(lazy.head, base.head) or not np.array_equal(
                lazy.strong, base.strong
            )
    assert fewer, "some fact's head was never needed, so never read"
    assert changed, "the head checks changed some estimate (they were exercised)"


@pytest.mark.parametrize("n", [0, 1, 37, 511, 512, 513, 3000])
@pytest.mark.parametrize("density", [0.0, 0.03, 0.5, 0.97, 1.0])
def test_mask_takes_equal_boolean_indexing(density: float, n: int) -> None:
    # below masks._SMALL a boolean index, from it a take of the positions: the same arrays
    rng = np.random.default_rng(int(density * 100) + n)
    mask = rng.random(n) < density
    arrays = (rng.random(n), np.arange(n, dtype=np.int64), rng.random(n) < 0.3)
    for got, a in zip(masks.where(mask, *arrays), arrays, strict=True):
        assert got.dtype == a.dtype and np.array_equal(got, a[mask])
        assert got.flags.writeable and got.flags.c_contiguous
    assert np.array_equal(masks.one(~mask, arrays[1]), arrays[1][~mask])


@pytest.mark.parametrize("n", [8, 3000])
def test_mask_takes_of_a_non_boolean_mask_take_its_nonzero_positions(n: int) -> None:
    # (as np.flatnonzero did: an integer mask must never become a fancy index)
    counts = np.arange(n, dtype=np.int32) % 3
    a = np.arange(n, dtype=np.int64) * 10
    assert np.array_equal(masks.one(counts, a), a[counts != 0])
    assert np.array_equal(masks.where(counts, a)[0], a[counts != 0])


def _lexsorted_best(parts: list[matching.Part]) -> tuple[np.ndarray, ...]:
    """The best alternative per ordinal as one lexicographic sort finds it (by ordinal, best
    score first, the earlier alternative first on a tie)."""
    d = np.concatenate([docs for _, (docs, _, _) in parts])
    v = np.concatenate([vals for _, (_, vals, _) in parts])
    h = np.concatenate([head for _, (_, _, head) in parts])
    a = np.concatenate([np.full(len(docs), ai, dtype=np.int16) for ai, (docs, _, _) in parts])
    order = np.lexsort((-v, d))
    d, v, h, a = d[order], v[order], h[order], a[order]
    first = np.ones(len(d), dtype=np.bool_)
    first[1:] = d[1:] != d[:-1]
    starts = np.flatnonzero(first)
    return d[starts], v[starts], a[starts], np.logical_or.reduceat(h, starts)


@pytest.mark.parametrize("total", [5, 300, 5000])
def test_best_alternative_per_fact_is_the_same_sparse_dense_and_sorted(
    total: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = np.random.default_rng(total)
    n = 20000
    parts: list[matching.Part] = []
    for ai, share in enumerate([0.5, 0.3, 0.2]):
        k = max(1, int(total * share))
        docs = np.sort(rng.choice(min(n, 3 * total), k, replace=False)).astype(np.uint32)
        vals = np.round(rng.random(k), 1) + 0.1  # many ties between alternatives
        parts.append((ai + 1, (docs, vals, rng.random(k) < 0.3)))
    want = _lexsorted_best(parts)
    sparse = matching._best_sparse(parts)
    monkeypatch.setattr(matching, "SPARSE_SHARE", 10**9)  # every merge dense
    dense = matching._best_per_doc(parts, n)
    for x, y in zip(sparse, want, strict=True):
        assert x.dtype == y.dtype and np.array_equal(x, y)
    for x, y in zip(dense, want, strict=True):  # the dense merge's ordinals are int64
        assert np.array_equal(x, y)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("n", [40, 5000, 60000])
def test_best_few_picks_what_argpartition_picks(n: int, ties: bool) -> None:
    rng = np.random.default_rng(n + ties)
    raw = np.round(rng.random(n), 2) if ties else rng.random(n)
    ords = np.sort(rng.choice(10 * n, n, replace=False))
    for k in (1, 32, n - 1):
        got = scoring._best_few(ords, raw, k)
        want = ords[np.argpartition(-raw, k)[:k]]
        assert len(got) == k and set(got.tolist()) == set(want.tolist()), k


class _Groups:
    """A stand-in SubjectMap: ``members`` are in a group; ``current`` maps old -> current."""

    def __init__(self, size: int, members: set[int], current: dict[int, int]) -> None:
        self.grouped = np.zeros(size, dtype=np.bool_)
        self.grouped[list(members | set(current))] = True
        self.current = current

    def maybe_superseded(self, ords: np.ndarray) -> np.ndarray:
        out: np.ndarray = self.grouped[ords]
        return out

    def current_of(self, o: int) -> tuple[int, str] | None:
        cur = self.current.get(o)
        return None if cur is None else (cur, "same_title")


@pytest.mark.parametrize("grouped", [0, 1, 2, 40])
@pytest.mark.parametrize("ties", [False, True])
def test_superseded_checks_the_best_candidates_in_argpartitions_order(
    make_fact: MakeFact, grouped: int, ties: bool
) -> None:
    index = _big_index(make_fact, 400)
    for seed in range(12):  # several layouts: an order kept by chance is not enough
        rng = np.random.default_rng(seed + 100 * grouped + 7 * ties)
        ords = np.sort(rng.choice(index.size, 300, replace=False))
        scores = np.round(rng.random(300), 1) if ties else rng.random(300)
        top = np.argsort(-scores, kind="stable")[:64]
        members = {int(ords[i]) for i in rng.choice(top, grouped, replace=False)}
        groups = _Groups(index.size, members, {})
        pool = filters.Pool(index, ords, scores, np.zeros(300, dtype=np.bool_))
        first = np.argpartition(-scores, filters.SUPERSEDED_CHECK)[: filters.SUPERSEDED_CHECK]
        want = first[groups.maybe_superseded(ords[first])]
        got = filters._maybe_superseded_first(pool, groups)  # type: ignore[arg-type]
        assert got.tolist() == want.tolist(), seed


def test_superseded_asks_for_the_blocked_ones_only_to_promote_and_before_the_drop(
    make_fact: MakeFact,
) -> None:
    index = _big_index(make_fact, 50)

    def pool_of() -> filters.Pool:
        return filters.Pool(
            index, np.arange(10), np.linspace(1.0, 2.0, 10), np.zeros(10, dtype=np.bool_)
        )

    def never() -> np.ndarray:
        raise AssertionError("nothing to promote: the blocked ones are not needed")

    filters.superseded(pool_of(), _Groups(index.size, {1, 2}, {}), never)  # type: ignore[arg-type]
    # old 3 -> current 20 (not a candidate: comes in), old 5 -> current 30 (blocked)
    groups = _Groups(index.size, set(), {3: 20, 5: 30})
    lazy, asked = pool_of(), []

    def blocked() -> np.ndarray:
        asked.append(lazy.ords.tolist())  # the pool as it came in: nothing dropped yet
        return np.array([30])

    filters.superseded(lazy, groups, blocked)  # type: ignore[arg-type]
    eager = pool_of()
    filters.superseded(eager, groups, np.array([30]))  # type: ignore[arg-type]
    assert asked == [list(range(10))]
    assert lazy.ords.tolist() == eager.ords.tolist() and 20 in lazy.ords and 30 not in lazy.ords
    assert lazy.notes == eager.notes and lazy.suppressed == eager.suppressed
