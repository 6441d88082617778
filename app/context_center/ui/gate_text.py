"""What the window says about the gate's reasons for asking a person, keyed by reason code.

The engine's message (English, with the details) stays: in English it is shown as it is; in
another language the translated summary comes first and the message follows as the detail.
"""

from __future__ import annotations

from typing import Protocol

from context_center.ui.i18n import ENGLISH, QT_TRANSLATE_NOOP, Texts, current_language

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
    return label if label == reason.message else f"{label} — {reason.message}"
