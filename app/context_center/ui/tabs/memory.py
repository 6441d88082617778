"""Memory tab: every active fact of both scopes, its rendered body and provenance, and conflicts.

Create, edit (compare-and-set on revision and content hash; a lost race opens the stale-edit
dialog instead of overwriting) and forget (after a confirmation). Filtering and sorting happen
in Python (``models.facts.FactFilter``) so 50,000 facts stay instant.

Keyboard: Tab and Shift+Tab move between the search box, the filters, the table and the
detail pane (the table does not trap Tab); Enter edits the selected fact, Delete forgets it
(after the confirmation), Ctrl+N creates one. The commands are ``QAction`` objects
(``act_new``, ``act_edit``, ``act_forget``, ``act_revisions``) shared by the buttons and the
window's menu bar. Fact files the store cannot read are listed in a banner with the store's
diagnostic (code, file, message).
"""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace
from datetime import UTC, datetime

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QAction, QDesktopServices
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
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
)
from context_center.ui.context import FACTS, WORKSPACE, AppContext, alive, busy
from context_center.ui.dialogs.fact_editor import FactDraft, FactEditorDialog
from context_center.ui.i18n import QT_TRANSLATE_NOOP
from context_center.ui.models.facts import (
    FactFilter,
    FactRow,
    FactTableModel,
    build_rows,
    fill_haystacks,
)
from context_center.ui.tabs.base import Tab
from context_center.ui.tabs.memory_actions import build_actions, install_table_menu
from context_center.ui.tabs.memory_edit import edit_once
from context_center.ui.tabs.memory_forget import forget_selected
from context_center.ui.tabs.memory_text import TEXT
from context_center.ui.tabs.memory_work import (
    MemoryData,
    create_fact,
    hand_edits,
    load_conflicts,
    load_memory,
    patch_rows,
    read_entries,
    same_files,
)
from context_center.ui.terms import fresh_choices, plural, scope_choices, type_choices
from context_center.ui.widgets.fact_detail import FactDetail
from context_center.ui.widgets.fact_table import make_fact_table
from context_center.ui.widgets.memory_banners import ConflictBanner, DiagnosticsBanner
from context_center.ui.widgets.tables import fixed_split


