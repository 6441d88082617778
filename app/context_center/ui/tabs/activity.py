"""The Activity tab: the last recall trace of this workspace, and a box to try a message.

One page shows the trace the engine persisted after the latest real recall (query, the facts
recalled with score, reason, freshness and revision, the omitted count, and what was left out
and why); the other runs recall for a message typed there, off the GUI thread and without
replacing the persisted trace, and shows the same explanation plus the exact block a provider
would see (read-only, plain text). Each page has the tab's full width, so the Why and Why not
columns wrap in full instead of ending in "…", and each table keeps several rows at 900×600.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import Changes, Engine, RecallTrace
from context_center.ui.context import FACTS, TRACE, WORKSPACE, busy
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts, lookup
from context_center.ui.models.trace_models import HitsModel, SuppressionsModel
from context_center.ui.recall_text import why_not
from context_center.ui.style import mono_font
from context_center.ui.tabs.base import Tab
from context_center.ui.tabs.history import HistoryPanel
from context_center.ui.terms import plural
from context_center.ui.widgets.labels import plain_label
from context_center.ui.widgets.tables import WrappedTable, fixed_split

HINT_MIN_HEIGHT = 560
"""Below this tab height the Last recall hint is only the page tab's tooltip."""

TEXT = Texts(
    "ActivityTab",
    {
        "show_fact": QT_TRANSLATE_NOOP("ActivityTab", "Show in Memory"),
        "show_fact_tip": QT_TRANSLATE_NOOP(
            "ActivityTab", "Open the selected recalled fact in the Memory tab (or double-click it)"
        ),
        "left_out": QT_TRANSLATE_NOOP("ActivityTab", "Left out, and why"),
        "model_sees": QT_TRANSLATE_NOOP("ActivityTab", "What the model sees"),
        "block_empty": QT_TRANSLATE_NOOP(
            "ActivityTab", "(empty: nothing is added to the user turn)"
        ),
        "query": QT_TRANSLATE_NOOP(
            "ActivityTab", "\u201c{query}\u201d  ·  {when} (local)  ·  searchable terms: {terms}"
        ),
        "none": QT_TRANSLATE_NOOP("ActivityTab", "none"),
        "recalled_n_one": QT_TRANSLATE_NOOP("ActivityTab", "Recalled {n} fact"),
        "recalled_n": QT_TRANSLATE_NOOP("ActivityTab", "Recalled {n} facts"),
        "nothing": QT_TRANSLATE_NOOP("ActivityTab", "Nothing recalled: {reason}"),
        "status_recalled_one": QT_TRANSLATE_NOOP(
            "ActivityTab", "Recalled {n} fact: {refs}; omitted {omitted}"
        ),
        "status_recalled": QT_TRANSLATE_NOOP(
            "ActivityTab", "Recalled {n} facts: {refs}; omitted {omitted}"
        ),
        "no_match": QT_TRANSLATE_NOOP("ActivityTab", "no match"),
        "outcome": (
            QT_TRANSLATE_NOOP(
                "ActivityTab",
                "  ·  omitted {omitted}  ·  distinctive matches: {candidates}  ·  {used} of {budget} "
                "characters, at most {max_facts} facts  ·  {ms:.1f} ms",
            )
        ),
        "more": QT_TRANSLATE_NOOP("ActivityTab", "… and {n} more left out (not listed)."),
        "last_page": QT_TRANSLATE_NOOP("ActivityTab", "Last recall in this workspace"),
        "try_page": QT_TRANSLATE_NOOP("ActivityTab", "Try a message"),
        "last_hint": (
            QT_TRANSLATE_NOOP(
                "ActivityTab",
                "The latest user turn an agent recalled memory for, and why each fact was or was not added.",
            )
        ),
        "reload": QT_TRANSLATE_NOOP("ActivityTab", "Reload"),
        "reload_tip": QT_TRANSLATE_NOOP("ActivityTab", "Read the latest trace again"),
        "message": QT_TRANSLATE_NOOP("ActivityTab", "Type a message as you would to an agent…"),
        "try": QT_TRANSLATE_NOOP("ActivityTab", "Try"),
        "try_tip": QT_TRANSLATE_NOOP(
            "ActivityTab", "Run recall for this message (nothing is saved)"
        ),
        "try_empty": (
            QT_TRANSLATE_NOOP(
                "ActivityTab",
                "See what would be recalled for a message, and why other facts would not. This does "
                "not change the last recall.",
            )
        ),
        "type_first": QT_TRANSLATE_NOOP("ActivityTab", "Type a message first."),
        "no_trace": (
            QT_TRANSLATE_NOOP(
                "ActivityTab",
                "No recall has run in this workspace yet. When an agent asks Context Center to recall "
                "memory for a user turn, the explanation appears here.",
            )
        ),
    },
)

