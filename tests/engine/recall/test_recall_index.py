"""The incremental index: upsert/remove/sync equal a full rebuild; BM25 figures."""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from recall_env import NOW, MakeFact, fact

from context_center.engine.model import Fact, Scope
from context_center.engine.recall import Recaller, RecallIndex
from context_center.engine.recall import index as index_mod
from context_center.engine.recall import postings as postings_mod

WORDS = [
    "deploy",
    "payments",
    "cluster",
    "green",
    "AuthHandler",
    "release_v2",
    "cache",
    "缓存",
    "发布流程",
    "自动召回",
    "记忆",
    "token",
    "the",
    "is",
    "6928",
]
QUERIES = [
    "deploy payments",
    "AuthHandler release_v2",
    "缓存 发布流程",
    "自动召回记忆",
    "green",
    "cluster token 6928",
    "cache",
]


def snapshot(idx: RecallIndex, terms: list[str]) -> dict[tuple[str, str], float]:
    sc = idx.score(terms)
    out = {}
    for o in range(idx.size):
        if sc.count[o]:
            f = idx.fact(o)
            out[(f.scope.value, f.id)] = float(sc.scores[o])
    return out


def assert_same(a: RecallIndex, b: RecallIndex) -> None:
    assert len(a) == len(b)
    assert sorted((f.scope.value, f.id, f.revision) for f in a.facts()) == sorted(
        (f.scope.value, f.id, f.revision) for f in b.facts()
    )
    for q in QUERIES:
        terms = [t for t in index_mod.tokens(q)]
        assert snapshot(a, terms) == snapshot(b, terms), q  # exactly equal floats


def body_of(words: list[int]) -> str:
    return " ".join(WORDS[i] for i in words)


op = st.one_of(
    st.tuples(
        st.just("upsert"),
        st.integers(0, 7),
        st.sampled_from(list(Scope)),
        st.lists(st.integers(0, len(WORDS) - 1), min_size=0, max_size=12),
    ),
    st.tuples(st.just("remove"), st.integers(0, 7), st.sampled_from(list(Scope)), st.just([])),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    ops=st.lists(op, max_size=30),
    compact_min=st.sampled_from([0, 3, 10_000]),
    chunk=st.sampled_from([1, 5, 1 << 20]),
)
def test_incremental_updates_equal_a_full_rebuild(ops: list, compact_min: int, chunk: int) -> None:  # type: ignore[type-arg]
    old_chunk = postings_mod.CHUNK
    postings_mod.CHUNK = chunk  # small chunks exercise the chunked build and compaction
    try:
        _check_incremental(ops, compact_min)
    finally:
        postings_mod.CHUNK = old_chunk


