"""The Suggestions tab: memory and skill candidates mined from past sessions, with evidence.

The tab scans when it is first shown (and again when facts, instructions or decisions change
while it is visible). The scan never writes and runs on the background thread
(``ctx.run_background`` with an engine of its own), so it never holds up a save or a reload
waiting for the engine worker. Ctrl+S accepts the candidate in the editor; edits made but not
accepted are unsaved text: closing the window or switching workspace asks first.
A scan never cuts thousands of facts on the window's threads: when the workspace's phrase
index does not describe them, the tab waits for a child process to bring it up to date
(``index_child.py``; the window also starts one a few seconds after it settles) and scans
again.
A person may edit a candidate, accept it (their click is the approval: a memory becomes a
fact, a skill becomes ``.agents/skills/<name>/SKILL.md``) or dismiss it (remembered, never
proposed again). A remote workspace shows the engine's fail-closed explanation instead of
candidates; the per-source counts (with skipped malformed lines) are always shown.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeySequence, QResizeEvent, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import (
    AcceptResult,
    CandidateEdit,
    Changes,
    Decision,
    Engine,
    PhraseIndexBehind,
    ScanResult,
)
from context_center.ui.context import FACTS, INSTRUCTIONS, SUGGESTIONS, WORKSPACE, busy
from context_center.ui.i18n import QT_TRANSLATE_NOOP
from context_center.ui.models.row_table import ROW_ROLE
from context_center.ui.models.suggestion_models import (
    CandidatesModel,
    SourceCountsModel,
)
from context_center.ui.suggestion_text import explanation_text, note_text
from context_center.ui.tabs.base import Tab
from context_center.ui.tabs.suggestions_text import TEXT
from context_center.ui.terms import plural
from context_center.ui.widgets.candidate_editor import Candidate, CandidateEditor
from context_center.ui.widgets.decision_undo import offer_dismiss_undo
from context_center.ui.widgets.labels import plain_label, tab_heading
from context_center.ui.widgets.page_stack import PageStack
from context_center.ui.widgets.tables import fixed_split

SUMMARY_MIN_HEIGHT = 560  # tab height (px) below which the introduction is folded away

# -- engine work (runs in the worker thread; plain data in and out) ------------------------


LIGHT_CUTS = 2000  # facts a scan on the window's threads may cut; more: the child first


def scan_workspace(engine: Engine, max_cuts: int | None = None) -> ScanResult:
    """Scan this workspace's user turns, deduplicated against its facts and instructions
    (PhraseIndexBehind when that would cut more than ``max_cuts`` facts)."""
    return engine.scan_suggestions(max_cuts=max_cuts)


def accept_candidate(
    engine: Engine, candidate: Candidate, edit: CandidateEdit
) -> Changes[AcceptResult]:
    return engine.accept_suggestion(candidate, edit)


def dismiss_candidate(engine: Engine, candidate: Candidate) -> Changes[Decision]:
    return engine.dismiss_suggestion(candidate)


class SuggestionsTab(Tab):
    """Candidates of the last scan, an editor with evidence, accept / dismiss, source counts."""

    title = QT_TRANSLATE_NOOP("MainWindow", "Suggestions")
    flags = frozenset({SUGGESTIONS, FACTS, INSTRUCTIONS, WORKSPACE})
    skip_own_changes = True  # accept/dismiss update the list themselves

    sig_candidate_count = Signal(int)
    """How many candidates the last scan left to decide (after accepts and dismissals)."""

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.setObjectName("suggestionsTab")
        self.result: ScanResult | None = None
        self._drafts: dict[str, CandidateEdit] = {}
        self.scan_count = 0

        heading = tab_heading(TEXT["suggestions_from_your_past"])
        self.progress = QProgressBar()
        self.progress.setObjectName("scanProgress")
        self.progress.setRange(0, 0)
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(160)
        self.progress.setMaximumHeight(12)
        self.progress.hide()
        self.scan_button = QPushButton(TEXT["scan_again"])
        self.scan_button.setObjectName("scanButton")
        self.scan_button.setToolTip(TEXT["read_your_recent_turns"])
        self.scan_button.clicked.connect(self._on_scan_clicked)

        top = QHBoxLayout()
        top.setSpacing(10)
        top.addWidget(heading)
        top.addStretch(1)
        top.addWidget(self.progress)
        top.addWidget(self.scan_button)

        self.summary = plain_label(
            TEXT["context_center_reads_what"],
            "hint",
        )
        heading.setToolTip(self.summary.text())
        self.notice = plain_label(name="failClosedNotice")  # styled by the app stylesheet
        self.notice.hide()

        # candidates
        self.model = CandidatesModel(self)
        self.table = QTableView()
        self.table.setObjectName("candidatesTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(False)
        self.table.setTabKeyNavigation(False)
        self.table.verticalHeader().hide()
        self.table.setAlternatingRowColors(True)
        self.table.setWordWrap(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setMinimumWidth(320)
        self.table.selectionModel().currentRowChanged.connect(self._on_current_changed)

        self.editor = CandidateEditor()
        self.editor.sig_edited.connect(self._on_edited)
        self.accept_button = QPushButton(TEXT["accept"])
        self.accept_button.setObjectName("acceptButton")
        self.accept_button.setProperty("primary", True)
        self.accept_button.setToolTip(TEXT["save_it_now_with"])
        self.accept_button.clicked.connect(self._on_accept)
        self.dismiss_button = QPushButton(TEXT["dismiss"])
        self.dismiss_button.setObjectName("dismissButton")
        self.dismiss_button.setProperty("destructive", True)
        self.dismiss_button.setToolTip(TEXT["not_wanted_it_will"])
        self.dismiss_button.clicked.connect(self._on_dismiss)
        self.reset_button = QPushButton(TEXT["undo_edits"])
        self.reset_button.setObjectName("resetButton")
        self.reset_button.setEnabled(False)
        self.reset_button.clicked.connect(self._on_reset)
        buttons = QHBoxLayout()
        buttons.setSpacing(8)
        buttons.addWidget(self.dismiss_button)
        buttons.addWidget(self.reset_button)
        buttons.addStretch(1)
        buttons.addWidget(self.accept_button)

        detail = QWidget()
        detail_layout = QVBoxLayout(detail)
        detail_layout.setContentsMargins(8, 0, 0, 0)
        detail_layout.setSpacing(8)
        detail_layout.addWidget(self.editor, 1)
        detail_layout.addLayout(buttons)

        self.empty = plain_label(name="emptySuggestions")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setContentsMargins(24, 24, 24, 24)
        self.stack = PageStack()  # sized by the page it shows, not by the hidden editor
        self.stack.addWidget(self.empty)
        self.stack.addWidget(detail)

        # sources
        self.sources_model = SourceCountsModel(self)
        self.sources = QTableView()
        self.sources.setObjectName("sourcesTable")
        self.sources.setModel(self.sources_model)
        self.sources.verticalHeader().hide()
        self.sources.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self.sources.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.sources.setTabKeyNavigation(False)
        self.sources.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.sources.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.sources.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sources.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sources_note = plain_label(name="hint")
        sources_title = QLabel(TEXT["where_your_turns_came"])
        sources_title.setObjectName("sectionCaption")

        # The list and the source counts share the left column, so the editor and its buttons
        # keep the full height on the right (the tab fits a 1280×800 window without scrolling).
        left = QWidget()
        left_layout = QVBoxLayout(left)
        left_layout.setContentsMargins(0, 0, 0, 0)
        left_layout.setSpacing(6)
        left_layout.addWidget(self.table, 1)
        left_layout.addSpacing(4)
        left_layout.addWidget(sources_title)
        left_layout.addWidget(self.sources)
        left_layout.addWidget(self.sources_note)

        splitter = fixed_split(
            Qt.Orientation.Horizontal, (left, 2), (self.stack, 3), sizes=[500, 700]
        )

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(8)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.notice)
        layout.addWidget(splitter, 1)
        self._show_empty(TEXT["scanning_has_not_run"])
        self._update_buttons()
        save = QShortcut(QKeySequence(QKeySequence.StandardKey.Save), self)
        save.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        save.activated.connect(self._on_save_shortcut)

    def resizeEvent(self, event: QResizeEvent) -> None:
        """In a short window the introduction yields its lines to the editor and evidence
        (it stays the heading's tooltip)."""
        super().resizeEvent(event)
        self.summary.setVisible(event.size().height() >= SUMMARY_MIN_HEIGHT)

    def _on_save_shortcut(self) -> None:
        """Ctrl+S in the editor accepts the candidate (saving it is what Accept does)."""
        if self.accept_button.isEnabled() and self.stack.currentIndex() == 1:
            self.accept_button.click()

    # -- unsaved text -------------------------------------------------------------------------

    def has_unsaved_changes(self) -> bool:
        return bool(self._drafts)

    async def discard_or_keep(self) -> bool:
        n = len(self._drafts)
        return await self.ctx.confirm(
            self,
            TEXT["discard_your_edits"],
            TEXT["you_edited_1_suggestion"]
            if n == 1
            else TEXT["you_edited_n_suggestions"].format(n=n),
            informative=TEXT["accept_keeps_an_edited"],
            ok_text=TEXT["discard_edits"],
            destructive=True,
        )

    # -- state ------------------------------------------------------------------------------

    @property
    def current(self) -> Candidate | None:
        index = self.table.currentIndex()
        if not index.isValid():
            return None
        return self.model.data(index, ROW_ROLE)  # type: ignore[no-any-return]

    def _show_empty(self, text: str) -> None:
        self.empty.setText(text)
        self.stack.setCurrentIndex(0)

    def update_actions(self) -> None:
        """Recompute which buttons apply (``@busy`` calls this after a handler)."""
        self._update_buttons()

    def _update_buttons(self) -> None:
        has = self.current is not None
        self.accept_button.setEnabled(has)
        self.dismiss_button.setEnabled(has)
        self.reset_button.setEnabled(has and self.current.id in self._drafts)  # type: ignore[union-attr]

    # -- scanning ---------------------------------------------------------------------------

    async def refresh(self) -> None:
        """Scan (in the engine worker) and show the result. Called on first show and on change."""
        self.progress.show()
        self.scan_button.setEnabled(False)
        self.ctx.status(TEXT["scanning_your_recent_sessions"])
        engine = self.ctx.reader_engine()
        try:
            # Not the engine worker: a scan may take seconds, and saves must not wait for it.
            # And not thousands of facts cut on this process's threads: a phrase index that
            # does not describe them is brought up to date by a child process first (the
            # window may have started it already), then the scan runs again; a failed child
            # only costs speed (the second scan cuts what it must).
            try:
                result = await self.ctx.run_background(scan_workspace, engine, LIGHT_CUTS)
            except PhraseIndexBehind:
                await self.ctx.phrase_index.ensure(engine, again=True)
                result = await self.ctx.run_background(scan_workspace, engine)
            self.scan_count += 1
            self._apply(result)
        finally:
            self.progress.hide()
            self.scan_button.setEnabled(True)

    def _apply(self, result: ScanResult) -> None:
        previous = self.current.id if self.current is not None else None
        self.result = result
        candidates: list[Candidate] = [*result.memories, *result.skills]
        live = {c.id for c in candidates}
        self._drafts = {k: v for k, v in self._drafts.items() if k in live}
        self.model.set_rows(candidates)
        self.sources_model.set_rows(result.sources)
        self._fit_sources()

        if not result.available:
            self.notice.setText(
                explanation_text(result.explanation)
                if result.explanation
                else TEXT["suggestions_are_not_available"]
            )
            self.notice.show()
        else:
            self.notice.hide()
        skipped = sum(s.malformed for s in result.sources)
        note = TEXT["scanned_sessions_session_s"].format(
            sessions=result.sessions_scanned,
            turns=result.turns_scanned,
            limit=result.session_limit,
        )
        if skipped:
            note += " " + plural(
                skipped, TEXT["n_malformed_line_s_one"], TEXT["n_malformed_line_s"]
            ).format(n=skipped)
        if result.notes:
            note += " " + " ".join(note_text(n) for n in result.notes)
        self.sources_note.setText(note if result.available else TEXT["nothing_was_read"])
        if self.isVisible():  # a scan behind another tab (the one at start) says nothing there
            self.ctx.status(
                TEXT["memories_memory_and_skills"].format(
                    memories=len(result.memories), skills=len(result.skills)
                )
                if result.available
                else TEXT["suggestions_are_off_for"]
            )
        row = self.model.row_of(lambda c: c.id == previous) if previous else -1
        self._select(row if row >= 0 else 0)
        self.sig_candidate_count.emit(self.model.rowCount())

    def _fit_sources(self) -> None:
        rows = max(1, self.sources_model.rowCount())
        height = self.sources.horizontalHeader().sizeHint().height()
        height += sum(self.sources.rowHeight(r) or 24 for r in range(rows))
        self.sources.setFixedHeight(height + 2 * self.sources.frameWidth() + 2)

    def _select(self, row: int) -> None:
        if 0 <= row < self.model.rowCount():
            self.table.setCurrentIndex(self.model.index(row, 0))
            self.table.selectRow(row)
        else:
            self.table.setCurrentIndex(self.model.index(-1, -1))
            self._on_current_changed()

    def _on_current_changed(self, *_: Any) -> None:
        candidate = self.current
        if candidate is None:
            if self.result is not None and not self.result.available:
                self._show_empty(TEXT["no_suggestions_this_workspace"])
            elif self.result is not None:
                self._show_empty(TEXT["no_suggestions_right_now"])
        else:
            self.editor.load(candidate, self._drafts.get(candidate.id))
            self.stack.setCurrentIndex(1)
        self._update_buttons()

    def _on_edited(self) -> None:
        candidate = self.current
        if candidate is None:
            return
        edit = self.editor.edit()
        if edit.model_dump(exclude_none=True):
            self._drafts[candidate.id] = edit
        else:
            self._drafts.pop(candidate.id, None)
        self._update_buttons()

    @asyncSlot()
    async def _on_scan_clicked(self) -> None:
        task = self.refresh_now()
        if task is not None:
            await task

    def _on_reset(self) -> None:
        candidate = self.current
        if candidate is not None:
            self._drafts.pop(candidate.id, None)
            self.editor.load(candidate)
            self._update_buttons()

    # -- decisions --------------------------------------------------------------------------

    def _remove(self, candidate: Candidate) -> None:
        row = self.model.row_of(lambda c: c.id == candidate.id)
        self._drafts.pop(candidate.id, None)
        if row >= 0:
            self.model.remove_row_object(self.model.row_at(row))
        self._select(min(row, self.model.rowCount() - 1))
        self.sig_candidate_count.emit(self.model.rowCount())

    # The decision buttons are not handed to @busy: it would re-enable them afterwards even
    # when no candidate is left; _update_buttons() decides instead.
    @asyncSlot()
    @busy("scan_button")
    async def _on_accept(self) -> None:
        candidate = self.current
        if candidate is None:
            return
        edit = self.editor.edit()
        self.accept_button.setEnabled(False)
        self.dismiss_button.setEnabled(False)
        try:
            changes = await self.ctx.run(accept_candidate, self.ctx.engine, candidate, edit)
            self._remove(candidate)
        finally:
            self._update_buttons()
        result = changes.value
        self.ctx.status(
            (TEXT["saved_ref"] if result.kind == "memory" else TEXT["wrote_ref"]).format(
                ref=result.ref
            )
        )
        self.ctx.apply(changes, source=self)

    @asyncSlot()
    @busy("scan_button")
    async def _on_dismiss(self) -> None:
        candidate = self.current
        if candidate is None:
            return
        self.accept_button.setEnabled(False)
        self.dismiss_button.setEnabled(False)
        try:
            changes = await self.ctx.run(dismiss_candidate, self.ctx.engine, candidate)
            self._remove(candidate)
        finally:
            self._update_buttons()
        self.ctx.status(TEXT["dismissed_it_will_not"])
        self.ctx.apply(changes, source=self)
        title = getattr(candidate, "title", "") or candidate.name
        offer_dismiss_undo(self.ctx, candidate.id, title)
