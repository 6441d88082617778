"""The Edit menu lists Undo and the other tabs' commands (Accept/Dismiss a suggestion,
Review/Reject approvals, Recover, Save/Revert an instruction file); each is enabled only while
its tab is current and able to do it, and triggering it does what its button does."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtWidgets import QMessageBox

from context_center.engine.facade import Engine
from context_center.engine.gate.decision import Outcome, assess
from context_center.engine.model import FactType
from context_center.engine.suggestions import append_turn
from context_center.ui.main_window import MainWindow

COMMANDS = {
    "actUndo": "Ctrl+Z",
    "actAcceptSuggestion": "Ctrl+Return",
    "actDismissSuggestion": "Ctrl+D",
    "actReviewApproval": "Ctrl+Shift+Return",
    "actRejectApprovals": "Ctrl+Shift+D",
    "actRecoverArchived": "Ctrl+Shift+R",
    "actSaveInstructions": "Ctrl+S",
    "actRevertInstructions": "",
}


@pytest.fixture
def window(open_window, engine: Engine, workspace: Path, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HOME", str(tmp_path / "person"))  # no real transcripts
    (workspace / "AGENTS.md").write_text("- run the tests first\n", encoding="utf-8")
    engine.memory.create(name="alpha", title="Alpha", type=FactType.PROJECT, body="first")
    gone = engine.memory.create(name="gone", title="Gone", type=FactType.PROJECT, body="old")
    engine.memory.forget(gone.id)
    for session in ("s1", "s2"):
        append_turn(
            engine.layout, "Always run ruff before committing, CI rejects lint.", session=session
        )
    request = {
        "operation": "create", "controller": "interactive", "owns_store": True,
        "agent": "claude-code", "name": "prefers-tabs", "title": "Prefers tabs",
        "type": "user", "scope": "global", "body": "The person prefers tabs.",
    }  # fmt: skip
    assert assess(request, engine.memory).outcome is Outcome.QUEUED
    return open_window(watch=False)


def _actions(window: MainWindow):  # type: ignore[no-untyped-def]
    return {a.objectName(): a for a in window.menus.all_actions()}


def _select_first(table) -> None:  # type: ignore[no-untyped-def]
    """Select row 0 (``selectRow`` would toggle a row the refresh already selected)."""
    flags = QItemSelectionModel.SelectionFlag
    table.selectionModel().setCurrentIndex(
        table.model().index(0, 0), flags.ClearAndSelect | flags.Rows
    )


def _show(qtbot, window: MainWindow, tab, wait_idle):  # type: ignore[no-untyped-def]
    window.show_tab(tab)
    wait_idle(10000)
    qtbot.wait(20)
    window.menus.commands.sync()


def test_every_command_is_in_the_edit_menu_with_its_shortcut(window: MainWindow) -> None:
    actions = _actions(window)
    edit = window.menus.menus[1]
    for name, keys in COMMANDS.items():
        assert name in actions, name
        assert actions[name] in edit.actions(), name
        assert actions[name].shortcut().toString() == keys, name
        assert actions[name].text().replace("&", "") in window.menus.shortcuts_text() or not keys


def test_commands_are_enabled_only_on_their_tab(qtbot, window: MainWindow, wait_idle) -> None:
    actions = _actions(window)
    _show(qtbot, window, window.memory_tab, wait_idle)
    for name in COMMANDS:
        assert not actions[name].isEnabled(), name  # nothing offered, not their tab
    _show(qtbot, window, window.approvals_tab, wait_idle)
    _select_first(window.approvals_tab.table)
    assert actions["actReviewApproval"].isEnabled()
    assert actions["actRejectApprovals"].isEnabled()
    assert not actions["actRecoverArchived"].isEnabled()
    assert not actions["actSaveInstructions"].isEnabled()
    _show(qtbot, window, window.instructions_tab, wait_idle)
    assert not actions["actReviewApproval"].isEnabled()
    assert not actions["actSaveInstructions"].isEnabled()  # nothing to save yet


def test_review_and_reject_from_the_menu(qtbot, ctx, window: MainWindow, wait_idle) -> None:
    actions = _actions(window)
    inbox = window.approvals_tab
    _show(qtbot, window, inbox, wait_idle)
    _select_first(inbox.table)
    actions["actReviewApproval"].trigger()
    qtbot.waitUntil(lambda: inbox.dialog is not None and inbox.dialog.isVisible(), timeout=5000)
    inbox.dialog.discard()
    wait_idle()
    with qtbot.waitSignal(inbox.reject_button.clicked, timeout=2000):
        actions["actRejectApprovals"].trigger()
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    next(b for b in ctx.last_dialog.buttons() if b.objectName() == "confirmOk").click()
    wait_idle()
    qtbot.waitUntil(lambda: inbox.model.rowCount() == 0)


def test_recover_from_the_menu(qtbot, window: MainWindow, engine: Engine, wait_idle) -> None:
    archive = window.archive_tab
    _show(qtbot, window, archive, wait_idle)
    archive.table.selectRow(0)
    wait_idle()
    action = _actions(window)["actRecoverArchived"]
    assert action.isEnabled()
    action.trigger()
    wait_idle()
    qtbot.waitUntil(lambda: engine.memory.resolve("project/gone.md").fact is not None)


def test_save_and_revert_the_instruction_file_from_the_menu(
    qtbot, window: MainWindow, workspace: Path, wait_idle
) -> None:
    actions = _actions(window)
    tab = window.instructions_tab
    _show(qtbot, window, tab, wait_idle)
    tab.open_file(workspace / "AGENTS.md", 1)
    qtbot.waitUntil(lambda: tab.doc is not None, timeout=5000)
    wait_idle()
    tab.editor.insertPlainText("- typed\n")
    assert actions["actSaveInstructions"].isEnabled()
    assert actions["actRevertInstructions"].isEnabled()
    actions["actRevertInstructions"].trigger()
    qtbot.waitUntil(lambda: not tab.has_unsaved_changes(), timeout=5000)
    assert "- typed" not in tab.editor.toPlainText()
    tab.editor.insertPlainText("- saved\n")
    actions["actSaveInstructions"].trigger()
    qtbot.waitUntil(lambda: not tab.has_unsaved_changes(), timeout=5000)
    wait_idle()
    assert "- saved" in (workspace / "AGENTS.md").read_text(encoding="utf-8")
    assert not actions["actSaveInstructions"].isEnabled()


def test_accept_and_dismiss_the_suggestion_from_the_menu(
    qtbot, window: MainWindow, wait_idle
) -> None:
    actions = _actions(window)
    window.show_tab(window.suggestions_page)
    qtbot.waitUntil(lambda: window.suggestions_page.widget is not None)
    tab = window.suggestions_page.widget
    qtbot.waitUntil(lambda: tab.scan_count >= 1 and not tab.is_refreshing, timeout=10000)
    tab.table.selectRow(0)
    qtbot.waitUntil(lambda: tab.current is not None)
    window.menus.commands.sync()
    assert actions["actAcceptSuggestion"].isEnabled()
    assert actions["actDismissSuggestion"].isEnabled()
    with qtbot.waitSignal(tab.dismiss_button.clicked, timeout=2000):
        actions["actDismissSuggestion"].trigger()
    wait_idle()
    with qtbot.waitSignal(tab.accept_button.clicked, timeout=2000, raising=False) as accepted:
        actions["actAcceptSuggestion"].trigger()
    wait_idle()
    assert accepted.signal_triggered or not actions["actAcceptSuggestion"].isEnabled()


def test_undo_from_the_menu_recovers_a_forgotten_fact(
    qtbot, ctx, window: MainWindow, engine: Engine, wait_idle
) -> None:
    action = _actions(window)["actUndo"]
    memory = window.memory_tab
    _show(qtbot, window, memory, wait_idle)
    assert memory.select_fact(engine.memory.resolve("project/alpha.md").fact.id)
    memory.act_forget.trigger()
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    next(b for b in ctx.last_dialog.buttons() if b.objectName() == "confirmOk").click()
    wait_idle()
    qtbot.waitUntil(lambda: window.undo_offer.isVisible())
    assert action.isEnabled()
    action.trigger()
    wait_idle()
    qtbot.waitUntil(lambda: engine.memory.resolve("project/alpha.md").fact is not None)
    assert not action.isEnabled()
