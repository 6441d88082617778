"""Empty states: an empty Memory, Instructions or Revisions view says what to do first."""

from __future__ import annotations

import pytest

from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.ui.tabs.instructions import EMPTY_TEXT, InstructionsTab
from context_center.ui.tabs.memory import MemoryTab
from context_center.ui.tabs.revisions import TEXT as REV_TEXT
from context_center.ui.tabs.revisions import RevisionsTab
from context_center.ui.widgets.fact_detail import TEXT as DETAIL_TEXT


def _show(qtbot, widget, wait_idle):  # type: ignore[no-untyped-def]
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    wait_idle()
    return widget


def test_empty_memory_says_how_to_write_the_first_fact(qtbot, ctx, engine, wait_idle) -> None:  # type: ignore[no-untyped-def]
    tab = _show(qtbot, MemoryTab(ctx), wait_idle)
    assert tab.detail.detail_title.text() == DETAIL_TEXT["empty_title"]
    assert "Ctrl+N" in tab.body_view.toPlainText()
    assert "suggestion" in tab.body_view.toPlainText()


def test_memory_says_it_is_loading_until_the_stores_are_read(
    qtbot, ctx, engine: Engine, wait_idle, monkeypatch
) -> None:
    """While the first load runs (seconds in a large home) the detail pane says so, not "No
    fact selected" beside a list that is not there yet."""
    import threading

    from context_center.ui.tabs import memory as memory_module

    engine.memory.create(name="a-fact", title="A fact", type=FactType.PROJECT, body="body")
    gate = threading.Event()
    real = memory_module.load_memory

    def slow(*args, **kwargs):  # type: ignore[no-untyped-def]
        assert gate.wait(10)
        return real(*args, **kwargs)

    monkeypatch.setattr(memory_module, "load_memory", slow)
    tab = MemoryTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    tab.show()
    try:
        qtbot.waitUntil(lambda: tab.is_refreshing)
        assert tab.detail.detail_title.text() == DETAIL_TEXT["loading_title"]
        assert "Ctrl+N" not in tab.body_view.toPlainText()
    finally:
        gate.set()
    wait_idle()
    assert tab.model.rowCount() == 1
    assert tab.detail.detail_title.text() in (DETAIL_TEXT["none_title"], "A fact")


def test_memory_with_facts_but_none_shown_is_not_the_empty_state(
    qtbot, ctx, engine: Engine, wait_idle
) -> None:
    engine.memory.create(name="a-fact", title="A fact", type=FactType.PROJECT, body="body")
    tab = _show(qtbot, MemoryTab(ctx), wait_idle)
    tab.search.setText("nothing matches this")
    qtbot.waitUntil(lambda: tab.model.rowCount() == 0)
    assert tab.detail.detail_title.text() == DETAIL_TEXT["none_title"]


def test_empty_revisions_points_to_the_memory_tab(qtbot, ctx, engine, wait_idle) -> None:  # type: ignore[no-untyped-def]
    tab = _show(qtbot, RevisionsTab(ctx), wait_idle)
    assert tab.heading.text() == REV_TEXT["no_facts"]


def test_revisions_with_facts_asks_to_pick_one(qtbot, ctx, engine: Engine, wait_idle) -> None:
    engine.memory.create(name="a-fact", title="A fact", type=FactType.PROJECT, body="body")
    tab = _show(qtbot, RevisionsTab(ctx), wait_idle)
    assert tab.heading.text() == REV_TEXT["pick"]
    assert "Pick a fact" in tab.diff.toPlainText()


def test_empty_instructions_say_how_to_add_one(qtbot, ctx, engine, wait_idle) -> None:  # type: ignore[no-untyped-def]
    tab = _show(qtbot, InstructionsTab(ctx), wait_idle)
    if tab.data is not None and tab.data.resolution.documents:
        raise AssertionError("the test home has instruction files")
    assert tab.empty_hint.isVisible()
    assert tab.empty_hint.text() == EMPTY_TEXT


@pytest.mark.expect_ui_errors
def test_a_failed_first_load_does_not_say_loading_for_ever(
    qtbot, ctx, engine: Engine, wait_idle, monkeypatch
) -> None:
    from context_center.engine import StoreUnavailable
    from context_center.ui.tabs import memory as memory_module

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise StoreUnavailable("cannot read the project store: Permission denied")

    monkeypatch.setattr(memory_module, "load_memory", broken)
    tab = _show(qtbot, MemoryTab(ctx), wait_idle)
    assert tab.detail.detail_title.text() != DETAIL_TEXT["loading_title"]
