"""The gate's reason codes, which outcome each one forces, and how reasons are merged.

Reason codes are stable and part of the JSON contract. Every code belongs to exactly one of
two sets: ``REFUSAL_CODES`` (the write fails closed) or ``QUEUE_CODES`` (a person decides).
The outcome of a decision is derived from its codes alone (``outcome_of``): any refusal code
refuses, else any queue code queues, else the write is applied. A code in neither set fails
closed (refused), so a new check can never apply a write by mistake.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from pydantic import BaseModel, ConfigDict


class Outcome(StrEnum):
    APPLIED = "applied"
    QUEUED = "queued"
    REFUSED = "refused"


# Refusals (fail closed).
SUBAGENT = "subagent"
HEADLESS_NOT_OWNER = "headless_not_owner"
INVALID_REQUEST = "invalid_request"
MISSING_FIELD = "missing_field"
REF_SCOPE_MISMATCH = "ref_scope_mismatch"
NAME_UNDERIVABLE = "name_underivable"
TARGET_NOT_FOUND = "target_not_found"
BODY_TOO_LARGE = "body_too_large"
CREATE_CONFLICT = "create_conflict"
REVISION_CONFLICT = "revision_conflict"
CONTROL_CHARACTERS = "control_characters"
# Reasons to ask a person.
NOT_STORE_OWNER = "not_store_owner"
STORE_UNAVAILABLE = "store_unavailable"
TYPE_IMPLICIT = "type_implicit"
TYPE_NEEDS_CONFIRMATION = "type_needs_confirmation"
GLOBAL_SCOPE = "global_scope"
NOT_PURE_CREATE = "not_pure_create"
UPDATE_NEEDS_CONFIRMATION = "update_needs_confirmation"
FORGET_NEEDS_CONFIRMATION = "forget_needs_confirmation"
DESCRIPTION_MISSING = "description_missing"
BODY_OVER_BUDGET = "body_over_budget"
SENSITIVE_CONTENT = "sensitive_content"
NAME_EXISTS = "name_exists"
POSSIBLE_DUPLICATE = "possible_duplicate"

REFUSAL_CODES = frozenset(
    {
        SUBAGENT,
        HEADLESS_NOT_OWNER,
        INVALID_REQUEST,
        MISSING_FIELD,
        REF_SCOPE_MISMATCH,
        NAME_UNDERIVABLE,
        TARGET_NOT_FOUND,
        BODY_TOO_LARGE,
        CREATE_CONFLICT,
        REVISION_CONFLICT,
        CONTROL_CHARACTERS,
    }
)
QUEUE_CODES = frozenset(
    {
        NOT_STORE_OWNER,
        STORE_UNAVAILABLE,
        TYPE_IMPLICIT,
        TYPE_NEEDS_CONFIRMATION,
        GLOBAL_SCOPE,
        NOT_PURE_CREATE,
        UPDATE_NEEDS_CONFIRMATION,
        FORGET_NEEDS_CONFIRMATION,
        DESCRIPTION_MISSING,
        BODY_OVER_BUDGET,
        SENSITIVE_CONTENT,
        NAME_EXISTS,
        POSSIBLE_DUPLICATE,
    }
)


class GateReason(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True)

    code: str
    message: str


def reason(code: str, message: str) -> GateReason:
    return GateReason(code=code, message=message)


def refuses(code: str) -> bool:
    """True for a refusal code, and for a code the gate does not know (fail closed)."""
    return code in REFUSAL_CODES or code not in QUEUE_CODES


def outcome_of(reasons: Iterable[GateReason]) -> Outcome:
    codes = [r.code for r in reasons]
    if any(refuses(code) for code in codes):
        return Outcome.REFUSED
    if codes:
        return Outcome.QUEUED
    return Outcome.APPLIED


_MAX_MESSAGES_PER_CODE = 5


def merge_reasons(reasons: Iterable[GateReason]) -> list[GateReason]:
    """Refusals first, then reasons to queue; one reason per code, in order of first
    appearance. The messages of a repeated code are joined (identical ones once), at most
    ``_MAX_MESSAGES_PER_CODE`` and a count of the rest."""
    items = list(reasons)
    ordered = [r for r in items if refuses(r.code)] + [r for r in items if not refuses(r.code)]
    messages: dict[str, list[str]] = {}
    for item in ordered:
        seen = messages.setdefault(item.code, [])
        if item.message not in seen:
            seen.append(item.message)
    out = []
    for code, texts in messages.items():
        shown = texts[:_MAX_MESSAGES_PER_CODE]
        message = "; ".join(shown)
        if len(texts) > len(shown):
            message += f"; and {len(texts) - len(shown)} more"
        out.append(reason(code, message))
    return out
