"""Every recall policy rule of issue 4, through Recaller.recall."""

from __future__ import annotations

from collections import Counter

import pytest
from recall_env import NOW, MakeFact

from context_center.engine.errors import InvalidRequest
from context_center.engine.model import Conflict, FactType, Freshness, Scope
from context_center.engine.recall import Reason, Recaller, is_generic_turn


def recall(facts, message, **kw):  # type: ignore[no-untyped-def]
    return Recaller(None).recall(message, tuple(facts), kw.pop("conflicts", ()), now=NOW, **kw)


@pytest.fixture
def store(make_fact: MakeFact) -> list:  # type: ignore[type-arg]
    return [
        make_fact(
            "authhandler-6928",
            "AuthHandler panics when session metadata is missing.",
            title="AuthHandler issue 6928",
            description="AuthHandler panic tracked by issue 6928",
        ),
        make_fact(
            "memory-recall",
            "自动召回必须控制预算并过滤泛化词。",
            title="记忆召回策略",
            description="项目记忆需要按相关性自动召回",
        ),
        make_fact(
            "auth-notes",
            "Authentication uses a signed session cookie.",
            title="Authentication notes",
            description="General authentication design notes",
        ),
    ]


GENERIC = [
    "continue",
    "Continue.",
    "please continue",
    "  PLEASE   continue!! ",
    "go on",
    "next",
    "ok",
    "OK",
    "okay",
    "yes",
    "no",
    "thanks",
    "继续",
    "继续。",
    "好的",
    "好",
    "是",
    "否",
    "下一步",
    "谢谢！",
]


@pytest.mark.parametrize("message", GENERIC)
def test_generic_turns_never_recall(store: list, message: str) -> None:  # type: ignore[type-arg]
    assert is_generic_turn(message)
    result = recall(store, message)
    assert result.block == ""
    assert result.trace.reason is Reason.GENERIC_TURN
    assert result.trace.chars_used == 0


@pytest.mark.parametrize(
    "message",
    [
        "can you help me with this?",
        "what should we do now?",
        "please look at it again",
        "帮我看一下这个",
        "我们接下来做什么？",
        "这个是什么意思",
    ],
)
def test_vague_common_word_requests_recall_nothing(store: list, message: str) -> None:  # type: ignore[type-arg]
    result = recall(store, message)
    assert result.block == ""
    assert result.trace.selected == ()
    assert result.trace.reason in {Reason.NO_SEARCHABLE_TERMS, Reason.NO_DISTINCTIVE_MATCH}


def test_only_common_words_have_no_searchable_terms(store: list) -> None:  # type: ignore[type-arg]
    result = recall(store, "could you please tell me what this is")
    assert result.trace.reason is Reason.NO_SEARCHABLE_TERMS
    assert result.trace.terms == ()


def test_one_weak_term_in_a_long_question_is_not_enough(store: list) -> None:  # type: ignore[type-arg]
    result = recall(store, "fix the authentication issue in this large application")
    assert result.block == ""
    assert result.trace.reason is Reason.NO_DISTINCTIVE_MATCH


def test_identifier_question_recalls_the_right_fact_with_reasons(store: list) -> None:  # type: ignore[type-arg]
    result = recall(store, "fix AuthHandler panic from #6928")
    [hit] = result.trace.selected
    assert hit.ref == "project/authhandler-6928.md"
    assert set(hit.matched) == {"authhandler", "panic", "6928"}
    assert hit.reason == "matched authhandler, panic, 6928; project scope"
    assert hit.freshness is Freshness.FRESH
    assert hit.score > 0
    assert 'reason="matched authhandler, panic, 6928; project scope"' in result.block
    assert "ref=project/authhandler-6928.md" in result.block


def test_one_distinctive_term_alone_is_enough(store: list) -> None:  # type: ignore[type-arg]
    result = recall(store, "what was #6928 about, and what should I change in the tests")
    assert [s.ref for s in result.trace.selected] == ["project/authhandler-6928.md"]


def test_chinese_question_recalls_the_chinese_fact(store: list) -> None:  # type: ignore[type-arg]
    result = recall(store, "如何优化项目记忆自动召回？")
    [hit] = result.trace.selected
    assert hit.ref == "project/memory-recall.md"
    assert {"项目", "记忆", "自动", "召回"} <= set(hit.matched)
    assert hit.reason.startswith("matched 项目, ")
    assert hit.reason.endswith("; project scope")
    assert "记忆召回策略" in result.block


