"""What passes through the gate: the agent's request, the proposed content, and the decision.

``ProposedContent`` is the one typed form of a proposed fact's fields, used by the gate (what
it would write), the approval queue (what a record holds and hashes) and the approval dialog
(what it shows and lets a person edit). ``None`` in a field means "not given": an implicit type
of a create, a field an update leaves as it is. Only the fields that were given are stored
and hashed (``given``), so a record reads back exactly as it was written.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from enum import StrEnum
from typing import Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
)

from context_center.engine import model
from context_center.engine.agents.caller import Controller as Controller
from context_center.engine.gate.reasons import GateReason, Outcome
from context_center.engine.kinds import FactType, Scope
from context_center.engine.model import Fact

DEFAULT_TYPE = FactType.PROJECT  # what an implicit type becomes when a person approves it

CREATE_FIELDS = model.CREATE_FIELDS
UPDATE_FIELDS = model.UPDATE_FIELDS
TEXT_FIELDS = ("name", "title", "description")


class Operation(StrEnum):
    CREATE = "create"
    UPDATE = "update"
    FORGET = "forget"


class ProposedContent(BaseModel):
    """A proposed fact's fields. A create has all six (``type`` may be ``None``: implicit);
    an update only those it changes; a forget none."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    name: str | None = None
    title: str | None = None
    description: str | None = None
    type: FactType | None = None
    scope: Scope | None = None
    body: str | None = None

    @model_serializer(mode="wrap")
    def _given_only(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {key: value for key, value in data.items() if key in self.model_fields_set}

    def given(self) -> dict[str, Any]:
        """The fields that were given, as JSON values (what a record stores and hashes)."""
        return self.model_dump(mode="json")

    def has(self, field: str) -> bool:
        return field in self.model_fields_set

    def sha256(self) -> str:
        return content_sha256(self)

    def merged(self, changes: Mapping[str, Any]) -> ProposedContent:
        """These fields with ``changes`` replacing some of them (validated, not checked like a
        person's edit is by ``gate.edits.final_content``)."""
        return ProposedContent.model_validate({**self.given(), **changes})

    @property
    def fact_type(self) -> FactType:
        """The type an approved create gets: the one given, else ``DEFAULT_TYPE``."""
        return self.type or DEFAULT_TYPE

    @property
    def fact_scope(self) -> Scope:
        return self.scope or Scope.PROJECT

    def effective(self, operation: Operation, current: Fact | None = None) -> ProposedContent:
        """Every field of the fact the write would leave behind (text fields ``""`` when
        unknown): a create with its defaults, an update over ``current`` (the fact as it is
        now, if it could be read), a forget the fact as it is."""
        if operation is Operation.CREATE:
            return ProposedContent(
                name=self.name or "",
                title=self.title or "",
                description=self.description or "",
                type=self.fact_type,
                scope=self.fact_scope,
                body=self.body or "",
            )
        base: dict[str, Any] = {key: "" for key in (*TEXT_FIELDS, "body")}
        base.update(type=None, scope=None)
        if current is not None:
            base.update(
                name=current.name,
                title=current.title,
                description=current.description,
                type=current.type,
                scope=current.scope,
                body=current.body,
            )
        if operation is Operation.UPDATE:
            base.update({k: v for k, v in self if v is not None and k != "scope"})
        return ProposedContent(**base)


def content_sha256(content: ProposedContent | Mapping[str, Any]) -> str:
    """The hash a record is bound to: sha256 of the given fields as canonical JSON."""
    data = content.given() if isinstance(content, ProposedContent) else dict(content)
    canonical = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class GateRequest(BaseModel):
    """One agent write as the agent asked for it. ``None`` means "not given"."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    operation: Operation
    controller: Controller
    owns_store: bool = False  # fail closed: ownership must be stated
    agent: str = Field(min_length=1, max_length=200)
    name: str | None = None
    title: str | None = None
    description: str | None = None
    type: FactType | None = None  # None = implicit
    scope: Scope | None = None
    body: str | None = None
    id: str | None = None  # the fact to change: an id …
    ref: str | None = None  # … or a reference (project/<name>.md, global/<name>.md, a name)
    expected_revision: int | None = Field(default=None, ge=1)


class ProposedWrite(BaseModel):
    """What would be written: the content and, for updates and forgets, the target and base."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    operation: Operation
    content: ProposedContent = Field(default_factory=ProposedContent)
    target_id: str | None = None
    target_ref: str | None = None
    base_revision: int | None = None
    base_sha256: str | None = None


class GateDecision(BaseModel):
    """The gate's answer. ``fact`` is set when applied; ``pending_id`` when queued."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    outcome: Outcome
    reasons: list[GateReason]
    operation: str
    agent: str
    controller: str
    proposal: ProposedWrite | None = None
    fact: Fact | None = None
    pending_id: str | None = None

    @property
    def codes(self) -> list[str]:
        return [r.code for r in self.reasons]

    def public_dict(self) -> dict[str, Any]:
        """The JSON form for the CLI: outcome, reasons, and the id or fact — never the body of
        a queued or refused write."""
        data: dict[str, Any] = {
            "outcome": self.outcome.value,
            "operation": self.operation,
            "agent": self.agent,
            "controller": self.controller,
            "reasons": [r.model_dump() for r in self.reasons],
        }
        if self.pending_id is not None:
            data["pending_id"] = self.pending_id
        if self.fact is not None:
            fact = self.fact.public_dict()
            fact.pop("body")
            data["fact"] = fact
        if self.proposal is not None and self.proposal.target_ref:
            data["target_ref"] = self.proposal.target_ref
        return data
