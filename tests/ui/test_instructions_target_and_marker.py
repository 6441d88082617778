"""Instructions tab defects: the unsaved mark never shows without an open document, and a
target folder that does not exist gets a warning banner (the root chain alone is no answer)."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.ui.tabs.instructions import InstructionsTab


@pytest.fixture
def tab(qtbot, ctx, home: Path, workspace: Path, wait_idle) -> InstructionsTab:  # type: ignore[no-untyped-def]
    (workspace / "AGENTS.md").write_text("# Project\n\n- Run tests.\n")
    (workspace / "svc").mkdir()
    (workspace / "notes.txt").write_text("x\n")
    widget = InstructionsTab(ctx)
    qtbot.addWidget(widget)
    widget.resize(1200, 760)
    widget.show()
    wait_idle()
    return widget


def doc_tab_text(tab: InstructionsTab) -> str:
    return tab.right_tabs.tabText(tab.right_tabs.indexOf(tab.doc_pane))


def test_no_unsaved_mark_without_a_document(tab: InstructionsTab) -> None:
    assert tab.doc is None
    tab.editor.document().setModified(True)  # e.g. a stray programmatic change
    assert doc_tab_text(tab) == "Document"
    assert not tab.btn_save.isEnabled() and not tab.btn_revert.isEnabled()


def test_unsaved_mark_with_a_document(
    qtbot, tab: InstructionsTab, workspace: Path, wait_idle
) -> None:  # type: ignore[no-untyped-def]
    tab.open_file(workspace / "AGENTS.md")
    qtbot.waitUntil(lambda: tab.doc is not None)
    tab.editor.insertPlainText("more\n")
    assert doc_tab_text(tab) == "Document •"
    tab._set_doc(None)
    assert doc_tab_text(tab) == "Document"


def test_missing_target_folder_warns(qtbot, tab: InstructionsTab, wait_idle) -> None:  # type: ignore[no-untyped-def]
    assert tab.target_warning.isHidden()
    tab.set_target("does/not/exist")
    wait_idle()
    assert not tab.target_warning.isHidden()
    assert "does/not/exist does not exist" in tab.target_warning.text()
    assert tab.chain_model.rowCount() == 0 and tab.prefix_view.toPlainText() == ""
    assert tab.right_tabs.tabText(1) == "Prefix preview"
    assert tab.diag_model.rowCount() == 0 and "(" not in tab.diag_caption.text()
    tab.set_target("notes.txt")
    wait_idle()
    assert "notes.txt is a file, not a folder" in tab.target_warning.text()
    tab.set_target("svc")
    wait_idle()
    assert tab.target_warning.isHidden()
    assert tab.chain_model.rowCount() >= 1 and tab.prefix_view.toPlainText()
