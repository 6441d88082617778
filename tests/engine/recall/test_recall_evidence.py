"""What counts as evidence: one concept per Chinese word, phrase or chain of pairs; one idf per
concept; compound identifiers and commands; facts about the message (head fields); common
English words; side matches; current versions only for a match on the subject."""

from __future__ import annotations

import numpy as np
import pytest
from recall_env import NOW, MakeFact

from context_center.engine.model import Fact
from context_center.engine.recall import Reason, Recaller, scoring
from context_center.engine.recall.compounds import code_pairs, compounds
from context_center.engine.recall.index import bm25
from context_center.engine.recall.matching import TermCache
from context_center.engine.recall.terms import common_english, plan


def recall(facts, message, **kw):  # type: ignore[no-untyped-def]
    return Recaller(None).recall(message, tuple(facts), kw.pop("conflicts", ()), now=NOW, **kw)


def refs(result) -> list[str]:  # type: ignore[no-untyped-def]
    return [s.ref for s in result.trace.selected]


def reason_of(result, fact: Fact) -> Reason | None:  # type: ignore[no-untyped-def]
    return next((s.reason for s in result.trace.suppressed if s.ref == fact.ref), None)


def filler(make_fact: MakeFact, n: int) -> list[Fact]:
    return [make_fact(f"filler-{i}", f"Background note {i} about topic{i}.") for i in range(n)]


def counts(facts: list[Fact], message: str) -> dict[str, int]:
    r = Recaller(None)
    r.sync(tuple(facts))
    sc = scoring.score(r.index, plan(message))
    return {f.name: int(sc.count[r.index.ordinal(f.scope, f.id)]) for f in facts}


# -- concepts ----------------------------------------------------------------------------------


def test_a_chinese_vocabulary_word_is_one_concept() -> None:
    p = plan("生产环境怎么部署？")
    texts = [c.text for c in p.concepts]
    assert "生产环境" in texts and "生产" not in texts and "产环" not in texts
    word = next(c for c in p.concepts if c.text == "生产环境")
    assert word.alts[0].terms == ("生产", "产环", "环境") and word.alts[0].via is None
    assert any(a.via == "生产环境" and "production" in a.terms for a in word.alts)


def test_consecutive_pairs_and_a_phrase_with_its_word_count_once(make_fact: MakeFact) -> None:
    run = make_fact("run", "甲乙丙丁的说明。")
    oncall = make_fact("oncall", "Who is on call: see the rotation. 值班表在这里。")
    other = make_fact("other", "甲乙 only.")
    got = counts([run, oncall, other], "甲乙丙丁 who is on call")
    assert got["run"] == 1  # 甲乙, 乙丙, 丙丁 in a row: one matched term
    assert got["oncall"] == 1  # "call" and "on call" (值班) are one idea
    assert got["other"] == 1


def test_every_form_of_a_concept_uses_the_concepts_idf(make_fact: MakeFact) -> None:
    facts = [make_fact(f"en-{i}", f"Deploy service {i} with make deploy.") for i in range(5)]
    zh = make_fact("zh", "部署用 make。")
    r = Recaller(None)
    r.sync(tuple([*facts, zh]))
    [concept] = [c for c in plan("deploy").concepts if c.text == "deploy"]
    m = TermCache(r.index).concept(concept)
    assert m is not None
    n, avgdl, dl = r.index.bm25_state()
    o = r.index.ordinal(zh.scope, zh.id)
    zh_alt = next(i for i, a in enumerate(concept.alts) if a.label == "部署")
    at = m.docs.tolist().index(o)
    assert int(m.which[at]) == zh_alt
    docs, tf = r.index.live_postings("部署")  # type: ignore[misc]
    # df is 6 (every fact matching deploy or 部署), not 1 (the facts that write 部署)
    want = bm25(tf, dl[docs], 6, n, avgdl) * concept.alts[zh_alt].weight
    assert len(m.docs) == 6 and m.best[at] == pytest.approx(want[0])


# -- identifiers written as several words ---------------------------------------------------------


