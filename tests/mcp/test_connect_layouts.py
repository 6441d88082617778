"""``connect``/``disconnect`` on configs laid out in ways an edit could misplace or mistake:
TOML layouts whose edit would move keys into another table are refused with nothing written;
lookalike entries that do not run this program are not ours; a file holding none of our
entries is left as it is by ``disconnect``; a linked config keeps its link; a backup is
restored only when it holds the very same JSON (``true`` is not ``1``)."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path

import pytest

from context_center.engine import Engine, InvalidRequest


@pytest.fixture
def engine(home: Path, workspace: Path) -> Engine:
    return Engine(home=home, workspace=workspace)


def _codex(user_home: Path, text: str) -> Path:
    path = user_home / ".codex" / "config.toml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    "text",
    [
        'mcp_servers.alpha.command = "a"\nmodel = "o3"\n',  # dotted keys before a top-level key
        'mcp_servers.context-center = { command = "context-center", args = ["mcp"] }\n'
        'model = "x"\n',
        'mcp_servers = { a = { command = "a" } }\n',  # an inline table
    ],
)
def test_a_toml_layout_the_edit_would_change_the_meaning_of_is_refused(
    engine: Engine, user_home: Path, text: str
) -> None:
    path = _codex(user_home, text)
    with pytest.raises(InvalidRequest) as refused:
        engine.connect_agent("codex")
    assert refused.value.code == "config_unreadable"
    assert "nothing was written" in str(refused.value)
    assert path.read_text() == text
    assert not path.with_name(path.name + ".context-center-backup").exists()


def test_a_toml_edit_that_keeps_the_meaning_is_made(engine: Engine, user_home: Path) -> None:
    text = 'model = "o3"\n\n[mcp_servers.a]\ncommand = "a"\n'
    path = _codex(user_home, text)
    engine.connect_agent("codex")
    data = tomllib.loads(path.read_text())
    assert data["model"] == "o3" and data["mcp_servers"]["a"] == {"command": "a"}
    assert data["mcp_servers"]["context-center"]["args"][-3:] == ["interactive", "--agent", "codex"]
    engine.disconnect_agent("codex")
    assert path.read_text() == text


def test_lookalikes_that_do_not_run_this_program_are_not_ours(
    engine: Engine, workspace: Path
) -> None:
    mcp = workspace / ".mcp.json"
    mcp.write_text(
        '{"mcpServers": {"context-center": {"command": "docker", '
        '"args": ["run", "-i", "ghcr.io/me/context-center-fork", "mcp"]}}}\n'
    )
    with pytest.raises(InvalidRequest):
        engine.disconnect_agent("claude-code")
    mcp.unlink()
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    theirs = {
        "type": "command",
        "command": "~/bin/context-center-audit.sh --log hook claude-code SessionStart",
    }
    settings.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [theirs]}]}}) + "\n")
    before = settings.read_bytes()
    engine.disconnect_agent("claude-code")
    assert settings.read_bytes() == before
    engine.connect_agent("claude-code")
    hooks = json.loads(settings.read_text())["hooks"]["SessionStart"]
    assert hooks[0]["hooks"] == [theirs] and len(hooks) == 2  # theirs kept, ours beside it
    engine.disconnect_agent("claude-code")
    assert settings.read_bytes() == before


@pytest.mark.parametrize(
    ("rel", "text"),
    [
        (".mcp.json", '{\n  "mcpServers": {}\n}\n'),
        (".mcp.json", "{}\n"),
        (
            ".claude/settings.json",
            '{\n  "model": "x",\n  "hooks": {\n    "SessionStart": []\n  }\n}\n',
        ),
        (".claude/settings.json", '{"hooks": {}}\n'),
    ],
)
def test_disconnect_leaves_a_file_without_our_entries_as_it_is(
    engine: Engine, workspace: Path, rel: str, text: str
) -> None:
    path = workspace / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    result = engine.disconnect_agent("claude-code").value
    assert path.read_text() == text
    assert all(f["action"] == "unchanged" for f in result["files"])


def test_disconnect_leaves_an_empty_mcp_servers_table_of_codex(
    engine: Engine, user_home: Path
) -> None:
    text = 'model = "o3"\n\n# my servers go here\n[mcp_servers]\n'
    path = _codex(user_home, text)
    engine.disconnect_agent("codex")
    assert path.read_text() == text


def test_a_linked_config_keeps_its_link(engine: Engine, user_home: Path) -> None:
    dotfiles = user_home / "dotfiles" / "settings.json"
    dotfiles.parent.mkdir()
    dotfiles.write_text('{\n  "theme": "dark"\n}\n')
    link = user_home / ".claude" / "settings.json"
    link.parent.mkdir()
    link.symlink_to(dotfiles)
    engine.connect_agent("claude-code", "user")
    assert link.is_symlink() and os.readlink(link) == str(dotfiles)
    assert "hook claude-code UserPromptSubmit" in dotfiles.read_text()
    engine.disconnect_agent("claude-code", "user")
    assert link.is_symlink() and dotfiles.read_text() == '{\n  "theme": "dark"\n}\n'


def test_the_backup_is_not_restored_over_the_persons_own_values(
    engine: Engine, workspace: Path
) -> None:
    mcp = workspace / ".mcp.json"
    mcp.write_text('{\n  "mcpServers": {"x": {"command": "x"}},\n  "flag": 1\n}\n')
    engine.connect_agent("claude-code")
    data = json.loads(mcp.read_text())
    data["flag"] = True  # the person's edit: JSON's true, which Python finds equal to 1
    mcp.write_text(json.dumps(data, indent=2) + "\n")
    engine.disconnect_agent("claude-code")
    assert json.loads(mcp.read_text())["flag"] is True


def test_a_read_only_config_is_refused_before_anything_is_written(
    engine: Engine, workspace: Path
) -> None:
    mcp = workspace / ".mcp.json"
    mcp.write_text('{\n  "a": 1\n}\n')
    mcp.chmod(0o444)
    with pytest.raises(InvalidRequest) as refused:
        engine.connect_agent("claude-code")
    assert "read-only" in str(refused.value)
    assert mcp.read_text() == '{\n  "a": 1\n}\n'
    assert not (workspace / ".claude").exists()  # the second file was not written either


def test_a_failed_write_is_an_error_that_names_what_was_written(
    engine: Engine, workspace: Path
) -> None:
    from context_center.engine.errors import StoreUnavailable

    (workspace / ".mcp.json").write_text('{\n  "a": 1\n}\n')
    settings = workspace / ".claude" / "settings.json"
    settings.parent.mkdir()
    settings.write_text("{}\n")
    settings.with_name("settings.json.context-center-backup").mkdir()  # the backup cannot go
    with pytest.raises(StoreUnavailable) as failed:
        engine.connect_agent("claude-code")
    assert "cannot write .claude/settings.json" in str(failed.value)
    assert "already written: .mcp.json" in str(failed.value)
    assert settings.read_text() == "{}\n"


def test_connect_again_keeps_what_the_person_added_to_our_entries(
    engine: Engine, workspace: Path, user_home: Path
) -> None:
    engine.connect_agent("claude-code")
    mcp = workspace / ".mcp.json"
    data = json.loads(mcp.read_text())
    data["mcpServers"]["context-center"]["env"] = {"K": "1"}
    mcp.write_text(json.dumps(data, indent=2) + "\n")
    settings = workspace / ".claude" / "settings.json"
    hooks = json.loads(settings.read_text())
    hooks["hooks"]["UserPromptSubmit"][0]["hooks"][0]["timeout"] = 10
    theirs = {"hooks": [{"type": "command", "command": "echo mine"}]}
    hooks["hooks"]["UserPromptSubmit"].append(theirs)  # after ours: the order they run in
    settings.write_text(json.dumps(hooks, indent=2) + "\n")
    before = (mcp.read_bytes(), settings.read_bytes())
    result = engine.connect_agent("claude-code").value
    assert [f["action"] for f in result["files"]] == ["unchanged", "unchanged"]
    assert (mcp.read_bytes(), settings.read_bytes()) == before
    path = _codex(user_home, "")
    engine.connect_agent("codex")
    path.write_text(path.read_text().rstrip("\n") + "\nstartup_timeout_sec = 60\n")
    kept = path.read_text()
    assert engine.connect_agent("codex").value["files"][0]["action"] == "unchanged"
    assert path.read_text() == kept


@pytest.mark.parametrize(
    "text", ['{"x": 1, "a": 1, "a": 2}\n', '{"x": NaN}\n', '{"a": {"b": 1, "b": 1}}\n']
)
def test_json_a_rewrite_could_not_keep_is_refused(
    engine: Engine, workspace: Path, text: str
) -> None:
    mcp = workspace / ".mcp.json"
    mcp.write_text(text)
    with pytest.raises(InvalidRequest) as refused:
        engine.connect_agent("claude-code")
    assert refused.value.code == "config_unreadable"
    assert mcp.read_text() == text and not (workspace / ".claude").exists()


@pytest.mark.parametrize(
    ("agent", "where", "text"),
    [
        ("claude-code", ".mcp.json", '{"mcpServers": []}\n'),
        ("claude-code", ".claude/settings.json", '{"hooks": "none"}\n'),
        ("claude-code", ".claude/settings.json", '{"hooks": {"SessionStart": {}}}\n'),
        ("codex", "~/.codex/config.toml", 'mcp_servers = "off"\n'),
    ],
)
def test_a_config_of_the_wrong_shape_is_unreadable(
    engine: Engine, workspace: Path, user_home: Path, agent: str, where: str, text: str
) -> None:
    path = user_home / where[2:] if where.startswith("~/") else workspace / where
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    with pytest.raises(InvalidRequest) as refused:
        engine.connect_agent(agent)
    assert refused.value.code == "config_unreadable"
    assert path.read_text() == text


def test_disconnect_leaves_no_backup_that_holds_this_home(
    engine: Engine, workspace: Path, home: Path
) -> None:
    """A backup of the connected file holds our entry, and with it this home's path: beside a
    config in a repository it would be one ``git add`` from being shared. ``disconnect``
    writes none, and removes connect's once the file is back to exactly its text."""
    mcp = workspace / ".mcp.json"
    backup = workspace / ".mcp.json.context-center-backup"
    original = '{"mcpServers": {"other": {"command": "other"}}}\n'
    mcp.write_text(original)
    engine.connect_agent("claude-code")
    assert backup.read_text() == original and str(home) in mcp.read_text()
    out = engine.disconnect_agent("claude-code").value
    assert mcp.read_text() == original and not backup.exists()
    assert all(f["backup"] is None for f in out["files"])
    # edited in between: the file is not the backup's text, so connect's backup stays, and
    # nothing written beside the configs names the home
    engine.connect_agent("claude-code")
    data = json.loads(mcp.read_text())
    data["mcpServers"]["third"] = {"command": "third"}
    mcp.write_text(json.dumps(data, indent=2) + "\n")
    engine.disconnect_agent("claude-code")
    assert backup.read_text() == original
    left = [p for p in workspace.rglob("*context-center-backup") if str(home) in p.read_text()]
    assert left == []


