"""The warm turn's caches never serve a stale answer (issue 13).

Each test here fails when a cache answers for a changed text, a moved home, a new facts tuple,
another message or an index state that changed (a re-typed or re-dated fact); the exactness of
the turn's shortcuts is tested in ``test_recall_warm_exact.py``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from recall_env import NOW, MakeFact

from context_center.engine.gate import visible
from context_center.engine.model import FactType, Scope
from context_center.engine.recall import filters, scoring, terms
from context_center.engine.recall.index import RecallIndex
from context_center.engine.recall.policy import STALE_FACTOR
from context_center.engine.recall.recaller import Recaller
from context_center.engine.recall.terms import plan
from context_center.engine.store.paths import Layout

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


OTHER_SECRET = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"


def test_visibility_memo_answers_as_a_fresh_visibility_and_rescans_a_changed_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    scans: list[str] = []
    real = visible.withhold_secrets

    def counting(text: str, keep: frozenset[str] = visible.KEPT_KINDS) -> str:
        scans.append(text)
        return real(text, keep)

    monkeypatch.setattr(visible, "withhold_secrets", counting)
    vis = visible.Visibility(workspace="/srv/work/proj")
    one = f"token {SECRET} for /srv/work/proj/app"
    two = f"token {OTHER_SECRET} for /srv/work/proj/app"
    first = vis(one)
    assert SECRET not in first and "[withheld:" in first and "<workspace>" in first
    assert vis(one) == first and scans == [one]  # remembered: not scanned again
    second = vis(two)  # another text is never answered from the memo
    assert scans == [one, two]
    assert OTHER_SECRET not in second
    fresh = visible.Visibility(workspace="/srv/work/proj")
    assert (fresh(one), fresh(two)) == (first, second)


def test_visibility_memo_is_bounded_and_keeps_the_recently_used(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(visible, "_MEMO_SIZE", 3)
    vis = visible.Visibility()
    for i in range(3):
        vis(f"text {i}")
    vis("text 0")  # used again: now the most recent
    vis("text 3")  # evicts the least recently used, "text 1"
    assert list(vis._memo) == ["text 2", "text 0", "text 3"]
    monkeypatch.setattr(visible, "_MEMO_CHARS", 40)
    vis("x" * 15)  # 30 characters with its result: the older ones go until it fits
    assert sum(len(k) + len(v) for k, v in vis._memo.items()) <= 40
    assert vis._memo_chars == sum(len(k) + len(v) for k, v in vis._memo.items())
    assert "x" * 15 in vis._memo


def test_recallers_visibility_follows_a_moved_os_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    recaller = Recaller(Layout(tmp_path / "cc", tmp_path / "ws"))
    monkeypatch.setenv("HOME", "/home/first-user")
    assert recaller.visibility()("see /home/first-user/notes") == "see <local-home>/notes"
    assert recaller.visibility() is recaller.visibility()  # kept while the home stays
    monkeypatch.setenv("HOME", "/srv/second-home")
    assert recaller.visibility()("see /srv/second-home/notes") == "see <local-home>/notes"


def test_a_new_facts_tuple_is_synced_and_the_same_one_is_not(make_fact: MakeFact) -> None:
    recaller = Recaller(None)
    old = make_fact(
        "ci-cache",
        "The cache is warmed nightly.",
        description="zeppelinfoo warm-up",
        id="mem-" + "1" * 32,
    )
    facts = (old, make_fact("other", "Nothing about caches here at all."))
    first = recaller.recall("zeppelinfoo", facts, now=NOW, persist=False)
    assert [s.id for s in first.trace.selected] == [old.id]
    assert recaller.sync(facts).unchanged == 2  # the same tuple: nothing re-read
    new = old.model_copy(update={"description": "quuxbarrel warm-up"})
    changed = (new, facts[1])
    assert recaller.recall("zeppelinfoo", changed, now=NOW, persist=False).trace.selected == ()
    again = recaller.recall("quuxbarrel", changed, now=NOW, persist=False)
    assert [s.id for s in again.trace.selected] == [old.id]


def test_adjusted_scores_follow_a_changed_type_or_time(make_fact: MakeFact) -> None:
    """The per-state factor columns are never stale: a fact re-typed or re-dated counts."""
    index = RecallIndex()
    old = make_fact("deploy-notes", "deploy the release", age_days=100.0)  # a project fact
    index.sync((old,))
    sc = scoring.score(index, plan("deploy release"))
    ords = np.flatnonzero(sc.raw > 0)
    fresh, _ = scoring.adjusted(index, sc, ords, NOW)
    # a reference fact is stale after 45 days: the same time, another type
    index.upsert(old.model_copy(update={"type": FactType.REFERENCE, "revision": 2}))
    sc = scoring.score(index, plan("deploy release"))
    stale, _ = scoring.adjusted(index, sc, ords, NOW)
    assert float(stale[0]) == float(fresh[0]) * STALE_FACTOR
    index.upsert(old.model_copy(update={"updated_at": NOW, "revision": 3}))  # fresh again
    sc = scoring.score(index, plan("deploy release"))
    assert float(scoring.adjusted(index, sc, ords, NOW)[0][0]) == float(fresh[0])


def test_policy_kinds_and_override_marks_follow_the_index_state(make_fact: MakeFact) -> None:
    index = RecallIndex()
    rule = make_fact("deploy-rule", "deploy on fridays", scope=Scope.GLOBAL)
    twin = make_fact("deploy-rule", "deploy on mondays", scope=Scope.PROJECT)
    other = make_fact("deploy-other", "deploy notes", scope=Scope.GLOBAL)
    index.sync((rule, twin, other))
    g, guidance = filters._kinds(index)
    assert g.tolist() == [True, False, True] and not guidance.any()
    every = np.arange(index.size)
    marks = filters.overridden_marks(index, np.array([0, 1]))
    assert marks is not None and marks.tolist() == [True, False, False]  # a global fact only
    assert np.array_equal(marks, filters.member(every, np.array([0, 1]), 3) & g)
    assert filters.overridden_marks(index, np.zeros(0, dtype=np.int64)) is None
    # the same fact re-typed as user guidance: the kinds of the new state say so
    index.upsert(rule.model_copy(update={"type": FactType.USER, "revision": 2}))
    assert filters._kinds(index)[1].tolist() == [True, False, False]
    pool = filters.Pool(index, every, np.ones(3), np.zeros(3, dtype=np.bool_))
    filters.stable_guidance(pool)
    assert pool.ords.tolist() == [1, 2] and [s.id for s in pool.suppressed] == [rule.id]


def test_plan_memo_answers_as_a_fresh_plan_and_never_for_another_message() -> None:
    one, two = "how do we deploy the release 部署", "how do we deploy the releases 部署"
    first = terms.plan(one)
    assert terms.plan(one) is first  # remembered
    assert first == terms._plan(one)  # as planned afresh
    other = terms.plan(two)
    assert other is not first and other == terms._plan(two) and other.message == two
    long = "deploy " * (terms.PLAN_MEMO_CHARS // 7 + 1)
    assert terms.plan(long) is not terms.plan(long)  # too long to keep
    assert terms.plan(long) == terms._plan(long)


def test_plan_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(terms, "PLAN_MEMO_SIZE", 2)
    monkeypatch.setattr(terms, "_PLANS", type(terms._PLANS)())
    a = terms.plan("alpha deploy")
    terms.plan("beta deploy")
    assert terms.plan("alpha deploy") is a  # used again: the most recent
    terms.plan("gamma deploy")  # evicts "beta deploy"
    assert list(terms._PLANS) == ["alpha deploy", "gamma deploy"]
