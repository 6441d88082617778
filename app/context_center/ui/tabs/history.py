"""The History panel (a page of the Activity tab): who changed what and when.

One table of ``Engine.history()`` rows, newest first: every revision of the most recently
changed facts and every approval event of this workspace (queued, approved, rejected, put
back, failed; the gate's direct writes and refusals), each with the person or agent, the agent
whose write it was, and the path it came through (directly, an approval, the gate). It follows
live changes (``ctx.sig_changed``: facts, the archive, approvals, the workspace).

The filter box keeps one fact: a ref, a name or an id (``Engine.history(ref)``); text that
names no fact filters the loaded rows by ref or id instead. "Show in Memory" (or a
double-click) opens the fact in the Memory tab through the Activity tab's jump.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import Engine, EngineError, HistoryRow
from context_center.ui.context import APPROVALS, ARCHIVE, FACTS, WORKSPACE, AppContext, busy
from context_center.ui.history_text import history_detail
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.models.facts import local_time
from context_center.ui.models.row_table import Column, RowTableModel
from context_center.ui.tabs.base import Tab
from context_center.ui.terms import plural
from context_center.ui.widgets.shared_columns import share_columns
from context_center.ui.widgets.tables import make_table

TEXT = Texts(
    "History",
    {
        "hint": (
            QT_TRANSLATE_NOOP(
                "History",
                "Who changed what and when in this workspace: every saved revision and every "
                "decision on an agent's write. Times are local.",
            )
        ),
        "filter": QT_TRANSLATE_NOOP(
            "History", "Filter by fact: a ref (project/<name>.md), a name or an id"
        ),
        "show_fact": QT_TRANSLATE_NOOP("History", "Show in Memory"),
        "show_fact_tip": QT_TRANSLATE_NOOP(
            "History", "Open the selected fact in the Memory tab (or double-click the row)"
        ),
        "empty": (
            QT_TRANSLATE_NOOP(
                "History",
                "No changes recorded yet. Saving a fact, and approving or rejecting an agent's "
                "write, each add a row here.",
            )
        ),
        "empty_filtered": QT_TRANSLATE_NOOP("History", "Nothing recorded for “{text}”."),
        "count_one": QT_TRANSLATE_NOOP("History", "{n} change, newest first"),
        "count": QT_TRANSLATE_NOOP("History", "{n} changes, newest first"),
        "gone": QT_TRANSLATE_NOOP("History", "{ref} is no longer active (see the Archive tab)"),
        "person": QT_TRANSLATE_NOOP("History", "a person"),
        "revision": QT_TRANSLATE_NOOP("History", "{action} · r{revision}"),
    },
)

ACTIONS = Texts(
    "History",
    {
        "created": QT_TRANSLATE_NOOP("History", "created"),
        "revised": QT_TRANSLATE_NOOP("History", "revised"),
        "renamed": QT_TRANSLATE_NOOP("History", "renamed"),
        "queued": QT_TRANSLATE_NOOP("History", "proposed (queued)"),
        "approved": QT_TRANSLATE_NOOP("History", "approved"),
        "rejected": QT_TRANSLATE_NOOP("History", "rejected"),
        "requeued": QT_TRANSLATE_NOOP("History", "rejection undone (queued again)"),
        "approve_failed": QT_TRANSLATE_NOOP("History", "approval failed"),
        "gate_applied": QT_TRANSLATE_NOOP("History", "written by the gate"),
        "gate_refused": QT_TRANSLATE_NOOP("History", "refused by the gate"),
    },
)

PATHS = Texts(
    "History",
    {
        "direct": QT_TRANSLATE_NOOP("History", "directly (window, CLI, import)"),
        "approval": QT_TRANSLATE_NOOP("History", "approval of an agent's write"),
        "approval queue": QT_TRANSLATE_NOOP("History", "the approval queue"),
        "gate": QT_TRANSLATE_NOOP("History", "the write gate (no approval needed)"),
    },
)

LIMIT = 500


def _change(row: HistoryRow) -> str:
    action = ACTIONS.get(row.action, row.action)
    if row.revision is None:
        return action
    return TEXT["revision"].format(action=action, revision=row.revision)


COLUMNS: list[Column[HistoryRow]] = [
    Column(QT_TRANSLATE_NOOP("Columns", "When"), lambda r: local_time(r.at)),
    Column(QT_TRANSLATE_NOOP("Columns", "Fact"), lambda r: r.ref or "—"),
    Column(QT_TRANSLATE_NOOP("Columns", "Change"), _change),
    Column(
        QT_TRANSLATE_NOOP("Columns", "Who"),
        lambda r: TEXT["person"] if r.who == "person" else r.who,
    ),
    Column(QT_TRANSLATE_NOOP("Columns", "Agent"), lambda r: r.agent or "—"),
    Column(QT_TRANSLATE_NOOP("Columns", "Path"), lambda r: PATHS.get(r.via, r.via)),
    Column(
        QT_TRANSLATE_NOOP("Columns", "Details"),
        lambda r: history_detail(r.detail),
    ),
]


def load_history(engine: Engine, text: str) -> list[HistoryRow]:
    """One fact's rows when ``text`` names one; else every row whose ref or id holds it."""
    if not text:
        return engine.history(limit=LIMIT)
    rows = engine.history(text, limit=LIMIT)
    if rows:
        return rows
    needle = text.lower()
    return [
        r
        for r in engine.history(limit=LIMIT)
        if needle in r.ref.lower() or needle in (r.fact_id or "").lower()
    ]


