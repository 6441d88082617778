"""Skill candidates: repeated multi-step requests, thresholds, suppression by existing skills."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from sugg_env import Env

from context_center.engine.suggestions import ScanResult, append_turn, scan
from context_center.engine.suggestions.skills import split_steps

NOW = datetime(2026, 10, 10, 12, 0, tzinfo=UTC)
T0 = datetime(2026, 10, 1, 9, 0, tzinfo=UTC)


def _scan(env: Env) -> ScanResult:
    return scan(env.layout, [], [], now=NOW, **env.scan_kwargs())  # type: ignore[arg-type]


def _log(env: Env, items: list[tuple[str, str]]) -> None:
    for i, (session, text) in enumerate(items):
        append_turn(env.layout, text, session=session, time=T0 + timedelta(minutes=i))


WORKFLOW_EN = "run the tests, then fix lint, then commit"
WORKFLOW_ZH = "先跑测试，然后修复 lint，最后提交"


def test_english_and_chinese_requests_share_one_workflow() -> None:
    en = [sorted(s.key) for s in split_steps(WORKFLOW_EN)]
    zh = [sorted(s.key) for s in split_steps(WORKFLOW_ZH)]
    assert en == zh == [["test"], ["fix", "lint"], ["commit"]]
    assert [s.text for s in split_steps("1. build\n2. deploy to staging\n3. notify the team")] == [
        "build",
        "deploy to staging",
        "notify the team",
    ]
    assert [sorted(s.key) for s in split_steps("先测试再提交")] == [["test"], ["commit"]]
    assert [s.text for s in split_steps("Run tests then fix lint and then commit")] == [
        "Run tests",
        "fix lint",
        "commit",
    ]
    assert split_steps("fix the flaky test") == []  # one step is not a workflow
    assert split_steps("再次运行测试") == []  # 再次 ("again") is not a sequence


@pytest.mark.parametrize(
    ("items", "expected"),
    [
        ([("s1", WORKFLOW_EN), ("s1", WORKFLOW_ZH)], 0),  # 2 turns, 1 session
        ([("s1", WORKFLOW_EN), ("s1", WORKFLOW_ZH), ("s1", WORKFLOW_EN)], 0),  # 3 turns, 1 session
        ([("s1", WORKFLOW_EN), ("s2", WORKFLOW_ZH)], 0),  # 2 turns, 2 sessions
        ([("s1", WORKFLOW_EN), ("s1", WORKFLOW_ZH), ("s2", WORKFLOW_EN)], 1),  # 3 turns, 2 sessions
    ],
)
def test_skill_threshold(empty_env: Env, items: list[tuple[str, str]], expected: int) -> None:
    _log(empty_env, items)
    skills = _scan(empty_env).skills
    assert len(skills) == expected
    if expected:
        skill = skills[0]
        assert skill.name == "test-fix-lint-commit"
        assert skill.turns == 3 and skill.sessions == 2
        assert len(skill.steps) == 3
        assert skill.path == ".agents/skills/test-fix-lint-commit/SKILL.md"
        assert {e.session for e in skill.evidence} == {"s1", "s2"}
        assert all(e.quote in (WORKFLOW_EN, WORKFLOW_ZH) for e in skill.evidence)
        assert "## Steps" in skill.body and "1. " in skill.body


def test_skill_from_the_real_format_fixtures(env: Env) -> None:
    skills = _scan(env).skills
    assert [s.name for s in skills] == ["test-fix-lint-commit"]
    skill = skills[0]
    # claude x3 (two sessions), codex x1, history x1; the other workspace's request is not evidence
    assert skill.turns == 5 and skill.sessions == 4
    assert "1f1f1f1f-2e2e-4d4d-8c8c-3b3b3b3b3b3b" not in skill.model_dump_json()


def test_different_workflows_do_not_merge(empty_env: Env) -> None:
    _log(
        empty_env,
        [
            ("s1", "build it, then deploy to staging"),
            ("s2", "build it, then deploy to staging"),
            ("s2", "run the tests, then deploy to staging"),
        ],
    )
    assert _scan(empty_env).skills == []


def test_a_sequence_without_any_workflow_step_is_not_a_skill(empty_env: Env) -> None:
    _log(
        empty_env,
        [("s1", "把日志级别调成 debug 再试一次")] * 2 + [("s2", "把日志级别调成 debug 再试一次")],
    )
    assert _scan(empty_env).skills == []


def test_the_usual_wording_and_evidence_from_each_session(empty_env: Env) -> None:
    _log(
        empty_env,
        [
            ("s1", WORKFLOW_EN),
            ("s1", WORKFLOW_EN),
            ("s1", WORKFLOW_EN),
            ("s2", WORKFLOW_ZH),
        ],
    )
    [skill] = _scan(empty_env).skills
    assert skill.steps == ["Run the tests", "Fix lint", "Commit"]
    assert {e.session for e in skill.evidence} == {"s1", "s2"}


@pytest.mark.parametrize("folder", [".agents/skills", ".claude/skills"])
def test_an_existing_skill_of_that_name_suppresses_the_candidate(
    empty_env: Env, folder: str
) -> None:
    _log(empty_env, [("s1", WORKFLOW_EN), ("s1", WORKFLOW_ZH), ("s2", WORKFLOW_EN)])
    assert _scan(empty_env).skills
    skill_dir = empty_env.workspace / folder / "test-fix-lint-commit"
    skill_dir.mkdir(parents=True)
    (skill_dir / "SKILL.md").write_text("---\nname: test-fix-lint-commit\ndescription: mine\n---\n")
    assert _scan(empty_env).skills == []


def test_skill_ids_are_stable(empty_env: Env) -> None:
    _log(empty_env, [("s1", WORKFLOW_EN), ("s1", WORKFLOW_ZH), ("s2", WORKFLOW_EN)])
    first = _scan(empty_env).skills[0].id
    append_turn(empty_env.layout, WORKFLOW_ZH, session="s3", time=T0 + timedelta(days=1))
    second = _scan(empty_env).skills[0]
    assert second.id == first and second.turns == 4


@pytest.mark.parametrize(
    "turn",
    [
        "Why did you run the tests, then commit?",
        "Did you run the tests and then commit?",
        "How do I run the tests then commit",
        "Don't commit and then push without a review.",
        "Never rebase, then force-push to main.",
        "不要先提交再测试。",
        "为什么先跑测试然后提交？",
    ],
)
def test_a_question_or_a_prohibition_asks_for_no_workflow(turn: str) -> None:
    assert split_steps(turn) == []


def test_a_polite_request_is_a_workflow_and_its_steps_lose_the_question_mark() -> None:
    steps = split_steps("Can you run the tests, then fix lint, then commit?")
    assert [s.text for s in steps] == ["run the tests", "fix lint", "commit"]
