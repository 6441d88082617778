"""Real transcript shapes: Codex sessions an agent started, and Codex rollouts in the 2025 format."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

from sugg_env import FIXTURES, Env, install, local_mounts, tree_snapshot

from context_center.engine.model import FactType
from context_center.engine.suggestions import ScanResult, scan

NOW = datetime(2026, 10, 10, 12, 0, tzinfo=UTC)


def _install(env: Env, folder: str) -> None:
    for name in sorted(os.listdir(FIXTURES / folder)):
        stamp = name[len("rollout-") : len("rollout-") + 10]
        year, month, day = stamp.split("-")
        install(
            FIXTURES / folder / name,
            env.codex / "sessions" / year / month / day / name,
            env.workspace,
            env.other,
            f"{stamp}T23:30:00+00:00",
        )


def _scan(env: Env) -> ScanResult:
    return scan(env.layout, [], [], now=NOW, **env.scan_kwargs())  # type: ignore[arg-type]


def _codex(result: ScanResult) -> dict[str, object]:
    return next(s for s in result.sources if s.source == "codex").model_dump()


def test_sessions_a_sub_agent_or_review_started_are_not_the_persons_words(empty_env: Env) -> None:
    _install(empty_env, "codex-agents")
    result = _scan(empty_env)
    dumped = result.model_dump_json()
    for prompt in ("P1 findings", "src/payments", "report the diff", "delete files outside"):
        assert prompt not in dumped, prompt
    assert [m.title for m in result.memories] == ["From now on, keep every migration reversible"]
    codex = _codex(result)
    assert codex["agent_sessions"] == 3 and codex["sessions"] == 1 and codex["turns"] == 1


def test_agent_sessions_do_not_crowd_out_the_persons(env: Env) -> None:
    _install(env, "codex-agents")
    result = scan(env.layout, [], [], now=NOW, session_limit=2, **env.scan_kwargs())  # type: ignore[arg-type]
    codex = _codex(result)
    # the two newest sessions of the workspace that a person started, not the agents' three
    assert codex["sessions"] == 2 and codex["agent_sessions"] == 3
    assert any(e.source == "codex" for m in result.memories for e in m.evidence)


def test_codex_rollouts_in_the_2025_format_are_read(empty_env: Env) -> None:
    _install(empty_env, "codex-2025")
    result = _scan(empty_env)
    found = {m.title: m for m in result.memories}
    assert set(found) == {"Always write docstrings in English", "以后提交前先运行 ruff"}
    docs = found["Always write docstrings in English"].evidence[0]
    assert (docs.source, docs.session, docs.time) == (
        "codex",
        "c27a914d-1f2e-4a3b-9c8d-7e6f5a4b3c2d",
        "2025-08-20T13:20:47.060Z",  # the header's time: the items carry none
    )
    ruff = found["以后提交前先运行 ruff"]
    assert ruff.type is FactType.PROJECT
    assert ruff.evidence[0].time == "2025-09-13T01:00:05.000Z"  # an item's own time wins
    dumped = result.model_dump_json()
    for not_evidence in ("payment SDK", "answer tersely", "Never skip docstrings", "I will always"):
        assert not_evidence not in dumped
    codex = _codex(result)
    assert (codex["files"], codex["sessions"], codex["turns"], codex["malformed"]) == (2, 2, 2, 1)


def test_reading_old_and_agent_rollouts_writes_nothing(empty_env: Env) -> None:
    _install(empty_env, "codex-agents")
    _install(empty_env, "codex-2025")
    before = tree_snapshot(empty_env.root)
    assert _scan(empty_env).memories
    assert tree_snapshot(empty_env.root) == before


def _scan_claude(tmp_path: Path, workspace: Path) -> ScanResult:
    """A scan of ``workspace`` whose Claude Code folder is ``tmp_path/dot-claude``."""
    from context_center.engine.store.paths import Layout

    return scan(
        Layout(tmp_path / "home", workspace),
        [],
        [],
        now=NOW,
        claude_root=tmp_path / "dot-claude",
        codex_root=tmp_path / "no-codex",
        mounts=local_mounts,
    )


def test_claude_transcripts_of_a_long_workspace_path_are_found(tmp_path: Path) -> None:
    from context_center.engine.agents.claude_memory import encode_project
    from context_center.engine.suggestions.claude_source import claude_folder_names

    workspace = tmp_path.joinpath(*["a-rather-long-folder-name"] * 9)
    workspace.mkdir(parents=True)
    hashed = encode_project(str(workspace))
    assert len(str(workspace)) > 200 and hashed in claude_folder_names(workspace)
    folder = tmp_path / "dot-claude" / "projects" / hashed
    folder.mkdir(parents=True)
    line = {
        "type": "user",
        "cwd": str(workspace),
        "sessionId": "5b1d8f7a-0c2e-4e6b-9a41-3f2d7c9e8a10",
        "timestamp": "2026-10-01T09:00:00.000Z",
        "isSidechain": False,
        "message": {"role": "user", "content": "Never force-push to main."},
    }
    (folder / "5b1d8f7a-0c2e-4e6b-9a41-3f2d7c9e8a10.jsonl").write_text(json.dumps(line) + "\n")
    result = _scan_claude(tmp_path, workspace)
    assert [m.title for m in result.memories] == ["Never force-push to main"]


def test_a_time_with_no_utc_time_is_no_time() -> None:
    """Year 1 east of UTC (or 9999 west of it) cannot be shown in UTC: such a turn is undated
    instead of an OverflowError out of the scan."""
    from context_center.engine.suggestions.turns import parse_time

    assert parse_time("0001-01-01T00:00:00+01:00") is None
    assert parse_time("9999-12-31T23:59:59-01:00") is None
    assert parse_time("2026-05-01T10:00:00+00:00") == datetime(2026, 5, 1, 10, tzinfo=UTC)
    assert parse_time("2026-05-01T10:00:00") == datetime(2026, 5, 1, 10, tzinfo=UTC)


def _claude_line(workspace: Path, session: str, uuid: str, text: str, when: str) -> str:
    return json.dumps(
        {
            "type": "user",
            "uuid": uuid,
            "cwd": str(workspace),
            "sessionId": session,
            "timestamp": when,
            "message": {"role": "user", "content": text},
        }
    )


def test_a_message_copied_into_a_resumed_session_counts_once(tmp_path: Path) -> None:
    """``claude --resume`` starts a new file with copies of the earlier session's lines (same
    ``uuid``), and a line can be written twice: each message is one piece of evidence. Two
    messages with the same words (different ids) are still two."""
    from context_center.engine.suggestions.claude_source import claude_folder_names

    workspace = tmp_path / "ws"
    workspace.mkdir()
    folder = tmp_path / "dot-claude" / "projects" / claude_folder_names(workspace)[0]
    folder.mkdir(parents=True)
    rule, other = "Never force-push to main.", "Always run ruff before a commit."
    old, new = "1b0c3f2e-aaaa-4e6b-9a41-3f2d7c9e8a10", "2c1d4a3f-bbbb-4e6b-9a41-3f2d7c9e8a10"
    first = _claude_line(workspace, old, "u-1", rule, "2026-10-01T09:00:00.000Z")
    ruff = _claude_line(workspace, old, "u-2", other, "2026-10-01T09:05:00.000Z")
    (folder / f"{old}.jsonl").write_text(first + "\n" + ruff + "\n" + ruff + "\n")
    again = _claude_line(workspace, new, "u-3", other, "2026-10-02T09:00:00.000Z")
    (folder / f"{new}.jsonl").write_text(first + "\n" + ruff + "\n" + again + "\n")
    os.utime(folder / f"{old}.jsonl", (1_790_000_000, 1_790_000_000))
    result = _scan_claude(tmp_path, workspace)
    counts = {m.title: len(m.evidence) for m in result.memories}
    assert counts == {"Never force-push to main": 1, "Always run ruff before a commit": 2}
    claude = next(s for s in result.sources if s.source == "claude")
    assert (claude.sessions, claude.turns) == (2, 3)