# -- engine work (worker thread) ------------------------------------------------------------


def load_last_trace(engine: Engine) -> RecallTrace | None:
    return engine.last_trace()


def try_recall(engine: Engine, message: str, reload: bool) -> RecallTrace:
    """What recall would inject for ``message`` now; the persisted trace is left alone.
    ``reload`` re-reads the stores first (facts changed since the last try)."""
    view = engine.open() if reload else engine.view()
    return engine.recall(message, view=view, persist=False).trace


# -- widgets ----------------------------------------------------------------------------------


def _section(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("sectionCaption")
    return label


def _table(model: Any, name: str, wrap: int) -> QTableView:
    """A small table whose ``wrap`` column takes the free width and wraps its text in full."""
    view = WrappedTable()
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(wrap, QHeaderView.ResizeMode.Stretch)
    view.setMinimumHeight(72)
    return view


def _why_nothing(reason: Any) -> str:
    """Why a turn recalled nothing (``RecallTrace.reason``), in the window's language."""
    if reason is None:
        return TEXT["no_match"]
    return why_not(reason.value, reason.text, reason.text)


def describe(trace: RecallTrace) -> tuple[str, str]:
    """(the query line, the outcome line) of a trace, for a person."""
    when = trace.at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    terms = ", ".join(trace.terms) if trace.terms else TEXT["none"]
    query = TEXT["query"].format(query=trace.query, when=when, terms=terms)
    if trace.selected:
        n = len(trace.selected)
        outcome = plural(n, TEXT["recalled_n_one"], TEXT["recalled_n"]).format(n=n)
    else:
        reason = trace.reason
        outcome = TEXT["nothing"].format(reason=_why_nothing(reason))
    outcome += TEXT["outcome"].format(
        omitted=trace.omitted,
        candidates=trace.candidates,
        used=trace.chars_used,
        budget=trace.char_budget,
        max_facts=trace.max_facts,
        ms=trace.elapsed_ms,
    )
    return query, outcome


def status_text(trace: RecallTrace) -> str:
    """``trace.summary()`` in the window's language."""
    if trace.selected:
        n = len(trace.selected)
        return plural(n, TEXT["status_recalled_one"], TEXT["status_recalled"]).format(
            n=n,
            refs=", ".join(s.ref for s in trace.selected),
            omitted=trace.omitted,
        )
    reason = trace.reason
    return TEXT["nothing"].format(reason=_why_nothing(reason))


class TraceView(QWidget):
    """One recall trace: query, recalled facts, what was left out and why, the block."""

    sig_show_fact = Signal(str)
    """(fact id) the person asked to see a recalled fact in the Memory tab."""

    def __init__(self, parent: QWidget | None = None, *, name: str = "trace") -> None:
        super().__init__(parent)
        self.setObjectName(name)
        self.trace: RecallTrace | None = None
        self.query = plain_label(name="traceQuery")
        font = self.query.font()
        font.setBold(True)
        self.query.setFont(font)
        self.outcome = plain_label(name="traceOutcome")
        self.hits_model = HitsModel(self)
        self.hits = _table(self.hits_model, "hitsTable", 4)
        self.hits.doubleClicked.connect(lambda index: self._show_hit(index.row()))
        self.show_fact_button = QPushButton(TEXT["show_fact"])
        self.show_fact_button.setObjectName("showInMemory")
        self.show_fact_button.setToolTip(TEXT["show_fact_tip"])
        self.show_fact_button.setEnabled(False)  # the tab places it in its button row
        self.show_fact_button.clicked.connect(self._show_current_hit)
        self.hits.selectionModel().selectionChanged.connect(
            lambda *_a: self.show_fact_button.setEnabled(self._current_hit() >= 0)
        )
        self.suppressions_model = SuppressionsModel(self)
        self.suppressions = _table(self.suppressions_model, "suppressionsTable", 1)
        self.more = plain_label(name="suppressedMore")
        self.block = QPlainTextEdit()
        self.block.setObjectName("recallBlock")
        self.block.setReadOnly(True)
        self.block.setTabChangesFocus(True)
        self.block.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.block.setFont(mono_font())
        self.block.setPlaceholderText(TEXT["block_empty"])
        self.block.setMinimumHeight(self.block.fontMetrics().lineSpacing() * 2 + 14)

        def part(*widgets: QWidget) -> QWidget:
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(0, 4, 0, 0)
            lay.setSpacing(4)
            for w in widgets:
                lay.addWidget(w)
            return box

        # the outcome ("Recalled 2 facts · …") is the Recalled table's caption
        self.parts = fixed_split(
            Qt.Orientation.Vertical,
            (part(self.outcome, self.hits), 2),
            (part(_section(TEXT["left_out"]), self.suppressions, self.more), 2),
            (part(_section(TEXT["model_sees"]), self.block), 1),
        )

        self.empty = plain_label(name="traceEmpty")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.query)
        layout.addWidget(self.empty)
        layout.addWidget(self.parts, 1)
        self.set_trace(None, "")

    def _current_hit(self) -> int:
        rows = self.hits.selectionModel().selectedRows()
        return rows[0].row() if rows else -1

    def _show_current_hit(self) -> None:
        self._show_hit(self._current_hit())

    def _show_hit(self, row: int) -> None:
        if 0 <= row < len(self.hits_model.rows):
            self.sig_show_fact.emit(self.hits_model.rows[row].id)

    def set_trace(self, trace: RecallTrace | None, empty_text: str) -> None:
        self.trace = trace
        has = trace is not None
        self.query.setVisible(has)
        self.outcome.setVisible(has)
        self.parts.setVisible(has)
        self.empty.setVisible(not has)
        self.empty.setText(empty_text)
        if trace is None:
            self.hits_model.set_hits([], "")
            self.suppressions_model.set_rows([])
            self.block.clear()
            return
        query, outcome = describe(trace)
        self.query.setText(query)
        self.outcome.setText(outcome)
        self.hits_model.set_hits(trace.selected, trace.block)
        self.suppressions_model.set_rows(trace.suppressed)
        self.more.setVisible(trace.suppressed_more > 0)
        self.more.setText(TEXT["more"].format(n=trace.suppressed_more))
        self.block.setPlainText(trace.block)


