"""The Suggestions tab's editor for one candidate, and the evidence behind it.

Laid out to fit the window at 900×600 without a scroll bar: the one-line fields in a form
(type and scope share a row), the body or steps and the evidence share the rest of the
height. Evidence times are local, like every time the window shows.
"""

from __future__ import annotations

import html
from datetime import datetime
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import CandidateEdit, FactType, MemoryCandidate, Scope, SkillCandidate
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.models.facts import local_time
from context_center.ui.models.suggestion_models import SOURCE_LABELS
from context_center.ui.style import tone
from context_center.ui.suggestion_text import reason_text
from context_center.ui.terms import type_label
from context_center.ui.widgets.labels import plain_label
from context_center.ui.widgets.markdown_view import SafeBrowser, mono_spans
from context_center.ui.widgets.tables import fixed_split

Candidate = MemoryCandidate | SkillCandidate

TEXT = Texts(
    "CandidateEditor",
    {
        "time_unknown": QT_TRANSLATE_NOOP("CandidateEditor", "time unknown"),
        "evidence_line": QT_TRANSLATE_NOOP(
            "CandidateEditor", "{source} · session <code>{session}</code> · {when}"
        ),
        "no_quotes": QT_TRANSLATE_NOOP("CandidateEditor", "No quoted turns."),
        "scope_project": QT_TRANSLATE_NOOP("CandidateEditor", "project (this workspace)"),
        "scope_global": QT_TRANSLATE_NOOP("CandidateEditor", "global (every workspace)"),
        "steps_placeholder": QT_TRANSLATE_NOOP("CandidateEditor", "One step per line"),
        "name": QT_TRANSLATE_NOOP("CandidateEditor", "Name"),
        "title": QT_TRANSLATE_NOOP("CandidateEditor", "Title"),
        "description": QT_TRANSLATE_NOOP("CandidateEditor", "Description"),
        "type": QT_TRANSLATE_NOOP("CandidateEditor", "Type"),
        "scope": QT_TRANSLATE_NOOP("CandidateEditor", "Scope"),
        "body": QT_TRANSLATE_NOOP("CandidateEditor", "Body"),
        "steps": QT_TRANSLATE_NOOP("CandidateEditor", "Steps"),
        "writes": QT_TRANSLATE_NOOP("CandidateEditor", "Writes"),
        "evidence": QT_TRANSLATE_NOOP(
            "CandidateEditor", "Evidence: your own words (times are local)"
        ),
        "memory_heading": QT_TRANSLATE_NOOP("CandidateEditor", "Memory suggestion: {title}"),
        "memory_reason": (
            QT_TRANSLATE_NOOP(
                "CandidateEditor",
                "Why: {reason}. Accepting saves it as a fact right away (your click is the approval); "
                "you can edit every field first.",
            )
        ),
        "memory_target": QT_TRANSLATE_NOOP("CandidateEditor", "a new fact in the chosen scope"),
        "skill_heading": QT_TRANSLATE_NOOP("CandidateEditor", "Skill suggestion: {name}"),
        "skill_reason": (
            QT_TRANSLATE_NOOP(
                "CandidateEditor",
                "You asked for this workflow in {turns} turns across {sessions} sessions. Accepting "
                "writes a SKILL.md that agents can follow; an existing skill is never overwritten.",
            )
        ),
    },
)


def _when(value: str | None) -> str:
    if not value:
        return TEXT["time_unknown"]
    try:
        return local_time(datetime.fromisoformat(value.replace("Z", "+00:00")))
    except ValueError:
        return value[:19].replace("T", " ")


def evidence_html(candidate: Candidate) -> str:
    """The quoted turns as escaped HTML (no markup or resource of the turn survives)."""
    parts = []
    muted = tone("muted")
    for item in candidate.evidence:
        source = SOURCE_LABELS.get(item.source, item.source)
        line = mono_spans(
            TEXT["evidence_line"].format(
                source=html.escape(source),
                session=html.escape(item.session),
                when=html.escape(_when(item.time)),
            )
        )
        parts.append(
            f"<p style='margin:0 0 2px 0; color:{muted};'>{line}</p>"
            "<blockquote style='margin:0 0 10px 12px;'>"
            f"{html.escape(item.quote).replace(chr(10), '<br>')}</blockquote>"
        )
    return "".join(parts) or f"<p>{TEXT['no_quotes']}</p>"


def _caption(text: str) -> QLabel:
    label = QLabel(text)
    label.setObjectName("sectionCaption")
    return label


