"""The composed window: tabs, approvals badge, routing, workspace picker, and following writes
made by another process (a CLI save and an agent's queued write) without a manual reload."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from context_center.engine import Area, Changes
from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.ui.main_window import MainWindow
from context_center.ui.tabs.memory import MemoryTab
from context_center.ui.widgets.workspace_picker import RECENT_KEY


@pytest.fixture
def window(qtbot, ctx, settings, engine: Engine, wait_idle):  # type: ignore[no-untyped-def]
    engine.memory.create(name="first", title="First fact", type=FactType.PROJECT, body="one")
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    win.show()
    wait_idle()
    yield win
    win.close()


def titles(tab: MemoryTab) -> list[str]:
    return [r.title for r in tab.model.rows]


def test_tabs_in_order(window: MainWindow) -> None:
    names = [window.tabs.tabText(i) for i in range(window.tabs.count())]
    assert names[:6] == [
        "Memory",
        "Instructions",
        "Revisions",
        "Archive",
        "Activity",
        "Suggestions",
    ]
    assert names[6].startswith("Approvals")
    assert window.current_tab() is window.memory_tab
    assert titles(window.memory_tab) == ["First fact"]
    assert window.windowTitle() == f"{window.ctx.engine.workspace.name} — Context Center"


def test_cli_write_in_another_process_appears(
    qtbot, window: MainWindow, cli_env, workspace: Path
) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "context_center",
            "--workspace",
            str(workspace),
            "memory",
            "save",
            "--name",
            "from-cli",
            "--title",
            "来自命令行",
            "--type",
            "reference",
            "--body",
            "https://x.invalid",
        ],
        env=cli_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    qtbot.waitUntil(lambda: "来自命令行" in titles(window.memory_tab), timeout=4000)
    assert window.watcher.emitted and "facts" in window.watcher.emitted[-1]


def test_queued_agent_write_updates_badge(qtbot, window: MainWindow, engine: Engine) -> None:
    from context_center.engine.gate.decision import assess

    assert window.pending_count == 0 and window.badge.text() == "Approvals"
    other = Engine(home=engine.home, workspace=engine.workspace)  # another process's engine
    decision = assess(
        {
            "operation": "create",
            "controller": "interactive",
            "owns_store": True,
            "agent": "claude-code",
            "name": "g",
            "type": "user",
            "scope": "global",
            "body": "prefers tabs",
        },
        other.memory,
    )
    assert decision.outcome.value == "queued"
    qtbot.waitUntil(lambda: window.pending_count == 1, timeout=4000)
    assert window.badge.text() == "Approvals  1"
    index = window.tabs.indexOf(window.tabs.currentWidget())
    window.badge.click()
    assert window.current_tab() is window.approvals_tab
    assert window.tabs.currentIndex() != index


def test_show_revisions_routes_to_the_revisions_tab(qtbot, window: MainWindow, wait_idle) -> None:
    window.memory_tab.select_fact(window.memory_tab.model.rows[0].id)
    window.memory_tab.btn_revisions.click()
    wait_idle()
    assert window.current_tab() is window.revisions_tab
    assert [r.revision for r in window.revisions_tab.rev_model.rows] == [1]


def test_workspace_picker_switches_and_remembers(
    qtbot, window: MainWindow, settings, home: Path, tmp_path: Path, wait_idle
) -> None:
    other = tmp_path / "other-ws"
    other.mkdir()
    Engine(home=home, workspace=other).memory.create(
        name="elsewhere", title="Elsewhere", type=FactType.PROJECT, body="x"
    )
    window.picker.choose_directory = lambda: str(other)
    window.picker.activated.emit(window.picker.count() - 1)  # "Open folder…"
    wait_idle()
    assert window.ctx.engine.workspace == other
    qtbot.waitUntil(lambda: titles(window.memory_tab) == ["Elsewhere"])
    recent = settings.value(RECENT_KEY)
    assert recent[0] == str(other) and len(recent) == 2
    # back through the recent list
    window.picker.activated.emit(window.picker.findData(recent[1]))
    wait_idle()
    qtbot.waitUntil(lambda: titles(window.memory_tab) == ["First fact"])
    assert window.windowTitle().startswith(Path(recent[1]).name + " — ")


def test_own_write_is_not_reported_twice_by_the_watcher(
    qtbot, window: MainWindow, engine: Engine, wait_idle
) -> None:
    before = list(window.watcher.emitted)
    refreshes = window.memory_tab.refresh_count
    window.ctx.apply(
        Changes.seen_on_disk({Area.FACTS}), window.memory_tab
    )  # what a tab does after its own save …
    engine.memory.create(name="own", title="Own", type=FactType.PROJECT, body="x")  # … its write
    window.ctx.apply(Changes.seen_on_disk({Area.FACTS}), window.memory_tab)
    wait_idle()
    qtbot.wait(1300)  # one poll period
    wait_idle()
    assert window.watcher.emitted == before
    assert window.memory_tab.refresh_count > refreshes


def test_activity_and_suggestions_are_built_when_first_shown(window: MainWindow, wait_idle) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.tabs.activity import ActivityTab
    from context_center.ui.tabs.suggestions import SuggestionsTab

    assert window.activity_page.widget is None and window.suggestions_page.widget is None
    window.tabs.setCurrentIndex(4)
    assert isinstance(window.activity_page.widget, ActivityTab)
    assert window.current_tab() is window.activity_page.widget
    assert window.suggestions_page.widget is None
    window.show_tab(window.suggestions_tab)
    assert isinstance(window.current_tab(), SuggestionsTab)
    wait_idle()


def test_a_status_message_stays_with_the_tab_it_came_from(window: MainWindow, wait_idle) -> None:  # type: ignore[no-untyped-def]
    window.ctx.status("3 memory and 1 skill suggestions")
    assert window.statusBar().currentMessage() == "3 memory and 1 skill suggestions"
    window.show_tab(window.approvals_tab)
    wait_idle()
    assert window.statusBar().currentMessage() == ""
    window.ctx.status("Rejected 2 writes")  # a message after the switch is shown
    assert window.statusBar().currentMessage() == "Rejected 2 writes"
