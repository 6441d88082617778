"""Memory tab: every active fact of both scopes, its rendered body and provenance, and conflicts.

Create, edit (compare-and-set on revision and content hash; a lost race opens the stale-edit
dialog instead of overwriting) and forget (after a confirmation). Filtering and sorting happen
in Python (``models.facts.FactFilter``) so 50,000 facts stay instant.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import (
    Changes,
    Conflict,
    Engine,
    EngineError,
    Entry,
    FactType,
    Freshness,
    NotFound,
    RevisionConflict,
    Scope,
)
from context_center.ui.context import FACTS, WORKSPACE, AppContext, busy
from context_center.ui.dialogs.fact_editor import FactDraft, FactEditorDialog
from context_center.ui.dialogs.stale_edit import RELOAD, StaleEditDialog
from context_center.ui.models.facts import (
    COL_FRESHNESS,
    COL_REVISION,
    COL_SCOPE,
    COL_TITLE,
    COL_TYPE,
    COL_UPDATED,
    FactFilter,
    FactRow,
    FactTableModel,
)
from context_center.ui.tabs.base import Tab
from context_center.ui.tabs.memory_work import (
    MemoryData,
    create_fact,
    current_entry,
    forget_fact,
    load_conflicts,
    load_memory,
    update_fact,
)
from context_center.ui.widgets.fact_detail import FactDetail
from context_center.ui.widgets.markdown_view import escape

MAX_BANNER_CONFLICTS = 3


class MemoryTab(Tab):
    title = "Memory"
    flags = frozenset({FACTS, WORKSPACE})

    sig_show_revisions = Signal(str)
    """(fact id) the person asked for the revision history of a fact."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.filter = FactFilter()
        self.model = FactTableModel(self)
        self.data: MemoryData | None = None
        self.conflicts: list[Conflict] = []
        self._selected_id: str | None = None
        self._prefetch: tuple[Engine, asyncio.Future[MemoryData]] | None = None
        self._build()
        self._start_prefetch()
        self.model.sig_sort_requested.connect(self._on_sort)
        self._filter_timer = QTimer(self)
        self._filter_timer.setSingleShot(True)
        self._filter_timer.setInterval(60)
        self._filter_timer.timeout.connect(self.apply_filter)

    # -- layout ---------------------------------------------------------------------------

    def _build(self) -> None:
        self.search = QLineEdit()
        self.search.setObjectName("factSearch")
        self.search.setPlaceholderText("Search titles, names, descriptions and bodies…")
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(lambda _t: self._filter_timer.start())
        self.type_filter = self._combo("typeFilter", "All types", [t.value for t in FactType])
        self.scope_filter = self._combo("scopeFilter", "Both scopes", [s.value for s in Scope])
        self.fresh_filter = self._combo(
            "freshnessFilter", "Any freshness", [f.value for f in Freshness]
        )
        self.count_label = QLabel("Loading facts…")
        self.count_label.setObjectName("countLabel")

        self.btn_new = QPushButton("New fact…")
        self.btn_new.setObjectName("newFact")
        self.btn_new.clicked.connect(self.on_new)
        self.btn_edit = QPushButton("Edit…")
        self.btn_edit.setObjectName("editFact")
        self.btn_edit.clicked.connect(self.on_edit)
        self.btn_forget = QPushButton("Forget…")
        self.btn_forget.setObjectName("forgetFact")
        self.btn_forget.setProperty("destructive", True)
        self.btn_forget.clicked.connect(self.on_forget)
        self.btn_revisions = QPushButton("Revisions")
        self.btn_revisions.setObjectName("showRevisions")
        self.btn_revisions.clicked.connect(self._on_show_revisions)

        bar = QHBoxLayout()
        bar.setSpacing(8)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.type_filter)
        bar.addWidget(self.scope_filter)
        bar.addWidget(self.fresh_filter)
        bar.addSpacing(8)
        bar.addWidget(self.btn_new)

        self.banner = QFrame()
        self.banner.setObjectName("conflictBanner")
        self.banner_label = QLabel()
        self.banner_label.setObjectName("conflictText")
        self.banner_label.setWordWrap(True)
        self.banner_label.setTextFormat(Qt.TextFormat.RichText)
        self.banner_label.linkActivated.connect(self._on_banner_link)
        banner_layout = QVBoxLayout(self.banner)
        banner_layout.setContentsMargins(12, 8, 12, 8)
        banner_layout.addWidget(self.banner_label)
        self.banner.hide()

        self.table = QTableView()
        self.table.setObjectName("factTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setAlternatingRowColors(True)
        self.table.setSortingEnabled(True)
        self.table.setWordWrap(False)
        self.table.setShowGrid(False)
        self.table.verticalHeader().hide()
        vh = self.table.verticalHeader()
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(self.fontMetrics().height() + 10)
        header = self.table.horizontalHeader()
        header.setHighlightSections(False)
        header.setSectionResizeMode(COL_TITLE, QHeaderView.ResizeMode.Stretch)
        fm = self.fontMetrics()
        widths = {
            COL_TYPE: fm.horizontalAdvance("reference") + 28,
            COL_SCOPE: fm.horizontalAdvance("project") + 28,
            COL_FRESHNESS: fm.horizontalAdvance("Freshness") + 28,
            COL_REVISION: fm.horizontalAdvance("Rev") + 28,
            COL_UPDATED: fm.horizontalAdvance("2026-11-02 09:14") + 24,
        }
        for col, width in widths.items():
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
            self.table.setColumnWidth(col, width)
        header.setSortIndicator(COL_TITLE, Qt.SortOrder.AscendingOrder)
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.table.doubleClicked.connect(lambda _i: self.on_edit())

        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.setSpacing(6)
        left_layout.addWidget(self.table, 1)
        left_layout.addWidget(self.count_label)

        self.detail = self._build_detail()
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(left)
        self.splitter.addWidget(self.detail)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(10)
        layout.addLayout(bar)
        layout.addWidget(self.banner)
        layout.addWidget(self.splitter, 1)
        self._show_fact(None)

    def _combo(self, name: str, any_label: str, values: list[str]) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        combo.addItem(any_label, "")
        for value in values:
            combo.addItem(value, value)
        combo.currentIndexChanged.connect(lambda _i: self.apply_filter())
        return combo

    def _build_detail(self) -> FactDetail:
        self.detail = FactDetail((self.btn_edit, self.btn_revisions, self.btn_forget))
        self.detail.body_view.sig_link_clicked.connect(self.on_link)
        # The parts tests and other views read directly.
        self.body_view = self.detail.body_view
        self.prov_id = self.detail.prov_id
        self.prov_ref = self.detail.prov_ref
        self.prov_path = self.detail.prov_path
        return self.detail

    # -- loading --------------------------------------------------------------------------

    def _start_prefetch(self) -> None:
        """Begin reading the stores while the rest of the window is still being built."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # built outside the loop: the first refresh loads instead
        engine = self.ctx.engine
        future = self.ctx.submit(load_memory, engine)
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._prefetch = (engine, future)

    async def refresh(self) -> None:
        engine = self.ctx.engine
        prefetch, self._prefetch = self._prefetch, None
        if prefetch is not None and prefetch[0] is engine:
            data = await prefetch[1]
        else:
            data = await self.ctx.run(load_memory, engine)
        self.data = data
        self.filter.set_rows(data.rows)
        self.apply_filter()
        # Let the table paint before the next engine step competes for the interpreter.
        await asyncio.sleep(0.03)
        conflicts = await self.ctx.run(load_conflicts, engine)
        self.conflicts = conflicts
        self.model.set_conflicts(
            frozenset(c.project_id for c in conflicts) | frozenset(c.global_id for c in conflicts)
        )
        self._show_banner(conflicts)
        current = self.current_row()
        if current is not None:
            self._show_fact(current)

    def apply_filter(self) -> None:
        self.filter.query = self.search.text()
        self.filter.type = self.type_filter.currentData() or ""
        self.filter.scope = self.scope_filter.currentData() or ""
        self.filter.freshness = self.fresh_filter.currentData() or ""
        self._set_view_rows(self.filter.apply())

    def _on_sort(self, column: int, order: Qt.SortOrder) -> None:
        self.filter.sort_column = column
        self.filter.descending = order == Qt.SortOrder.DescendingOrder
        self._set_view_rows(self.filter.apply())

    def _set_view_rows(self, rows: list[FactRow]) -> None:
        keep = self._selected_id
        self.model.set_rows(rows)
        total = len(self.filter.rows)
        if self.data is not None:
            parts = f"{self.data.total_project:,} project · {self.data.total_global:,} global"
            if self.data.diagnostics_count:
                parts += f" · {self.data.diagnostics_count} file(s) skipped (see CLI: memory list)"
        else:
            parts = ""
        shown = f"{len(rows):,} of {total:,} facts" if len(rows) != total else f"{total:,} facts"
        self.count_label.setText(f"{shown}   ({parts})" if parts else shown)
        if keep is not None and self.select_fact(keep):
            return
        if rows:
            self.table.selectRow(0)
        else:
            self._selected_id = None
            self._show_fact(None)

    def select_fact(self, fact_id: str) -> bool:
        row = self.model.row_of(fact_id)
        if row < 0:
            return False
        index = self.model.index(row, 0)
        self.table.selectionModel().setCurrentIndex(
            index,
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows,
        )
        self.table.scrollTo(index)
        self._show_fact(self.model.rows[row])
        return True

    def current_row(self) -> FactRow | None:
        index = self.table.selectionModel().currentIndex()
        if not index.isValid() or index.row() >= len(self.model.rows):
            return None
        return self.model.rows[index.row()]

    def _on_selection(self, *_args: object) -> None:
        rows = self.table.selectionModel().selectedRows()
        row = self.model.rows[rows[0].row()] if rows else None
        self._selected_id = row.id if row else self._selected_id
        self._show_fact(row)

    # -- detail ---------------------------------------------------------------------------

    def update_actions(self) -> None:
        has = self.current_row() is not None
        for w in (self.btn_edit, self.btn_forget, self.btn_revisions):
            w.setEnabled(has)

    def _show_fact(self, row: FactRow | None) -> None:
        has = row is not None
        for w in (self.btn_edit, self.btn_forget, self.btn_revisions):
            w.setEnabled(has)
        self.detail.show_row(row, self.conflicts)

    def _show_banner(self, conflicts: list[Conflict]) -> None:
        if not conflicts:
            self.banner.hide()
            return
        n = len(conflicts)
        head = (
            f"<b>{n} project-over-global override{'s' if n != 1 else ''}</b> — both facts are "
            "kept and shown; in this workspace the project one applies."
        )
        items = []
        for c in conflicts[:MAX_BANNER_CONFLICTS]:
            items.append(
                f"<p style='margin-top:4px'>⚠ <a href='fact:{escape(c.project_id)}'>"
                f"{escape(c.project_ref)}</a> overrides <a href='fact:{escape(c.global_id)}'>"
                f"{escape(c.global_ref)}</a> (same <b>{escape(c.key)}</b>). "
                f"<span style='color:#57606a'>{escape(c.explanation())}</span></p>"
            )
        if n > MAX_BANNER_CONFLICTS:
            items.append(
                f"<p style='margin-top:4px'>…and {n - MAX_BANNER_CONFLICTS} more, marked ⚠ in "
                "the table.</p>"
            )
        self.banner_label.setText(head + "".join(items))
        self.banner.show()

    def _on_banner_link(self, link: str) -> None:
        if link.startswith("fact:"):
            fact_id = link[5:]
            if not self.select_fact(fact_id):
                # hidden by a filter: clear the filters and try again
                self.search.clear()
                for combo in (self.type_filter, self.scope_filter, self.fresh_filter):
                    combo.setCurrentIndex(0)
                self.apply_filter()
                self.select_fact(fact_id)

    def _on_show_revisions(self) -> None:
        row = self.current_row()
        if row is not None:
            self.sig_show_revisions.emit(row.id)

    @asyncSlot(QUrl)
    async def on_link(self, url: QUrl) -> None:
        """A link in a fact body: ask before handing it to the browser (bodies are untrusted)."""
        text = url.toString()
        if url.scheme() not in ("http", "https"):
            self.ctx.status(f"Link not opened: {text}")
            return
        if await self.ctx.confirm(
            self,
            "Open link?",
            "Open this link in your web browser?",
            informative=text,
            ok_text="Open",
        ):
            QDesktopServices.openUrl(url)

    # -- actions --------------------------------------------------------------------------

    @asyncSlot()
    @busy("btn_new")
    async def on_new(self) -> None:
        draft: FactDraft | None = None
        while True:
            dialog = FactEditorDialog(self, draft=draft)
            if await self.ctx.exec_dialog(dialog) != QDialog.DialogCode.Accepted:
                return
            draft = dialog.draft()
            try:
                changes = await self.ctx.run(create_fact, self.ctx.engine, draft)
            except EngineError as exc:
                await self.ctx.report_and_wait(exc, self)
                continue  # reopen with what was typed
            break
        fact = changes.value
        self._selected_id = fact.id
        self.ctx.status(f"Created {fact.ref}")
        self.ctx.apply(changes, self)

    @asyncSlot()
    @busy("btn_edit", "btn_forget")
    async def on_edit(self) -> None:
        row = self.current_row()
        if row is None:
            return
        entry: Entry | None = row.entry
        while entry is not None:
            entry = await self._edit_once(entry)

    async def _edit_once(self, entry: Entry) -> Entry | None:
        """One round of editing; returns the entry to edit again (after "Reload"), else None."""
        dialog = FactEditorDialog(self, fact=entry.fact)
        if await self.ctx.exec_dialog(dialog) != QDialog.DialogCode.Accepted:
            return None
        draft = dialog.draft()
        try:
            changes = await self.ctx.run(update_fact, self.ctx.engine, entry, draft)
        except (RevisionConflict, NotFound) as exc:
            current = await self.ctx.run(current_entry, self.ctx.engine, entry.fact.id)
            self.ctx.apply(Changes.seen_on_disk({FACTS}), self)
            stale = StaleEditDialog(
                self,
                base=entry.fact,
                current=current.fact if current else None,
                mine=draft,
                message=str(exc),
            )
            code = await self.ctx.exec_dialog(stale)
            return current if code == RELOAD and current is not None else None
        fact = changes.value
        self._selected_id = fact.id
        self.ctx.status(f"Saved {fact.ref} as revision {fact.revision}")
        self.ctx.apply(changes, self)
        return None

    @asyncSlot()
    @busy("btn_edit", "btn_forget")
    async def on_forget(self) -> None:
        row = self.current_row()
        if row is None:
            return
        fact = row.fact
        ok = await self.ctx.confirm(
            self,
            "Forget fact",
            f"Forget {fact.ref}?",
            informative=(
                f"“{fact.display_title}” leaves active recall and moves to the archive. You can "
                "recover it from the Archive tab as a new revision."
            ),
            ok_text="Forget",
            destructive=True,
        )
        if not ok:
            return
        changes = await self.ctx.run(forget_fact, self.ctx.engine, fact)
        self._selected_id = None
        self.ctx.status(f"Forgot {fact.ref} (archived as {changes.value[1].name})")
        self.ctx.apply(changes, self)
