"""The approval queue's records: one queued write, the person's decision, and what approving
returned. Records are stored as JSON exactly as ``model_dump(mode="json")`` gives them."""

from __future__ import annotations

import json
import re
import secrets
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from context_center.engine.errors import EngineError
from context_center.engine.gate.proposal import Controller, Operation, ProposedContent
from context_center.engine.gate.reasons import GateReason
from context_center.engine.model import Fact

RECORD_VERSION = 1
ID_RE = re.compile(r"^apr-[0-9]{8}-[0-9]{9}-[0-9a-f]{12}$")


class Status(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


class ApprovalConflict(EngineError):
    """The store moved on since the write was queued; nothing was written."""

    code = "approval_conflict"


class Decision(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    status: Status
    decided_at: str
    reason: str | None = None
    edited: bool = False
    final_content: ProposedContent | None = None
    final_sha256: str | None = None
    result: dict[str, Any] | None = None


class ApprovalRecord(BaseModel):
    """One queued write, exactly as it is stored."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    version: int = RECORD_VERSION
    id: str
    created_at: str
    agent: str
    controller: Controller
    workspace: str
    operation: Operation
    content: ProposedContent
    target_id: str | None = None
    target_ref: str | None = None
    expected_revision: int | None = None
    base_sha256: str | None = None
    reasons: list[GateReason]
    content_sha256: str
    status: Status = Status.PENDING
    decision: Decision | None = None

    @property
    def ref(self) -> str:
        """The fact it changes, or ``<scope>/<name>.md`` for the one a create proposes."""
        if self.target_ref:
            return self.target_ref
        return f"{self.content.fact_scope.value}/{self.content.name or '?'}.md"

    def summary(self) -> dict[str, Any]:
        """Everything but the content itself (for lists and notifications)."""
        return {
            "id": self.id,
            "status": self.status.value,
            "created_at": self.created_at,
            "agent": self.agent,
            "controller": self.controller.value,
            "workspace": self.workspace,
            "operation": self.operation.value,
            "target_ref": self.target_ref,
            "name": self.content.name,
            "expected_revision": self.expected_revision,
            "reasons": [r.model_dump() for r in self.reasons],
            "content_sha256": self.content_sha256,
        }

    def public_dict(self) -> dict[str, Any]:
        """The full record for ``approvals show`` (a person reviewing it sees the content)."""
        return self.model_dump(mode="json")


class ApprovalResult(BaseModel):
    """What approving did: the decided record, the fact written (create, update), or the
    fact forgotten and where it was archived (forget)."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    record: ApprovalRecord
    fact: Fact | None = None
    archive_path: str | None = None
    archived: Fact | None = None
    recovered: bool = False  # an interrupted approval was found applied and recorded


def announcement(record: ApprovalRecord) -> str:
    """The one line that may leave the window about a pending write: operation and agent only."""
    return (
        f"Memory write waiting for approval: {record.operation.value} requested by "
        f"{record.agent} ({record.controller.value}), item {record.id}"
    )


def new_id(now: datetime) -> str:
    return (
        f"apr-{now.strftime('%Y%m%d-%H%M%S')}{now.microsecond // 1000:03d}-{secrets.token_hex(6)}"
    )


def dump(model: BaseModel) -> bytes:
    return (json.dumps(model.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n").encode()
