"""Memory tab: multi-select forgets several facts after one confirmation; Undo brings them back."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel
from PySide6.QtWidgets import QMessageBox

from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.ui.main_window import MainWindow
from context_center.ui.tabs.memory import MemoryTab
from context_center.ui.widgets.undo_offer import UndoOffer


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


def _confirm(qtbot, ctx, accept: bool) -> QMessageBox:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    box = ctx.last_dialog
    button = next(b for b in box.buttons() if (b.objectName() == "confirmOk") == accept)
    text = box.text()
    button.click()
    return text


def _select(tab: MemoryTab, names: list[str]) -> None:
    sel = tab.table.selectionModel()
    sel.clearSelection()
    for i, row in enumerate(tab.model.rows):
        if row.fact.name in names:
            sel.select(
                tab.model.index(i, 0),
                QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
            )


def test_bulk_forget_asks_once_then_undo_recovers_all(
    qtbot, ctx, tab: MemoryTab, engine: Engine, wait_idle
) -> None:
    undo = UndoOffer(ctx)
    qtbot.addWidget(undo)
    messages: list[str] = []
    ctx.sig_status.connect(messages.append)
    _select(tab, ["alpha", "gamma"])
    assert [r.fact.name for r in tab.selected_rows()] == sorted(
        ["alpha", "gamma"],
        key=lambda n: tab.model.row_of(engine.memory.resolve(f"project/{n}.md").fact.id),
    )
    tab.btn_forget.click()
    text = _confirm(qtbot, ctx, accept=True)
    assert "2 facts" in text
    wait_idle()
    qtbot.waitUntil(lambda: len(tab.model.rows) == 1)
    assert sorted(a.fact.name for a in engine.memory.archived() if a.fact) == ["alpha", "gamma"]
    assert undo.offered and not undo.isHidden()
    assert messages[-1].startswith("Forgot 2 facts (archived). Undo recovers them")
    undo.click()
    wait_idle()
    qtbot.waitUntil(lambda: len(tab.model.rows) == 3)
    assert sorted(e.fact.name for e in engine.open().entries) == ["alpha", "beta", "gamma"]
    assert not undo.offered and undo.isHidden()
    assert messages[-1] == "Recovered 2 facts from the archive"
    assert ctx.errors == []


def test_cancelled_bulk_forget_forgets_nothing(qtbot, ctx, tab: MemoryTab, wait_idle) -> None:
    undo = UndoOffer(ctx)
    qtbot.addWidget(undo)
    _select(tab, ["alpha", "beta", "gamma"])
    tab.btn_forget.click()
    assert "3 facts" in _confirm(qtbot, ctx, accept=False)
    wait_idle()
    assert len(tab.model.rows) == 3
    assert not undo.offered


def test_undo_offer_expires(qtbot, ctx, tab: MemoryTab, wait_idle) -> None:
    undo = UndoOffer(ctx)
    qtbot.addWidget(undo)
    undo.timer.setInterval(50)
    _select(tab, ["beta"])
    tab.btn_forget.click()
    with qtbot.waitSignal(ctx.sig_undo_offer):
        _confirm(qtbot, ctx, accept=True)
    qtbot.waitUntil(lambda: not undo.offered and undo.isHidden())
    wait_idle()


def test_the_window_status_bar_offers_undo_after_a_forget(
    qtbot, ctx, settings, engine: Engine, wait_idle
) -> None:
    engine.memory.create(name="solo", title="Solo", type=FactType.PROJECT, body="solo")
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    win.show()
    wait_idle()
    tab = win.memory_tab
    assert win.undo_offer.isHidden()
    assert tab.select_fact(engine.memory.resolve("project/solo.md").fact.id)
    tab.act_forget.trigger()
    _confirm(qtbot, ctx, accept=True)
    wait_idle()
    qtbot.waitUntil(lambda: win.undo_offer.isVisible())
    assert win.statusBar().currentMessage().startswith("Forgot project/solo.md")
    # the message says what Undo does, like the dismiss and reject messages
    assert "Undo recovers it from the archive" in win.statusBar().currentMessage()
    assert "Undo recovers it from the archive" in win.undo_offer.toolTip()
    win.undo_offer.click()
    wait_idle()
    qtbot.waitUntil(lambda: len(tab.model.rows) == 1)
    assert not win.undo_offer.isVisible()
    assert ctx.errors == []
    win.close()


def test_undo_after_the_name_was_taken_asks_for_a_new_name(
    qtbot, ctx, tab: MemoryTab, engine: Engine, wait_idle
) -> None:
    from PySide6.QtWidgets import QInputDialog

    undo = UndoOffer(ctx)
    qtbot.addWidget(undo)
    forgotten = engine.memory.resolve("project/alpha.md").fact
    _select(tab, ["alpha"])
    tab.btn_forget.click()
    _confirm(qtbot, ctx, accept=True)
    wait_idle()
    engine.memory.create(name="alpha", title="Another alpha", type=FactType.PROJECT, body="new")
    undo.click()
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QInputDialog) and ctx.last_dialog.isVisible()
    )
    dialog = ctx.last_dialog
    assert "project/alpha.md is taken" in dialog.labelText()
    dialog.setTextValue("alpha-before")
    dialog.accept()
    wait_idle()
    back = engine.memory.resolve("project/alpha-before.md").fact
    assert back.id == forgotten.id and back.body == "alpha"
    assert engine.memory.resolve("project/alpha.md").fact.title == "Another alpha"
    assert ctx.errors == []  # no error dialog: the person was asked
