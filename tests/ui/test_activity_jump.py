"""Activity → Memory: a recalled fact opens selected in the Memory tab (button or double-click)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QItemSelectionModel

from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.ui.main_window import MainWindow


@pytest.fixture
def window(qtbot, ctx, settings, engine: Engine, wait_idle):  # type: ignore[no-untyped-def]
    engine.memory.create(name="other", title="Other", type=FactType.PROJECT, body="unrelated")
    engine.memory.create(
        name="release-branch",
        title="Release branch",
        description="Releases are cut from release branches",
        type=FactType.PROJECT,
        body="Cut releases from the release branch and tag them.",
    )
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    win.resize(1280, 800)
    win.show()
    wait_idle()
    yield win
    win.close()


def _try(qtbot, window: MainWindow, wait_idle):  # type: ignore[no-untyped-def]
    tab = window.activity_tab
    window.show_tab(tab)
    tab.pages.setCurrentIndex(1)
    tab.message.setText("how are releases cut from the release branch?")
    tab.try_button.click()
    wait_idle()
    qtbot.waitUntil(lambda: tab.tried.hits_model.rowCount() >= 1)
    return tab


def test_show_in_memory_button_selects_the_fact(
    qtbot, window: MainWindow, engine, wait_idle
) -> None:  # type: ignore[no-untyped-def]
    tab = _try(qtbot, window, wait_idle)
    view = tab.tried
    assert not view.show_fact_button.isEnabled()
    hit = view.hits_model.rows[0]
    assert hit.ref == "project/release-branch.md"
    window.memory_tab.search.setText("unrelated")  # a filter that hides it
    qtbot.waitUntil(lambda: window.memory_tab.model.rowCount() == 1)
    view.hits.selectionModel().setCurrentIndex(
        view.hits_model.index(0, 0),
        QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows,
    )
    assert view.show_fact_button.isEnabled()
    view.show_fact_button.click()
    assert window.tabs.currentWidget() is window.memory_tab
    row = window.memory_tab.current_row()
    assert row is not None and row.id == hit.id
    assert window.memory_tab.search.text() == ""


def test_double_click_on_a_recalled_fact_jumps(qtbot, window: MainWindow, wait_idle) -> None:  # type: ignore[no-untyped-def]
    tab = _try(qtbot, window, wait_idle)
    view = tab.tried
    hit = view.hits_model.rows[0]
    view.hits.doubleClicked.emit(view.hits_model.index(0, 1))  # what a double-click emits
    qtbot.waitUntil(lambda: window.tabs.currentWidget() is window.memory_tab)
    row = window.memory_tab.current_row()
    assert row is not None and row.id == hit.id
