"""The History page of the Activity tab: revisions and approval events with who and how,
following live changes, filtered by fact, with a jump to the fact in Memory."""

from __future__ import annotations

from typing import Any

import pytest

from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.ui.main_window import MainWindow
from context_center.ui.tabs.activity import ActivityTab
from context_center.ui.tabs.history import HistoryPanel


def agent_create(engine: Engine, name: str) -> str:
    data: dict[str, Any] = {
        "operation": "create",
        "controller": "interactive",
        "owns_store": True,
        "agent": "claude-code",
        "name": name,
        "title": name.capitalize(),
        "description": f"preference: {name}",
        "type": "user",
        "body": "Answer in English.",
    }
    pending = engine.agent_write(data).value.pending_id
    assert pending is not None
    return pending


def texts(panel: HistoryPanel) -> list[list[str]]:
    model = panel.model
    return [
        [model.index(r, c).data() for c in range(model.columnCount())]
        for r in range(model.rowCount())
    ]


@pytest.fixture
def panel(qtbot, ctx, engine: Engine, wait_idle):  # type: ignore[no-untyped-def]
    fact = engine.create_fact(name="release", type=FactType.PROJECT, body="main").value
    engine.update_fact(fact.id, expected_revision=1, body="trunk")
    engine.approve(agent_create(engine, "answer language"))
    engine.reject(agent_create(engine, "tone"), "too vague")
    widget = HistoryPanel(ctx)
    qtbot.addWidget(widget)
    widget.resize(1100, 600)
    widget.show()
    wait_idle()
    return widget


def test_rows_say_who_and_through_which_path(panel: HistoryPanel) -> None:
    rows = texts(panel)
    by = {(r[1], r[2]): r for r in rows}
    assert by[("project/release.md", "revised · r2")][3:6] == [
        "a person",
        "—",
        "directly (window, CLI, import)",
    ]
    made = by[("project/answer-language.md", "created · r1")]
    assert made[3:6] == ["a person", "claude-code", "approval of an agent's write"]
    assert by[("project/answer-language.md", "proposed (queued)")][3] == "claude-code"
    rejected = by[("project/tone.md", "rejected")]
    assert rejected[3] == "a person" and "too vague" in rejected[6]
    assert panel.status.text() == f"{len(rows)} changes, newest first"


def test_follows_live_changes(qtbot, ctx, panel: HistoryPanel, engine: Engine, wait_idle) -> None:
    before = panel.model.rowCount()
    changes = engine.create_fact(name="fresh", type=FactType.PROJECT, body="x")
    ctx.apply(changes, None)
    qtbot.waitUntil(lambda: panel.model.rowCount() == before + 1)
    assert texts(panel)[0][1:3] == ["project/fresh.md", "created · r1"]


def test_filter_keeps_one_fact(qtbot, panel: HistoryPanel, wait_idle) -> None:
    panel.show_history_of("project/release.md")
    wait_idle()
    assert {r[1] for r in texts(panel)} == {"project/release.md"}
    assert panel.model.rowCount() == 2
    panel.show_history_of("nothing-like-this")
    wait_idle()
    assert panel.model.rowCount() == 0
    assert panel.status.text() == "Nothing recorded for “nothing-like-this”."


def test_jump_to_the_fact_in_memory(qtbot, ctx, settings, engine: Engine, wait_idle) -> None:
    fact = engine.create_fact(name="target", type=FactType.PROJECT, body="x").value
    engine.create_fact(name="other", type=FactType.PROJECT, body="y")
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    win.show()
    wait_idle()
    try:
        activity = win.activity_tab
        win.show_tab(activity)
        assert isinstance(activity, ActivityTab)
        activity.pages.setCurrentWidget(activity.history)
        history = activity.history
        qtbot.waitUntil(lambda: history.model.rowCount() == 2)
        row = next(i for i, r in enumerate(history.model.rows) if r.fact_id == fact.id)
        history.table.selectRow(row)
        assert history.show_fact_button.isEnabled()
        history.show_fact_button.click()
        wait_idle()
        assert win.current_tab() is win.memory_tab
        qtbot.waitUntil(lambda: [r.id for r in win.memory_tab.selected_rows()] == [fact.id])
    finally:
        win._close_confirmed = True


def test_empty_state(qtbot, ctx, wait_idle) -> None:
    widget = HistoryPanel(ctx)
    qtbot.addWidget(widget)
    widget.show()
    wait_idle()
    assert widget.model.rowCount() == 0
    assert widget.status.text().startswith("No changes recorded yet.")
    assert not widget.show_fact_button.isEnabled()


def test_gate_reasons_read_as_sentences_in_english(panel: HistoryPanel) -> None:
    """A queued write's details give the gate's reasons as the window says them elsewhere
    ("… needs a person's confirmation"), never its codes ("user_type")."""
    rows = texts(panel)
    queued = [r for r in rows if r[2] == "proposed (queued)"]
    assert queued
    for row in queued:
        detail = row[6]
        assert detail and "_" not in detail, detail
    assert any("confirmation" in r[6] for r in queued), queued
