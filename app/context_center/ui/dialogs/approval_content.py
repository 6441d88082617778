"""What the approval dialog shows, as plain data and text: the review, field texts, documents.

Kept apart from the dialog's widgets (``approval.py``); nothing here touches Qt except the two
small builders of a banner label and a read-only text view.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtWidgets import QLabel, QPlainTextEdit

from context_center.engine import ApprovalRecord, Fact, Operation, ProposedContent
from context_center.ui.style import mono_font
from context_center.ui.widgets.diff_view import fact_document
from context_center.ui.widgets.labels import plain_label

DOC_FIELDS = ("name", "title", "description", "type", "scope")

# The engine's refusal ends with advice for every case ("reject it, or edit it and approve
# again"); when the base revision moved, editing cannot help, so the dialog gives its own.
_GENERIC_ADVICE = re.compile(r"\s*\([^()]*approve again\)")


@dataclass(frozen=True)
class Review:
    """What the dialog shows: the record, and the fact it changes as it is now (if any)."""

    record: ApprovalRecord
    current: Fact | None = None
    this_workspace: bool = True
    missing_target: str | None = None  # why the target could not be read, for update/forget


# -- text helpers ------------------------------------------------------------------------------


def plain_lines(text: str) -> str:
    """Line endings as one ``\\n`` each, so offsets into the text match the shown document."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _field_texts(content: ProposedContent) -> tuple[dict[str, str], str]:
    fields = {
        "name": content.name or "",
        "title": content.title or "",
        "description": content.description or "",
        "type": content.type.value if content.type else "",
        "scope": content.scope.value if content.scope else "",
    }
    return fields, content.body or ""


def effective_fields(review: Review, content: ProposedContent) -> tuple[dict[str, str], str]:
    """(header fields, body) of the fact the write would leave behind."""
    return _field_texts(content.effective(review.record.operation, review.current))


def current_fields(fact: Fact) -> tuple[dict[str, str], str]:
    return _field_texts(ProposedContent().effective(Operation.FORGET, fact))


def document(fields: dict[str, str], body: str) -> str:
    return plain_lines(fact_document({k: fields.get(k, "") for k in DOC_FIELDS}, body))


def banner(name: str) -> QLabel:
    """A hidden, word-wrapped banner; its colours come from the app stylesheet by name."""
    label = plain_label(name=name)
    label.hide()
    return label


def text_view(name: str) -> QPlainTextEdit:
    view = QPlainTextEdit()
    view.setObjectName(name)
    view.setReadOnly(True)
    view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
    view.setFont(mono_font())
    return view


def base_moved(review: Review) -> bool:
    """An update or forget whose target is gone or moved past the revision it was proposed
    against: approving is refused (compare-and-set), with or without edits."""
    r = review.record
    if r.operation is Operation.CREATE:
        return False
    current = review.current
    return current is None or current.revision != r.expected_revision


def without_generic_advice(message: str) -> str:
    return _GENERIC_ADVICE.sub("", " ".join(message.split()))
