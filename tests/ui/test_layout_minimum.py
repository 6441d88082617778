"""The window can be made 900×600 after every tab has been shown, in English and in Chinese,
whatever the Suggestions tab shows (no candidates, candidates, a scan still running): no tab's
minimum size hint is taller than the room a 900×600 window gives it, so the window never grows
past 600 px and shrinks back to it when asked (issue 19 §5)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QTableView, QWidget

from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope
from context_center.engine.suggestions import append_turn
from context_center.ui import i18n
from context_center.ui.main_window import MainWindow
from context_center.ui.tabs import suggestions as suggestions_module


@pytest.fixture(params=["en", "zh_CN"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    if request.param != "en":
        assert i18n.install(request.param) == request.param
    yield request.param
    i18n.uninstall()


@pytest.fixture(autouse=True)
def _no_real_transcripts(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "person"))


def _seed_fact(engine: Engine) -> str:
    """Two facts of one name; returns the id of the global one, overridden here (the Memory
    tab shows the conflict banner and, for it, the ⚠ line under its provenance)."""
    engine.memory.create(
        name="release-branch",
        title="发布分支：从 release/<version> 切出并打标签，永远不要从 main 发布",
        description="How the payments service and its workers are released, step by step",
        type=FactType.PROJECT,
        body="Cut releases from `release/<version>` and tag them; never release from main.",
    )
    overridden = engine.memory.create(
        name="release-branch",
        title="Release branch",
        description="The old rule every workspace used before this one wrote its own, kept "
        "for the others; 其他工作区仍然使用这条全局事实，直到它们也写下自己的规则为止。",
        type=FactType.FEEDBACK,
        scope=Scope.GLOBAL,
        body="Release from main.",
    )
    return overridden.id


def _seed_candidates(engine: Engine) -> None:
    for session in ("s1", "s2"):
        append_turn(
            engine.layout, "Always run ruff before committing, CI rejects lint.", session=session
        )
        append_turn(engine.layout, "run the tests, then fix lint, then commit", session=session)


def _tabs(window: MainWindow) -> list[QWidget]:
    return [window.tabs.widget(i) for i in range(window.tabs.count())]


def _clipped_headings(table: QTableView) -> list[str]:
    """The headings of ``table`` narrower than their bold label and 8 px padding each side
    (as tests/ui/test_layout.py checks them in English at both sizes)."""
    header = table.horizontalHeader()
    font = header.font()
    font.setBold(True)
    fm = QFontMetrics(font)
    return [
        f"{table.objectName()}: {text} ({header.sectionSize(col)} px)"
        for col in range(header.count())
        if not header.isSectionHidden(col)
        and header.sectionSize(col)
        < fm.horizontalAdvance(
            text := str(table.model().headerData(col, Qt.Orientation.Horizontal))
        )
        + 16
    ]


def _show_every_tab(qtbot: Any, window: MainWindow, idle: Any) -> list[str]:
    """Show each tab in turn; returns the column headings it showed cut (none, we hope)."""
    clipped: list[str] = []
    for tab in _tabs(window):
        window.show_tab(tab)
        idle()
        qtbot.wait(30)
        for table in tab.findChildren(QTableView):
            if table.isVisible():
                clipped += _clipped_headings(table)
    return clipped


def _assert_900x600(qtbot: Any, window: MainWindow) -> None:
    window.resize(900, 600)
    qtbot.wait(30)
    QApplication.processEvents()
    assert (window.width(), window.height()) == (900, 600), window.minimumSizeHint()
    for i, tab in enumerate(_tabs(window)):
        name = window.tabs.tabText(i)
        hint = tab.minimumSizeHint()
        assert hint.height() <= window.tabs.currentWidget().height(), (name, hint)
        assert hint.width() <= 900, (name, hint)


@pytest.mark.parametrize("start", [(900, 600), (1280, 800)], ids=["at900", "from1280"])
@pytest.mark.parametrize("data", ["empty", "candidates"])
def test_window_shrinks_to_900x600_after_every_tab(
    qtbot, ctx, settings, engine: Engine, wait_idle, app_style, language: str, data: str, start
) -> None:  # type: ignore[no-untyped-def]
    """``from1280``: every tab shown in a 1280×800 window first (the Memory tab's fact with
    its provenance open), then the window made 900×600."""
    overridden = _seed_fact(engine)
    if data == "candidates":
        _seed_candidates(engine)
    window = MainWindow(ctx, settings, watch=False)
    qtbot.addWidget(window)
    window.resize(*start)
    window.show()
    wait_idle()
    memory = window.memory_tab
    memory.select_fact(overridden)
    assert not _show_every_tab(qtbot, window, lambda: wait_idle(10000))
    assert memory.detail.prov_override.text()  # the ⚠ line is there
    if start == (1280, 800):  # the provenance is open in the tall window
        assert not memory.detail.prov_fields.isHidden()
    tab = window.suggestions_tab
    assert tab.scan_count >= 1
    assert (tab.model.rowCount() > 0) == (data == "candidates")
    _assert_900x600(qtbot, window)
    window.show_tab(tab)  # and once more on the Suggestions tab itself
    wait_idle(10000)
    _assert_900x600(qtbot, window)
    window._close_confirmed = True
    window.close()


def test_window_stays_900x600_while_suggestions_scan(
    qtbot, ctx, settings, engine: Engine, wait_idle, app_style, language: str, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    _seed_candidates(engine)
    release = threading.Event()
    started = threading.Event()
    scan = suggestions_module.scan_workspace

    def slow_scan(*args: Any, **kwargs: Any) -> Any:
        started.set()
        release.wait(20)
        return scan(*args, **kwargs)

    monkeypatch.setattr(suggestions_module, "scan_workspace", slow_scan)
    window = MainWindow(ctx, settings, watch=False)
    qtbot.addWidget(window)
    window.resize(900, 600)
    window.show()
    wait_idle()
    try:
        others = [t for t in _tabs(window) if t is not window.suggestions_page]
        for tab in others:
            window.show_tab(tab)
            wait_idle(10000)
            qtbot.wait(30)
        window.show_tab(window.suggestions_tab)
        qtbot.waitUntil(started.is_set, timeout=5000)
        qtbot.wait(50)
        assert window.suggestions_tab.progress.isVisible()  # the first scan runs
        _assert_900x600(qtbot, window)
        for tab in others:  # the other tabs while it scans
            window.show_tab(tab)
            qtbot.wait(30)
        _assert_900x600(qtbot, window)
    finally:
        release.set()
    wait_idle(10000)
    assert window.suggestions_tab.model.rowCount() > 0
    _assert_900x600(qtbot, window)
    window._close_confirmed = True
    window.close()