class ActivityTab(Tab):
    """The last recall trace of this workspace and a try-a-message page."""

    title = QT_TRANSLATE_NOOP("MainWindow", "Activity")
    flags = frozenset({TRACE, WORKSPACE})

    sig_trace_loaded = Signal(object)
    """(RecallTrace | None) the persisted trace was (re)loaded."""

    sig_show_fact = Signal(str)
    """(fact id) show this recalled fact in the Memory tab."""

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.setObjectName("activityTab")
        self._facts_changed = True
        ctx.sig_changed.connect(self._on_any_change)

        self.last = TraceView(name="lastTrace")
        self.reload_button = QPushButton(TEXT["reload"])
        self.reload_button.setObjectName("reloadTrace")
        self.reload_button.setToolTip(TEXT["reload_tip"])
        self.reload_button.clicked.connect(self._on_reload)
        last_page = QWidget()
        last_layout = QVBoxLayout(last_page)
        last_layout.setContentsMargins(8, 8, 8, 8)
        last_layout.setSpacing(6)
        # the buttons sit beside the page tabs and the hint yields its line in a short
        # window: the Recalled and Left out tables keep three rows at 900×600
        self.corner = QWidget()
        bar = QHBoxLayout(self.corner)
        bar.setContentsMargins(0, 0, 0, 2)
        bar.addWidget(self.last.show_fact_button)
        bar.addWidget(self.reload_button)
        self.last_hint = plain_label(TEXT["last_hint"], "hint")
        last_layout.addWidget(self.last_hint)
        last_layout.addWidget(self.last, 1)

        self.message = QLineEdit()
        self.message.setObjectName("tryMessage")
        self.message.setPlaceholderText(TEXT["message"])
        self.message.setClearButtonEnabled(True)
        self.message.returnPressed.connect(self._on_try)
        self.try_button = QPushButton(TEXT["try"])
        self.try_button.setObjectName("tryButton")
        self.try_button.setToolTip(TEXT["try_tip"])
        self.try_button.clicked.connect(self._on_try)
        self.tried = TraceView(name="triedTrace")
        self.tried.set_trace(None, TEXT["try_empty"])
        for view in (self.last, self.tried):
            view.sig_show_fact.connect(self.sig_show_fact)
        try_page = QWidget()
        try_layout = QVBoxLayout(try_page)
        try_layout.setContentsMargins(8, 8, 8, 8)
        try_layout.setSpacing(6)
        row = QHBoxLayout()
        row.setSpacing(6)
        row.addWidget(self.message, 1)
        row.addWidget(self.try_button)
        row.addWidget(self.tried.show_fact_button)
        try_layout.addLayout(row)
        try_layout.addWidget(self.tried, 1)

        self.pages = QTabWidget()
        self.pages.setObjectName("activityPages")
        self.pages.setDocumentMode(True)
        self.pages.addTab(last_page, TEXT["last_page"])
        self.pages.setTabToolTip(0, TEXT["last_hint"])
        self.pages.setCornerWidget(self.corner, Qt.Corner.TopRightCorner)
        self.pages.currentChanged.connect(lambda i: self.corner.setVisible(i == 0))
        self.pages.addTab(try_page, TEXT["try_page"])
        self.history = HistoryPanel(ctx)  # who changed what and when (tabs/history.py)
        self.history.sig_show_fact.connect(self.sig_show_fact)
        self.pages.addTab(self.history, lookup("History", self.history.title))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 8, 12, 12)
        layout.setSpacing(8)
        layout.addWidget(self.pages, 1)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.last_hint.setVisible(event.size().height() >= HINT_MIN_HEIGHT)

    def focus_search(self) -> None:
        """Ctrl+F here: the message box of the try page."""
        self.pages.setCurrentIndex(1)
        self.message.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.message.selectAll()

    # -- the persisted trace ----------------------------------------------------------------

    async def refresh(self) -> None:
        trace = await self.ctx.run(load_last_trace, self.ctx.engine)
        self.last.set_trace(trace, TEXT["no_trace"])
        self.sig_trace_loaded.emit(trace)

    @asyncSlot()
    async def _on_reload(self) -> None:
        task = self.refresh_now()
        if task is not None:
            await task

    # -- trying a message -------------------------------------------------------------------

    def _on_any_change(self, changes: Changes[object], source: object | None) -> None:
        if changes.areas & {FACTS, WORKSPACE}:
            self._facts_changed = True

    @asyncSlot()
    @busy("try_button", "message")
    async def _on_try(self) -> None:
        self.pages.setCurrentIndex(1)
        message = self.message.text().strip()
        if not message:
            self.tried.set_trace(None, TEXT["type_first"])
            return
        reload, self._facts_changed = self._facts_changed, False
        try:
            trace = await self.ctx.run(try_recall, self.ctx.engine, message, reload)
        except BaseException:
            self._facts_changed = self._facts_changed or reload
            raise
        self.tried.set_trace(trace, "")
        self.ctx.status(status_text(trace))


__all__ = ["ActivityTab", "TraceView", "describe"]
