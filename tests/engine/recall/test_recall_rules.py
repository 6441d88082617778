"""Issue 18's rules: the bilingual bridge, current over superseded, field weights, stemming,
numbers and capitals, thin and broad matches; issue 13's cache re-save and conflicts once."""

from __future__ import annotations

from pathlib import Path

import pytest
from recall_env import NOW, MakeFact

from context_center.engine.model import Conflict, FactType, Scope
from context_center.engine.recall import CACHE_FILE, Reason, Recaller
from context_center.engine.recall import index as index_mod
from context_center.engine.recall.stem import stem
from context_center.engine.recall.terms import plan
from context_center.engine.recall.vocab import parse, vocabulary
from context_center.engine.store.paths import Layout


def recall(facts, message, **kw):  # type: ignore[no-untyped-def]
    return Recaller(None).recall(message, tuple(facts), kw.pop("conflicts", ()), now=NOW, **kw)


def refs(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [s.ref for s in result.trace.selected]


# -- the bilingual term bridge -----------------------------------------------------------------


def test_the_shipped_vocabulary_is_large_and_bilingual() -> None:
    v = vocabulary()
    assert v.pairs >= 1500
    assert {"部署", "上线"} <= {f.text for f in v.forms(v.by_words[("deploy",)])}
    assert "call" in {t for f in v.forms(v.by_cjk["值班"]) for t in f.terms}


def test_chinese_turn_finds_an_english_fact_and_says_through_what(make_fact: MakeFact) -> None:
    facts = [
        make_fact(
            "freeze",
            "No production deploys from December 15 to January 5.",
            title="Year-end deploy freeze",
        ),
        make_fact("other", "The build uses ninja and ccache."),
    ]
    result = recall(facts, "年底从哪天开始不能上线？")
    assert refs(result) == ["project/freeze.md"]
    [hit] = result.trace.selected
    assert "deploy via 上线" in hit.expanded
    assert "deploy via 上线" in hit.reason


def test_english_turn_finds_a_chinese_fact(make_fact: MakeFact) -> None:
    facts = [
        make_fact(
            "migrations", "数据库迁移用 goose 执行，每个迁移都必须可以回滚。", title="数据库迁移"
        ),
        make_fact("other", "前端组件必须能用键盘操作。", title="无障碍"),
    ]
    result = recall(facts, "how do I roll back a database migration?")
    assert refs(result) == ["project/migrations.md"]
    assert any("via" in e for e in result.trace.selected[0].expanded)


def test_an_expanded_match_counts_less_than_a_direct_one(make_fact: MakeFact) -> None:
    en = make_fact("en", "Deploy with make deploy from main.", title="Deploy")
    zh = make_fact("zh", "部署用 make deploy，从 main 部署。", title="部署")
    result = recall([en, zh], "deploy 部署", max_facts=8)
    scores = {s.ref: s.score for s in result.trace.selected}
    # Each is matched directly by one word and through the vocabulary by the other.
    assert set(scores) == {"project/en.md", "project/zh.md"}
    only_direct = recall([en], "deploy").trace.selected[0].score
    only_expanded = recall([en], "部署").trace.selected[0].score
    assert only_expanded < only_direct


def test_vocabulary_lines_parse_into_groups() -> None:
    v = parse("# c\nunit test|unit tests\t单元测试|单测\non call\t值班\n")
    assert v.pairs == 5
    assert ("unit", "test") in v.by_words and "单元测试" in v.by_cjk
    assert v.forms(v.by_cjk["单测"])[0].terms == ("unit", "test")


def test_one_chinese_character_never_expands() -> None:
    v = parse("card\t卡|银行卡\n")
    assert "卡" not in v.by_cjk and "银行卡" in v.by_cjk


def test_a_phrase_concept_adds_only_what_its_words_did_not() -> None:
    p = plan("who is on call this week?")
    texts = [c.text for c in p.concepts]
    assert "call" in texts and "on call" in texts
    on_call = next(c for c in p.concepts if c.text == "on call")
    assert not on_call.direct and any(a.label == "值班" for a in on_call.alts)


# -- stemming and field weights ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("deploy", "deployment"),
        ("deploys", "deploying"),
        ("release", "released"),
        ("tests", "testing"),
        ("migration", "migrate"),
        ("dependencies", "dependency"),
    ],
)
def test_word_forms_share_a_stem(a: str, b: str) -> None:
    assert stem(a) == stem(b)


def test_identifiers_and_short_words_are_not_stemmed() -> None:
    assert stem("release_v2") == "release_v2" and stem("redis") == "redis"
    assert stem("is") == "is" and stem("status") == "status"


