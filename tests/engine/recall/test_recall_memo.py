"""Per-turn memos of recall give what the unmemoised lookups give (issue 13)."""

from __future__ import annotations

import numpy as np
from recall_env import MakeFact

from context_center.engine.recall import filters, scoring
from context_center.engine.recall.digest import content_digest
from context_center.engine.recall.index import RecallIndex
from context_center.engine.recall.secretmatch import secret_only
from context_center.engine.recall.terms import plan


def _index(make_fact: MakeFact) -> RecallIndex:
    index = RecallIndex()
    index.sync(
        (
            make_fact("deploy-notes", "Deploy with the release script; 部署 on Fridays."),
            make_fact("release-train", "The release train leaves weekly; deploy after QA."),
            make_fact("qa-rota", "Who runs QA this week."),
            make_fact("staging-db", "Staging database password is hunter2 for deploy."),
        )
    )
    return index


def test_matched_many_memo_equals_fresh_lookups(make_fact: MakeFact) -> None:
    index = _index(make_fact)
    p = plan("how do we deploy the release after QA 部署")
    ords = list(range(index.size))
    memo = scoring.score(index, p)
    first = memo.matched_many(ords)
    assert any(first), "the message matches some fact"
    again = memo.matched_many(list(reversed(ords)) + ords)  # from the memo, any order
    assert again == list(reversed(first)) + first
    for o in ords:  # one at a time on a fresh score: the same
        assert scoring.score(index, p).matched(o) == first[o]


def test_secret_only_rescans_a_text_edited_at_the_same_revision(make_fact: MakeFact) -> None:
    plain = make_fact("db", "The database is called hunter2.", id="mem-" + "1" * 32)
    assert not secret_only(plain, "hunter2")
    edited = plain.model_copy(update={"body": "The database password is hunter2."})
    assert edited.revision == plain.revision and edited.id == plain.id
    assert secret_only(edited, "hunter2"), "the new secret is found: the edit was scanned"
    assert not secret_only(plain, "hunter2"), "the old text keeps its own answer"


def test_secret_only_with_a_known_digest_is_the_same(make_fact: MakeFact) -> None:
    f = make_fact("staging", "Staging database password is hunter2 for deploy.")
    for find in ("hunter2", "deploy", "staging", "absent"):
        assert secret_only(f, find, content_digest(f)) == secret_only(f, find)
    assert secret_only(f, "hunter2") and not secret_only(f, "deploy")


def test_member_is_isin() -> None:
    rng = np.random.default_rng(13)
    for size in (0, 1, 5, 300):
        members = rng.integers(0, 400, size).astype(np.int64)
        ords = rng.permutation(400)[:250].astype(np.int64)
        assert np.array_equal(filters.member(ords, members, 400), np.isin(ords, members))
    assert filters.member(np.zeros(0, dtype=np.int64), np.arange(3), 3).shape == (0,)


def test_best_first_is_the_stable_argsort_prefix() -> None:
    rng = np.random.default_rng(7)
    for n, cap in ((2, 1), (10, 3), (500, 20), (500, 499)):
        neg = -rng.integers(0, 6, n).astype(np.float64)  # many ties
        expect = np.argsort(neg, kind="stable")[:cap]
        assert np.array_equal(filters._best_first(neg, cap), expect)


def test_a_rebuilt_index_does_not_answer_from_the_old_state(make_fact: MakeFact) -> None:
    """What a turn keeps per index state (each concept's matches, the subjects map) belongs to
    that state: a bulk build of other facts can end at the generation the old state had, and
    must still be answered from its own postings."""
    from context_center.engine.recall import Recaller

    old = [make_fact(f"deploy-{i}", f"Deploy step {i} of the release train.") for i in range(6)]
    new = [make_fact(f"rollback-{i}", f"Deploy rollback plan {i} for the api.") for i in range(9)]
    message = "how do we deploy the release"
    r = Recaller(None)
    r.index.build(old)
    before = r.index.generation
    assert r.recall(message, persist=False).trace.selected, "the old facts match"
    r.index.build(new)
    assert r.index.generation > before, "a rebuild is a new state, never an earlier number"
    got = r.recall(message, persist=False)
    fresh = Recaller(None)
    fresh.index.build(new)
    want = fresh.recall(message, persist=False)
    assert got.block == want.block
    assert [s.id for s in got.trace.selected] == [s.id for s in want.trace.selected]
    assert {s.id for s in got.trace.selected} <= {f.id for f in new}


def test_compaction_drops_the_turn_state_first(make_fact: MakeFact) -> None:
    """The per-state matches (tens of megabytes at 50k facts) are gone before a compaction
    allocates the new postings beside the old, and later turns build their own."""
    from context_center.engine.recall import Recaller
    from context_center.engine.recall.matching import StateCache

    facts = [make_fact(f"deploy-{i}", f"Deploy step {i} of the release train.") for i in range(8)]
    r = Recaller(None)
    r.index.sync(facts)
    first = r.recall("deploy the release train", persist=False)
    assert isinstance(r.index.turn_state, StateCache)
    seen: list[object] = []
    real = type(r.index).compact

    def spy(self: object) -> None:
        seen.append(r.index.turn_state)
        real(r.index)

    r.index.remove(facts[0].id, facts[0].scope)
    r.index.compact = spy.__get__(r.index)  # type: ignore[method-assign]
    r.index.compact()
    assert seen and isinstance(seen[0], StateCache), "it had a state when compaction began"
    assert r.index.turn_state is None
    again = r.recall("deploy the release train", persist=False)
    assert isinstance(r.index.turn_state, StateCache)
    assert r.index.turn_state.generation == r.index.generation
    want = Recaller(None)
    want.index.sync(facts[1:])
    assert again.block == want.recall("deploy the release train", persist=False).block
    assert again.block != first.block or facts[0].id not in first.block
