"""Unsaved edits in the Instructions editor are asked about before the window closes or the
workspace changes (``ui/tabs/instructions_unsaved.py``), like the fact and suggestion editors."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from context_center.engine.facade import Engine
from context_center.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, ctx, settings, engine: Engine, workspace: Path, wait_idle):  # type: ignore[no-untyped-def]
    (workspace / "AGENTS.md").write_text("- run the tests first\n", encoding="utf-8")
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    wait_idle()
    yield win
    win._close_confirmed = True
    win.close()


def _edit(qtbot, window: MainWindow, workspace: Path, wait_idle):  # type: ignore[no-untyped-def]
    tab = window.instructions_tab
    tab.open_file(workspace / "AGENTS.md", 1)
    qtbot.waitUntil(lambda: tab.doc is not None, timeout=5000)
    wait_idle()
    tab.editor.insertPlainText("- and lint\n")  # as if typed
    assert tab.has_unsaved_changes()
    return tab


def _answer(qtbot, ctx, ok: bool) -> QMessageBox:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    box = ctx.last_dialog
    text = box.text()
    button = next(b for b in box.buttons() if (b.objectName() == "confirmOk") == ok)
    button.click()
    qtbot.wait(50)
    return text


def test_closing_with_unsaved_instruction_edits_asks(
    qtbot, ctx, window: MainWindow, workspace: Path, wait_idle
) -> None:
    tab = _edit(qtbot, window, workspace, wait_idle)
    assert window.unsaved_tabs() == [tab]
    window.close()
    assert "AGENTS.md" in _answer(qtbot, ctx, ok=False)  # keep editing
    assert window.isVisible() and tab.has_unsaved_changes()
    assert "and lint" in tab.editor.toPlainText()
    window.close()
    _answer(qtbot, ctx, ok=True)  # discard
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=3000)
    assert (workspace / "AGENTS.md").read_text(encoding="utf-8") == "- run the tests first\n"
    QApplication.processEvents()


def test_switching_workspace_with_unsaved_instruction_edits_asks(
    qtbot, ctx, window: MainWindow, workspace: Path, tmp_path: Path, wait_idle
) -> None:
    tab = _edit(qtbot, window, workspace, wait_idle)
    other = tmp_path / "other"
    other.mkdir()
    window._on_workspace_chosen(str(other))
    _answer(qtbot, ctx, ok=False)
    wait_idle()
    assert ctx.engine.workspace == workspace and tab.has_unsaved_changes()
