"""``connect``/``disconnect`` against golden files for each client: files with other servers,
unrelated keys and comments come back byte for byte; unparseable files are refused with
nothing written; ``--dry-run`` writes nothing; the Connections status follows the files."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import platformdirs
import pytest
from mcp_helpers import run_cli

from context_center.engine import Engine, InvalidRequest

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("CONTEXT_CENTER_UPDATE_GOLDEN") == "1"


@pytest.fixture
def on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ``context-center`` on PATH, so configs name it plainly (as an installed one would)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "context-center"
    exe.write_text("#!/bin/sh\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")


@pytest.fixture
def default_engine(workspace: Path, on_path: None) -> Engine:
    """An engine on the default home: no ``--home`` in what connect writes."""
    home = Path(platformdirs.user_data_dir("context-center", "context-center"))
    return Engine(home=home, workspace=workspace)


CASES = {
    # case: agent, scope, {golden file: where it lives (relative to user home or workspace)}
    "claude-project": (
        "claude-code",
        "project",
        {"mcp.json": "ws:.mcp.json", "settings.json": "ws:.claude/settings.json"},
    ),
    "claude-user": (
        "claude-code",
        "user",
        {"claude.json": "home:.claude.json", "settings.json": "home:.claude/settings.json"},
    ),
    "codex-user": ("codex", "user", {"config.toml": "home:.codex/config.toml"}),
    "cursor-project": ("cursor", "project", {"mcp.json": "ws:.cursor/mcp.json"}),
}


def _where(spec: str, user_home: Path, workspace: Path) -> Path:
    base, _, rel = spec.partition(":")
    return (user_home if base == "home" else workspace) / rel


@pytest.mark.parametrize("case", sorted(CASES))
def test_golden_round_trip(
    case: str, default_engine: Engine, user_home: Path, workspace: Path
) -> None:
    agent, scope, files = CASES[case]
    folder = GOLDEN / case
    placed: dict[str, Path] = {}
    for name, spec in files.items():
        path = _where(spec, user_home, workspace)
        placed[name] = path
        before = folder / f"{name}.before"
        if before.exists():
            path.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(before, path)
            path.chmod(0o600)
    connected = default_engine.connect_agent(agent, scope).value
    assert connected["dry_run"] is False
    for name, path in placed.items():
        expected = folder / f"{name}.after"
        if UPDATE:
            expected.write_text(path.read_text())
        assert path.read_text() == expected.read_text(), name
        if (folder / f"{name}.before").exists():
            assert stat.S_IMODE(path.stat().st_mode) == 0o600  # the file's mode is kept
            backup = path.with_name(path.name + ".context-center-backup")
            assert backup.read_text() == (folder / f"{name}.before").read_text()
            assert stat.S_IMODE(backup.stat().st_mode) == 0o600
    again = default_engine.connect_agent(agent, scope).value
    assert {f["action"] for f in again["files"]} == {"unchanged"} and again["diff"] == ""
    status = {(s["agent"], s["scope"]): s for s in default_engine.agent_connections()}
    assert status[(agent, scope)]["state"] == "connected"
    default_engine.disconnect_agent(agent, scope)
    for name, path in placed.items():
        before = folder / f"{name}.before"
        if before.exists():
            assert path.read_bytes() == before.read_bytes(), name
        else:
            assert not path.exists(), name
    status = {(s["agent"], s["scope"]): s for s in default_engine.agent_connections()}
    assert status[(agent, scope)]["state"] == "not_connected"


def test_dry_run_prints_the_diff_and_writes_nothing(
    default_engine: Engine, workspace: Path
) -> None:
    code, out, err = run_cli(
        [
            "--home",
            str(default_engine.home),
            "--workspace",
            str(workspace),
            "connect",
            "cursor",
            "--dry-run",
        ]
    )
    assert code == 0, err
    assert "+++ .cursor/mcp.json" in out and '"context-center"' in out
    assert "dry run: nothing was written" in out
    assert not (workspace / ".cursor").exists()


def test_connect_json_output_and_home_option(home: Path, workspace: Path, on_path: None) -> None:
    code, out, err = run_cli(
        ["--home", str(home), "--workspace", str(workspace), "connect", "claude-code", "--json"]
    )
    assert code == 0, err
    result = json.loads(out)
    assert result["agent"] == "claude-code" and result["scope"] == "project"
    assert [f["action"] for f in result["files"]] == ["created", "created"]
    server = json.loads((workspace / ".mcp.json").read_text())["mcpServers"]["context-center"]
    assert server == {
        "type": "stdio",
        "command": "context-center",
        "args": [
            "--home",
            str(home),
            "mcp",
            "--controller",
            "interactive",
            "--agent",
            "claude-code",
        ],
    }
    hooks = json.loads((workspace / ".claude" / "settings.json").read_text())["hooks"]
    assert hooks["PreToolUse"] == [
        {
            "matcher": "Write|Edit|MultiEdit",
            "hooks": [
                {
                    "type": "command",
                    "command": f"context-center --home {home} hook claude-code PreToolUse",
                }
            ],
        }
    ]
    # Another home: the config no longer points here.
    other = Engine(home=home.parent / "other-home", workspace=workspace)
    status = {(s["agent"], s["scope"]): s for s in other.agent_connections()}
    assert status[("claude-code", "project")]["state"] == "differs"
    code, out, _ = run_cli(
        ["--home", str(home), "--workspace", str(workspace), "disconnect", "claude-code"]
    )
    assert code == 0 and not (workspace / ".mcp.json").exists()


@pytest.mark.parametrize(
    ("agent", "rel", "text"),
    [
        ("cursor", ".cursor/mcp.json", '{"mcpServers": {,}}'),
        ("cursor", ".cursor/mcp.json", '// comment\n{"mcpServers": {}}'),
        ("cursor", ".cursor/mcp.json", "[1, 2]"),
        ("cursor", ".cursor/mcp.json", '{"mcpServers": []}'),
        ("codex", ".codex/config.toml", "[mcp_servers\nbroken = "),
    ],
)
def test_unparseable_config_is_refused(
    default_engine: Engine, workspace: Path, agent: str, rel: str, text: str
) -> None:
    path = workspace / rel
    path.parent.mkdir(parents=True)
    path.write_text(text)
    with pytest.raises(InvalidRequest) as refused:
        default_engine.connect_agent(agent, "project")
    assert "nothing was written" in str(refused.value)
    assert path.read_text() == text
    assert not path.with_name(path.name + ".context-center-backup").exists()
    code, out, _ = run_cli(
        [
            "--home",
            str(default_engine.home),
            "--workspace",
            str(workspace),
            "--json",
            "connect",
            agent,
            "--scope",
            "project",
        ]
    )
    assert code == 1 and json.loads(out)["error"]["code"] in (
        "config_unreadable",
        "invalid_request",
    )


def test_a_foreign_server_of_the_same_name_is_left_alone(
    default_engine: Engine, workspace: Path
) -> None:
    path = workspace / ".cursor" / "mcp.json"
    path.parent.mkdir()
    path.write_text('{"mcpServers": {"context-center": {"command": "something-else"}}}\n')
    with pytest.raises(InvalidRequest):
        default_engine.connect_agent("cursor")
    with pytest.raises(InvalidRequest):
        default_engine.disconnect_agent("cursor")
    assert "something-else" in path.read_text()


def test_status_of_every_agent(default_engine: Engine) -> None:
    states = {(s["agent"], s["scope"]): s["state"] for s in default_engine.agent_connections()}
    assert len(states) == 6 and set(states.values()) == {"not_connected"}


def test_claude_config_dir_holds_both_user_files(
    default_engine: Engine, user_home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``$CLAUDE_CONFIG_DIR`` set, Claude Code (checked with 2.1.332: ``claude mcp add
    --scope user`` writes there, ``claude mcp list`` reads only there) keeps its global config
    in ``$CLAUDE_CONFIG_DIR/.claude.json``, not ``~/.claude.json``; the hooks go to
    ``$CLAUDE_CONFIG_DIR/settings.json``."""
    config = tmp_path / "claude-config"
    config.mkdir()
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    result = default_engine.connect_agent("claude-code", "user").value
    assert [f["action"] for f in result["files"]] == ["created", "created"]
    servers = json.loads((config / ".claude.json").read_text())["mcpServers"]
    assert servers["context-center"]["command"] == "context-center"
    assert "hooks" in json.loads((config / "settings.json").read_text())
    assert not (user_home / ".claude.json").exists()
    assert not (user_home / ".claude").exists()
    status = {(s["agent"], s["scope"]): s for s in default_engine.agent_connections()}
    assert status[("claude-code", "user")]["state"] == "connected"
    default_engine.disconnect_agent("claude-code", "user")
    assert not (config / ".claude.json").exists() and not (config / "settings.json").exists()