def test_a_query_of_exactly_one_cjk_bigram_recalls(make_fact: MakeFact) -> None:
    facts = [make_fact("cache", "缓存在每次发布后清空。"), make_fact("other", "部署流程。")]
    assert [s.ref for s in recall(facts, "缓存？").trace.selected] == ["project/cache.md"]


def test_one_long_term_in_a_short_query_recalls(make_fact: MakeFact) -> None:
    facts = [make_fact("k8s", "Kubernetes manifests live in deploy/."), make_fact("x", "Other.")]
    assert [s.ref for s in recall(facts, "kubernetes").trace.selected] == ["project/k8s.md"]
    # The same word inside a longer question is not enough alone.
    assert recall(facts, "kubernetes fails on startup with a timeout").block == ""


def test_two_fact_store_recalls(make_fact: MakeFact) -> None:
    facts = [
        make_fact("deploy", "Deploy payments to the green cluster."),
        make_fact("style", "Use tabs in Makefiles."),
    ]
    result = recall(facts, "where do we deploy payments?")
    assert [s.ref for s in result.trace.selected] == ["project/deploy.md"]
    assert result.trace.selected[0].score > 0


def test_term_in_every_fact_still_scores_positive(make_fact: MakeFact) -> None:
    facts = [make_fact("a", "payments deploy green"), make_fact("b", "payments deploy red")]
    result = recall(facts, "deploy payments")
    assert len(result.trace.selected) == 2
    assert all(s.score > 0 for s in result.trace.selected)


def test_project_fact_overrides_its_global_twin(make_fact: MakeFact) -> None:
    g = make_fact(
        "deploy-target",
        "Deploy payments to the legacy cluster.",
        scope=Scope.GLOBAL,
        title="Deploy target",
        description="Deployment target for payments",
    )
    p = make_fact(
        "deploy-target",
        "Deploy payments to the green cluster.",
        title="Deploy target",
        description="Deployment target for payments",
    )
    conflict = Conflict(
        key="name", project_ref=p.ref, global_ref=g.ref, project_id=p.id, global_id=g.id
    )
    result = recall([g, p], "deploy payments target cluster", conflicts=[conflict])
    assert [s.ref for s in result.trace.selected] == ["project/deploy-target.md"]
    assert "green cluster" in result.block and "legacy cluster" not in result.block
    [sup] = [s for s in result.trace.suppressed if s.id is not None]
    assert (sup.reason, sup.ref) == (Reason.PROJECT_OVERRIDE, "global/deploy-target.md")


def test_project_override_by_same_id_in_both_stores(make_fact: MakeFact) -> None:
    shared = "mem-" + "ab" * 16
    g = make_fact(
        "release", "Release on Fridays via the legacy train.", scope=Scope.GLOBAL, id=shared
    )
    p = make_fact("release", "Release on Tuesdays via the new train.", id=shared)
    conflict = Conflict(
        key="id", project_ref=p.ref, global_ref=g.ref, project_id=shared, global_id=shared
    )
    result = recall([g, p], "release train schedule", conflicts=[conflict])
    assert [s.ref for s in result.trace.selected] == ["project/release.md"]


def test_without_the_conflict_both_twins_may_be_recalled(make_fact: MakeFact) -> None:
    g = make_fact("deploy-target", "Deploy payments to the legacy cluster.", scope=Scope.GLOBAL)
    p = make_fact("deploy-target", "Deploy payments to the green cluster.")
    result = recall([g, p], "deploy payments target cluster")
    assert [s.scope for s in result.trace.selected] == [Scope.PROJECT, Scope.GLOBAL]


@pytest.mark.parametrize("type_", [FactType.USER, FactType.FEEDBACK])
def test_global_user_and_feedback_facts_are_never_recalled(
    make_fact: MakeFact, type_: FactType
) -> None:
    style = make_fact(
        "response-style",
        "Keep technical explanations concise and concrete.",
        type=type_,
        scope=Scope.GLOBAL,
        description="User prefers concise technical explanations",
    )
    other = make_fact("unrelated", "The build uses ninja.")
    result = recall([style, other], "keep technical explanations concise")
    assert result.block == ""
    assert result.trace.reason is Reason.STABLE_GUIDANCE
    assert any(
        s.reason is Reason.STABLE_GUIDANCE and s.ref == style.ref for s in result.trace.suppressed
    )


def test_project_user_fact_is_recalled(make_fact: MakeFact) -> None:
    style = make_fact("response-style", "Keep technical explanations concise.", type=FactType.USER)
    result = recall([style], "keep technical explanations concise")
    assert [s.ref for s in result.trace.selected] == [style.ref]


