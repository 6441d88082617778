"""Layout at 1280×800 and 900×600: every tab of this window lays out to the window (no page
scroll area, so nothing is below a fold and no scroll bar nests in another), no table column
scrolls out of sight, the Suggestions decision (Accept, Dismiss, Evidence) is on screen,
Activity tables keep more than one row, and the Why / Why not / gate reasons wrap in full."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QFontMetrics, QTextLayout, QTextOption
from PySide6.QtWidgets import QAbstractScrollArea, QScrollArea, QTableView, QWidget

from context_center.engine.facade import Engine
from context_center.engine.gate.decision import Outcome, assess
from context_center.engine.model import FactType, Scope
from context_center.engine.recall import Recaller
from context_center.engine.suggestions import append_turn
from context_center.ui.main_window import MainWindow

SIZES = [(1280, 800), (900, 600)]


@pytest.fixture
def seeded(engine: Engine, tmp_path, monkeypatch) -> Engine:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("HOME", str(tmp_path / "person"))  # no real transcripts
    m = engine.memory
    m.create(
        name="release-branch",
        title="Release branch process for the payments service and its workers",
        type=FactType.PROJECT,
        body="Cut releases from `release/<version>` and tag them; never release from main.",
    )
    m.create(
        name="release-branch",
        title="Release branch",
        type=FactType.FEEDBACK,
        scope=Scope.GLOBAL,
        body="Release from main.",
    )
    for i in range(6):
        m.create(name=f"note-{i}", title=f"Note {i}", type=FactType.REFERENCE, body=f"n {i}")
    m.create(  # left out with a long, mixed-script "Why not" when a message says 分支
        name="code-review-zh",
        title="代码审查",
        type=FactType.PROJECT,
        body="审查分支上的改动之前先跑测试。",
    )
    view = engine.open()
    Recaller(engine.layout).recall("how do we cut a release branch", view.facts, view.conflicts)
    for session in ("s1", "s2"):
        append_turn(
            engine.layout, "Always run ruff before committing, CI rejects lint.", session=session
        )
    decision = assess(
        {
            "operation": "create",
            "controller": "interactive",
            "owns_store": True,
            "agent": "claude-code",
            "name": "prefers-tabs",
            "type": "user",
            "scope": "global",
            "body": "The person prefers tabs, and their e-mail is ana@example.com.",
        },
        engine.memory,
    )
    assert decision.outcome is Outcome.QUEUED
    return engine


@pytest.fixture(params=SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def window(request, qtbot, ctx, settings, seeded, wait_idle, app_style):  # type: ignore[no-untyped-def]
    width, height = request.param
    win = MainWindow(ctx, settings, watch=False)
    qtbot.addWidget(win)
    win.resize(width, height)
    win.show()
    wait_idle()
    assert (win.width(), win.height()) == (width, height)  # the window may be that small
    yield win
    win.close()


def _shown(qtbot, window: MainWindow, tab: QWidget, wait_idle) -> QWidget:  # type: ignore[no-untyped-def]
    window.show_tab(tab)
    wait_idle(10000)
    qtbot.wait(50)  # layouts and the wrapped rows settle
    return tab


def _rect_in_window(widget: QWidget, window: MainWindow) -> QRect:
    return QRect(widget.mapTo(window, QPoint(0, 0)), widget.size())


def _assert_fits(window: MainWindow, tab: QWidget) -> None:
    parent = tab.parentWidget()
    while parent is not None and parent is not window:  # no scroll area around the tab
        assert not isinstance(parent, QScrollArea), type(tab).__name__
        parent = parent.parentWidget()
    area = _rect_in_window(tab, window)
    assert window.rect().contains(area), type(tab).__name__  # the tab is not wider than 900
    for child in tab.findChildren(QWidget):
        if not child.isVisible() or child.window() is not window:
            continue
        if isinstance(child.parentWidget(), QAbstractScrollArea) or child.parent() is None:
            continue
        rect = _rect_in_window(child, window)
        if rect.width() and rect.height() and child.parentWidget() is not None:
            inside = child.parentWidget().rect().contains(child.geometry(), False)
            if isinstance(child.parentWidget().parentWidget(), QAbstractScrollArea):
                continue  # the viewport's own content may scroll (a table, a text view)
            assert area.contains(rect) or not inside, f"{child.objectName()} outside the tab"
    for table in tab.findChildren(QTableView):
        if table.isVisible():
            assert not table.horizontalScrollBar().isVisible(), table.objectName()
            assert table.horizontalHeader().offset() == 0, table.objectName()  # not scrolled
            header = table.horizontalHeader()
            used = sum(
                header.sectionSize(c)
                for c in range(header.count())
                if not header.isSectionHidden(c)
            )
            assert used <= table.viewport().width() + 2, table.objectName()


def test_every_tab_fits_without_scrolling(qtbot, window: MainWindow, wait_idle) -> None:
    size = (window.width(), window.height())
    tabs = [
        window.memory_tab,
        window.revisions_tab,
        window.archive_tab,
        window.activity_tab,
        window.suggestions_tab,
        window.approvals_tab,
        window.instructions_tab,
        window.claude_tab,
    ]
    for tab in tabs:
        _assert_fits(window, _shown(qtbot, window, tab, wait_idle))
        assert tab.minimumSizeHint().width() <= size[0], type(tab).__name__  # no growth
    window.show_tab(window.connections_page)
    wait_idle(10000)
    connections = window.connections_page.widget
    assert connections is not None
    for tab in (connections,):
        _assert_fits(window, _shown(qtbot, window, tab, wait_idle))
    assert connections.minimumSizeHint().height() <= connections.height()
    assert window.width() == size[0]  # no tab made the window wider


def test_memory_title_keeps_room(qtbot, window: MainWindow, wait_idle) -> None:
    tab = _shown(qtbot, window, window.memory_tab, wait_idle)
    assert tab.table.columnWidth(0) >= 120
    assert tab.body_view.height() >= 80  # the body, not the provenance, gets the height


def test_suggestions_decision_is_on_screen(qtbot, window: MainWindow, wait_idle) -> None:
    tab = _shown(qtbot, window, window.suggestions_tab, wait_idle)
    assert tab.model.rowCount() >= 1 and tab.current is not None
    screen = window.rect()
    for widget in (tab.accept_button, tab.dismiss_button, tab.editor.evidence):
        assert widget.isVisible()
        assert screen.contains(_rect_in_window(widget, window)), widget.objectName()
    assert tab.editor.evidence.height() >= 50
    assert tab.editor.body_edit.height() >= 50


def test_activity_tables_show_several_rows(qtbot, window: MainWindow, wait_idle) -> None:
    tab = _shown(qtbot, window, window.activity_tab, wait_idle)
    view = tab.last
    assert view.trace is not None
    for table in (view.hits, view.suppressions):
        line = table.fontMetrics().height()
        assert table.viewport().height() >= 3 * (line + 10), table.objectName()  # ~3 rows


def _painted_height(table: QTableView, text: str, width: int) -> int:
    """The height a cell needs to paint ``text`` wrapped at ``width``: its lines as the style
    lays them out (a line holding Chinese is taller: its fallback font), the stylesheet's
    item padding (2 px above and below), the grid line and a pixel of rounding."""
    layout = QTextLayout(text, table.font())
    option = QTextOption()
    option.setWrapMode(QTextOption.WrapMode.WordWrap)
    layout.setTextOption(option)
    layout.beginLayout()
    height = 0.0
    while True:
        line = layout.createLine()
        if not line.isValid():
            break
        line.setLineWidth(width)
        height += line.height()
    layout.endLayout()
    return math.ceil(height) + 4 + 1 + 1


def _assert_rows_hold_their_text(table: QTableView, column: int) -> None:
    """Every row is tall enough to paint its ``column`` text in full (a row one pixel short
    showed one line of two, with no "…")."""
    assert table.wordWrap() and table.textElideMode().name == "ElideNone"
    assert table.model().rowCount() > 0, table.objectName()
    for row in range(table.model().rowCount()):
        text = str(table.model().index(row, column).data())
        width = max(table.columnWidth(column) - 12 - 6, 1)  # item padding, the text margins
        assert table.rowHeight(row) >= _painted_height(table, text, width), text


def _try(qtbot, tab: QWidget, message: str, wait_idle) -> None:  # type: ignore[no-untyped-def]
    tab.message.setText(message)
    tab.try_button.click()
    wait_idle(10000)
    qtbot.wait(50)


def test_explanations_wrap_in_full(qtbot, window: MainWindow, wait_idle) -> None:
    tab = _shown(qtbot, window, window.activity_tab, wait_idle)
    _assert_rows_hold_their_text(tab.last.suppressions, 1)
    _assert_rows_hold_their_text(tab.last.hits, 4)
    _try(qtbot, tab, "发布分支从哪里切？release branch", wait_idle)
    why_not = [tab.tried.suppressions_model.index(r, 1).data() for r in range(2)]
    assert any("分支" in text and len(text) > 80 for text in why_not), why_not
    _assert_rows_hold_their_text(tab.tried.suppressions, 1)
    _assert_rows_hold_their_text(tab.tried.hits, 4)
    inbox = _shown(qtbot, window, window.approvals_tab, wait_idle)
    reasons = inbox.model.index(0, 6).data()
    assert "sensitive" in reasons  # every reason in the cell, not "(+1 more)"
    _assert_rows_hold_their_text(inbox.table, 6)
    again = _shown(qtbot, window, window.activity_tab, wait_idle)  # back, at the same width
    _assert_rows_hold_their_text(again.tried.suppressions, 1)


def test_claude_code_headers_are_not_clipped(qtbot, window: MainWindow, wait_idle) -> None:
    tab = _shown(qtbot, window, window.claude_tab, wait_idle)
    header = tab.table.horizontalHeader()
    font = header.font()
    font.setBold(True)  # the stylesheet's header weight
    fm = QFontMetrics(font)
    for col in range(header.count()):
        text = str(tab.model.headerData(col, Qt.Orientation.Horizontal))
        assert header.sectionSize(col) >= fm.horizontalAdvance(text) + 16, text  # "ı MEMORY.m"


def _clipped_headings(table: QTableView) -> list[str]:
    header = table.horizontalHeader()
    font = header.font()
    font.setBold(True)  # the stylesheet's header weight
    fm = QFontMetrics(font)
    clipped = []
    for col in range(header.count()):
        if header.isSectionHidden(col):
            continue
        text = str(table.model().headerData(col, Qt.Orientation.Horizontal))
        if header.sectionSize(col) < fm.horizontalAdvance(text) + 16:  # 8 px padding each side
            clipped.append(f"{table.objectName()}: {text} ({header.sectionSize(col)} px)")
    return clipped


def test_no_column_heading_is_clipped(qtbot, window: MainWindow, wait_idle) -> None:
    clipped: list[str] = []
    window.show_tab(window.connections_page)
    wait_idle(10000)
    tabs = [
        window.memory_tab,
        window.revisions_tab,
        window.archive_tab,
        window.activity_tab,
        window.suggestions_tab,
        window.approvals_tab,
        window.claude_tab,
        window.connections_page.widget,
    ]
    for tab in tabs:
        _shown(qtbot, window, tab, wait_idle)
        pages = getattr(tab, "pages", None)
        for index in range(pages.count() if pages is not None else 1):
            if pages is not None:
                pages.setCurrentIndex(index)
                wait_idle(10000)
                qtbot.wait(30)
            for table in tab.findChildren(QTableView):
                if table.isVisible():
                    clipped += _clipped_headings(table)
    assert not clipped, clipped


def _elided_cells(table: QTableView, column: int) -> list[str]:
    """The ``column`` texts wider than their cell (item padding 6 px and text margin 3 px on
    each side): what the view would end in "…"."""
    fm = table.fontMetrics()
    width = table.columnWidth(column)
    texts = [str(table.model().index(r, column).data()) for r in range(table.model().rowCount())]
    return [t for t in texts if fm.horizontalAdvance(t) + 18 > width]


def test_connections_show_each_config_file_in_full(qtbot, window: MainWindow, wait_idle) -> None:
    window.show_tab(window.connections_page)
    wait_idle(10000)
    tab = window.connections_page.widget
    assert tab is not None
    _shown(qtbot, window, tab, wait_idle)
    table = tab.connections_view
    assert table.model().rowCount() >= 6
    assert not _elided_cells(table, 3)  # "~/.claude.j…" beside an empty, wide Command column


def test_history_details_have_the_room(qtbot, window: MainWindow, wait_idle) -> None:
    tab = _shown(qtbot, window, window.activity_tab, wait_idle)
    tab.pages.setCurrentWidget(tab.history)
    wait_idle(10000)
    qtbot.wait(50)
    table = tab.history.table
    details = [table.model().index(r, 6).data() for r in range(table.model().rowCount())]
    assert any(details), details  # the queued write's reasons
    header = table.horizontalHeader()
    widths = [header.sectionSize(c) for c in range(header.count())]
    assert widths[6] >= max(widths[1], widths[5]), widths  # the details get the most room
    for column in (1, 5):  # the fact and the path: no wider than their text
        wanted = max(table.sizeHintForColumn(column), header.sectionSizeHint(column))
        assert widths[column] <= wanted + 1, (column, widths)


def test_approval_reasons_stay_readable_beside_long_type_and_scope(
    qtbot, window: MainWindow, seeded: Engine, wait_idle
) -> None:
    base = {"controller": "interactive", "owns_store": True, "agent": "claude-code"}
    for i, (kind, scope) in enumerate((("user", "global"), ("feedback", "global"), (None, None))):
        fields = {"operation": "create", "name": f"a-rather-long-fact-name-{i}", "body": "x y"}
        fields |= {"title": f"Long {i}", **({"type": kind, "scope": scope} if kind else {})}
        decision = assess({**base, **fields}, seeded.memory)
        assert decision.outcome is Outcome.QUEUED, decision.reasons
    inbox = window.approvals_tab
    inbox.refresh_now()
    _shown(qtbot, window, inbox, wait_idle)
    table = inbox.table
    assert inbox.model.rowCount() >= 3
    texts = [inbox.model.index(r, 5).data() for r in range(inbox.model.rowCount())]
    assert any("type:" in t and "scope:" in t for t in texts)  # the long "type · scope" text
    assert table.columnWidth(6) >= 0.25 * table.viewport().width()  # not a one-word sliver
    _assert_rows_hold_their_text(table, 6)
    rows = sum(table.rowHeight(r) for r in range(inbox.model.rowCount()))
    assert rows <= table.viewport().height()  # every waiting write on screen at once


def test_revisions_table_shows_four_revisions_at_once(
    qtbot, window: MainWindow, seeded: Engine, wait_idle
) -> None:
    m = seeded.memory
    fact = m.create(name="rates", title="Rates", type=FactType.PROJECT, body="r 1")
    for revision in (1, 2, 3):
        m.update(fact.id, expected_revision=revision, body=f"r {revision + 1}")
    window.show_revisions(fact.id)
    wait_idle(10000)
    qtbot.wait(50)
    table = window.revisions_tab.rev_table
    assert table.model().rowCount() == 4
    rows = sum(table.rowHeight(r) for r in range(4))
    assert rows <= table.viewport().height(), (rows, table.viewport().height())  # no 4th cut
    assert not table.verticalScrollBar().isVisible()
    assert window.revisions_tab.diff.height() >= 150  # the diff keeps most of the height


def test_diagnostic_messages_wrap_in_full(
    qtbot, window: MainWindow, workspace: Path, wait_idle
) -> None:
    (workspace / "AGENTS.md").write_text("# Project\n\n- Run tests.\n\n@../outside.md\n")
    (workspace.parent / "outside.md").write_text("elsewhere\n")
    tab = _shown(qtbot, window, window.instructions_tab, wait_idle)
    tab.refresh_now()
    wait_idle(10000)
    qtbot.wait(50)
    table = tab.diag_table
    messages = [table.model().index(r, 3).data() for r in range(table.model().rowCount())]
    assert any("outside.md" in str(m) for m in messages), messages
    _assert_rows_hold_their_text(table, 3)