class CandidateEditor(QWidget):
    """The editable copy of one candidate. Reads back a ``CandidateEdit`` of what changed."""

    sig_edited = Signal()
    """Any field changed."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.candidate: Candidate | None = None
        self._loading = False
        self._build_fields()
        self._build_layout()
        for line in (self.name_edit, self.title_edit, self.description_edit):
            line.textEdited.connect(self._emit_edited)
        for combo in (self.type_combo, self.scope_combo):
            combo.currentIndexChanged.connect(self._emit_edited)
        for text in (self.body_edit, self.steps_edit):
            text.textChanged.connect(self._emit_edited)

    def _build_fields(self) -> None:
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
            self.type_combo.addItem(type_label(t.value), t)
        self.scope_combo = QComboBox()
        self.scope_combo.setObjectName("candScope")
        self.scope_combo.addItem(TEXT["scope_project"], Scope.PROJECT)
        self.scope_combo.addItem(TEXT["scope_global"], Scope.GLOBAL)
        self.body_edit = QPlainTextEdit()
        self.body_edit.setObjectName("candBody")
        self.body_edit.setTabChangesFocus(True)
        self.body_edit.setMinimumHeight(56)
        self.steps_edit = QPlainTextEdit()
        self.steps_edit.setObjectName("candSteps")
        self.steps_edit.setTabChangesFocus(True)
        self.steps_edit.setMinimumHeight(56)
        self.steps_edit.setPlaceholderText(TEXT["steps_placeholder"])
        self.target = plain_label(name="candTarget")
        self.evidence = SafeBrowser()  # escaped HTML; no link is followed, nothing is loaded
        self.evidence.setObjectName("candEvidence")
        self.evidence.setMinimumHeight(56)
        self.evidence.setTabChangesFocus(True)

    def _build_layout(self) -> None:
        self.kind_row = QWidget()
        kinds = QHBoxLayout(self.kind_row)
        kinds.setContentsMargins(0, 0, 0, 0)
        kinds.setSpacing(8)
        kinds.addWidget(self.type_combo, 1)
        kinds.addWidget(QLabel(TEXT["scope"]))
        kinds.addWidget(self.scope_combo, 1)

        self.form = QFormLayout()
        self.form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.DontWrapRows)
        self.form.setHorizontalSpacing(10)
        self.form.setVerticalSpacing(6)
        self.form.addRow(TEXT["name"], self.name_edit)
        self.form.addRow(TEXT["title"], self.title_edit)
        self.form.addRow(TEXT["description"], self.description_edit)
        self.form.addRow(TEXT["type"], self.kind_row)
        self.form.addRow(TEXT["writes"], self.target)

        self.text_caption = _caption(TEXT["body"])
        text_part = QWidget()
        text_layout = QVBoxLayout(text_part)
        text_layout.setContentsMargins(0, 0, 0, 0)
        text_layout.setSpacing(4)
        text_layout.addWidget(self.text_caption)
        text_layout.addWidget(self.body_edit, 1)
        text_layout.addWidget(self.steps_edit, 1)
        evidence_part = QWidget()
        evidence_layout = QVBoxLayout(evidence_part)
        evidence_layout.setContentsMargins(0, 0, 0, 0)
        evidence_layout.setSpacing(4)
        evidence_layout.addWidget(_caption(TEXT["evidence"]))
        evidence_layout.addWidget(self.evidence, 1)
        self.parts = fixed_split(Qt.Orientation.Vertical, (text_part, 3), (evidence_part, 2))

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        layout.addWidget(self.heading)
        layout.addWidget(self.reason)
        layout.addLayout(self.form)
        layout.addWidget(self.parts, 1)

    def _emit_edited(self, *_: Any) -> None:
        if not self._loading:
            self.sig_edited.emit()

    def load(self, candidate: Candidate, draft: CandidateEdit | None = None) -> None:
        """Show ``candidate`` (with a person's earlier unsaved ``draft`` applied)."""
        self._loading = True
        try:
            self.candidate = candidate
            d = draft or CandidateEdit()
            memory = isinstance(candidate, MemoryCandidate)
            self.form.setRowVisible(self.title_edit, memory)
            self.form.setRowVisible(self.kind_row, memory)
            self.form.setRowVisible(self.target, not memory)  # a skill's path matters
            self.body_edit.setVisible(memory)
            self.steps_edit.setVisible(not memory)
            self.text_caption.setText(TEXT["body"] if memory else TEXT["steps"])
            self.name_edit.setText(d.name if d.name is not None else candidate.name)
            self.description_edit.setText(
                d.description if d.description is not None else candidate.description
            )
            if isinstance(candidate, MemoryCandidate):
                self._load_memory(candidate, d)
            else:
                self._load_skill(candidate, d)
            self.evidence.show_html(lambda: evidence_html(candidate))
        finally:
            self._loading = False

    def _load_memory(self, candidate: MemoryCandidate, d: CandidateEdit) -> None:
        title = candidate.title or candidate.name
        self.heading.setText(TEXT["memory_heading"].format(title=title))
        self.reason.setText(TEXT["memory_reason"].format(reason=reason_text(candidate.reason)))
        self.title_edit.setText(d.title if d.title is not None else candidate.title)
        self.type_combo.setCurrentIndex(self.type_combo.findData(d.type or candidate.type))
        self.scope_combo.setCurrentIndex(self.scope_combo.findData(d.scope or candidate.scope))
        self.body_edit.setPlainText(d.body if d.body is not None else candidate.body)
        self.target.setText(TEXT["memory_target"])

    def _load_skill(self, candidate: SkillCandidate, d: CandidateEdit) -> None:
        self.heading.setText(TEXT["skill_heading"].format(name=candidate.name))
        self.reason.setText(
            TEXT["skill_reason"].format(turns=candidate.turns, sessions=candidate.sessions)
        )
        steps = d.steps if d.steps is not None else candidate.steps
        self.steps_edit.setPlainText("\n".join(steps))
        self.target.setText(candidate.path)

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