def test_a_title_word_outweighs_the_same_word_in_a_body(make_fact: MakeFact) -> None:
    titled = make_fact("a", "Steps are listed below.", title="Canary rollout")
    buried = make_fact("b", "Some text about canary and rollout in passing.", title="Misc")
    result = recall([buried, titled], "canary rollout", max_facts=8)
    assert refs(result)[0] == "project/a.md"


# -- numbers, capitals, rare words ---------------------------------------------------------------


def test_bare_numbers_do_not_recall_anything(make_fact: MakeFact) -> None:
    facts = [
        make_fact("branch", "Release branch 2026.11 is cut on day 1.", title="Release branch"),
        make_fact("freeze", "Freeze starts 2026-11-20.", title="Freeze"),
    ]
    result = recall(facts, "error at 2026-11-03 line 11 code 1")
    assert result.block == ""


def test_a_key_written_with_a_prefix_is_an_identifier(make_fact: MakeFact) -> None:
    facts = [
        make_fact("adr", "Ledger is append-only.", title="ADR-0007: ledger"),
        make_fact("x", "Other."),
    ]
    assert refs(recall(facts, "what is ADR-0007 about?")) == ["project/adr.md"]


def test_all_capitals_alone_is_not_an_identifier_when_common(make_fact: MakeFact) -> None:
    facts = [make_fact(f"api-{i}", f"The API of service {i} is versioned.") for i in range(6)]
    result = recall(facts, "the API is down, what now?")
    assert result.block == ""


def _store(make_fact: MakeFact, n: int) -> list:  # type: ignore[type-arg]
    return [
        make_fact(f"filler-{i}", f"Background note number {i} about topic{i}.") for i in range(n)
    ]


def test_one_rare_word_named_by_a_fact_is_enough_in_a_long_turn(make_fact: MakeFact) -> None:
    polars = make_fact(
        "dataframes",
        "New transforms use polars; pandas only in notebooks.",
        title="DataFrame library",
        description="polars, not pandas",
    )
    facts = [*_store(make_fact, 60), polars]
    result = recall(facts, "can I use pandas for the cohort calculation over there?")
    assert refs(result) == ["project/dataframes.md"]


def test_a_rare_word_only_in_a_body_is_not_enough_alone(make_fact: MakeFact) -> None:
    fact = make_fact("timezones", "Meetings are set in Berlin time.", title="Team time zones")
    facts = [*_store(make_fact, 60), fact]
    result = recall(facts, "what is the weather like in berlin this winter?")
    assert result.block == ""
    assert any(
        s.reason is Reason.NO_DISTINCTIVE_MATCH and s.ref == fact.ref
        for s in result.trace.suppressed
    )


# -- current over superseded ---------------------------------------------------------------------


def test_the_newer_of_two_same_title_facts_is_injected(make_fact: MakeFact) -> None:
    old = make_fact(
        "oncall-2025",
        "Rotation: Li Wei, Maria, Tom. Escalate to Priya.",
        title="On-call rotation 2025",
        age_days=400,
    )
    new = make_fact(
        "oncall-2026",
        "Rotation: Chen Jing, Arjun, Sofia.",
        title="On-call rotation 2026",
        age_days=10,
    )
    result = recall([old, new], "on-call rotation: who do I escalate to, Priya?")
    assert refs(result) == ["project/oncall-2026.md"]
    [sup] = [s for s in result.trace.suppressed if s.reason is Reason.SUPERSEDED]
    assert sup.ref == old.ref and "oncall-2026" in sup.message
    assert "current version of project/oncall-2025.md" in result.trace.selected[0].reason


def test_an_explicit_supersedes_link_wins_over_age(make_fact: MakeFact) -> None:
    old = make_fact(
        "warehouse", "The warehouse is Redshift dw-prod.", title="Warehouse", age_days=2
    )
    new = make_fact(
        "warehouse-ch",
        "Supersedes: project/warehouse.md\nMarts live in ClickHouse.",
        title="Warehouse on ClickHouse",
        age_days=30,
    )
    result = recall([old, new], "which warehouse, redshift dw-prod?")
    assert refs(result) == ["project/warehouse-ch.md"]
    groups = Recaller(None).subject_groups((old, new))
    assert [(g.current.ref, [f.ref for f in g.older], g.how) for g in groups] == [
        ("project/warehouse-ch.md", ["project/warehouse.md"], "supersedes")
    ]
    assert groups[0].public_dict()["older"] == ["project/warehouse.md"]


def test_different_subjects_with_numbered_titles_stay_apart(make_fact: MakeFact) -> None:
    a = make_fact("inc-4821", "Postmortem of the payments outage.", title="Incident 4821")
    b = make_fact("inc-4977", "Postmortem of the payments outage, again.", title="Incident 4977")
    assert Recaller(None).subject_groups((a, b)) == []
    assert len(recall([a, b], "payments outage postmortem", max_facts=8).trace.selected) == 2


