"""Revisions tab: pick a fact, see its revision history, diff any two revisions, restore one.

Restoring copies the chosen revision's content into a new, higher revision (the history stays
monotonic); it is a person's explicit action, so it applies at once.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import Changes, Engine, Fact, NotFound, RevisionEntry
from context_center.ui.context import FACTS, WORKSPACE, AppContext, busy
from context_center.ui.dialogs.stale_edit import fact_text
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts, translate
from context_center.ui.models.facts import local_time
from context_center.ui.models.row_table import Column, RowTableModel
from context_center.ui.tabs.base import Tab
from context_center.ui.terms import scope_label
from context_center.ui.widgets.diff_view import DiffView
from context_center.ui.widgets.tables import fixed_split, make_table


@dataclass(frozen=True)
class PickRow:
    id: str
    ref: str
    title: str
    scope: str
    revision: int
    haystack: str


@dataclass(frozen=True)
class RevRow:
    revision: int
    current: bool
    fact: Fact
    updated: str


def load_facts(engine: Engine) -> list[PickRow]:
    view = engine.open()
    rows = [
        PickRow(
            e.fact.id,
            e.fact.ref,
            e.fact.display_title,
            e.fact.scope.value,
            e.fact.revision,
            f"{e.fact.display_title}\n{e.fact.ref}".lower(),
        )
        for e in view.entries
    ]
    rows.sort(key=lambda r: (r.title.lower(), r.ref))
    return _told_apart(rows)


def _told_apart(rows: list[PickRow]) -> list[PickRow]:
    """Two facts may share a title (one in each scope): those say their scope after it."""
    seen = Counter(r.title for r in rows)
    return [
        replace(r, title=f"{r.title} · {scope_label(r.scope)}") if seen[r.title] > 1 else r
        for r in rows
    ]


def load_revisions(engine: Engine, fact_id: str) -> list[RevRow]:
    revs: list[RevisionEntry] = engine.revisions(fact_id)
    return [RevRow(r.revision, r.current, r.fact, local_time(r.fact.updated_at)) for r in revs]


def _restore(engine: Engine, fact_id: str, revision: int) -> Changes[Fact]:
    return engine.restore_fact(fact_id, revision)


REVISION_SHARE = 0.4  # of the right column's split, at most, for the revisions table

PICK_COLUMNS: list[Column[PickRow]] = [
    Column(QT_TRANSLATE_NOOP("Columns", "Fact"), lambda r: r.title, tooltip=lambda r: r.ref),
    Column(QT_TRANSLATE_NOOP("Columns", "Rev"), lambda r: str(r.revision), numeric=True),
]
TEXT = Texts(
    "RevisionsTab",
    {
        "pick": QT_TRANSLATE_NOOP("RevisionsTab", "Pick a fact on the left to see its revisions"),
        "pick_diff": QT_TRANSLATE_NOOP(
            "RevisionsTab",
            "Pick a fact on the left: its revisions are listed above, and any two "
            "of them are compared here. Restore brings an older revision back as a new one.",
        ),
        "no_facts": QT_TRANSLATE_NOOP(
            "RevisionsTab",
            "No facts yet — write one in the Memory tab (Ctrl+N); every save of it "
            "becomes a revision here.",
        ),
    },
)

REV_COLUMNS: list[Column[RevRow]] = [
    Column(QT_TRANSLATE_NOOP("Columns", "Rev"), lambda r: str(r.revision), numeric=True),
    Column(QT_TRANSLATE_NOOP("Columns", "Updated"), lambda r: r.updated),
    Column(
        QT_TRANSLATE_NOOP("Columns", "Title"),
        lambda r: (
            r.fact.display_title
            + ("   " + translate("RevisionsTab", "(current)") if r.current else "")
        ),
    ),
]


class RevisionsTab(Tab):
    title = QT_TRANSLATE_NOOP("MainWindow", "Revisions")
    flags = frozenset({FACTS, WORKSPACE})

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.all_facts: list[PickRow] = []
        self.fact_id: str | None = None
        self.revs: list[RevRow] = []
        self._build()

    def _build(self) -> None:
        fm = self.fontMetrics()
        self.search = QLineEdit()
        self.search.setObjectName("revisionSearch")
        self.search.setPlaceholderText(translate("RevisionsTab", "Find a fact…"))
        self.search.setClearButtonEnabled(True)
        self._search_timer = QTimer(self)
        self._search_timer.setSingleShot(True)
        self._search_timer.setInterval(60)
        self._search_timer.timeout.connect(self._apply_search)
        self.search.textChanged.connect(lambda _t: self._search_timer.start())
        self.pick_model: RowTableModel[PickRow] = RowTableModel(
            PICK_COLUMNS, self, text_tooltips=False
        )
        self.pick_table = make_table(
            self.pick_model,
            name="revisionFactList",
            stretch=0,
            widths={1: fm.horizontalAdvance("Rev") + 28},
        )
        self.pick_table.selectionModel().selectionChanged.connect(self._on_pick)
        left = QWidget()
        ll = QVBoxLayout(left)
        ll.setContentsMargins(0, 0, 0, 0)
        ll.setSpacing(6)
        ll.addWidget(self.search)
        ll.addWidget(self.pick_table, 1)

        self.heading = QLabel(TEXT["pick"])
        self.heading.setObjectName("detailTitle")
        self.heading.setWordWrap(True)
        self.rev_model: RowTableModel[RevRow] = RowTableModel(
            REV_COLUMNS, self, text_tooltips=False
        )
        self.rev_table = make_table(
            self.rev_model,
            name="revisionTable",
            stretch=2,
            widths={
                0: fm.horizontalAdvance("Rev") + 28,
                1: fm.horizontalAdvance("2026-11-02 09:14") + 24,
            },
        )
        self.rev_table.selectionModel().selectionChanged.connect(self._on_rev_selected)
        self.from_combo = QComboBox()
        self.from_combo.setObjectName("diffFrom")
        self.to_combo = QComboBox()
        self.to_combo.setObjectName("diffTo")
        for combo in (self.from_combo, self.to_combo):
            combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
            combo.setMinimumContentsLength(len("revision 000 (current)"))
        self.from_combo.currentIndexChanged.connect(lambda _i: self._update_diff())
        self.to_combo.currentIndexChanged.connect(lambda _i: self._update_diff())
        self.side_by_side = QCheckBox(translate("RevisionsTab", "Side by side"))
        self.side_by_side.setObjectName("sideBySide")
        self.diff = DiffView()
        self.side_by_side.toggled.connect(self.diff.set_side_by_side)
        self.btn_restore = QPushButton(translate("RevisionsTab", "Restore this revision…"))
        self.btn_restore.setObjectName("restoreButton")
        self.btn_restore.clicked.connect(self.on_restore)

        compare = QHBoxLayout()
        compare.setSpacing(8)
        compare.addWidget(QLabel(translate("RevisionsTab", "Compare")))
        compare.addWidget(self.from_combo)
        compare.addWidget(QLabel(translate("RevisionsTab", "with")))
        compare.addWidget(self.to_combo)
        compare.addStretch(1)
        compare.addWidget(self.side_by_side)

        restore_row = QHBoxLayout()
        self.restore_hint = QLabel("")
        self.restore_hint.setObjectName("hint")
        self.restore_hint.setWordWrap(True)
        restore_row.addWidget(self.restore_hint, 1)
        restore_row.addWidget(self.btn_restore)

        right = QFrame()
        right.setObjectName("detailPane")
        rl = QVBoxLayout(right)
        rl.setContentsMargins(14, 12, 14, 12)
        rl.setSpacing(8)
        rl.addWidget(self.heading)
        diff_box = QWidget()
        dl = QVBoxLayout(diff_box)
        dl.setContentsMargins(0, 0, 0, 0)
        dl.setSpacing(6)
        dl.addLayout(compare)
        dl.addWidget(self.diff, 1)
        self.vsplit = fixed_split(Qt.Orientation.Vertical, (self.rev_table, 1), (diff_box, 3))
        rl.addWidget(self.vsplit, 1)
        rl.addLayout(restore_row)

        splitter = fixed_split(Qt.Orientation.Horizontal, (left, 1), (right, 3), sizes=[320, 940])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addWidget(splitter)
        self._show_revisions([])

    # -- loading --------------------------------------------------------------------------

    async def refresh(self) -> None:
        self.all_facts = await self.ctx.run(load_facts, self.ctx.engine)
        self._apply_search()
        if self.fact_id is not None:
            await self._load_revisions(self.fact_id)
        elif not self.revs:
            self._show_revisions([])  # the empty state depends on whether any fact exists

    def _apply_search(self) -> None:
        words = self.search.text().lower().split()
        rows = self.all_facts
        for w in words:
            rows = [r for r in rows if w in r.haystack]
        self.pick_model.set_rows(rows)
        self._select_pick(self.fact_id)

    def _select_pick(self, fact_id: str | None) -> bool:
        if fact_id is None:
            return False
        for i, r in enumerate(self.pick_model.rows):
            if r.id == fact_id:
                self.pick_table.blockSignals(True)
                self.pick_table.selectionModel().blockSignals(True)
                self.pick_table.selectionModel().setCurrentIndex(
                    self.pick_model.index(i, 0),
                    QItemSelectionModel.SelectionFlag.ClearAndSelect
                    | QItemSelectionModel.SelectionFlag.Rows,
                )
                self.pick_table.selectionModel().blockSignals(False)
                self.pick_table.blockSignals(False)
                self.pick_table.scrollTo(self.pick_model.index(i, 0))
                return True
        return False

    def show_fact(self, fact_id: str) -> None:
        """Open the history of ``fact_id`` (called from the Memory tab)."""
        self.fact_id = fact_id
        if not self._select_pick(fact_id) and self.search.text():
            self.search.clear()
            self._apply_search()
        self._load_soon()

    @asyncSlot()
    async def _load_soon(self) -> None:
        if self.fact_id is not None:
            try:
                await self._load_revisions(self.fact_id)
            except Exception as exc:
                self.ctx.report(exc, self)

    def _on_pick(self, *_args: object) -> None:
        selected = self.pick_table.selectionModel().selectedRows()
        if not selected:
            return
        row = self.pick_model.rows[selected[0].row()]
        if row.id != self.fact_id:
            self.fact_id = row.id
            self._load_soon()

    async def _load_revisions(self, fact_id: str) -> None:
        try:
            revs = await self.ctx.run(load_revisions, self.ctx.engine, fact_id)
        except NotFound:
            revs = []
            self.fact_id = None
        if fact_id == self.fact_id or self.fact_id is None:
            self._show_revisions(revs)

    def _show_revisions(self, revs: list[RevRow]) -> None:
        self.revs = revs
        self.rev_model.set_rows(revs)
        for combo in (self.from_combo, self.to_combo):
            combo.blockSignals(True)
            combo.clear()
            for r in revs:
                label = translate("RevisionsTab", "revision {n}").format(n=r.revision)
                if r.current:
                    label += " " + translate("RevisionsTab", "(current)")
                combo.addItem(label, r.revision)
            combo.blockSignals(False)
        if not revs:
            self.heading.setText(TEXT["pick"] if self.all_facts else TEXT["no_facts"])
            self.diff.clear_diff(TEXT["pick_diff"] if self.all_facts else "")
            self.btn_restore.setEnabled(False)
            self.restore_hint.setText("")
            return
        current = revs[0]
        count = (
            translate("RevisionsTab", "1 revision")
            if len(revs) == 1
            else translate("RevisionsTab", "{n} revisions").format(n=len(revs))
        )
        self.heading.setText(f"{current.fact.display_title}  ·  {current.fact.ref}  ·  {count}")
        # newest first: compare the previous revision with the current one
        self.rev_table.selectRow(1 if len(revs) > 1 else 0)
        self._fit_revision_table()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_revision_table()

    def _fit_revision_table(self) -> None:
        """The revisions table as tall as its rows (at most REVISION_SHARE of the right
        column, then it scrolls), the diff the rest: a fixed 1:3 split cut the fourth row
        of four at 1280×800."""
        total = self.vsplit.height() - self.vsplit.handleWidth()
        if total <= 0:
            return
        table = self.rev_table
        rows = sum(table.rowHeight(r) for r in range(self.rev_model.rowCount()))
        rows = rows or table.verticalHeader().defaultSectionSize()
        wanted = table.horizontalHeader().sizeHint().height() + rows + 2 * table.frameWidth() + 2
        height = max(min(wanted, int(total * REVISION_SHARE)), table.minimumSizeHint().height())
        self.vsplit.setSizes([height, total - height])

    def _on_rev_selected(self, *_args: object) -> None:
        rev = self.selected_revision()
        if rev is None or not self.revs:
            return
        current = self.revs[0]
        older = rev if not rev.current else (self.revs[1] if len(self.revs) > 1 else rev)
        self._set_combo(self.from_combo, older.revision)
        self._set_combo(self.to_combo, current.revision)
        self._update_diff()
        if rev.current:
            self.btn_restore.setEnabled(False)
            self.restore_hint.setText(
                translate("RevisionsTab", "Revision {n} is the current one.").format(n=rev.revision)
            )
        else:
            self.btn_restore.setEnabled(True)
            self.restore_hint.setText(
                translate(
                    "RevisionsTab",
                    "Restoring copies revision {n} into a new revision {next}; nothing is lost.",
                ).format(n=rev.revision, next=current.revision + 1)
            )
        self.btn_restore.setText(
            translate("RevisionsTab", "Restore revision {n}…").format(n=rev.revision)
        )

    def update_actions(self) -> None:
        rev = self.selected_revision()
        self.btn_restore.setEnabled(rev is not None and not rev.current)

    @staticmethod
    def _set_combo(combo: QComboBox, revision: int) -> None:
        combo.blockSignals(True)
        combo.setCurrentIndex(max(combo.findData(revision), 0))
        combo.blockSignals(False)

    def selected_revision(self) -> RevRow | None:
        selected = self.rev_table.selectionModel().selectedRows()
        if not selected or selected[0].row() >= len(self.revs):
            return None
        return self.revs[selected[0].row()]

    def _update_diff(self) -> None:
        by_rev = {r.revision: r for r in self.revs}
        a = by_rev.get(self.from_combo.currentData())
        b = by_rev.get(self.to_combo.currentData())
        if a is None or b is None:
            self.diff.clear_diff(translate("RevisionsTab", "Only one revision so far."))
            return
        self.diff.set_texts(
            fact_text(a.fact),
            fact_text(b.fact),
            translate("RevisionsTab", "revision {n}").format(n=a.revision),
            translate("RevisionsTab", "revision {n}").format(n=b.revision),
        )

    # -- restore --------------------------------------------------------------------------

    @asyncSlot()
    @busy("btn_restore")
    async def on_restore(self) -> None:
        rev = self.selected_revision()
        if rev is None or rev.current or self.fact_id is None:
            return
        current = self.revs[0]
        ok = await self.ctx.confirm(
            self,
            translate("RevisionsTab", "Restore revision"),
            translate("RevisionsTab", "Restore revision {n} of {ref}?").format(
                n=rev.revision, ref=current.fact.ref
            ),
            informative=translate(
                "RevisionsTab",
                "Its title, description, type and body become revision {next}. "
                "Revision {current} stays in the history.",
            ).format(next=current.revision + 1, current=current.revision),
            ok_text=translate("RevisionsTab", "Restore"),
        )
        if not ok:
            return
        changes = await self.ctx.run(_restore, self.ctx.engine, self.fact_id, rev.revision)
        fact = changes.value
        self.ctx.status(
            translate("RevisionsTab", "Restored revision {n} of {ref} as revision {new}").format(
                n=rev.revision, ref=fact.ref, new=fact.revision
            )
        )
        self.ctx.apply(changes, self)