def test_global_reference_fact_is_recalled(make_fact: MakeFact) -> None:
    ref = make_fact(
        "grafana",
        "Dashboards: grafana.example.com/d/payments",
        scope=Scope.GLOBAL,
        type=FactType.REFERENCE,
    )
    result = recall([ref], "payments grafana dashboards")
    assert [s.ref for s in result.trace.selected] == ["global/grafana.md"]
    assert "scope=global" in result.block and "; global scope" in result.block


def test_project_boost_and_stale_penalty(make_fact: MakeFact) -> None:
    body = "Deploy payments to the cluster."
    p = make_fact("p", body)
    g = make_fact("g", body, scope=Scope.GLOBAL)
    old = make_fact("o", body, age_days=400)
    result = recall([g, old, p], "deploy payments cluster", max_facts=8)
    scores = {s.ref: s.score for s in result.trace.selected}
    assert scores["project/p.md"] == pytest.approx(scores["global/g.md"] * 1.08, rel=1e-3)
    assert scores["project/o.md"] == pytest.approx(scores["project/p.md"] * 0.92, rel=1e-3)
    # 1.08 * 0.92 < 1: a stale project fact ranks just below a fresh global one.
    assert [s.ref for s in result.trace.selected] == ["project/p.md", "global/g.md", "project/o.md"]
    assert result.trace.selected[2].freshness is Freshness.STALE


def test_ties_break_by_updated_at_then_id(make_fact: MakeFact) -> None:
    body = "Deploy payments to the cluster."
    newer = make_fact("n", body, age_days=1, id="mem-" + "f" * 32)
    older = make_fact("o", body, age_days=2, id="mem-" + "0" * 32)
    same_a = make_fact("a", body, age_days=3, id="mem-" + "1" * 32)
    same_b = make_fact("b", body, age_days=3, id="mem-" + "2" * 32)
    result = recall([same_b, older, same_a, newer], "deploy payments cluster", max_facts=8)
    assert [s.ref for s in result.trace.selected] == [
        "project/n.md",
        "project/o.md",
        "project/a.md",
        "project/b.md",
    ]


def test_hits_far_below_the_best_are_dropped(make_fact: MakeFact) -> None:
    strong = make_fact("strong", "release_v2 checklist: tag, changelog, release_v2 notes, sign.")
    weak = make_fact("weak", "A checklist. " + "filler words here " * 60 + " notes")
    result = recall([strong, weak], "release_v2 checklist notes", max_facts=8)
    assert [s.ref for s in result.trace.selected] == ["project/strong.md"]
    assert result.trace.candidates == 2
    assert result.trace.omitted == 0


def test_fact_limit_and_omitted_count(make_fact: MakeFact) -> None:
    facts = [make_fact(f"deploy-{i}", f"Deploy payments step {i}.") for i in range(7)]
    result = recall(facts, "deploy payments")
    assert len(result.trace.selected) == 4
    assert result.trace.omitted == 3
    assert "omitted=3" in result.block
    over = [s for s in result.trace.suppressed if s.reason is Reason.OVER_BUDGET]
    assert len(over) == 3
    assert len(recall(facts, "deploy payments", max_facts=100).trace.selected) == 7  # max 8


def test_empty_store(make_fact: MakeFact) -> None:
    result = recall([], "deploy payments")
    assert result.trace.reason is Reason.STORE_EMPTY
    assert result.block == ""


def test_no_match_at_all(store: list) -> None:  # type: ignore[type-arg]
    result = recall(store, "kubernetes helm chart values")
    assert result.trace.reason is Reason.NO_DISTINCTIVE_MATCH
    assert result.trace.candidates == 0


def test_very_long_message_matches_terms_beyond_the_first_64(make_fact: MakeFact) -> None:
    facts = [make_fact("kafka", "Kafka consumer lag alerts page the payments oncall.")]
    filler = " ".join(f"word{i}x" for i in range(80))  # 80 distinct non-matching terms first
    result = recall(facts, f"{filler} kafka consumer lag")
    [hit] = result.trace.selected
    assert set(hit.matched) == {"kafka", "consumer", "lag"}


# -- review fixes: generic turns with filler, vague requests, every suppression listed ------


@pytest.fixture
def filler_store(make_fact: MakeFact) -> list:  # type: ignore[type-arg]
    """Facts that share the filler words of generic turns and vague requests."""
    return [
        make_fact(
            "refactor-plan",
            "Continue the AuthHandler refactor: keep going with the session tokens, then "
            "update the file and check the code changes. Please proceed step by step.",
            title="AuthHandler refactor plan",
        ),
        make_fact(
            "发布分支",
            "好的，继续执行发布分支的工作：先更新文件，再修复代码，下一步是部署。",
            title="发布分支工作",
        ),
        make_fact("sessions", "Session tokens expire after one hour; update the token file."),
    ]


