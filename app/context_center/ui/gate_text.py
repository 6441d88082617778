"""What the window says about the gate's reasons for asking a person, keyed by reason code.

In English the engine's message is shown as it is. In another language the translated summary
comes first and the message follows as the detail, itself translated when it is in one of the
gate's known forms (``DETAILS``: the fact it overlaps, the body's size, what looks sensitive);
a message that only repeats the summary is left out, one in no known form is shown as written.
"""

from __future__ import annotations

from typing import Protocol

from context_center.ui.diagnostic_text import OS_ERRORS
from context_center.ui.engine_text import Forms, shown_by_code
from context_center.ui.i18n import ENGLISH, QT_TRANSLATE_NOOP, Texts, current_language
from context_center.ui.secret_text import secret_labels
from context_center.ui.terms import type_label

REASONS = Texts(
    "GateReasons",
    {
        "not_store_owner": QT_TRANSLATE_NOOP(
            "GateReasons", "This agent does not own the store, so a person decides"
        ),
        "store_unavailable": QT_TRANSLATE_NOOP("GateReasons", "The store cannot be checked now"),
        "type_implicit": QT_TRANSLATE_NOOP("GateReasons", "The agent did not give the fact's type"),
        "type_needs_confirmation": QT_TRANSLATE_NOOP(
            "GateReasons", "Facts of this type need a person's confirmation"
        ),
        "global_scope": QT_TRANSLATE_NOOP(
            "GateReasons", "Global memory needs a person's confirmation"
        ),
        "not_pure_create": QT_TRANSLATE_NOOP("GateReasons", "Not a plain new fact"),
        "update_needs_confirmation": QT_TRANSLATE_NOOP(
            "GateReasons", "Updates need a person's confirmation"
        ),
        "forget_needs_confirmation": QT_TRANSLATE_NOOP(
            "GateReasons", "Forgetting a fact needs a person's confirmation"
        ),
        "description_missing": QT_TRANSLATE_NOOP("GateReasons", "No description was given"),
        "body_over_budget": QT_TRANSLATE_NOOP("GateReasons", "The body is over the size budget"),
        "sensitive_content": QT_TRANSLATE_NOOP(
            "GateReasons", "The body may contain sensitive information"
        ),
        "name_exists": QT_TRANSLATE_NOOP("GateReasons", "A fact with this name exists already"),
        "possible_duplicate": QT_TRANSLATE_NOOP("GateReasons", "It may duplicate an existing fact"),
    },
)


# The gate's messages (engine/gate/checks.py, create.py, update.py) for the codes above.
DETAILS = Forms(
    "GateReasons",
    {
        "type_implicit": QT_TRANSLATE_NOOP(
            "GateReasons",
            "the type is implicit; only explicit project/reference facts are low-risk",
        ),
        "type_needs_confirmation": QT_TRANSLATE_NOOP(
            "GateReasons",
            "{type} facts need a person's confirmation; only project/reference facts are low-risk",
        ),
        "not_pure_create": QT_TRANSLATE_NOOP(
            "GateReasons",
            "the create names an existing fact (id, ref or expected revision): it is an update",
        ),
        "description_missing": QT_TRANSLATE_NOOP(
            "GateReasons", "description and body are required for an automatic write"
        ),
        "body_over_budget": QT_TRANSLATE_NOOP(
            "GateReasons", "the body has {n} characters; the automatic-write budget is {budget}"
        ),
        "sensitive_content": QT_TRANSLATE_NOOP(
            "GateReasons", "the {field} may contain sensitive information: {labels}"
        ),
        "name_exists": QT_TRANSLATE_NOOP(
            "GateReasons", "a fact named '{name}' already exists: {ref}"
        ),
        "title_overlap": QT_TRANSLATE_NOOP("GateReasons", "the title overlaps the title of {ref}"),
        "description_overlap": QT_TRANSLATE_NOOP(
            "GateReasons", "the description overlaps the description of {ref}"
        ),
        "store_unreadable": QT_TRANSLATE_NOOP("GateReasons", "the project store cannot be read"),
        "store_unavailable": QT_TRANSLATE_NOOP(
            "GateReasons", "the project store is unavailable: {error}"
        ),
        "more": QT_TRANSLATE_NOOP("GateReasons", "and {n} more"),
    },
)
FIELDS = Texts(
    "GateReasons",
    {
        "name": QT_TRANSLATE_NOOP("GateReasons", "name"),
        "title": QT_TRANSLATE_NOOP("GateReasons", "title"),
        "description": QT_TRANSLATE_NOOP("GateReasons", "description"),
        "body": QT_TRANSLATE_NOOP("GateReasons", "body"),
    },
)
SEPARATOR = Texts("GateReasons", {"sep": QT_TRANSLATE_NOOP("GateReasons", "; ")})
_DETAIL_CODES: dict[str, tuple[str, ...]] = {
    "type_implicit": ("type_implicit",),
    "type_needs_confirmation": ("type_needs_confirmation",),
    "not_pure_create": ("not_pure_create",),
    "description_missing": ("description_missing",),
    "body_over_budget": ("body_over_budget",),
    "sensitive_content": ("sensitive_content", "more"),
    "name_exists": ("name_exists",),
    "possible_duplicate": ("title_overlap", "description_overlap", "more"),
    "store_unavailable": ("store_unreadable", "store_unavailable"),
}
# Codes whose message says no more than the summary.
_SAID_BY_SUMMARY = frozenset(
    {
        "not_store_owner",
        "global_scope",
        "update_needs_confirmation",
        "forget_needs_confirmation",
    }
)
_PARTS = {
    "type": type_label,
    "field": lambda text: FIELDS[text] if text in FIELDS.source else text,
    "labels": secret_labels,
    "error": OS_ERRORS.part(),
}


def detail_text(code: str, message: str) -> str:
    """The gate's message for ``code`` in the window's language: the whole message in one
    form, else each of the messages the gate joined with "; " (as written unless all are)."""
    shown = shown_by_code(code, message, _DETAIL_CODES, DETAILS, _PARTS)
    if shown != message or "; " not in message:
        return shown
    pieces = message.split("; ")
    translated = [shown_by_code(code, p, _DETAIL_CODES, DETAILS, _PARTS) for p in pieces]
    if any(t == p for t, p in zip(translated, pieces, strict=True)):
        return message
    return SEPARATOR["sep"].join(translated)


class Reason(Protocol):
    @property
    def code(self) -> str: ...

    @property
    def message(self) -> str: ...


def reason_label(reason: Reason) -> str:
    """Short: the translated summary (the engine's message in English or for a new code)."""
    if current_language() == ENGLISH or reason.code not in REASONS:
        return reason.message
    return REASONS[reason.code]


def reason_text(reason: Reason) -> str:
    """In full: the summary and the engine's message as its detail."""
    label = reason_label(reason)
    if label == reason.message:
        return label
    if reason.code in _SAID_BY_SUMMARY:
        return label
    return f"{label} — {detail_text(reason.code, reason.message)}"
