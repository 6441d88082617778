"""Claude Code hooks fed what an agent (or a hostile repository) may hand them: a hook never
breaks the turn (exit 0, at most one line on standard error) and writes nothing outside
Claude Code's auto-memory folder, least of all into Context Center's own store."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from inproc import run_inprocess

from context_center.engine import Engine, FactType, Scope
from context_center.engine.agents.claude_memory import encode_project

MEMORY = "---\nname: ci runner\ndescription: CI runs on the pool\ntype: project\n---\n\nci-large\n"


@pytest.fixture
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "user-home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    return path


@pytest.fixture
def seeded(home: Path, workspace: Path) -> Engine:
    engine = Engine(home=home, workspace=workspace)
    engine.create_fact(
        name="release-branch",
        title="Release branch",
        description="Releases are cut from release/* branches",
        type=FactType.PROJECT,
        scope=Scope.PROJECT,
        body="We cut every release from a release/* branch, never main.",
    )
    return engine


def _store_files(engine: Engine) -> dict[str, bytes]:
    root = engine.layout.project_store
    return {p.name: p.read_bytes() for p in root.iterdir() if p.is_file()}


def _pre_tool_use(engine: Engine, tool: str, tool_input: dict[str, Any]) -> dict[str, Any]:
    payload = {
        "session_id": "s",
        "cwd": str(engine.workspace),
        "hook_event_name": "PreToolUse",
        "tool_name": tool,
        "tool_input": tool_input,
    }
    done = run_inprocess(
        ["--home", str(engine.home), "hook", "claude-code", "PreToolUse"], json.dumps(payload)
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert os.fspath(engine.home) not in done.stdout
    return dict(out)


@pytest.mark.parametrize("tool", ["Write", "Edit"])
def test_a_symlinked_subfolder_into_the_store_is_not_written_through(
    seeded: Engine, user_home: Path, tool: str
) -> None:
    memory = user_home / ".claude" / "projects" / encode_project(str(seeded.workspace)) / "memory"
    memory.mkdir(parents=True)
    (memory / "linked").symlink_to(seeded.layout.project_store, target_is_directory=True)
    (memory / "release.md").symlink_to(seeded.layout.project_store / "release-branch.md")
    before = _store_files(seeded)
    for name in ("linked/new-note.md", "linked/release-branch.md", "release.md"):
        tool_input = {"file_path": str(memory / name), "content": MEMORY}
        if tool == "Edit":
            tool_input = {"file_path": str(memory / name), "old_string": "We", "new_string": "I"}
        out = _pre_tool_use(seeded, tool, tool_input)
        assert "outside_memory_folder" in out["permissionDecisionReason"]
    assert _store_files(seeded) == before
    assert seeded.approvals.pending() == []


def test_a_symlinked_subfolder_elsewhere_is_not_written_through(
    seeded: Engine, user_home: Path, tmp_path: Path
) -> None:
    memory = user_home / ".claude" / "projects" / encode_project(str(seeded.workspace)) / "memory"
    memory.mkdir(parents=True)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (memory / "out").symlink_to(elsewhere, target_is_directory=True)
    out = _pre_tool_use(seeded, "Write", {"file_path": str(memory / "out/x.md"), "content": MEMORY})
    assert "outside_memory_folder" in out["permissionDecisionReason"]
    assert list(elsewhere.iterdir()) == []
    # A real subfolder of the memory folder is still the memory folder.
    out = _pre_tool_use(seeded, "Write", {"file_path": str(memory / "sub/x.md"), "content": MEMORY})
    reason = out["permissionDecisionReason"]
    assert "saved this memory as project/" in reason and "memory/sub/x.md" in reason
    assert not (memory / "sub").exists()  # saved in the store, not in Claude Code's folder


def test_an_event_or_agent_word_with_controls_logs_one_line(seeded: Engine) -> None:
    env = dict(os.environ, CONTEXT_CENTER_HOME=str(seeded.home))
    for agent, event in (
        ("claude-code", "Use\nPrompt\x1b[31m"),
        ("\x1b]0;x\x07\n", "SessionStart"),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "context_center", "hook", agent, event],
            input=json.dumps({"cwd": str(seeded.workspace)}),
            capture_output=True,
            text=True,
            env=env,
            cwd=seeded.workspace,
            timeout=60,
        )
        assert done.returncode == 0 and done.stdout == ""
        assert done.stderr.count("\n") == 1 and done.stderr.endswith("\n"), done.stderr
        assert "\x1b" not in done.stderr and "\x07" not in done.stderr