def fact_id_of(engine: Engine, row: HistoryRow) -> str | None:
    if row.fact_id:
        return row.fact_id
    try:
        return engine.read_fact(row.ref).fact.id
    except EngineError:
        return None


class HistoryPanel(Tab):
    title = QT_TRANSLATE_NOOP("History", "History")  # shown as lookup("History", title)
    flags = frozenset({FACTS, ARCHIVE, APPROVALS, WORKSPACE})

    sig_show_fact = Signal(str)
    """(fact id) show this fact in the Memory tab."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.setObjectName("historyPanel")
        self.model: RowTableModel[HistoryRow] = RowTableModel(COLUMNS, self)
        self.filter = QLineEdit()
        self.filter.setObjectName("historyFilter")
        self.filter.setPlaceholderText(TEXT["filter"])
        self.filter.setClearButtonEnabled(True)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self.refresh_now)
        self.filter.textChanged.connect(lambda _t: self._timer.start())
        self.show_fact_button = QPushButton(TEXT["show_fact"])
        self.show_fact_button.setObjectName("historyShowFact")
        self.show_fact_button.setToolTip(TEXT["show_fact_tip"])
        self.show_fact_button.clicked.connect(self.on_show_fact)
        self.table = make_table(self.model, name="historyTable", stretch=6)
        # fits 900 px: the fact and the path take their text's width up to a share of the
        # room, the details (the gate's reasons) all the rest, instead of a third each
        share_columns(self.table, {1: 0.35, 5: 0.25}, 6)
        self.table.doubleClicked.connect(lambda _i: self.on_show_fact())
        self.table.selectionModel().selectionChanged.connect(lambda *_: self.update_actions())
        self.status = QLabel(TEXT["empty"])
        self.status.setObjectName("historyStatus")
        self.status.setWordWrap(True)
        hint = QLabel(TEXT["hint"])
        hint.setObjectName("hint")
        hint.setWordWrap(True)

        bar = QHBoxLayout()
        bar.addWidget(self.filter, 1)
        bar.addWidget(self.show_fact_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 8, 8, 8)
        layout.setSpacing(6)
        layout.addWidget(hint)
        layout.addLayout(bar)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.status)
        self.update_actions()

    def selected(self) -> HistoryRow | None:
        index = self.table.selectionModel().currentIndex()
        rows = self.table.selectionModel().selectedRows()
        if not rows or not index.isValid():
            return None
        return self.model.row_at(rows[0].row())

    def update_actions(self) -> None:
        row = self.selected()
        self.show_fact_button.setEnabled(row is not None and bool(row.fact_id or row.ref))

    def show_history_of(self, ref: str) -> None:
        """Keep only this fact's rows (a ref, name or id)."""
        self.filter.setText(ref)
        self._timer.stop()
        self.refresh_now()

    async def refresh(self) -> None:
        text = self.filter.text().strip()
        rows = await self.ctx.run(load_history, self.ctx.engine, text)
        self.model.set_rows(rows)
        if rows:
            self.status.setText(
                plural(len(rows), TEXT["count_one"], TEXT["count"]).format(n=len(rows))
            )
        elif text:
            self.status.setText(TEXT["empty_filtered"].format(text=text))
        else:
            self.status.setText(TEXT["empty"])
        self.update_actions()

    @asyncSlot()
    @busy("show_fact_button")
    async def on_show_fact(self) -> None:
        row = self.selected()
        if row is None:
            return
        fact_id = await self.ctx.run(fact_id_of, self.ctx.engine, row)
        if fact_id is None:
            self.ctx.status(TEXT["gone"].format(ref=row.ref))
            return
        self.sig_show_fact.emit(fact_id)
