"""Claude Code hooks fed the documented JSON on stdin: what they print, what the gate did, and
that a hook never breaks the agent (exit 0, nothing printed, the error logged)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mcp_helpers import run_cli

from context_center.engine import Engine
from context_center.engine.agents.claude_memory import encode_project, memory_file


def _payload(workspace: Path, event: str, **extra: Any) -> str:
    base = {
        "session_id": "abc123",
        "transcript_path": str(workspace / "transcript.jsonl"),
        "cwd": str(workspace),
        "permission_mode": "default",
        "hook_event_name": event,
    }
    return json.dumps(base | extra)


def _hook(engine: Engine, event: str, stdin: str) -> tuple[int, str, str]:
    return run_cli(["--home", str(engine.home), "hook", "claude-code", event], stdin)


def _memory_dir(user_home: Path, workspace: Path) -> Path:
    return user_home / ".claude" / "projects" / encode_project(str(workspace)) / "memory"


def _write(path: Path, content: str) -> dict[str, Any]:
    return {"tool_name": "Write", "tool_input": {"file_path": str(path), "content": content}}


def _decision(stdout: str) -> dict[str, Any]:
    out = json.loads(stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse" and out["permissionDecision"] == "deny"
    return dict(out)


CLAUDE_MEMORY = """---
name: ci runner
description: CI runs on the self-hosted runner pool
type: project
---

