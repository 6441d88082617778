"""The Suggestions tab: memory and skill candidates mined from past sessions, with evidence.

The tab scans when it is first shown (and again when facts, instructions or decisions change
while it is visible). The scan runs in the engine worker through ``ctx.run`` and never writes.
A person may edit a candidate, accept it (their click is the approval: a memory becomes a
fact, a skill becomes ``.agents/skills/<name>/SKILL.md``) or dismiss it (remembered, never
proposed again). A remote workspace shows the engine's fail-closed explanation instead of
candidates; the per-source counts (with skipped malformed lines) are always shown.
"""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
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
    FactType,
    MemoryCandidate,
    ScanResult,
    Scope,
    SkillCandidate,
)
from context_center.ui.context import FACTS, INSTRUCTIONS, SUGGESTIONS, WORKSPACE, busy
from context_center.ui.models.row_table import ROW_ROLE
from context_center.ui.models.suggestion_models import (
    SOURCE_LABELS,
    CandidatesModel,
    SourceCountsModel,
)
from context_center.ui.tabs.base import Tab
from context_center.ui.widgets.labels import plain_label, tab_heading
from context_center.ui.widgets.markdown_view import SafeBrowser

Candidate = MemoryCandidate | SkillCandidate

# -- engine work (runs in the worker thread; plain data in and out) ------------------------


def scan_workspace(engine: Engine) -> ScanResult:
    """Scan this workspace's user turns, deduplicated against its facts and instructions."""
    return engine.scan_suggestions()


def accept_candidate(
    engine: Engine, candidate: Candidate, edit: CandidateEdit
) -> Changes[AcceptResult]:
    return engine.accept_suggestion(candidate, edit)


def dismiss_candidate(engine: Engine, candidate: Candidate) -> Changes[Decision]:
    return engine.dismiss_suggestion(candidate)


# -- presentation helpers -------------------------------------------------------------------


def evidence_html(candidate: Candidate) -> str:
    """The quoted turns as escaped HTML (no markup or resource of the turn survives)."""
    parts = []
    for item in candidate.evidence:
        source = SOURCE_LABELS.get(item.source, item.source)
        when = (item.time or "time unknown")[:19].replace("T", " ")
        parts.append(
            "<p style='margin:0 0 2px 0; color:#5f6368;'>"
            f"{html.escape(source)} · session <code>{html.escape(item.session)}</code> · "
            f"{html.escape(when)}</p>"
            "<blockquote style='margin:0 0 10px 12px;'>"
            f"{html.escape(item.quote).replace(chr(10), '<br>')}</blockquote>"
        )
    return "".join(parts) or "<p>No quoted turns.</p>"


