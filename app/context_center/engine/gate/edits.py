"""A person's edit of a queued write: which fields may change, and the content it leaves."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from context_center.engine.errors import InvalidRequest
from context_center.engine.gate.proposal import (
    CREATE_FIELDS,
    UPDATE_FIELDS,
    Operation,
    ProposedContent,
)
from context_center.engine.gate.records import ApprovalRecord
from context_center.engine.kinds import FactType, Scope
from context_center.engine.store.paths import slugify


def _enum(cls: type[StrEnum], value: Any, what: str) -> None:
    try:
        cls(str(value))
    except ValueError as exc:
        choices = ", ".join(m.value for m in cls)
        raise InvalidRequest(f"{what} {value!r} is not one of {choices}") from exc


def _edited_value(key: str, value: Any) -> Any:
    """One edited field, checked: text only, a known type and scope, a usable file name."""
    if value is not None and not isinstance(value, str):
        raise InvalidRequest(f"edited {key} must be text")
    if key == "type" and value is not None:
        _enum(FactType, value, "type")
    if key == "scope":
        _enum(Scope, value or "project", "scope")
    if key == "name" and value is not None:
        value = slugify(value)
    return value if key in ("body", "type", "scope") else (value or "").strip()


def final_content(record: ApprovalRecord, edited: Mapping[str, Any] | None) -> ProposedContent:
    """The content an approval would write: the proposal with a person's edits applied and
    checked (raises ``InvalidRequest``/``InvalidName`` for an edit that cannot be written)."""
    if not edited:
        return record.content
    if record.operation is Operation.FORGET:
        raise InvalidRequest("a forget has no content to edit; approve or reject it as it is")
    allowed = CREATE_FIELDS if record.operation is Operation.CREATE else UPDATE_FIELDS
    unknown = set(edited) - set(allowed)
    if unknown:
        raise InvalidRequest(
            f"cannot edit {', '.join(sorted(unknown))} of a {record.operation.value}; "
            f"editable: {', '.join(allowed)}"
        )
    final = record.content.given()
    for key, value in edited.items():
        final[key] = _edited_value(key, value)
    if record.operation is Operation.CREATE:
        if not str(final.get("body") or "").strip():
            raise InvalidRequest("the edited fact has no body")
        if not final.get("name"):
            raise InvalidRequest("the edited fact has no name")
    return ProposedContent.model_validate(final)