def test_compound_identifiers_and_what_is_not_one() -> None:
    common = common_english()
    found = compounds("is tracking-plan.yaml or X-Pay-Signature or test:ci at 1.22.5?", common)
    assert [c.text for c in found] == ["tracking-plan.yaml", "x-pay-signature", "test:ci"]
    assert compounds("a one-line summary of the year-end table-driven tests", common) == []
    assert compounds("at 2026-11-03T02:14:55Z in checkout.spec.ts:57:16", common)[0].text == (
        "checkout.spec.ts"
    )


def test_a_compound_matches_only_where_written_as_is(make_fact: MakeFact) -> None:
    plan_fact = make_fact(
        "analytics", "Every event must be listed in tracking-plan.yaml.", title="Analytics"
    )
    loose = make_fact("config", "Our plan: keep the yaml small.", title="Config notes")
    result = recall([plan_fact, loose, *filler(make_fact, 30)], "what's tracking-plan.yaml for?")
    assert refs(result) == [plan_fact.ref]


def test_two_plain_words_a_fact_writes_as_code_are_an_identifier(make_fact: MakeFact) -> None:
    env = make_fact("python-env", "Use uv; add dependencies with `uv add`.", title="Python env")
    tests = make_fact("tests", "Unit tests: `uv run pytest`.", title="Pipeline tests")
    assert [p.text for p in code_pairs("how do I add a package with uv add?", common_english())][
        -1
    ] == "uv add"
    result = recall([env, tests, *filler(make_fact, 30)], "how do I add a package with uv add?")
    assert refs(result) == [env.ref]


# -- about the message ------------------------------------------------------------------------


def test_a_fact_matched_only_deep_in_its_body_is_body_only(make_fact: MakeFact) -> None:
    notes = make_fact(
        "team-notes",
        "Notes. Deploy on Tuesdays. Review the staging data. Staging resets; review again.",
        title="Team notes",
    )
    focused = make_fact("staging", "Staging resets on Sundays.", title="Staging review rules")
    # staging and review are frequent here: each names a few facts.
    named = [
        make_fact(f"{w}-{i}", "Short.", title=f"{w} {i}")
        for w in ("Staging", "Review")
        for i in range(3)
    ]
    facts = [notes, focused, *named, *filler(make_fact, 30)]
    result = recall(facts, "review this paragraph: the staging of the play")
    assert refs(result) == [focused.ref]
    assert reason_of(result, notes) is Reason.BODY_ONLY  # twice in the body is not a title


def test_three_matched_terms_in_a_body_are_about_the_message(make_fact: MakeFact) -> None:
    fact = make_fact("x", "Deploy payments to the green cluster.", title="X")
    assert refs(recall([fact], "deploy payments cluster")) == [fact.ref]


def test_a_common_english_word_is_not_enough_alone(make_fact: MakeFact) -> None:
    facts = [
        make_fact(f"svc-{i}", f"The service {i} logs to stdout.", title=f"Service {i}")
        for i in range(5)
    ]
    backfill = make_fact("backfill", "At most 30 days at once.", title="Backfill limits")
    store = [*facts, backfill, *filler(make_fact, 30)]
    assert recall(store, "how do I start the service?").block == ""
    assert refs(recall(store, "backfill?")) == [backfill.ref]


def test_a_rare_word_reached_through_its_translation(make_fact: MakeFact) -> None:
    browsers = make_fact("browsers", "Chrome, Firefox, Safari, Edge.", title="Browser support")
    lint = make_fact("lint", "ESLint plus Prettier.", title="Lint and format")
    store = [browsers, lint, *filler(make_fact, 40)]
    assert refs(recall(store, "需要兼容哪些浏览器？")) == [browsers.ref]
    # 格式 is the Chinese word for "format", a common English word: never enough alone.
    assert recall(store, "这段文字的格式对吗？").block == ""


def test_a_rare_chinese_two_character_word_in_a_longer_turn(make_fact: MakeFact) -> None:
    holidays = make_fact(
        "holidays",
        "春节假期 2 月 16 日至 2 月 22 日。",
        title="公司假期",
        description="春节和国庆假期安排",
    )
    store = [holidays, *filler(make_fact, 40)]
    assert refs(recall(store, "春节放几天假？")) == [holidays.ref]