# -- thin and broad matches ----------------------------------------------------------------------


def test_a_fact_sharing_only_a_side_word_is_a_thin_match(make_fact: MakeFact) -> None:
    import numpy as np

    from context_center.engine.recall.filters import Pool, thin_match

    facts = [make_fact("a", "alpha"), make_fact("b", "beta"), make_fact("c", "gamma")]
    r = Recaller(None)
    r.sync(facts)
    ords = np.array([0, 1, 2])
    pool = Pool(r.index, ords, np.array([10.0, 4.0, 6.0]), np.zeros(3, dtype=np.bool_))
    thin_match(pool, np.array([4, 2, 4]))  # b matched fewer concepts and scored < 0.5 x 10
    assert pool.ords.tolist() == [0, 2]
    assert [(s.reason, s.ref) for s in pool.suppressed] == [(Reason.THIN_MATCH, "project/b.md")]


def test_a_notes_fact_matched_only_in_its_body_is_not_recalled(make_fact: MakeFact) -> None:
    words = [
        "deploy",
        "staging",
        "tests",
        "release",
        "review",
        "build",
        "cache",
        "dashboard",
        "wiki",
        "pipeline",
    ]
    facts = [
        make_fact(f"f-{i}", f"{w} {words[(i + 3) % 10]} item{i}", title=f"Item {i}")
        for i, w in enumerate(words[2:] * 4)
    ]
    focused = make_fact("staging-deploy", "Use make deploy ENV=staging.", title="Deploy to staging")
    notes = make_fact(
        "team-notes", "Notes: " + ", ".join(words) + ", lunch on thursdays.", title="Team notes"
    )
    result = recall([*facts, focused, notes], "deploy staging", max_facts=8)
    assert refs(result) == [focused.ref]
    [sup] = [s for s in result.trace.suppressed if s.ref == notes.ref]
    assert sup.reason is Reason.BODY_ONLY


# -- issue 13: the cache is saved again after outside changes; conflicts once per state ---------


def test_cache_is_saved_again_after_many_changes_by_other_processes(
    home: Path, workspace: Path, make_fact: MakeFact, monkeypatch: pytest.MonkeyPatch
) -> None:
    layout = Layout(home, workspace)
    facts = [make_fact(f"n-{i}", f"Deploy payments step {i} on cluster c{i}.") for i in range(300)]
    Recaller(layout).sync(facts)
    # Another process changed 100 facts on disk (more than the 64 changes that trigger a save).
    changed = [
        f.model_copy(update={"body": f.body + " Now blue.", "revision": 2}) for f in facts[:100]
    ]
    now_facts = changed + facts[100:]
    second = Recaller(layout)
    second.sync(now_facts)
    assert second.last_sync is not None and second.last_sync.added == 100

    # The next process must not re-tokenise those 100 facts again.
    def boom(text: str) -> list[str]:
        raise AssertionError(f"re-tokenised: {text[:40]!r}")

    monkeypatch.setattr(index_mod, "tokens", boom)
    third = Recaller(layout)
    third.sync(now_facts)
    assert third.last_sync is not None and third.last_sync.from_cache
    assert third.last_sync.added == 0
    assert (layout.cache_dir / CACHE_FILE).is_file()


def test_conflicts_are_resolved_once_per_index_state(
    make_fact: MakeFact, monkeypatch: pytest.MonkeyPatch
) -> None:
    g = make_fact("deploy-target", "Deploy payments to the legacy cluster.", scope=Scope.GLOBAL)
    p = make_fact("deploy-target", "Deploy payments to the green cluster.")
    conflicts = [
        Conflict(key="name", project_ref=p.ref, global_ref=g.ref, project_id=p.id, global_id=g.id)
    ]
    r = Recaller(None)
    facts = (g, p)
    calls = []
    real = r.index.ordinal_of
    monkeypatch.setattr(r.index, "ordinal_of", lambda key: calls.append(key) or real(key))
    for _ in range(5):
        result = r.recall("deploy payments cluster", facts, conflicts, now=NOW)
        assert refs(result) == ["project/deploy-target.md"]
    assert len(calls) == 1


def test_global_guidance_is_not_promoted_as_a_current_version(make_fact: MakeFact) -> None:
    old = make_fact(
        "style-a",
        "Keep answers short and concrete.",
        title="Answer style",
        scope=Scope.GLOBAL,
        type=FactType.FEEDBACK,
        age_days=300,
    )
    new = make_fact(
        "style-b",
        "Keep answers short; commands first.",
        title="Answer style",
        scope=Scope.GLOBAL,
        type=FactType.FEEDBACK,
        age_days=3,
    )
    result = recall([old, new], "keep answers short and concrete")
    assert result.block == ""