GENERIC_WITH_FILLER = [
    "ok continue",
    "please continue then",
    "keep going, continue",
    "继续执行",
    "好的，继续执行吧",
    "OK, go ahead and do it now.",
    "yes, next step please",
    "ok 继续",
    "是否可以开始？",
    "请继续执行一下吧",
    "嗯，好的，然后呢",
]


@pytest.mark.parametrize("message", GENERIC_WITH_FILLER)
def test_generic_turns_with_filler_never_recall(filler_store: list, message: str) -> None:  # type: ignore[type-arg]
    assert is_generic_turn(message)
    result = recall(filler_store, message)
    assert result.block == ""
    assert result.trace.selected == ()
    assert result.trace.reason is Reason.GENERIC_TURN
    assert [s.reason for s in result.trace.suppressed] == [Reason.GENERIC_TURN]


@pytest.mark.parametrize(
    ("message", "ref"),
    [
        ("continue the AuthHandler refactor", "project/refactor-plan.md"),
        ("ok, continue the AuthHandler refactor", "project/refactor-plan.md"),
        ("继续发布分支的工作", "project/发布分支.md"),
    ],
)
def test_a_real_request_among_generic_words_still_recalls(
    filler_store: list,
    message: str,
    ref: str,  # type: ignore[type-arg]
) -> None:
    assert not is_generic_turn(message)
    assert [s.ref for s in recall(filler_store, message).trace.selected] == [ref]


@pytest.mark.parametrize(
    "message", ["可行", "继续部署", "next release", "go build", "ok 6928", "1", "…", ""]
)
def test_generic_detection_needs_every_word_generic(message: str) -> None:
    assert not is_generic_turn(message)


def test_generic_detection_is_linear_on_long_filler() -> None:
    assert not is_generic_turn("嗯" * 5000 + "X")
    assert not is_generic_turn("continue " * 200)  # too long to be a generic turn


@pytest.mark.parametrize(
    "message",
    [
        "update the file",
        "the session",
        "tokens",
        "fix the code",
        "check the changes",
        "run it again",
        "add a new file",
        "help with this issue",
        "更新一下文件",
        "修复代码",
        "会话令牌",
        "继续工作",
    ],
)
def test_vague_programming_requests_recall_nothing(filler_store: list, message: str) -> None:  # type: ignore[type-arg]
    result = recall(filler_store, message)
    assert result.block == ""
    assert result.trace.reason in {Reason.NO_SEARCHABLE_TERMS, Reason.GENERIC_TURN}
    assert result.trace.terms == ()


@pytest.mark.parametrize(
    ("message", "ref"),
    [
        ("update AuthHandler", "project/refactor-plan.md"),
        ("update the file for #6928", "project/issue-6928.md"),
        ("fix the code in release_v2", "project/release-v2.md"),
    ],
)
def test_identifiers_still_recall_among_common_words(
    make_fact: MakeFact, message: str, ref: str
) -> None:
    facts = [
        make_fact("refactor-plan", "Update AuthHandler before the release."),
        make_fact("issue-6928", "Issue 6928: the file update races."),
        make_fact("release-v2", "release_v2 code freeze on Friday."),
    ]
    assert [s.ref for s in recall(facts, message).trace.selected] == [ref]


def test_facts_matched_without_a_distinctive_match_are_listed(make_fact: MakeFact) -> None:
    facts = [make_fact("k8s", "Kubernetes manifests live in deploy/."), make_fact("x", "Other.")]
    result = recall(facts, "kubernetes fails on startup with a timeout")
    assert result.block == ""
    assert result.trace.reason is Reason.NO_DISTINCTIVE_MATCH
    whole, per_fact = result.trace.suppressed
    assert (whole.reason, whole.id) == (Reason.NO_DISTINCTIVE_MATCH, None)
    assert (per_fact.reason, per_fact.ref) == (Reason.NO_DISTINCTIVE_MATCH, "project/k8s.md")
    assert per_fact.id == facts[0].id and per_fact.revision == 1
    assert per_fact.score is not None and per_fact.score > 0
    assert "kubernetes" in per_fact.message


def test_facts_under_the_relative_cut_are_listed_as_weak_match(make_fact: MakeFact) -> None:
    strong = make_fact("strong", "release_v2 checklist: tag, changelog, release_v2 notes, sign.")
    weak = make_fact("weak", "A checklist. " + "filler words here " * 60 + " notes")
    result = recall([strong, weak], "release_v2 checklist notes", max_facts=8)
    assert [s.ref for s in result.trace.selected] == ["project/strong.md"]
    [cut] = result.trace.suppressed
    assert (cut.reason, cut.ref) == (Reason.WEAK_MATCH, "project/weak.md")
    assert cut.message == Reason.WEAK_MATCH.text and "0.24" in cut.message
    assert cut.score is not None
    assert cut.score < 0.24 * result.trace.selected[0].score