# -- side matches and current versions ---------------------------------------------------------------


def test_at_most_two_facts_matched_only_on_frequent_words(make_fact: MakeFact) -> None:
    deploys = [
        make_fact(f"deploy-{i}", f"Step {i}.", title=f"Deploy the app, part {i}") for i in range(4)
    ]
    # Three terms (web matches nothing): no one-long-word rule; deploy and app are frequent.
    result = recall([*deploys, *filler(make_fact, 30)], "deploy the web app", max_facts=8)
    assert len(result.trace.selected) == 2
    assert sum(1 for s in result.trace.suppressed if s.reason is Reason.SIDE_MATCH) == 2


def test_no_current_version_for_a_side_remark_in_an_old_body(make_fact: MakeFact) -> None:
    old = make_fact(
        "warehouse",
        "The warehouse is Redshift; load with COPY from S3.",
        title="Warehouse",
        age_days=300,
    )
    new = make_fact(
        "warehouse-ch",
        "Supersedes: project/warehouse.md\nMarts live in ClickHouse.",
        title="Warehouse on ClickHouse",
    )
    s3 = make_fact("s3", "Raw files in S3 expire after 90 days.", title="S3 lifecycle")
    facts = [old, new, s3, *filler(make_fact, 30)]
    result = recall(facts, "原始文件在 S3 上保留多久？")
    assert refs(result) == [s3.ref]
    assert reason_of(result, old) is Reason.SUPERSEDED
    # Asked about the subject itself, the current fact takes the old one's place.
    assert refs(recall(facts, "where is the warehouse, Redshift?")) == [new.ref]


def test_a_broad_fact_on_frequent_body_words_is_penalised(make_fact: MakeFact) -> None:
    words = ["deploy", "staging", "tests", "release", "review", "build", "cache", "wiki"]
    facts = [
        make_fact(f"f-{i}", f"{w} {words[(i + 3) % 8]} item{i}", title=f"Item {i}")
        for i, w in enumerate(words * 4)
    ]
    focused = make_fact(
        "staging-deploy",
        "Use make deploy ENV=staging, then the tests.",
        title="Deploy to staging with tests",
    )
    notes = make_fact(
        "team-notes",
        "Notes: " + ", ".join(words) + ". " + "Lunch is on Thursdays this month. " * 6,
        title="Team notes",
    )
    result = recall([*facts, focused, notes], "deploy staging tests", max_facts=8)
    assert refs(result)[0] == focused.ref
    assert reason_of(result, notes) is Reason.BROAD_MATCH
    assert np.isfinite(result.trace.selected[0].score)


def test_no_side_match_when_the_message_is_about_what_no_fact_knows(
    make_fact: MakeFact,
) -> None:
    release = make_fact("release", "Merge the release PR; it tags vX.Y.Z.", title="Release tags")
    others = [
        make_fact(f"rel-{i}", f"Step {i}.", title=f"Release and tag step {i}") for i in range(3)
    ]
    store = [release, *others, *filler(make_fact, 30)]
    result = recall(store, "write a function that checks a semver release tag", max_facts=8)
    assert result.block == ""  # "semver" is in no fact: release and tag match by coincidence
    assert reason_of(result, release) is Reason.SIDE_MATCH
    assert len(recall(store, "what are the release tag steps", max_facts=8).trace.selected) == 2


def test_search_crosses_languages_and_says_through_what(make_fact: MakeFact) -> None:
    en = make_fact("en", "Deploy with make deploy.", title="Deploy")
    zh = make_fact("zh", "部署用 make deploy-zh。", title="部署说明")
    hits = Recaller(None).search("deploy", (en, zh), now=NOW)
    assert [h.fact.ref for h in hits] == [en.ref, zh.ref]
    assert hits[0].matched == ("deploy",) and hits[1].matched == ("部署 via deploy",)
    assert hits[1].score < hits[0].score