def _check_incremental(ops: list, compact_min: int) -> None:  # type: ignore[type-arg]
    idx = RecallIndex(compact_min=compact_min)
    current: dict[tuple[str, str], Fact] = {}
    revisions: dict[tuple[str, str], int] = {}
    for kind, n, scope, words in ops:
        fid = f"mem-{n:032x}"
        key = (scope.value, fid)
        if kind == "upsert":
            revisions[key] = revisions.get(key, 0) + 1
            f = fact(f"fact-{n}", body_of(words), scope=scope, id=fid, revision=revisions[key])
            idx.upsert(f)
            current[key] = f
        else:
            assert idx.remove(fid, scope) == (key in current)
            current.pop(key, None)
        idx.maybe_compact()
    fresh = RecallIndex()
    fresh.build(list(current.values()))
    assert_same(idx, fresh)
    # And syncing a third index through the same states ends in the same place.
    synced = RecallIndex(compact_min=compact_min)
    synced.sync(list(current.values())[: len(current) // 2])
    synced.sync(list(current.values()))
    assert_same(synced, fresh)


def test_sync_only_tokenises_what_changed(
    monkeypatch: pytest.MonkeyPatch, make_fact: MakeFact
) -> None:
    facts = [make_fact(f"f{i}", f"deploy payments {i}") for i in range(10)]
    idx = RecallIndex()
    assert idx.sync(facts).rebuilt
    seen: list[Fact] = []  # the facts tokenised (each field once: fact_terms)
    real = index_mod.fact_terms

    def spy(fact: Fact) -> tuple[dict[str, int], str]:
        seen.append(fact)
        return real(fact)

    monkeypatch.setattr(index_mod, "fact_terms", spy)
    changed = facts[3].model_copy(update={"body": "deploy payments changed", "revision": 2})
    meta_only = facts[4].model_copy(update={"revision": 2})
    new = make_fact("new", "brand new fact")
    stats = idx.sync([*facts[:3], changed, meta_only, *facts[5:9], new])  # facts[9] removed
    assert (stats.added, stats.changed, stats.metadata, stats.removed) == (1, 1, 1, 1)
    assert len(seen) == 2  # only the changed and the new fact were tokenised
    assert len(idx) == 10
    # The same tuple twice costs nothing.
    frozen = tuple(idx.facts())
    idx.sync(frozen)
    seen.clear()
    assert idx.sync(frozen).unchanged == 10
    assert idx.sync(list(frozen)).unchanged == 10  # a new list of the same objects
    assert seen == []


def test_same_id_in_both_scopes_are_two_documents(make_fact: MakeFact) -> None:
    shared = "mem-" + "cd" * 16
    p = make_fact("x", "deploy green", id=shared)
    g = make_fact("x", "deploy legacy", id=shared, scope=Scope.GLOBAL)
    idx = RecallIndex()
    idx.sync([p, g])
    assert len(idx) == 2
    assert idx.remove(shared, Scope.GLOBAL)
    assert [f.scope for f in idx.facts()] == [Scope.PROJECT]


def test_bm25_figures(make_fact: MakeFact) -> None:
    a = make_fact("a", "alpha beta")
    b = make_fact("b", "gamma delta")
    idx = RecallIndex()
    idx.build([a, b])
    sc = idx.score(["alpha"])
    # name "a" + title "A" + 2 body words = 4 tokens in each fact; N=2, df=1.
    idf = math.log(1 + (2 - 1 + 0.5) / (1 + 0.5))
    expected = idf * (1 * 2.2) / (1 + 1.2 * (1 - 0.75 + 0.75 * 4 / 4))
    assert sc.scores[0] == pytest.approx(expected)
    assert sc.scores[1] == 0
    # A term in every fact still has a positive idf.
    both = idx.score(["a", "b"])  # the names
    assert both.scores[0] > 0 and both.scores[1] > 0


def test_search_ranks_like_recall_without_gate(make_fact: MakeFact) -> None:
    facts = (
        make_fact("deploy", "Deploy payments to the green cluster."),
        make_fact("build", "The build uses ninja; deploy happens after."),
        make_fact("g", "Global deploy note.", scope=Scope.GLOBAL),
    )
    r = Recaller(None)
    hits = r.search("deploy", facts, now=NOW)
    assert {h.fact.name for h in hits} == {"deploy", "build", "g"}
    assert hits == sorted(hits, key=lambda h: -h.score)
    assert [h.fact.name for h in r.search("deploy", scope="global", now=NOW)] == ["g"]
    assert r.search("deploy", type="user", now=NOW) == []
    assert r.search("the and of", now=NOW) == []
    assert r.search("deploy", limit=1, now=NOW)[0].matched == ("deploy",)


def test_search_does_not_suppress_stable_guidance(make_fact: MakeFact) -> None:
    from context_center.engine.model import FactType

    style = make_fact("style", "Keep explanations concise.", scope=Scope.GLOBAL, type=FactType.USER)
    assert [h.fact.name for h in Recaller(None).search("concise", (style,), now=NOW)] == ["style"]


def test_same_tuple_after_an_upsert_is_synced_again(make_fact: MakeFact) -> None:
    facts = (make_fact("a", "deploy payments"), make_fact("b", "kafka topics"))
    idx = RecallIndex()
    idx.sync(facts)
    extra = make_fact("c", "extra fact")
    idx.upsert(extra)
    assert len(idx) == 3
    stats = idx.sync(facts)  # the same tuple, but the index changed in between
    assert stats.removed == 1 and len(idx) == 2
