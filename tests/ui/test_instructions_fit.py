"""The Instructions tab at 900×600 on the demo sample, in English and Chinese: the panes' tabs
(Document, Prefix (n chars), Compare) all show without scrolling whichever is current, and the
chain's document names are not cut; a splitter the person dragged is left where they put it."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine.facade import Engine
from context_center.ui import i18n


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    from context_center.demo import generate

    sample = generate(tmp_path / "demo")
    return Engine(home=sample.home, workspace=sample.workspace)


@pytest.mark.parametrize("language", ["en", "zh_CN"])
def test_the_panes_tabs_and_the_chain_fit_900_px(  # type: ignore[no-untyped-def]
    qtbot, open_window, app_style, wait_idle, language: str
) -> None:
    if language != "en":
        assert i18n.install(language) == language
    try:
        window = open_window()
        tab = window.instructions_tab
        window.show_tab(tab)  # laid out at 1280 px first, then narrowed behind another tab
        wait_idle()
        tab.right_tabs.setCurrentIndex(1)
        window.show_tab(window.memory_tab)
        wait_idle()
        window.resize(900, 600)
        qtbot.wait(50)
        window.show_tab(tab)
        wait_idle()
        qtbot.waitUntil(lambda: tab.chain_model.rowCount() > 0)
        bar = tab.right_tabs.tabBar()
        for index in range(bar.count()):
            tab.right_tabs.setCurrentIndex(index)
            wait_idle()
            qtbot.wait(50)
            last = bar.tabRect(bar.count() - 1)
            assert bar.tabRect(0).left() >= 0 and last.right() <= bar.width(), (
                index,
                [bar.tabText(i) for i in range(bar.count())],
                last.right(),
                bar.width(),
            )
        tab.right_tabs.setCurrentIndex(0)
        wait_idle()
        qtbot.wait(50)
        view = tab.chain_view
        assert view.header().sectionSize(0) >= view.sizeHintForColumn(0), tab.splitter.sizes()
    finally:
        if language != "en":
            i18n.uninstall()


def test_a_dragged_splitter_stays(qtbot, open_window, wait_idle) -> None:  # type: ignore[no-untyped-def]
    window = open_window()
    tab = window.instructions_tab
    window.show_tab(tab)
    wait_idle()
    total = sum(tab.splitter.sizes())
    tab.splitter.moveSplitter(total // 3, 1)  # what a drag does (it emits splitterMoved)
    dragged = tab.splitter.sizes()
    window.resize(1000, 700)
    qtbot.wait(50)
    window.resize(1280, 800)
    qtbot.wait(50)
    assert abs(tab.splitter.sizes()[0] - dragged[0]) < 60, (dragged, tab.splitter.sizes())
    assert tab._dragged
