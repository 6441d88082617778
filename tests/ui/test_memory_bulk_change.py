"""Memory tab: change the type of several facts at once, move facts between project and global
(promote and back), rename one fact; the table's context menu and the menu bar list them."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtWidgets import QApplication, QMessageBox

from context_center.engine import Area, Changes
from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope
from context_center.ui.dialogs.fact_change import RenameDialog, TypeChoiceDialog
from context_center.ui.main_window import MainWindow
from context_center.ui.tabs.memory import MemoryTab
from context_center.ui.tabs.memory_bulk import bulk_of


@pytest.fixture
def tab(qtbot, ctx, engine: Engine, wait_idle):  # type: ignore[no-untyped-def]
    for name in ("alpha", "beta", "gamma"):
        engine.memory.create(name=name, title=name.title(), type=FactType.PROJECT, body=name)
    widget = MemoryTab(ctx)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    wait_idle()
    return widget


def _select(tab: MemoryTab, names: list[str]) -> None:
    sel = tab.table.selectionModel()
    sel.clearSelection()
    for i, row in enumerate(tab.model.rows):
        if row.fact.name in names:
            sel.select(
                tab.model.index(i, 0),
                QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
            )


def _dialog(qtbot, ctx, kind):  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: isinstance(ctx.last_dialog, kind) and ctx.last_dialog.isVisible())
    return ctx.last_dialog


def _confirm(qtbot, ctx) -> str:  # type: ignore[no-untyped-def]
    box = _dialog(qtbot, ctx, QMessageBox)
    text = box.text()
    next(b for b in box.buttons() if b.objectName() == "confirmOk").click()
    return text


def test_bulk_retype_makes_one_revision_each(qtbot, ctx, tab, engine: Engine, wait_idle) -> None:
    messages: list[str] = []
    ctx.sig_status.connect(messages.append)
    bulk = bulk_of(tab)
    _select(tab, ["alpha", "gamma"])
    assert bulk.act_retype.isEnabled() and not bulk.act_rename.isEnabled()
    bulk.act_retype.trigger()
    dialog = _dialog(qtbot, ctx, TypeChoiceDialog)
    dialog.combo.setCurrentIndex(dialog.combo.findData("reference"))
    dialog.accept()
    wait_idle()
    facts = {e.fact.name: e.fact for e in engine.open().entries}
    assert (facts["alpha"].type, facts["alpha"].revision) == (FactType.REFERENCE, 2)
    assert (facts["gamma"].type, facts["gamma"].revision) == (FactType.REFERENCE, 2)
    assert (facts["beta"].type, facts["beta"].revision) == (FactType.PROJECT, 1)
    assert messages[-1] == "Changed 2 facts to type reference"
    qtbot.waitUntil(lambda: {r.type for r in tab.model.rows} == {"reference", "project"})


def test_move_to_global_and_back(qtbot, ctx, tab, engine: Engine, wait_idle) -> None:
    bulk = bulk_of(tab)
    _select(tab, ["beta"])
    assert bulk.act_to_global.isEnabled() and not bulk.act_to_project.isEnabled()
    fid = engine.read_fact("project/beta.md").fact.id
    bulk.act_to_global.trigger()
    assert _confirm(qtbot, ctx) == "Move project/beta.md to global?"
    wait_idle()
    assert engine.read_fact(fid).fact.ref == "global/beta.md"
    qtbot.waitUntil(lambda: any(r.ref == "global/beta.md" for r in tab.model.rows))
    tab.reveal_fact(fid)
    qtbot.waitUntil(lambda: [r.id for r in tab.selected_rows()] == [fid])
    assert bulk.act_to_project.isEnabled() and not bulk.act_to_global.isEnabled()
    bulk.act_to_project.trigger()
    _confirm(qtbot, ctx)
    wait_idle()
    assert engine.read_fact(fid).fact.ref == "project/beta.md"
    assert [r.revision for r in engine.revisions(fid)] == [3, 2, 1]


def test_a_name_taken_in_the_target_is_skipped_and_said(
    qtbot, ctx, tab, engine: Engine, wait_idle
) -> None:
    engine.memory.create(name="beta", type=FactType.USER, scope=Scope.GLOBAL, body="g")
    messages: list[str] = []
    ctx.sig_status.connect(messages.append)
    ctx.apply(Changes.seen_on_disk({Area.FACTS}), None)
    wait_idle()
    _select(tab, ["alpha", "beta"])
    bulk = bulk_of(tab)
    rows = [r for r in tab.selected_rows() if r.scope == "project"]
    assert {r.name for r in rows} == {"alpha", "beta"}
    bulk.act_to_global.trigger()
    assert _confirm(qtbot, ctx) == "Move 2 facts to global?"
    wait_idle()
    assert messages[-1].startswith("Moved 1 fact to global · 1 skipped: global/beta.md already")
    assert engine.read_fact("global/alpha.md").fact.scope is Scope.GLOBAL
    assert engine.read_fact("project/beta.md").fact.revision == 1


def test_rename_one_fact(qtbot, ctx, tab, engine: Engine, wait_idle) -> None:
    bulk = bulk_of(tab)
    _select(tab, ["gamma"])
    fid = engine.read_fact("project/gamma.md").fact.id
    assert bulk.act_rename.isEnabled()
    bulk.act_rename.trigger()
    dialog = _dialog(qtbot, ctx, RenameDialog)
    assert dialog.name_edit.text() == "gamma"
    dialog.name_edit.setText("Gamma Rays")
    dialog.accept()
    wait_idle()
    fact = engine.read_fact(fid).fact
    assert (fact.ref, fact.revision, fact.title) == ("project/gamma-rays.md", 2, "Gamma")
    qtbot.waitUntil(lambda: any(r.ref == "project/gamma-rays.md" for r in tab.model.rows))


def test_context_menu_lists_the_commands(qtbot, tab) -> None:
    _select(tab, ["alpha"])
    menu = bulk_of(tab).build_menu()
    names = [a.objectName() for a in menu.actions() if not a.isSeparator()]
    assert names == [
        "actEditFact",
        "actShowRevisions",
        "actRenameFact",
        "actRetypeFacts",
        "actMoveToGlobal",
        "actMoveToProject",
        "actForgetFact",
    ]


def test_menu_bar_has_them_with_shortcuts(qtbot, ctx, settings, engine: Engine, wait_idle) -> None:
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    win.show()
    wait_idle()
    try:
        found = {a.objectName(): a.shortcut().toString() for a in win.menus.all_actions()}
        assert found["actRenameFact"] == "F2"
        assert found["actRetypeFacts"] == "Ctrl+T"
        assert found["actMoveToGlobal"] == "Ctrl+Shift+G"
        assert found["actMoveToProject"] == "Ctrl+Shift+P"
    finally:
        win._close_confirmed = True
        QApplication.processEvents()