class CandidateEditor(QWidget):
    """The editable copy of one candidate. Reads back a ``CandidateEdit`` of what changed."""

    sig_edited = Signal()
    """Any field changed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.candidate: Candidate | None = None
        self._loading = False

        self.heading = QLabel()
        self.heading.setObjectName("candidateHeading")
        font = self.heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.15)
        font.setBold(True)
        self.heading.setFont(font)
        self.heading.setWordWrap(True)
        self.reason = plain_label(name="candidateReason")

        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("candName")
        self.title_edit = QLineEdit()
        self.title_edit.setObjectName("candTitle")
        self.description_edit = QLineEdit()
        self.description_edit.setObjectName("candDescription")
        self.type_combo = QComboBox()
        self.type_combo.setObjectName("candType")
        for t in FactType:
            self.type_combo.addItem(t.value, t)
        self.scope_combo = QComboBox()
        self.scope_combo.setObjectName("candScope")
        self.scope_combo.addItem("project (this workspace)", Scope.PROJECT)
        self.scope_combo.addItem("global (every workspace)", Scope.GLOBAL)
        self.body_edit = QPlainTextEdit()
        self.body_edit.setObjectName("candBody")
        self.body_edit.setTabChangesFocus(True)
        self.body_edit.setMinimumHeight(100)
        self.steps_edit = QPlainTextEdit()
        self.steps_edit.setObjectName("candSteps")
        self.steps_edit.setTabChangesFocus(True)
        self.steps_edit.setPlaceholderText("One step per line")
        self.target = plain_label(name="candTarget")

        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.form.setHorizontalSpacing(10)
        self.form.setVerticalSpacing(6)
        self.form.addRow("Name", self.name_edit)
        self.form.addRow("Title", self.title_edit)
        self.form.addRow("Description", self.description_edit)
        self.form.addRow("Type", self.type_combo)
        self.form.addRow("Scope", self.scope_combo)
        self.form.addRow("Body", self.body_edit)
        self.form.addRow("Steps", self.steps_edit)
        self.form.addRow("Writes", self.target)

        self.evidence = SafeBrowser()  # escaped HTML; no link is followed, nothing is loaded
        self.evidence.setObjectName("candEvidence")
        self.evidence.setMinimumHeight(80)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(8)
        layout.addWidget(self.heading)
        layout.addWidget(self.reason)
        layout.addLayout(self.form, 4)
        evidence_title = QLabel("Evidence: your own words")
        evidence_title.setObjectName("sectionCaption")
        bold = evidence_title.font()
        bold.setBold(True)
        evidence_title.setFont(bold)
        layout.addWidget(evidence_title)
        layout.addWidget(self.evidence, 1)

        for line in (self.name_edit, self.title_edit, self.description_edit):
            line.textEdited.connect(self._emit_edited)
        for combo in (self.type_combo, self.scope_combo):
            combo.currentIndexChanged.connect(self._emit_edited)
        for text in (self.body_edit, self.steps_edit):
            text.textChanged.connect(self._emit_edited)

    def _emit_edited(self, *_: Any) -> None:
        if not self._loading:
            self.sig_edited.emit()

    def _show_row(self, widget: QWidget, visible: bool) -> None:
        self.form.setRowVisible(widget, visible)

    def load(self, candidate: Candidate, draft: CandidateEdit | None = None) -> None:
        """Show ``candidate`` (with a person's earlier unsaved ``draft`` applied)."""
        self._loading = True
        try:
            self.candidate = candidate
            d = draft or CandidateEdit()
            memory = isinstance(candidate, MemoryCandidate)
            for widget in (self.title_edit, self.type_combo, self.scope_combo, self.body_edit):
                self._show_row(widget, memory)
            self._show_row(self.steps_edit, not memory)
            self.name_edit.setText(d.name if d.name is not None else candidate.name)
            self.description_edit.setText(
                d.description if d.description is not None else candidate.description
            )
            if isinstance(candidate, MemoryCandidate):
                self.heading.setText(f"Memory suggestion: {candidate.title or candidate.name}")
                self.reason.setText(
                    f"Why: {candidate.reason}. Accepting saves it as a fact right away "
                    "(your click is the approval); you can edit every field first."
                )
                self.title_edit.setText(d.title if d.title is not None else candidate.title)
                self.type_combo.setCurrentIndex(self.type_combo.findData(d.type or candidate.type))
                self.scope_combo.setCurrentIndex(
                    self.scope_combo.findData(d.scope or candidate.scope)
                )
                self.body_edit.setPlainText(d.body if d.body is not None else candidate.body)
                self.target.setText("a new fact in the chosen scope")
            else:
                self.heading.setText(f"Skill suggestion: {candidate.name}")
                self.reason.setText(
                    f"You asked for this workflow in {candidate.turns} turns across "
                    f"{candidate.sessions} sessions. Accepting writes a SKILL.md that agents "
                    "can follow; an existing skill is never overwritten."
                )
                steps = d.steps if d.steps is not None else candidate.steps
                self.steps_edit.setPlainText("\n".join(steps))
                self.target.setText(candidate.path)
            self.evidence.setHtml(evidence_html(candidate))
        finally:
            self._loading = False

    def edit(self) -> CandidateEdit:
        """What the person changed, field by field (unchanged fields stay unset)."""
        c = self.candidate
        if c is None:
            return CandidateEdit()
        changes: dict[str, Any] = {}
        if self.name_edit.text() != c.name:
            changes["name"] = self.name_edit.text()
        if self.description_edit.text() != c.description:
            changes["description"] = self.description_edit.text()
        if isinstance(c, MemoryCandidate):
            if self.title_edit.text() != c.title:
                changes["title"] = self.title_edit.text()
            if self.type_combo.currentData() != c.type:
                changes["type"] = self.type_combo.currentData()
            if self.scope_combo.currentData() != c.scope:
                changes["scope"] = self.scope_combo.currentData()
            if self.body_edit.toPlainText() != c.body:
                changes["body"] = self.body_edit.toPlainText()
        else:
            steps = [s.strip() for s in self.steps_edit.toPlainText().splitlines() if s.strip()]
            if steps != c.steps:
                changes["steps"] = steps
        return CandidateEdit(**changes)


class SuggestionsTab(Tab):
    """Candidates of the last scan, an editor with evidence, accept / dismiss, source counts."""

    title = "Suggestions"
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

        heading = tab_heading("Suggestions from your past sessions")
        self.progress = QProgressBar()
        self.progress.setObjectName("scanProgress")
        self.progress.setRange(0, 0)
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(160)
        self.progress.setMaximumHeight(12)
        self.progress.hide()
        self.scan_button = QPushButton("Scan again")
        self.scan_button.setObjectName("scanButton")
        self.scan_button.setToolTip("Read your recent turns again (nothing is written)")
        self.scan_button.clicked.connect(self._on_scan_clicked)

        top = QHBoxLayout()
        top.setSpacing(10)
        top.addWidget(heading)
        top.addStretch(1)
        top.addWidget(self.progress)
        top.addWidget(self.scan_button)

        self.summary = plain_label(
            "Context Center reads what you typed in recent sessions of this workspace and "
            "proposes rules worth remembering and workflows worth a skill. Scanning never "
            "writes anything; nothing is saved until you accept it.",
            "hint",
        )
        self.notice = plain_label(name="failClosedNotice")
        self.notice.setFrameShape(QFrame.Shape.StyledPanel)
        self.notice.setStyleSheet(
            "QLabel#failClosedNotice { background: #fff4e5; color: #5c3b00;"
            " border: 1px solid #f0c36d; border-radius: 4px; padding: 8px; }"
        )
        self.notice.hide()

        # candidates
        self.model = CandidatesModel(self)
        self.table = QTableView()
        self.table.setObjectName("candidatesTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setSortingEnabled(False)
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
        self.accept_button = QPushButton("Accept")
        self.accept_button.setObjectName("acceptButton")
        self.accept_button.setProperty("primary", True)
        self.accept_button.setToolTip("Save it now, with your edits")
        self.accept_button.clicked.connect(self._on_accept)
        self.dismiss_button = QPushButton("Dismiss")
        self.dismiss_button.setObjectName("dismissButton")
        self.dismiss_button.setProperty("destructive", True)
        self.dismiss_button.setToolTip("Not wanted: it will not be proposed again")
        self.dismiss_button.clicked.connect(self._on_dismiss)
        self.reset_button = QPushButton("Undo edits")
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
        self.stack = QStackedWidget()
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
        self.sources.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents
        )
        self.sources.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.sources.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sources.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.sources_note = plain_label(name="hint")
        sources_title = QLabel("Where your turns came from")
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

        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.setChildrenCollapsible(False)
        splitter.addWidget(left)
        splitter.addWidget(self.stack)
        splitter.setStretchFactor(0, 2)
        splitter.setStretchFactor(1, 3)
        splitter.setSizes([500, 700])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(8)
        layout.addLayout(top)
        layout.addWidget(self.summary)
        layout.addWidget(self.notice)
        layout.addWidget(splitter, 1)
        self._show_empty("Scanning has not run yet.")
        self._update_buttons()

    def heightForWidth(self, width: int) -> int:
        # WORKAROUND: the main window puts each tab in a QScrollArea, which sizes a widget whose
        # layout has height-for-width (our word-wrapped labels) to its *preferred* height and
        # scrolls; asking for the minimum keeps the buttons on screen at 1280x800.
        return self.minimumSizeHint().height()

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
        self.ctx.status("Scanning your recent sessions for suggestions…")
        try:
            result = await self.ctx.run(scan_workspace, self.ctx.engine)
        finally:
            self.progress.hide()
            self.scan_button.setEnabled(True)
        self.scan_count += 1
        self._apply(result)

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
            self.notice.setText(result.explanation or "Suggestions are not available here.")
            self.notice.show()
        else:
            self.notice.hide()
        skipped = sum(s.malformed for s in result.sources)
        note = (
            f"Scanned {result.sessions_scanned} session(s) and {result.turns_scanned} of your "
            f"turns (the {result.session_limit} most recent sessions across all sources)."
        )
        if skipped:
            note += f" {skipped} malformed line(s) were skipped."
        if result.notes:
            note += " " + " ".join(result.notes)
        self.sources_note.setText(note if result.available else "Nothing was read.")
        self.ctx.status(
            f"{len(result.memories)} memory and {len(result.skills)} skill suggestion(s)"
            if result.available
            else "Suggestions are off for this workspace (not confirmed local)"
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
                self._show_empty("No suggestions: this workspace is not confirmed local.")
            elif self.result is not None:
                self._show_empty(
                    "No suggestions right now.\n\nWhen you state a lasting preference "
                    "(\u201calways…\u201d, \u201c以后…\u201d) or ask for the same workflow in "
                    "several sessions, it shows up here."
                )
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
        self.ctx.status(f"Saved {result.ref}" if result.kind == "memory" else f"Wrote {result.ref}")
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
        self.ctx.status("Dismissed; it will not be proposed again")
        self.ctx.apply(changes, source=self)
