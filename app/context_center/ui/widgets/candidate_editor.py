"""The Suggestions tab's editor for one candidate, and the evidence behind it."""

from __future__ import annotations

import html
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import CandidateEdit, FactType, MemoryCandidate, Scope, SkillCandidate
from context_center.ui.models.suggestion_models import SOURCE_LABELS
from context_center.ui.widgets.labels import plain_label
from context_center.ui.widgets.markdown_view import SafeBrowser

Candidate = MemoryCandidate | SkillCandidate


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