class MemoryTab(Tab):
    title = QT_TRANSLATE_NOOP("MainWindow", "Memory")
    flags = frozenset({FACTS, WORKSPACE})

    sig_show_revisions = Signal(str)
    """(fact id) the person asked for the revision history of a fact."""

    # made by memory_actions.build_actions
    act_new: QAction
    act_edit: QAction
    act_forget: QAction
    act_revisions: QAction
    btn_new: QPushButton
    btn_edit: QPushButton
    btn_forget: QPushButton
    btn_revisions: QPushButton

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.filter = FactFilter()
        self.model = FactTableModel(self)
        self.data: MemoryData | None = None
        self.conflicts: list[Conflict] = []
        self.editor: FactEditorDialog | None = None  # the open fact editor, if any
        self._selected_id: str | None = None
        self._edited: set[tuple[str, str]] = set()  # files the watcher saw edited in place
        self._full = True  # the next refresh reads both stores again
        self._prefetch: tuple[Engine, asyncio.Future[MemoryData]] | None = None
        self._loading = True  # until the first load of the stores ends (or fails)
        build_actions(self)
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
        self.search.setPlaceholderText(TEXT["search"])
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(lambda _t: self._filter_timer.start())
        self.type_filter = self._combo("typeFilter", TEXT["all_types"], type_choices())
        self.scope_filter = self._combo("scopeFilter", TEXT["both_scopes"], scope_choices())
        self.fresh_filter = self._combo("freshnessFilter", TEXT["any_freshness"], fresh_choices())
        self.count_label = QLabel(TEXT["loading"])
        self.count_label.setObjectName("countLabel")

        bar = QHBoxLayout()
        bar.setSpacing(8)
        bar.addWidget(self.search, 1)
        bar.addWidget(self.type_filter)
        bar.addWidget(self.scope_filter)
        bar.addWidget(self.fresh_filter)
        bar.addSpacing(8)
        bar.addWidget(self.btn_new)

        self.banner = ConflictBanner()
        self.banner_label = self.banner.label
        self.banner.sig_fact_link.connect(self.reveal_fact)
        self.diagnostics_banner = DiagnosticsBanner()
        self.diagnostics_banner.sig_resolve_sync.connect(self._resolve_sync)

        self.table = self._build_table()
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.setSpacing(6)
        left_layout.addWidget(self.table, 1)
        left_layout.addWidget(self.count_label)

        self.detail = self._build_detail()
        self.splitter = fixed_split(Qt.Orientation.Horizontal, (left, 3), (self.detail, 2))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(10)
        layout.addLayout(bar)
        layout.addWidget(self.banner)
        layout.addWidget(self.diagnostics_banner)
        layout.addWidget(self.splitter, 1)
        self._tab_order()
        self._show_fact(None)

    def _build_table(self) -> QTableView:
        table = make_fact_table(self.model, self.fontMetrics())
        table.setSelectionMode(QTableView.SelectionMode.ExtendedSelection)  # bulk forget
        table.selectionModel().selectionChanged.connect(self._on_selection)
        table.doubleClicked.connect(lambda _i: self.act_edit.trigger())
        install_table_menu(self, table)  # Enter edits; context menu; retype/move/rename
        return table

    def _tab_order(self) -> None:
        chain: list[QWidget] = [
            self.search,
            self.type_filter,
            self.scope_filter,
            self.fresh_filter,
            self.btn_new,
            self.table,
            *self.detail.focus_chain(),
        ]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    def _combo(self, name: str, any_label: str, values: list[tuple[str, str]]) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        combo.addItem(any_label, "")
        for label, value in values:
            combo.addItem(label, value)
        combo.currentIndexChanged.connect(lambda _i: self.apply_filter())
        return combo

    def _build_detail(self) -> FactDetail:
        self.detail = FactDetail((self.btn_edit, self.btn_revisions, self.btn_forget))
        self.detail.body_view.sig_link_clicked.connect(self.on_link)
        self.detail.sig_copied.connect(self.ctx.status)
        # The parts tests and other views read directly.
        self.body_view = self.detail.body_view
        self.prov_id = self.detail.prov_id
        self.prov_ref = self.detail.prov_ref
        self.prov_path = self.detail.prov_path
        return self.detail

    def _resolve_sync(self) -> None:
        # the dialog's modules (diffs, Markdown) are imported when it first opens
        from context_center.ui.dialogs.sync_conflict import open_sync_conflicts

        open_sync_conflicts(self.ctx, self)

    def focus_search(self) -> None:
        """Ctrl+F: the search box, its text selected."""
        self.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search.selectAll()

    # -- loading --------------------------------------------------------------------------

    def _start_prefetch(self) -> None:
        """Begin reading the stores while the rest of the window is still being built."""
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return  # built outside the loop: the first refresh loads instead
        engine = self.ctx.engine
        future = self.ctx.submit(load_memory, engine, True)  # checked after the first paint
        future.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._prefetch = (engine, future)

    def _on_changed(self, changes: Changes[object], source: object | None) -> None:
        if changes.areas & self.flags:
            edited = hand_edits(changes, source)
            if edited is None:
                self._full = True
            else:
                self._edited |= edited
        super()._on_changed(changes, source)

    async def refresh(self) -> None:
        edited, full, self._edited, self._full = self._edited, self._full, set(), False
        if not full and edited and await self._refresh_rows(edited):
            return
        engine = self.ctx.engine
        prefetch, self._prefetch = self._prefetch, None
        trusted = False
        try:
            if prefetch is not None and prefetch[0] is engine:
                trusted = True
                data = await prefetch[1]
            else:
                data = await self.ctx.run(load_memory, engine)
        except Exception:
            if self.data is None and alive(self):  # the first load failed: not loading now
                self._loading = False
                self._show_fact(None)
            raise
        self._show_data(data)
        # Let the table paint before the next engine step competes for the interpreter.
        await asyncio.sleep(0.03)
        if trusted:
            # The first look took files the store cache names with the same inode as they
            # were cached (no stat of 50,000 files before the first paint); now every file
            # is checked, and an edit made in place while the window was closed shows.
            checked = await self.ctx.run(load_memory, engine)
            if not await self.ctx.run(same_files, data, checked):  # 50,000 rows: not here
                data = checked
                self._show_data(data)
        conflicts = await self.ctx.run(load_conflicts, engine)
        self.conflicts = conflicts
        self.model.set_conflicts(
            frozenset(c.project_id for c in conflicts) | frozenset(c.global_id for c in conflicts)
        )
        self.banner.show_conflicts(conflicts)
        current = self.current_row()
        if current is not None:
            self._show_fact(current)
        # the search box's text last: a search typed before this builds what it needs itself
        await self.ctx.run(fill_haystacks, data.rows)

    def _show_data(self, data: MemoryData) -> None:
        self.data = data
        self.filter.set_rows(data.rows)
        self.apply_filter()
        self.diagnostics_banner.show_diagnostics(data.diagnostics)

    async def _refresh_rows(self, edited: set[tuple[str, str]]) -> bool:
        """Read only the files edited in place (50,000 facts need not be read again for
        one); False when that is not enough and everything must be reloaded."""
        if self.data is None:
            return False
        refs = [f"{scope}/{name}.md" for scope, name in sorted(edited)]
        try:
            entries = await self.ctx.run(read_entries, self.ctx.engine, refs)
        except EngineError:  # gone, or now broken: the full load lists its diagnostic
            return False
        rows = patch_rows(self.filter.rows, build_rows(entries, datetime.now(UTC)))
        if rows is None:
            return False
        self.data = replace(self.data, rows=rows)
        self.filter.set_rows(rows)
        self.apply_filter()
        current = self.current_row()
        if current is not None:
            self._show_fact(current)
        return True

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

    def _count_text(self, shown: int) -> str:
        total = len(self.filter.rows)
        parts = ""
        if self.data is not None:
            parts = TEXT["counts"].format(
                project=f"{self.data.total_project:,}", global_=f"{self.data.total_global:,}"
            )
            if self.data.diagnostics_count:
                n = self.data.diagnostics_count
                parts += plural(n, TEXT["skipped_one"], TEXT["skipped"]).format(n=n)
        if shown != total:
            text = TEXT["shown"].format(shown=f"{shown:,}", total=f"{total:,}")
        else:
            text = TEXT["total"].format(total=f"{total:,}")
        return f"{text}   ({parts})" if parts else text

    def _set_view_rows(self, rows: list[FactRow]) -> None:
        keep = self._selected_id
        self.model.set_rows(rows)
        self.count_label.setText(self._count_text(len(rows)))
        if keep is not None and self.select_fact(keep):
            return
        if rows:
            self.select_fact(rows[0].id)
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
        for action in (self.act_edit, self.act_forget, self.act_revisions):
            action.setEnabled(has)
        self.act_new.setEnabled(True)

    def _show_fact(self, row: FactRow | None) -> None:
        has = row is not None
        for action in (self.act_edit, self.act_forget, self.act_revisions):
            action.setEnabled(has)
        self.detail.show_row(
            row,
            self.conflicts,
            empty=self.data is not None and not self.filter.rows,
            loading=self.data is None and self._loading,
        )

    def reveal_fact(self, fact_id: str) -> None:
        if not self.select_fact(fact_id):
            # hidden by a filter: clear the filters and try again
            self.search.clear()
            for combo in (self.type_filter, self.scope_filter, self.fresh_filter):
                combo.setCurrentIndex(0)
            self.apply_filter()
            self.select_fact(fact_id)

    def show_revisions_of_current(self) -> None:
        row = self.current_row()
        if row is not None:
            self.sig_show_revisions.emit(row.id)

    @asyncSlot(QUrl)
    async def on_link(self, url: QUrl) -> None:
        """A link in a fact body: ask before handing it to the browser (bodies are untrusted)."""
        text = url.toString()
        if url.scheme() not in ("http", "https"):
            self.ctx.status(TEXT["link_blocked"].format(url=text))
            return
        if await self.ctx.confirm(
            self, TEXT["link_title"], TEXT["link_text"], informative=text, ok_text=TEXT["link_ok"]
        ):
            QDesktopServices.openUrl(url)

    # -- unsaved text -----------------------------------------------------------------------

    def has_unsaved_changes(self) -> bool:
        editor = self.editor
        return editor is not None and editor.isVisible() and editor.has_unsaved_changes()

    async def discard_or_keep(self) -> bool:
        editor = self.editor
        if editor is None or not editor.has_unsaved_changes():
            return True
        ok = await self.ctx.confirm(
            editor,
            TEXT["discard_title"],
            TEXT["discard_text"],
            informative=TEXT["discard_info"],
            ok_text=TEXT["discard_ok"],
            destructive=True,
        )
        if ok and self.editor is editor:
            editor.discard()
        return ok

    async def _open_editor(self, dialog: FactEditorDialog) -> bool:
        """Show the fact editor; True when the person saved."""
        self.editor = dialog
        try:
            return await self.ctx.exec_dialog(dialog) == QDialog.DialogCode.Accepted
        finally:
            if self.editor is dialog:
                self.editor = None

    # -- actions --------------------------------------------------------------------------

    @asyncSlot()
    @busy("act_new")
    async def on_new(self) -> None:
        draft: FactDraft | None = None
        while True:
            dialog = FactEditorDialog(self, draft=draft)
            if not await self._open_editor(dialog):
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
        self.ctx.status(TEXT["created"].format(ref=fact.ref))
        self.ctx.apply(changes, self)

    @asyncSlot()
    @busy("act_edit", "act_forget")
    async def on_edit(self) -> None:
        row = self.current_row()
        if row is None or self.editor is not None:
            return
        entry: Entry | None = row.entry
        while entry is not None:
            entry = await edit_once(self, entry)

    @asyncSlot()
    @busy("act_edit", "act_forget")
    async def on_forget(self) -> None:
        """Forget the selected fact(s) after one confirmation (``memory_forget``)."""
        await forget_selected(self)

    def selected_rows(self) -> list[FactRow]:
        """The selected rows in table order (the current row when none is selected)."""
        picked = sorted(i.row() for i in self.table.selectionModel().selectedRows())
        rows = [self.model.rows[i] for i in picked if i < len(self.model.rows)]
        current = self.current_row()
        return rows or ([current] if current is not None else [])

    def keep_selected(self, fact_id: str | None) -> None:
        """The fact to select after the next refresh (None: the first row)."""
        self._selected_id = fact_id