def test_every_kind_of_suppression_in_one_trace(make_fact: MakeFact) -> None:
    """Policy first, then the relative cut, the fact limit, and loose matches last."""
    style = make_fact(
        "style",
        "Deploy payments notes: concise.",
        title="Deploy notes style",
        type=FactType.USER,
        scope=Scope.GLOBAL,
    )
    top = [make_fact(f"deploy-{i}", f"Deploy payments cluster {i}.") for i in range(3)]
    weak = make_fact("weak", "Deploy " + "unrelated filler " * 200 + "payments", title="Payments")
    loose = make_fact("loose", "The cluster is shared.")
    result = recall([style, *top, weak, loose], "deploy payments cluster", max_facts=2)
    kinds = [(s.reason, s.ref) for s in result.trace.suppressed]
    assert kinds == [
        (Reason.STABLE_GUIDANCE, "global/style.md"),
        (Reason.WEAK_MATCH, "project/weak.md"),
        (Reason.OVER_BUDGET, kinds[2][1]),
        (Reason.NO_DISTINCTIVE_MATCH, "project/loose.md"),
    ]
    assert result.trace.suppressed_more == 0


def test_suppression_lists_are_capped_per_kind(make_fact: MakeFact) -> None:
    strong = make_fact("strong", "release_v2 checklist notes " * 3)
    weak = [
        make_fact(
            f"weak-{i}", "A checklist. " + "filler words " * 90 + " notes", title=f"Checklist {i}"
        )
        for i in range(13)
    ]
    loose = [make_fact(f"loose-{i}", "The checklist is long.") for i in range(12)]
    result = recall([strong, *weak, *loose], "release_v2 checklist notes", max_facts=8)
    assert [s.ref for s in result.trace.selected] == ["project/strong.md"]
    by_kind = Counter(s.reason for s in result.trace.suppressed)
    assert by_kind == {Reason.WEAK_MATCH: 10, Reason.NO_DISTINCTIVE_MATCH: 10}
    assert result.trace.suppressed_more == 3 + 2


def test_project_override_and_stable_guidance_are_capped_per_kind(make_fact: MakeFact) -> None:
    # release_v2 is identifier-like: no fact here is a side match on frequent words only.
    body = "Deploy payments cluster release_v2."
    guidance = [
        make_fact(f"g-{i}", body, type=FactType.FEEDBACK, scope=Scope.GLOBAL) for i in range(11)
    ]
    twins = []
    conflicts = []
    for i in range(11):
        g = make_fact(f"t-{i}", body, scope=Scope.GLOBAL)
        p = make_fact(f"t-{i}", body)
        twins += [g, p]
        conflicts.append(
            Conflict(
                key="name", project_ref=p.ref, global_ref=g.ref, project_id=p.id, global_id=g.id
            )
        )
    result = recall([*guidance, *twins], "deploy payments cluster release_v2", conflicts=conflicts)
    by_kind = Counter(s.reason for s in result.trace.suppressed)
    assert by_kind[Reason.PROJECT_OVERRIDE] == 10
    assert by_kind[Reason.STABLE_GUIDANCE] == 10
    assert by_kind[Reason.OVER_BUDGET] == 7  # 11 project twins, 4 selected
    assert result.trace.suppressed_more == 1 + 1


@pytest.mark.parametrize(
    "bad", [{"max_facts": 0}, {"max_facts": -1}, {"max_chars": 0}, {"max_chars": -400}]
)
def test_non_positive_limits_are_refused_not_defaulted(make_fact: MakeFact, bad: dict) -> None:  # type: ignore[type-arg]
    facts = [make_fact("deploy", "Deploy payments cluster.")]
    with pytest.raises(InvalidRequest):
        recall(facts, "deploy payments cluster", **bad)


def test_limits_are_clamped_to_the_documented_range(make_fact: MakeFact) -> None:
    facts = [make_fact("deploy", "Deploy payments cluster.")]
    trace = recall(facts, "deploy payments cluster", max_facts=50, max_chars=1).trace
    assert (trace.max_facts, trace.char_budget) == (8, 480)
    trace = recall(facts, "deploy payments cluster", max_facts=None, max_chars=None).trace
    assert (trace.max_facts, trace.char_budget) == (4, 2400)