The CI workflows run on the self-hosted pool `ci-large`; GitHub-hosted runners are too small.
"""


def test_encoding_matches_claude_code() -> None:
    # Reference values computed with Claude Code's own algorithm (JavaScript).
    assert encode_project("/home/user/my_example.workspace") == "-home-user-my-example-workspace"
    assert encode_project("/Users/Bob Smith/项目/app") == "-Users-Bob-Smith----app"
    assert encode_project("/tmp/emoji-😀-x") == "-tmp-emoji----x"
    long = "/home/user/" + "very-long-folder-name/" * 12 + "project"
    assert encode_project(long) == encode_project(long)[:200] + "-u2kgci"


def test_memory_folder_of_the_project(user_home: Path, workspace: Path) -> None:
    folder = _memory_dir(user_home, workspace)
    assert memory_file({"file_path": str(folder / "a.md")}, [folder]) == (folder / "a.md", folder)
    assert memory_file({"file_path": str(folder / "a.txt")}, [folder]) is None
    assert memory_file({"file_path": "relative/memory/a.md"}, [folder]) is None
    assert memory_file({"file_path": str(workspace / "notes.md")}, [folder]) is None
    sneaky = folder / ".." / ".." / "other" / "memory" / "a.md"
    assert memory_file({"file_path": str(sneaky)}, [folder]) is None


def test_a_subfolder_session_uses_the_repository_folder(seeded: Engine, user_home: Path) -> None:
    sub = seeded.workspace / "pkg"
    sub.mkdir()
    target = _memory_dir(user_home, seeded.workspace) / "from_sub.md"
    payload = json.loads(_payload(sub, "PreToolUse", **_write(target, CLAUDE_MEMORY)))
    code, out, _ = _hook(seeded, "PreToolUse", json.dumps(payload))
    reason = _decision(out)["permissionDecisionReason"]
    assert code == 0 and "saved this memory as project/ci-runner.md" in reason
    assert "memory/from_sub.md" in reason and not target.exists()


def test_user_prompt_submit_prints_the_recall_block(seeded: Engine) -> None:
    prompt = "how do we cut a release branch?"
    code, out, err = _hook(
        seeded, "UserPromptSubmit", _payload(seeded.workspace, "UserPromptSubmit", prompt=prompt)
    )
    assert code == 0, err
    context = json.loads(out)["hookSpecificOutput"]
    assert context["hookEventName"] == "UserPromptSubmit"
    assert "project/release-branch.md" in context["additionalContext"]
    assert os.fspath(seeded.home) not in out and os.fspath(seeded.workspace) not in out
    trace = seeded.last_trace()
    assert trace is not None and trace.query == prompt  # recorded like any turn
    entry = seeded.access_log()[0]
    assert entry["via"] == "hook" and entry["tool"] == "recall" and entry["agent"] == "claude-code"


def test_an_input_that_starts_with_a_bom_is_read(seeded: Engine) -> None:
    stdin = "\ufeff" + _payload(seeded.workspace, "UserPromptSubmit", prompt="release branch?")
    code, out, err = _hook(seeded, "UserPromptSubmit", stdin)
    assert code == 0, err
    assert "project/release-branch.md" in json.loads(out)["hookSpecificOutput"]["additionalContext"]


def test_generic_turn_prints_nothing(seeded: Engine) -> None:
    code, out, _ = _hook(
        seeded,
        "UserPromptSubmit",
        _payload(seeded.workspace, "UserPromptSubmit", prompt="continue"),
    )
    assert code == 0 and out == ""


def test_session_start_is_guidance_and_index_without_instructions(seeded: Engine) -> None:
    (seeded.workspace / "CLAUDE.md").write_text("Use the staging cluster for experiments.\n")
    code, out, err = _hook(
        seeded, "SessionStart", _payload(seeded.workspace, "SessionStart", source="startup")
    )
    assert code == 0, err
    text = json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert "# Memory index" in text and "project/release-branch.md" in text
    assert "Write tests with pytest fixtures" in text  # stable guidance (global feedback)
    assert "staging cluster" not in text  # Claude Code loads its instruction files itself


def test_low_risk_create_is_saved_in_the_store_not_in_claudes_folder(
    seeded: Engine, user_home: Path
) -> None:
    """A low-risk new memory is saved where the session's index and recall find it: the
    project store. Claude Code's folder stays as it was (a file there without a MEMORY.md
    line, which is never written for the agent, would be seen by neither program; an outside
    review found the saved memory lost that way)."""
    target = _memory_dir(user_home, seeded.workspace) / "ci_runner.md"
    stdin = _payload(seeded.workspace, "PreToolUse", **_write(target, CLAUDE_MEMORY))
    code, out, err = _hook(seeded, "PreToolUse", stdin)
    assert code == 0, err
    decision = _decision(out)
    reason = decision["permissionDecisionReason"]
    assert decision["permissionDecision"] == "deny"
    assert "saved this memory as project/ci-runner.md" in reason and "memory/ci_runner.md" in reason
    assert not target.exists() and not target.parent.exists()
    assert os.fspath(user_home) not in out
    assert seeded.pending_approvals() == []
    fact = seeded.read_fact("project/ci-runner.md").fact
    assert (fact.description, fact.type.value) == (
        "CI runs on the self-hosted runner pool",
        "project",
    )
    assert "`ci-large`" in fact.body
    # the next session's index lists it, and a prompt about it recalls it
    _, start, _ = _hook(seeded, "SessionStart", _payload(seeded.workspace, "SessionStart"))
    assert "project/ci-runner.md" in json.loads(start)["hookSpecificOutput"]["additionalContext"]
    ask = _payload(seeded.workspace, "UserPromptSubmit", prompt="which runner pool does CI use?")
    _, recalled, _ = _hook(seeded, "UserPromptSubmit", ask)
    assert "project/ci-runner.md" in json.loads(recalled)["hookSpecificOutput"]["additionalContext"]
    # The same write again: saved already, so it is not saved twice
    _, out, _ = _hook(seeded, "PreToolUse", stdin)
    assert "saved this memory" not in _decision(out)["permissionDecisionReason"]
    assert [f.ref for f in seeded.open().facts].count("project/ci-runner.md") == 1
    assert not target.exists()


def test_risky_writes_are_queued_and_denied_with_the_pending_id(
    seeded: Engine, user_home: Path
) -> None:
    folder = _memory_dir(user_home, seeded.workspace)
    feedback = CLAUDE_MEMORY.replace("type: project", "type: feedback").replace(
        "ci runner", "be brief"
    )
    _, out, _ = _hook(
        seeded,
        "PreToolUse",
        _payload(seeded.workspace, "PreToolUse", **_write(folder / "brief.md", feedback)),
    )
    reason = _decision(out)["permissionDecisionReason"]
    pending = seeded.pending_approvals()
    assert len(pending) == 1 and pending[0].id in reason
    assert "type_needs_confirmation" in reason
    assert not (folder / "brief.md").exists()
    # Once a person approves, the fact lives in Context Center's store and is recalled.
    seeded.approve(pending[0].id)
    assert seeded.read_fact("project/be-brief.md").fact.type.value == "feedback"


def test_edit_of_an_existing_file_is_queued(seeded: Engine, user_home: Path) -> None:
    folder = _memory_dir(user_home, seeded.workspace)
    folder.mkdir(parents=True)
    (folder / "ci.md").write_text(CLAUDE_MEMORY)
    edit = {
        "tool_name": "Edit",
        "tool_input": {
            "file_path": str(folder / "ci.md"),
            "old_string": "`ci-large`",
            "new_string": "`ci-xlarge`",
        },
    }
    _, out, _ = _hook(seeded, "PreToolUse", _payload(seeded.workspace, "PreToolUse", **edit))
    reason = _decision(out)["permissionDecisionReason"]
    assert "claude_memory_edit" in reason
    record = seeded.pending_approvals()[0]
    assert "`ci-xlarge`" in (record.content.body or "")  # the edit as it would have landed
    assert "`ci-large`" in (folder / "ci.md").read_text()
    multi = {
        "tool_name": "MultiEdit",
        "tool_input": {
            "file_path": str(folder / "ci.md"),
            "edits": [{"old_string": "nope", "new_string": "x"}],
        },
    }
    _, out, _ = _hook(seeded, "PreToolUse", _payload(seeded.workspace, "PreToolUse", **multi))
    assert "edit_not_applicable" in _decision(out)["permissionDecisionReason"]


def test_index_file_subagent_and_other_paths(seeded: Engine, user_home: Path) -> None:
    folder = _memory_dir(user_home, seeded.workspace)
    index = _payload(
        seeded.workspace, "PreToolUse", **_write(folder / "MEMORY.md", "- [ci](ci.md)\n")
    )
    _, out, _ = _hook(seeded, "PreToolUse", index)
    assert "memory_index" in _decision(out)["permissionDecisionReason"]
    sub = _payload(
        seeded.workspace,
        "PreToolUse",
        agent_id="a1",
        agent_type="general-purpose",
        **_write(folder / "x.md", CLAUDE_MEMORY),
    )
    _, out, _ = _hook(seeded, "PreToolUse", sub)
    assert "subagent" in _decision(out)["permissionDecisionReason"]
    assert not (folder / "x.md").exists()
    elsewhere = _payload(
        seeded.workspace, "PreToolUse", **_write(seeded.workspace / "notes.md", "hi")
    )
    code, out, _ = _hook(seeded, "PreToolUse", elsewhere)
    assert code == 0 and out == ""
    bash = _payload(seeded.workspace, "PreToolUse", tool_name="Bash", tool_input={"command": "ls"})
    assert _hook(seeded, "PreToolUse", bash)[1] == ""


@pytest.mark.parametrize(
    ("event", "stdin"),
    [
        ("UserPromptSubmit", "not json"),
        ("UserPromptSubmit", "[]"),
        ("UserPromptSubmit", json.dumps({"cwd": "relative/dir", "prompt": "release branch"})),
        ("UserPromptSubmit", json.dumps({"cwd": "/", "prompt": 5})),
        ("Stop", json.dumps({"cwd": "/"})),
    ],
)
def test_errors_print_nothing_and_exit_zero(
    seeded: Engine, event: str, stdin: str, caplog: pytest.LogCaptureFixture
) -> None:
    code, out, _ = _hook(seeded, event, stdin)
    assert code == 0 and out == ""
    assert "context-center hook claude-code" in caplog.text  # logged (stderr in a real run)


def test_real_hook_process(seeded: Engine) -> None:
    """One run of the console entry point, as Claude Code starts it."""
    stdin = _payload(seeded.workspace, "UserPromptSubmit", prompt="when is the deploy window?")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "context_center",
            "--home",
            str(seeded.home),
            "hook",
            "claude-code",
            "UserPromptSubmit",
        ],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=seeded.workspace,
    )
    assert done.returncode == 0, done.stderr
    assert (
        "project/deploy-window.md"
        in json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    )


def test_a_hook_with_a_missing_workspace_prints_nothing_and_exits_0(tmp_path: Path) -> None:
    """A deleted cwd or a wrong --workspace is our failure: the agent goes on (exit 0)."""
    gone = tmp_path / "gone"
    stdin = _payload(gone, "UserPromptSubmit", prompt="when is the deploy window?")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "context_center",
            "--home",
            str(tmp_path / "home"),
            "--workspace",
            str(gone),
            "hook",
            "claude-code",
            "UserPromptSubmit",
        ],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == ""


def test_a_prompt_with_a_lone_surrogate_is_still_answered(seeded: Engine) -> None:
    """JSON may spell a lone surrogate; it is read as U+FFFD, so the turn is recalled and
    traced as any other (the trace could not be written before)."""
    stdin = _payload(seeded.workspace, "UserPromptSubmit", prompt="release branch \udcff cut")
    assert "\\udcff" in stdin
    code, out, err = _hook(seeded, "UserPromptSubmit", stdin)
    assert code == 0, err
    assert "project/release-branch.md" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    trace = seeded.last_trace()
    assert trace is not None and trace.query == "release branch \ufffd cut"


def test_a_cwd_that_is_not_a_folder_writes_nothing(tmp_path: Path) -> None:
    """No --workspace and a cwd that does not exist: nothing printed, and no state, trace or
    access log is made in the home for a folder that is not there."""
    home = tmp_path / "home"
    gone = tmp_path / "gone"
    code, out, _err = run_cli(
        ["--home", str(home), "hook", "claude-code", "UserPromptSubmit"],
        _payload(gone, "UserPromptSubmit", prompt="when is the deploy window?"),
    )
    assert (code, out) == (0, "")
    assert not home.exists() or not any(p.is_file() for p in home.rglob("*"))
