"""The Activity tab: the last recall trace of this workspace, and a box to try a message.

The left side shows the trace the engine persisted after the latest real recall (query, the
facts recalled with score, reason, freshness and revision, the omitted count, and what was left
out and why). The right side runs recall for a message typed here, off the GUI thread and
without replacing the persisted trace, and shows the same explanation plus the exact block a
provider would see (read-only, plain text).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractItemView,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import Changes, Engine, RecallTrace
from context_center.ui.context import FACTS, TRACE, WORKSPACE, busy
from context_center.ui.models.trace_models import HitsModel, SuppressionsModel
from context_center.ui.tabs.base import Tab
from context_center.ui.widgets.labels import plain_label

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
    font = label.font()
    font.setBold(True)
    label.setFont(font)
    return label


def _table(model: Any, name: str, stretch: int) -> QTableView:
    view = QTableView()
    view.setObjectName(name)
    view.setModel(model)
    view.verticalHeader().hide()
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setAlternatingRowColors(True)
    view.setWordWrap(False)
    header = view.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    view.setMinimumHeight(96)
    return view


def describe(trace: RecallTrace) -> tuple[str, str]:
    """(the query line, the outcome line) of a trace, for a person."""
    when = trace.at.astimezone().strftime("%Y-%m-%d %H:%M:%S")
    terms = ", ".join(trace.terms) if trace.terms else "none"
    query = f"\u201c{trace.query}\u201d  ·  {when}  ·  searchable terms: {terms}"
    if trace.selected:
        outcome = f"Recalled {len(trace.selected)} fact(s)"
    else:
        reason = trace.reason
        outcome = f"Nothing recalled: {reason.text if reason else 'no match'}"
    outcome += (
        f"  ·  omitted {trace.omitted}  ·  {trace.candidates} distinctive match(es)"
        f"  ·  {trace.chars_used} of {trace.char_budget} characters, at most "
        f"{trace.max_facts} facts  ·  {trace.elapsed_ms:.1f} ms"
    )
    return query, outcome


class TraceView(QWidget):
    """One recall trace: query, recalled facts, what was left out and why, the block."""

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
        self.suppressions_model = SuppressionsModel(self)
        self.suppressions = _table(self.suppressions_model, "suppressionsTable", 1)
        self.more = plain_label(name="suppressedMore")
        self.block = QPlainTextEdit()
        self.block.setObjectName("recallBlock")
        self.block.setReadOnly(True)
        self.block.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        self.block.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.block.setPlaceholderText("(empty: nothing is added to the user turn)")
        self.block.setMinimumHeight(80)

        def part(*widgets: QWidget) -> QWidget:
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(0, 4, 0, 0)
            lay.setSpacing(4)
            for w in widgets:
                lay.addWidget(w)
            return box

        self.parts = QSplitter(Qt.Orientation.Vertical)
        self.parts.setChildrenCollapsible(False)
        self.parts.addWidget(part(_section("Recalled"), self.hits))
        self.parts.addWidget(part(_section("Left out, and why"), self.suppressions, self.more))
        self.parts.addWidget(part(_section("What the model sees"), self.block))
        for i, stretch in enumerate((2, 2, 3)):
            self.parts.setStretchFactor(i, stretch)

        self.empty = plain_label(name="traceEmpty")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.query)
        layout.addWidget(self.outcome)
        layout.addWidget(self.empty)
        layout.addWidget(self.parts, 1)
        self.set_trace(None, "")

    def set_trace(self, trace: RecallTrace | None, empty_text: str) -> None:
        self.trace = trace
        has = trace is not None
        self.query.setVisible(has)
        self.outcome.setVisible(has)
        self.parts.setVisible(has)
        self.empty.setVisible(not has)
        self.empty.setText(empty_text)
        if trace is None:
            self.hits_model.set_rows([])
            self.suppressions_model.set_rows([])
            self.block.clear()
            return
        query, outcome = describe(trace)
        self.query.setText(query)
        self.outcome.setText(outcome)
        self.hits_model.set_rows(trace.selected)
        self.suppressions_model.set_rows(trace.suppressed)
        self.more.setVisible(trace.suppressed_more > 0)
        self.more.setText(f"… and {trace.suppressed_more} more left out (not listed).")
        self.block.setPlainText(trace.block)


class ActivityTab(Tab):
    """The last recall trace of this workspace and a try-a-message box."""

    title = "Activity"
    flags = frozenset({TRACE, WORKSPACE})

    sig_trace_loaded = Signal(object)
    """(RecallTrace | None) the persisted trace was (re)loaded."""

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.setObjectName("activityTab")
        self._facts_changed = True
        ctx.sig_changed.connect(self._on_any_change)

        self.last = TraceView(name="lastTrace")
        self.reload_button = QPushButton("Reload")
        self.reload_button.setObjectName("reloadTrace")
        self.reload_button.setToolTip("Read the latest trace again")
        self.reload_button.clicked.connect(self._on_reload)
        last_box = QGroupBox("Last recall in this workspace")
        last_layout = QVBoxLayout(last_box)
        last_layout.setSpacing(6)
        bar = QHBoxLayout()
        bar.addWidget(
            plain_label(
                "The latest user turn an agent recalled memory for, and why each fact was or "
                "was not added.",
                "hint",
            ),
            1,
        )
        bar.addWidget(self.reload_button, 0, Qt.AlignmentFlag.AlignTop)
        last_layout.addLayout(bar)
        last_layout.addWidget(self.last, 1)

        self.message = QLineEdit()
        self.message.setObjectName("tryMessage")
        self.message.setPlaceholderText("Type a message as you would to an agent…")
        self.message.setClearButtonEnabled(True)
        self.message.returnPressed.connect(self._on_try)
        self.try_button = QPushButton("Try")
        self.try_button.setObjectName("tryButton")
        self.try_button.setToolTip("Run recall for this message (nothing is saved)")
        self.try_button.clicked.connect(self._on_try)
        self.tried = TraceView(name="triedTrace")
        self.tried.set_trace(
            None,
            "See what would be recalled for a message, and why other facts would not. "
            "This does not change the last trace on the left.",
        )
        try_box = QGroupBox("Try a message")
        try_layout = QVBoxLayout(try_box)
        try_layout.setSpacing(6)
        row = QHBoxLayout()
        row.setSpacing(6)
        row.addWidget(self.message, 1)
        row.addWidget(self.try_button)
        try_layout.addLayout(row)
        try_layout.addWidget(self.tried, 1)

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(last_box)
        splitter.addWidget(try_box)
        splitter.setStretchFactor(0, 1)
        splitter.setStretchFactor(1, 1)
        splitter.setSizes([10_000, 10_000])  # two equal halves

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(8)
        layout.addWidget(splitter, 1)

    def heightForWidth(self, width: int) -> int:
        # WORKAROUND: the main window puts each tab in a QScrollArea, which sizes a widget whose
        # layout has height-for-width (our word-wrapped labels) to its *preferred* height and
        # scrolls; asking for the minimum keeps the buttons on screen at 1280x800.
        return self.minimumSizeHint().height()

    # -- the persisted trace ----------------------------------------------------------------

    async def refresh(self) -> None:
        trace = await self.ctx.run(load_last_trace, self.ctx.engine)
        self.last.set_trace(
            trace,
            "No recall has run in this workspace yet. When an agent asks Context Center to "
            "recall memory for a user turn, the explanation appears here.",
        )
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
        message = self.message.text().strip()
        if not message:
            self.tried.set_trace(None, "Type a message first.")
            return
        reload, self._facts_changed = self._facts_changed, False
        try:
            trace = await self.ctx.run(try_recall, self.ctx.engine, message, reload)
        except BaseException:
            self._facts_changed = self._facts_changed or reload
            raise
        self.tried.set_trace(trace, "")
        self.ctx.status(trace.summary())
