"""Scanning real-format Claude Code, Codex CLI and history files for memory and skill candidates."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sugg_env import Env, tree_snapshot

from context_center.engine.model import Fact, FactType, Scope
from context_center.engine.store.paths import Layout
from context_center.engine.suggestions import ScanResult, append_turn, scan
from context_center.engine.suggestions.service import SESSION_LIMIT

NOW = datetime(2026, 10, 10, 12, 0, tzinfo=UTC)

EXPECTED = {
    # a repository convention is project even when phrased with always/never (commit, PR, push, 发布)
    "Always run ruff before committing": FactType.PROJECT,
    "以后回答都用中文，代码注释用英文": FactType.FEEDBACK,
    # the whole sentence: the words before the marker belong to the rule
    "我们约定分支名用 feat/ 前缀，PR 标题用英文": FactType.PROJECT,
    "Always check https://docs.example.com/api/v2 before changing the client": FactType.REFERENCE,
    "By default use pnpm, not npm, for the frontend": FactType.USER,
    "Never force-push to main; open a pull request instead": FactType.PROJECT,
    "I prefer small pull requests over big ones": FactType.PROJECT,
    "每次发布前更新 CHANGELOG": FactType.PROJECT,
}

NOT_EVIDENCE = [
    "wrapper is not a turn",  # slash-command wrapper
    "tool output over guesses",  # tool_result
    "vendored directory while searching",  # sidechain (sub-agent prompt)
    "tabs in the Makefile",  # one-off ("this time")
    "British English",  # typed in a subdirectory: not this workspace's cwd
    "keep the summary short",  # compaction summary
    "Always use pytest",  # AGENTS.md injected by Codex
    "answer briefly",  # <user_instructions>
    "always run the linter",  # function_call_output
    "I will always use pnpm",  # assistant text
    "Always prefer pnpm",  # reasoning
    "vendored 目录",  # one-off (暂时)
    "deploy on Fridays",  # other workspace (Claude)
    "vendor dependencies",  # other workspace (Codex)
    "payment gateway",  # other workspace (history)
    "happy to help",  # assistant role in history
    "version two",  # unknown history version
]


def _scan(
    env: Env, facts: list[Fact] | None = None, bodies: list[str] | None = None, **kw: object
) -> ScanResult:
    return scan(env.layout, facts or [], bodies or [], now=NOW, **(env.scan_kwargs() | kw))  # type: ignore[arg-type]


def _statements(result: ScanResult) -> dict[str, FactType]:
    return {m.body.split("\n", 1)[0].rstrip("。."): m.type for m in result.memories}


def _fact(name: str, body: str, scope: Scope = Scope.PROJECT, title: str = "") -> Fact:
    return Fact(
        id="mem-" + f"{abs(hash((name, scope.value))):032x}"[-32:],
        revision=1,
        created_at=NOW,
        updated_at=NOW,
        name=name,
        title=title or name,
        description="",
        type=FactType.USER,
        scope=scope,
        body=body,
    )


def test_memory_candidates_from_every_source_in_english_and_chinese(env: Env) -> None:
    result = _scan(env)
    assert result.available and result.explanation is None
    assert _statements(result) == EXPECTED
    sources = {e.source for m in result.memories for e in m.evidence}
    assert sources == {"claude", "codex", "history"}
    for m in result.memories:
        assert m.scope is Scope.PROJECT
        assert "**Why:**" in m.body and "**How to apply:**" in m.body
        assert m.evidence and all(e.session and e.time and e.quote for e in m.evidence)
        assert m.title and m.description and m.name


def test_newest_first(env: Env) -> None:
    times = [m.evidence[0].time for m in _scan(env).memories]
    assert times == sorted(times, reverse=True)


def test_only_user_authored_turns_of_this_workspace_count(env: Env) -> None:
    result = _scan(env)
    dumped = result.model_dump_json()
    for phrase in NOT_EVIDENCE:
        assert phrase not in dumped, phrase


def test_evidence_quotes_the_turn_with_session_and_time(env: Env) -> None:
    result = _scan(env)
    ruff = next(m for m in result.memories if "ruff" in m.title)
    assert [(e.source, e.session, e.time, e.quote) for e in ruff.evidence] == [
        (
            "claude",
            "5b1d8f7a-0c2e-4e6b-9a41-3f2d7c9e8a10",
            "2026-10-01T09:01:00.000Z",
            "Remember: always run ruff before committing.",
        ),
    ]
    zh = next(m for m in result.memories if m.title.startswith("我们约定"))
    assert "<system-reminder>" not in zh.evidence[0].quote


def test_codex_turn_written_twice_counts_once(env: Env) -> None:
    result = _scan(env)
    pnpm = next(m for m in result.memories if "pnpm" in m.title)
    assert len(pnpm.evidence) == 1
    codex = next(s for s in result.sources if s.source == "codex")
    # pnpm, the workflow and the one-off from the new rollout; force-push from the old one.
    assert codex.turns == 4 and codex.sessions == 2 and codex.files == 2


def test_malformed_lines_are_skipped_and_counted_per_source(env: Env) -> None:
    result = _scan(env)
    assert result.malformed == {"history": 3, "claude": 2, "codex": 1}
    assert all(s.status == "ok" for s in result.sources)


def test_ids_and_names_are_stable_across_scans(env: Env) -> None:
    first = _scan(env)
    again = _scan(env)
    assert [m.id for m in first.memories] == [m.id for m in again.memories]
    assert [m.name for m in first.memories] == [m.name for m in again.memories]
    assert [s.id for s in first.skills] == [s.id for s in again.skills]
    # A new, unrelated turn does not change the other candidates' ids.
    append_turn(
        env.layout,
        "Never merge on a Friday.",
        session="s-new",
        time=datetime(2026, 10, 9, tzinfo=UTC),
    )
    later = _scan(env)
    assert {m.id for m in first.memories} - {m.id for m in later.memories} <= {
        first.memories[-1].id
    }
    assert later.memories[0].title == "Never merge on a Friday"


def test_chinese_candidates_get_distinct_stable_ascii_names(env: Env) -> None:
    names = [m.name for m in _scan(env).memories]
    assert len(set(names)) == len(names)
    zh = [m for m in _scan(env).memories if not m.title.isascii()]
    assert len(zh) == 3
    for m in zh:
        assert m.name.isascii() and len(m.name.rsplit("-", 1)[1]) == 8


def test_identical_statements_merge_into_one_candidate_with_more_evidence(env: Env) -> None:
    append_turn(
        env.layout,
        "please, always run ruff before committing!",
        session="s-repeat",
        time=datetime(2026, 10, 8, tzinfo=UTC),
    )
    result = _scan(env)
    ruff = [m for m in result.memories if "ruff" in m.title.lower()]
    assert len(ruff) == 1
    assert [e.session for e in ruff[0].evidence] == [
        "s-repeat",
        "5b1d8f7a-0c2e-4e6b-9a41-3f2d7c9e8a10",
    ]
    assert "2 times" in ruff[0].body


def test_dedup_against_facts_of_both_scopes_and_instruction_bodies(env: Env) -> None:
    facts = [
        _fact("ruff", "Always run ruff before committing."),
        _fact(
            "pr-size", "The user said: I prefer small pull requests over big ones.", Scope.GLOBAL
        ),
    ]
    bodies = [
        "# Shop\n\n- By default use pnpm, not npm, for the frontend.\n- 每次发布前更新 CHANGELOG\n"
    ]
    result = _scan(env, facts, bodies)
    left = set(_statements(result))
    assert left == set(EXPECTED) - {
        "Always run ruff before committing",
        "I prefer small pull requests over big ones",
        "By default use pnpm, not npm, for the frontend",
        "每次发布前更新 CHANGELOG",
    }


def test_phrase_level_overlap_with_an_instruction(env: Env) -> None:
    # Neither is a substring of the other: the instruction words it differently.
    bodies = [
        "# Conventions\n\n1. Prefer small pull requests.\n2. 发布前要更新 changelog。\n"
        "3. Ask before rebasing shared branches.\n"
    ]
    left = set(_statements(_scan(env, [], bodies)))
    assert left == set(EXPECTED) - {
        "I prefer small pull requests over big ones",
        "每次发布前更新 CHANGELOG",
    }


def test_a_long_body_only_matches_phrase_by_phrase(env: Env) -> None:
    long_fact = _fact(
        "notes", "Deployment happens on Tuesdays. " * 40 + "Never force-push to main."
    )
    left = set(_statements(_scan(env, [long_fact])))
    force = "Never force-push to main; open a pull request instead"
    assert force not in left and "Always run ruff before committing" in left


def test_a_fact_name_already_taken_gets_a_suffixed_name(env: Env) -> None:
    base = _scan(env)
    ruff = next(m for m in base.memories if "ruff" in m.title)
    unrelated = _fact(
        ruff.name, "Something else entirely about deployment windows.", title="Deploy windows"
    )
    again = next(m for m in _scan(env, [unrelated]).memories if m.id == ruff.id)
    assert again.name.startswith(ruff.name + "-") and again.name != ruff.name


def test_missing_sources_are_skipped(empty_env: Env) -> None:
    result = _scan(empty_env)
    assert result.available
    assert result.memories == [] and result.skills == []
    assert {s.source: s.status for s in result.sources} == {
        "history": "missing",
        "claude": "missing",
        "codex": "missing",
    }


def test_only_the_last_sessions_are_considered(empty_env: Env) -> None:
    words = [f"{a}{b}" for a in "bcdfghjklmnpqrst" for b in ("ax", "eb", "ic", "od", "uf", "yz")]
    for i in range(SESSION_LIMIT + 3):
        text = f"Always {words[3 * i]} the {words[3 * i + 1]} {words[3 * i + 2]}."
        append_turn(
            empty_env.layout,
            text,
            session=f"s{i:03d}",
            time=datetime(2026, 1, 1, tzinfo=UTC).replace(day=1 + i % 28, month=1 + i // 28),
        )
    result = _scan(empty_env)
    assert result.sessions_scanned == SESSION_LIMIT
    sessions = {e.session for m in result.memories for e in m.evidence}
    assert "s000" not in sessions and f"s{SESSION_LIMIT + 2:03d}" in sessions
    assert len(result.memories) == 8


# ---------------------------------------------------------------- fail closed


@pytest.mark.parametrize(
    "workspace",
    [
        "ssh://build-box/home/ana/shop",
        "vscode-remote://ssh-remote+build-box/home/ana/shop",
        "build-box:/home/ana/shop",
        "ana@build-box:shop",
    ],
)
def test_remote_workspace_fails_closed(env: Env, workspace: str) -> None:
    layout = Layout(env.home, Path(workspace))
    result = scan(layout, [], [], now=NOW, **env.scan_kwargs())  # type: ignore[arg-type]
    assert not result.available
    assert result.memories == [] and result.skills == [] and result.sources == []
    assert result.explanation and "remote" in result.explanation


def test_a_uri_made_absolute_by_a_caller_still_fails_closed(env: Env) -> None:
    layout = Layout(env.home, Path("ssh://box/srv/shop").absolute())
    result = scan(layout, [], [], now=NOW, **env.scan_kwargs())  # type: ignore[arg-type]
    assert not result.available and "remote" in (result.explanation or "")


def test_a_workspace_missing_locally_fails_closed(env: Env) -> None:
    layout = Layout(env.home, env.root / "not-here")
    result = scan(layout, [], [], now=NOW, **env.scan_kwargs())  # type: ignore[arg-type]
    assert not result.available and result.memories == []
    assert "does not exist" in (result.explanation or "")


def test_a_workspace_on_a_network_mount_fails_closed(env: Env) -> None:
    mounts = lambda: [("/", "ext4"), (str(env.root / "work"), "nfs4")]  # noqa: E731
    result = _scan(env, mounts=mounts)
    assert not result.available and result.memories == [] and result.skills == []
    assert "nfs4" in (result.explanation or "")


def test_a_source_on_a_network_mount_is_not_read(env: Env) -> None:
    mounts = lambda: [("/", "ext4"), (str(env.codex), "fuse.sshfs")]  # noqa: E731
    result = _scan(env, mounts=mounts)
    codex = next(s for s in result.sources if s.source == "codex")
    assert codex.status == "unconfirmed" and codex.turns == 0
    assert not any(e.source == "codex" for m in result.memories for e in m.evidence)


# ---------------------------------------------------------------- read-only


def test_scanning_writes_nothing(env: Env) -> None:
    before = tree_snapshot(env.root)
    result = _scan(env)
    assert result.memories and result.skills
    _scan(env, [_fact("x", "Always run ruff before committing.")], ["body"])
    assert tree_snapshot(env.root) == before


def test_scanning_a_fresh_home_creates_nothing(empty_env: Env) -> None:
    before = tree_snapshot(empty_env.root)
    _scan(empty_env)
    assert tree_snapshot(empty_env.root) == before
    assert not empty_env.layout.state_dir.exists()


def test_a_chinese_statement_gets_a_chinese_why_and_how_to_apply() -> None:
    """Chinese and English are equal citizens in suggestions: the body follows the statement's
    language under the same two labels, and every marker's reason has a Chinese form."""
    from context_center.engine.model import FactType
    from context_center.engine.suggestions import memorybody, mining
    from context_center.engine.suggestions.textual import Evidence

    newest = Evidence("history", "s9", datetime(2026, 3, 4, 5, 6, tzinfo=UTC), "以后都用中文回答")
    body = mining.memory_body(
        "以后都用中文回答", "future-facing preference", FactType.USER, newest, 2
    )
    assert body.startswith(
        "以后都用中文回答。\n\n**Why:** 你在本工作区自己的会话中说过 2 次（面向以后的偏好）"
    )
    assert "2026-03-04 在本工作区的会话日志的会话 s9 中" in body
    assert "**How to apply:** 在这里选择工作方式和回答方式时考虑这一点。" in body
    assert not re.search(
        r"[A-Za-z]{4,}", body.replace("**Why:**", "").replace("**How to apply:**", "")
    )
    english = mining.memory_body(
        "Always run ruff", "persistent working rule", FactType.FEEDBACK, newest, 1
    )
    assert "**Why:** You said this (persistent working rule) once in your own sessions" in english
    assert {reason for _, reason in mining._MARKERS} <= memorybody.REASON_ZH.keys()
    assert memorybody.HOW_TO_APPLY_ZH.keys() == memorybody.HOW_TO_APPLY.keys()


def test_a_chinese_workflow_gets_a_chinese_skill_description_and_body() -> None:
    from context_center.engine.suggestions import skillfile, skills

    steps = ("先跑测试", "修复 lint", "最后提交")
    assert skills._description(steps, " → ".join(steps)) == (
        "本工作区中反复要求的工作流程：先跑测试 → 修复 lint → 最后提交"
    )
    body = skillfile.skill_body("test-lint-commit", "d", steps, 4, 3, "先跑测试，然后修复 lint")
    assert "## 步骤\n\n1. 先跑测试\n2. 修复 lint\n3. 最后提交" in body
    assert "根据本工作区 3 个会话中的 4 次请求提出" in body
    english = skillfile.skill_body("lint", "d", ("Run the tests", "Fix lint"), 4, 3)
    assert "## Steps" in english and "Suggested from 4 requests across 3 sessions" in english
