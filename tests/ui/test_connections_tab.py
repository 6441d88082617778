"""The Connections tab through real widgets: connection states from the agents' config files,
the content-free access log, and accesses made by another engine (another process) showing up
live while the tab is shown."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine import AgentCaller, Engine, FactType
from context_center.ui.tabs.connections import ConnectionsTab


@pytest.fixture(autouse=True)
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "user-home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return path


def wait_idle(qtbot, ctx, timeout: int = 5000) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: ctx.is_idle, timeout=timeout)


def test_states_and_the_access_log_follow_other_processes(qtbot, ctx, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    engine.create_fact(
        name="release-branch",
        title="Release branch",
        description="d",
        type=FactType.PROJECT,
        body="Releases come from release/* branches.",
    )
    engine.connect_agent("claude-code")
    tab = _shown(qtbot, ctx)
    wait_idle(qtbot, ctx)
    rows = {(r.agent, r.scope): r for r in tab.connections.rows}
    assert len(rows) == 6
    claude = rows[("claude-code", "project")]
    assert claude.state == "connected" and claude.file == ".mcp.json"
    assert claude.hooks == "UserPromptSubmit, SessionStart, PreToolUse"
    assert rows[("codex", "user")].state == "not_connected"
    assert tab.log.rows == []
    assert "no agent has used this workspace yet" in tab.log_label.text()

    other = Engine(home=engine.home, workspace=engine.workspace)  # another process's server
    caller = AgentCaller(agent="claude-code", client="claude-code")
    other.agent_search("secret release words", caller=caller)
    other.agent_remember(
        {"name": "likes-tabs", "type": "user", "description": "x", "body": "Tabs."}, caller=caller
    )
    done = tab.refresh_count
    qtbot.waitUntil(lambda: tab.refresh_count > done and len(tab.log.rows) == 2, timeout=5000)
    newest, first = tab.log.rows
    assert newest.tool == "remember (mcp)" and newest.outcome == "queued"
    assert newest.detail.startswith("apr-")
    assert first.tool == "memory_search (mcp)" and first.refs == "project/release-branch.md"
    assert first.detail == "query of 20 characters"
    shown = " ".join(str(v) for r in tab.log.rows for v in vars(r).values())
    assert "secret release words" not in shown and "Tabs." not in shown


def test_the_access_log_shows_local_time_like_the_other_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    from context_center.ui.tabs.connections import _access_row

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    try:
        row = _access_row({"at": "2026-12-01T02:30:05Z", "tool": "memory_search"})
        assert row.at == "2026-12-01 11:30"  # UTC+9, to the minute as every table shows it
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


def _shown(qtbot, ctx) -> ConnectionsTab:  # type: ignore[no-untyped-def]
    tab = ConnectionsTab(ctx)
    qtbot.addWidget(tab)
    tab.show()
    qtbot.waitUntil(lambda: tab.refresh_count >= 1, timeout=5000)
    return tab


def _select(qtbot, tab: ConnectionsTab, agent: str, scope: str) -> None:  # type: ignore[no-untyped-def]
    (i,) = [i for i, r in enumerate(tab.connections.rows) if (r.agent, r.scope) == (agent, scope)]
    tab.connections_view.selectRow(i)
    qtbot.waitUntil(lambda: tab.selected_connection() is not None)


def _dialog(qtbot, ctx):  # type: ignore[no-untyped-def]
    from context_center.ui.dialogs.connect_agent import ConnectDialog

    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, ConnectDialog) and ctx.last_dialog.isVisible()
    )
    return ctx.last_dialog


def test_connect_and_disconnect_from_the_window_after_showing_the_change(
    qtbot, ctx, engine: Engine, user_home: Path
) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QDialogButtonBox

    tab = _shown(qtbot, ctx)
    wait_idle(qtbot, ctx)
    assert not tab.connect_button.isEnabled() and not tab.disconnect_button.isEnabled()
    _select(qtbot, tab, "claude-code", "project")
    qtbot.waitUntil(tab.connect_button.isEnabled, timeout=5000)
    assert not tab.disconnect_button.isEnabled()  # nothing to remove yet
    mcp = engine.workspace / ".mcp.json"

    tab.connect_button.click()  # shown, then cancelled: nothing written
    dialog = _dialog(qtbot, ctx)
    assert ".mcp.json" in dialog.files.text() and "hooks" in dialog.intro.text()
    assert "context-center" in dialog.diff.toPlainText()
    assert not dialog.apply_button.isDefault()
    dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Cancel).click()
    wait_idle(qtbot, ctx)
    assert not mcp.exists()

    tab.connect_button.click()
    _dialog(qtbot, ctx).apply_button.click()
    qtbot.waitUntil(
        lambda: any(
            (r.agent, r.scope, r.state) == ("claude-code", "project", "connected")
            for r in tab.connections.rows
        ),
        timeout=5000,
    )
    assert mcp.exists()
    assert engine.agent_connections()[0]["hooks"] == [
        "UserPromptSubmit",
        "SessionStart",
        "PreToolUse",
    ]
    qtbot.waitUntil(tab.disconnect_button.isEnabled, timeout=5000)
    assert not tab.connect_button.isEnabled()  # connected, hooks and all: nothing to add
    assert tab.selected_connection() is not None
    assert tab.selected_connection().agent == "claude-code"  # the row stays selected

    tab.disconnect_button.click()
    dialog = _dialog(qtbot, ctx)
    assert "Disconnect" in dialog.windowTitle()
    dialog.apply_button.click()
    qtbot.waitUntil(
        lambda: any(
            (r.agent, r.scope, r.state) == ("claude-code", "project", "not_connected")
            for r in tab.connections.rows
        ),
        timeout=5000,
    )
    assert not mcp.exists()  # connect made the file; nothing else was in it

    _select(qtbot, tab, "codex", "user")  # a TOML config in the person's home
    qtbot.waitUntil(tab.connect_button.isEnabled, timeout=5000)
    tab.connect_button.click()
    _dialog(qtbot, ctx).apply_button.click()
    qtbot.waitUntil(lambda: (user_home / ".codex" / "config.toml").exists(), timeout=5000)
    assert "[mcp_servers.context-center]" in (user_home / ".codex" / "config.toml").read_text()


def test_an_unreadable_config_offers_neither_button(qtbot, ctx, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    (engine.workspace / ".mcp.json").write_text("{not json")
    tab = _shown(qtbot, ctx)
    wait_idle(qtbot, ctx)
    _select(qtbot, tab, "claude-code", "project")
    wait_idle(qtbot, ctx)
    assert not tab.connect_button.isEnabled() and not tab.disconnect_button.isEnabled()
    assert (engine.workspace / ".mcp.json").read_text() == "{not json"


def test_a_connect_made_elsewhere_since_the_buttons_were_set_is_seen(
    qtbot, ctx, engine: Engine
) -> None:  # type: ignore[no-untyped-def]
    statuses: list[str] = []
    ctx.sig_status.connect(statuses.append)
    tab = _shown(qtbot, ctx)
    _select(qtbot, tab, "claude-code", "project")
    qtbot.waitUntil(tab.connect_button.isEnabled, timeout=5000)
    engine.connect_agent("claude-code", "project")  # a terminal's `context-center connect`
    done = tab.refresh_count
    tab.connect_button.click()
    qtbot.waitUntil(lambda: tab.refresh_count > done, timeout=5000)
    wait_idle(qtbot, ctx)
    assert ctx.last_dialog is None  # nothing to confirm
    assert any("Nothing to change" in s for s in statuses)
    assert {(r.agent, r.scope): r.state for r in tab.connections.rows}[
        ("claude-code", "project")
    ] == "connected"
    qtbot.waitUntil(tab.disconnect_button.isEnabled, timeout=5000)


def test_what_is_written_is_what_the_person_saw(qtbot, ctx, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    """The config changed while the dialog was open: the new dry run is shown (and the
    buttons stay off meanwhile, whatever refreshes); nothing is written until it is accepted."""
    import json

    tab = _shown(qtbot, ctx)
    _select(qtbot, tab, "cursor", "project")
    qtbot.waitUntil(tab.connect_button.isEnabled, timeout=5000)
    tab.connect_button.click()
    first = _dialog(qtbot, ctx)
    config = engine.workspace / ".cursor" / "mcp.json"
    config.parent.mkdir()
    config.write_text('{"mcpServers": {"browser": {"command": "npx"}}}\n')  # an editor saved
    done = tab.refresh_count
    tab.refresh_now()
    qtbot.waitUntil(lambda: tab.refresh_count > done, timeout=5000)
    qtbot.wait(50)
    assert not tab.connect_button.isEnabled() and not tab.disconnect_button.isEnabled()
    first.apply_button.click()
    second = _dialog(qtbot, ctx)
    assert second is not first and '"browser"' in second.diff.toPlainText()
    assert json.loads(config.read_text()) == {"mcpServers": {"browser": {"command": "npx"}}}
    second.apply_button.click()
    qtbot.waitUntil(lambda: "context-center" in config.read_text(), timeout=5000)
    assert json.loads(config.read_text())["mcpServers"]["browser"] == {"command": "npx"}
