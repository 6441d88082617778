"""Keyboard workflow and nothing lost: no Tab trap in the Memory table, Enter edits, Delete
forgets (after asking), Ctrl+F/N/S, the menu bar with every action and its shortcut, About;
Escape, closing the window and switching workspace ask before typed text is dropped; Enter
in a one-line field never creates a fact."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton, QWidget

from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope
from context_center.ui.dialogs.fact_editor import FactEditorDialog
from context_center.ui.main_window import MainWindow


@pytest.fixture
def window(open_window, engine: Engine):  # type: ignore[no-untyped-def]
    engine.memory.create(name="alpha", title="Alpha", type=FactType.PROJECT, body="first")
    engine.memory.create(name="beta", title="Beta", type=FactType.PROJECT, body="second")
    return open_window()


def activate(qtbot, window: MainWindow) -> None:  # type: ignore[no-untyped-def]
    """After a dialog closed, the offscreen platform does not hand activation back by itself."""
    window.activateWindow()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window, timeout=3000)


def focused() -> QWidget | None:
    return QApplication.focusWidget()


def dialog_of(qtbot, ctx, cls):  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: isinstance(ctx.last_dialog, cls) and ctx.last_dialog.isVisible())
    return ctx.last_dialog


def test_tab_leaves_the_table_and_reaches_the_detail_pane(qtbot, window: MainWindow) -> None:
    tab = window.memory_tab
    assert not tab.table.tabKeyNavigation()
    tab.table.setFocus()
    qtbot.waitUntil(lambda: focused() is tab.table)
    reached: list[QWidget | None] = []
    for _ in range(12):
        QTest.keyClick(focused(), Qt.Key.Key_Tab)
        reached.append(focused())
    assert reached[0] is not tab.table  # no keyboard trap
    for widget in (tab.btn_edit, tab.btn_revisions, tab.btn_forget, tab.body_view):
        assert widget in reached, widget.objectName()
    assert tab.detail.prov_ref in reached or tab.detail.prov_toggle in reached
    # and back: Shift+Tab from the first button of the pane returns to the table
    tab.btn_edit.setFocus()
    QTest.keyClick(tab.btn_edit, Qt.Key.Key_Backtab)
    assert focused() is tab.table


def test_enter_edits_and_delete_forgets_after_asking(
    qtbot, ctx, window: MainWindow, engine: Engine, wait_idle
) -> None:
    tab = window.memory_tab
    tab.table.setFocus()
    tab.select_fact(tab.model.rows[0].id)
    QTest.keyClick(tab.table, Qt.Key.Key_Return)
    editor = dialog_of(qtbot, ctx, FactEditorDialog)
    assert editor.fact is not None and editor.fact.name == "alpha"
    editor.reject()  # nothing typed: closes without asking
    qtbot.waitUntil(lambda: not editor.isVisible())
    wait_idle()
    activate(qtbot, window)
    tab.table.setFocus()
    QTest.keyClick(tab.table, Qt.Key.Key_Delete)
    box = dialog_of(qtbot, ctx, QMessageBox)
    assert "project/alpha.md" in box.text()
    next(b for b in box.buttons() if b.objectName() == "confirmOk").click()
    wait_idle()
    assert [a.fact.name for a in engine.memory.archived() if a.fact] == ["alpha"]


def test_ctrl_f_and_ctrl_n(qtbot, ctx, window: MainWindow) -> None:
    window.show_tab(window.archive_tab)
    QTest.keySequence(window, QKeySequence("Ctrl+F"))
    assert window.current_tab() is window.memory_tab  # the Archive tab has no search
    assert focused() is window.memory_tab.search
    window.show_tab(window.revisions_tab)
    QTest.keySequence(window, QKeySequence("Ctrl+F"))
    assert focused() is window.revisions_tab.search
    QTest.keySequence(window, QKeySequence("Ctrl+N"))
    editor = dialog_of(qtbot, ctx, FactEditorDialog)
    assert editor.fact is None and window.current_tab() is window.memory_tab
    # the safe defaults: type project, scope project
    assert editor.type_combo.currentData() == FactType.PROJECT
    assert editor.scope_combo.currentData() == Scope.PROJECT
    editor.reject()


def test_enter_in_a_field_never_creates_and_ctrl_s_saves(
    qtbot, ctx, window: MainWindow, engine: Engine, wait_idle
) -> None:
    window.memory_tab.btn_new.click()
    editor = dialog_of(qtbot, ctx, FactEditorDialog)
    defaults = [
        b.text() for b in editor.findChildren(QPushButton) if b.isDefault() or b.autoDefault()
    ]
    assert defaults == []
    editor.body_edit.setPlainText("Deploys go through the pipeline.")
    editor.name_edit.setFocus()
    QTest.keyClicks(editor.name_edit, "deploys")
    QTest.keyClick(editor.name_edit, Qt.Key.Key_Return)
    QTest.keyClick(editor.title_edit, Qt.Key.Key_Enter)
    qtbot.wait(100)
    assert editor.isVisible()  # Enter did not submit
    with pytest.raises(Exception, match="deploys"):
        engine.memory.resolve("project/deploys.md")
    QTest.keySequence(editor, QKeySequence(QKeySequence.StandardKey.Save))
    qtbot.waitUntil(lambda: not editor.isVisible())
    wait_idle()
    assert engine.memory.resolve("project/deploys.md").fact.type is FactType.PROJECT


def test_escape_with_unsaved_text_asks_first(qtbot, ctx, window: MainWindow) -> None:
    window.memory_tab.select_fact(window.memory_tab.model.rows[0].id)
    window.memory_tab.btn_edit.click()
    editor = dialog_of(qtbot, ctx, FactEditorDialog)
    editor.body_edit.setPlainText("typed but not saved")
    QTest.keyClick(editor, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: editor.discard_box is not None and editor.discard_box.isVisible())
    assert editor.isVisible()
    editor.discard_box.findChild(QPushButton, "keepEditing").click()
    qtbot.waitUntil(lambda: editor.discard_box is None)
    assert editor.isVisible() and editor.body_edit.toPlainText() == "typed but not saved"
    assert window.memory_tab.has_unsaved_changes()
    QTest.keyClick(editor, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: editor.discard_box is not None and editor.discard_box.isVisible())
    editor.discard_box.findChild(QPushButton, "discardChanges").click()
    qtbot.waitUntil(lambda: not editor.isVisible())
    assert not window.memory_tab.has_unsaved_changes()


def test_menu_bar_lists_every_action_with_its_shortcut(qtbot, window: MainWindow) -> None:
    menus = window.menus
    titles = [m.title().replace("&", "") for m in menus.menus]
    assert titles == ["File", "Edit", "View", "Help"]
    by_name = {a.objectName(): a for a in menus.all_actions()}
    expected = {
        "actNewFact": "Ctrl+N",
        "actSwitchWorkspace": "Ctrl+O",
        "actQuit": "Ctrl+Q",
        "actEditFact": "Return",
        "actForgetFact": "Del",
        "actShowRevisions": "Ctrl+R",
        "actFind": "Ctrl+F",
        "actShowTab1": "Ctrl+1",
        "actShowTab2": "Ctrl+2",
    }
    for name, keys in expected.items():
        assert by_name[name].shortcut().toString() == keys, name
    assert by_name["actNewFact"] is window.memory_tab.act_new  # one action: menu and button
    tab_items = [a for a in menus.tab_actions]
    assert [a.text() for a in tab_items][:2] == ["Memory", "Instructions"]
    QTest.keySequence(window, QKeySequence("Ctrl+4"))
    assert window.tabs.currentIndex() == 3
    text = menus.shortcuts_text()
    assert "Ctrl+N" in text
    keys = [line.split("\t")[0] for line in text.splitlines()]
    assert len(keys) == len(set(keys)), "a key is listed twice"
    (save,) = [line for line in text.splitlines() if line.startswith("Ctrl+S\t")]
    assert "instruction file" in save and "fact editor" in save  # the menu's and the panes'


def test_about_names_the_version(qtbot, ctx, window: MainWindow) -> None:
    from context_center import __version__

    box = window.menus.show_about()
    assert box.objectName() == "aboutDialog" and box.isVisible()
    assert __version__ in box.text()
    assert str(window.ctx.engine.home) in box.informativeText()
    box.close()


@pytest.fixture
def edited_suggestion(qtbot, ctx, window: MainWindow, engine: Engine, tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """A suggestion edited in the Suggestions tab and not accepted."""
    from context_center.engine.suggestions import append_turn

    monkeypatch.setenv("HOME", str(tmp_path / "person"))  # no real transcripts
    append_turn(engine.layout, "Always run ruff before committing, CI rejects lint.", session="s1")
    tab = window.suggestions_tab
    window.show_tab(tab)
    qtbot.waitUntil(lambda: tab.scan_count >= 1 and not tab.is_refreshing, timeout=10000)
    assert tab.model.rowCount() >= 1
    tab.table.selectRow(0)
    qtbot.waitUntil(lambda: tab.current is not None)
    QTest.keyClicks(tab.editor.name_edit, "-mine")
    assert tab.has_unsaved_changes()
    return tab


def test_closing_with_unsaved_suggestion_edits_asks(
    qtbot, ctx, window: MainWindow, edited_suggestion
) -> None:
    tab = edited_suggestion
    assert window.unsaved_tabs() == [tab]
    window.close()
    box = dialog_of(qtbot, ctx, QMessageBox)
    assert "without accepting" in box.text()
    assert window.isVisible()  # still open while asking
    next(b for b in box.buttons() if b.objectName() != "confirmOk").click()  # keep them
    qtbot.wait(50)
    assert window.isVisible() and tab._drafts
    window.close()
    box = dialog_of(qtbot, ctx, QMessageBox)
    next(b for b in box.buttons() if b.objectName() == "confirmOk").click()  # discard
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=3000)


def test_switching_workspace_with_unsaved_edits_asks(
    qtbot, ctx, window: MainWindow, tmp_path: Path, wait_idle, edited_suggestion
) -> None:
    other = tmp_path / "other"
    other.mkdir()
    before = ctx.engine.workspace
    window._on_workspace_chosen(str(other))
    box = dialog_of(qtbot, ctx, QMessageBox)
    next(b for b in box.buttons() if b.objectName() != "confirmOk").click()
    wait_idle()
    assert ctx.engine.workspace == before  # stayed, edits kept
    assert edited_suggestion.has_unsaved_changes()
    assert window.picker.currentData() == str(before)
    window._on_workspace_chosen(str(other))
    box = dialog_of(qtbot, ctx, QMessageBox)
    next(b for b in box.buttons() if b.objectName() == "confirmOk").click()
    wait_idle()
    assert ctx.engine.workspace == other


def test_force_close_does_not_ask(qtbot, ctx, window: MainWindow, edited_suggestion) -> None:
    window.force_close()  # what SIGTERM and Ctrl+C in the terminal do
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=3000)


def test_ctrl_s_in_the_suggestion_editor_accepts(
    qtbot, ctx, window: MainWindow, engine: Engine, edited_suggestion, wait_idle
) -> None:
    tab = edited_suggestion
    name = tab.editor.name_edit.text()
    assert name.endswith("-mine")
    tab.editor.name_edit.setFocus()
    QTest.keySequence(tab.editor.name_edit, QKeySequence(QKeySequence.StandardKey.Save))
    wait_idle()
    assert engine.memory.resolve(f"project/{name}.md").fact.name == name
    assert not tab.has_unsaved_changes()