@pytest.mark.parametrize(
    "text",
    [
        'model = "o3"',  # no line break at the end
        'model = "o3"\n',
        '# top\n\nmodel = "o3"\n\n\n[mcp_servers.a]\ncommand = "a"\n',
        '[mcp_servers.a]\ncommand = "a"\n\n[profiles.b]\nx = 1',
        '\n\nmodel = "o3"\n\n',
        "[mcp_servers]\n",  # the person's own empty table stays
        'model = "o3"\n\n[mcp_servers]\n# none yet\n',
    ],
)
def test_codex_connect_then_disconnect_gives_the_file_back_byte_for_byte(
    engine: Engine, user_home: Path, text: str
) -> None:
    path = _codex(user_home, text)
    engine.connect_agent("codex")
    assert "context-center" in tomllib.loads(path.read_text())["mcp_servers"]
    engine.disconnect_agent("codex")
    assert path.read_bytes() == text.encode()
    assert not path.with_name(path.name + ".context-center-backup").exists()


def test_a_connect_and_a_disconnect_of_another_home_do_not_interleave(
    engine: Engine, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``connect`` writes ``.mcp.json``, then the hooks file. A ``disconnect`` (another home)
    started between the two waits for the whole connect: both files end unwired, never the
    server wired and the hooks not."""
    import contextlib
    import subprocess
    import sys

    from context_center.engine.agents import config_files

    written = config_files.apply_one
    other: list[subprocess.Popen[bytes]] = []

    def apply_one(edit: config_files.FileEdit, done: list[dict[str, object]], **kw: bool) -> object:
        out = written(edit, done, **kw)
        if not other:
            argv = ["--home", str(tmp_path / "home-b"), "--workspace", str(workspace)]
            cmd = [sys.executable, "-m", "context_center", *argv, "disconnect", "claude-code"]
            other.append(subprocess.Popen(cmd, stdout=subprocess.DEVNULL))
            with contextlib.suppress(subprocess.TimeoutExpired):
                other[0].wait(timeout=3)  # unlocked, it is done by now
        return out

    monkeypatch.setattr(config_files, "apply_one", apply_one)
    engine.connect_agent("claude-code")
    assert other and other[0].wait(timeout=30) == 0
    mcp, hooks = workspace / ".mcp.json", workspace / ".claude" / "settings.json"
    wired = [
        mcp.exists() and "context-center" in json.loads(mcp.read_text()).get("mcpServers", {}),
        hooks.exists() and "hook claude-code" in hooks.read_text(),
    ]
    assert wired == [False, False]


@pytest.mark.parametrize("name", ["settings.json", "config.toml"])
def test_a_linked_config_emptied_by_disconnect_keeps_its_target(
    engine: Engine, user_home: Path, name: str
) -> None:
    """Disconnect of a linked file that held only our entries: the link's target (dotfiles)
    is emptied, not removed, so the link does not dangle."""
    dotfiles = user_home / "dotfiles" / name
    dotfiles.parent.mkdir()
    dotfiles.write_text("")
    where = user_home / (".claude" if name.endswith(".json") else ".codex") / name
    where.parent.mkdir()
    where.symlink_to(dotfiles)
    agent = "claude-code" if name.endswith(".json") else "codex"
    engine.connect_agent(agent, "user")
    assert dotfiles.read_text().strip()
    engine.disconnect_agent(agent, "user")
    assert where.is_symlink() and dotfiles.exists()
    assert dotfiles.read_text() in ("", "{}\n")
