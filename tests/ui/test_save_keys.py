"""Ctrl+S saves in the Instructions editor (as its Save button does) and, in the approval
dialog's Edit page, approves the edited copy; the Help text names both editors."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from context_center.engine.facade import Engine
from context_center.engine.gate.approvals import ApprovalQueue, Status
from context_center.engine.gate.decision import Outcome, assess
from context_center.ui.main_window import MainWindow

SAVE = QKeySequence.StandardKey.Save  # a QKeySequence needs the application: made in each test


def propose(engine: Engine, **fields: object) -> str:
    request = {"controller": "interactive", "owns_store": True, "agent": "claude-code", **fields}
    decision = assess(request, engine.memory)
    assert decision.outcome is Outcome.QUEUED, decision.reasons
    assert decision.pending_id is not None
    return decision.pending_id


@pytest.fixture
def window(open_window, engine: Engine, workspace: Path):  # type: ignore[no-untyped-def]
    (workspace / "AGENTS.md").write_text("- run the tests first\n", encoding="utf-8")
    return open_window(watch=False)


def open_agents_md(qtbot, window: MainWindow, workspace: Path, wait_idle):  # type: ignore[no-untyped-def]
    """The Instructions tab with the workspace's AGENTS.md open in its editor."""
    tab = window.instructions_tab
    window.show_tab(tab)
    tab.open_file(workspace / "AGENTS.md", 1)
    qtbot.waitUntil(lambda: tab.doc is not None, timeout=5000)
    wait_idle()
    return tab


def test_ctrl_s_saves_the_instructions_editor(
    qtbot, window: MainWindow, workspace: Path, wait_idle
) -> None:
    tab = open_agents_md(qtbot, window, workspace, wait_idle)
    tab.editor.setFocus()
    tab.editor.moveCursor(tab.editor.textCursor().MoveOperation.End)
    QTest.keyClicks(tab.editor, "- lint too")
    assert tab.has_unsaved_changes()
    QTest.keySequence(tab.editor, QKeySequence(SAVE))
    qtbot.waitUntil(lambda: not tab.has_unsaved_changes(), timeout=5000)
    wait_idle()
    assert "- lint too" in (workspace / "AGENTS.md").read_text(encoding="utf-8")
    assert "Ctrl+S" in tab.btn_save.toolTip()


def test_ctrl_s_outside_the_instructions_editor_does_not_save(
    qtbot, window: MainWindow, workspace: Path, wait_idle
) -> None:
    tab = open_agents_md(qtbot, window, workspace, wait_idle)
    tab.editor.insertPlainText("- typed\n")
    tab.chain_view.setFocus()  # the chain, not the document pane
    QTest.keySequence(tab.chain_view, QKeySequence(SAVE))
    qtbot.wait(100)
    wait_idle()
    assert tab.has_unsaved_changes()
    tab.editor.document().setModified(False)


def test_ctrl_s_in_the_approval_edit_page_approves_the_edited_copy(
    qtbot, ctx, window: MainWindow, engine: Engine, wait_idle
) -> None:
    item = propose(
        engine, operation="create", name="prefers-tabs", title="Prefers tabs",
        type="user", scope="global", body="The person prefers tabs.",
    )  # fmt: skip
    tab = window.approvals_tab
    window.show_tab(tab)
    qtbot.waitUntil(lambda: tab.model.rowCount() >= 1, timeout=5000)
    wait_idle()
    tab.table.selectRow(0)
    tab.review_button.click()
    qtbot.waitUntil(lambda: tab.dialog is not None and tab.dialog.isVisible(), timeout=5000)
    dialog = tab.dialog
    QTest.keySequence(dialog.reasons, QKeySequence(SAVE))  # not editing: nothing happens
    qtbot.wait(100)
    assert ApprovalQueue.for_layout(engine.layout).get(item).status is Status.PENDING
    dialog.start_editing()
    dialog.edit_title.setFocus()
    QTest.keyClicks(dialog.edit_title, " always")
    QTest.keySequence(dialog.edit_title, QKeySequence(SAVE))
    qtbot.waitUntil(
        lambda: ApprovalQueue.for_layout(engine.layout).get(item).status is not Status.PENDING,
        timeout=5000,
    )
    wait_idle()
    fact = engine.memory.resolve("global/prefers-tabs.md").fact
    assert fact.title == "Prefers tabs always"


def test_the_help_names_the_instructions_editor(window: MainWindow) -> None:
    (line,) = [
        line for line in window.menus.shortcuts_text().splitlines() if line.startswith("Ctrl+S\t")
    ]
    assert "instruction file" in line and "fact editor" in line  # one line for the key
