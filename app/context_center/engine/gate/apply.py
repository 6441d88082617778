"""Applying an approved write to its store, so that a crash at any point can be told apart.

Approving is several steps (write the fact, record the decision, remove the pending copy), and
a process may be killed between any two. So before the store is touched, the queue records an
``Intent`` (``approvals/applying/<id>.json``): the final content, its hash, whether it was
edited, and the time the write is stamped with. Each write is recognisable afterwards:

- a create gets a fact id derived from the item id (``derived_fact_id``); it was applied when a
  fact with that id exists (active, or archived since);
- an update was applied when the target has the revision after the base one, stamped
  (``updated_at``) with the intent's time — now or in its revision history;
- a forget was applied when the target is no longer active and its archive entry carries the
  base revision and the intent's time in its name.

``find_applied`` answers that question; the queue then records the approval (the fact was
written exactly once) or drops the intent (nothing was written; the item stays pending).

``crash_point`` is a fault-injection hook (it does nothing): tests replace it to kill the
process at each named step.
"""

from __future__ import annotations

import contextlib
import hashlib
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict

from context_center.engine.errors import EngineError, InvalidRequest, NotFound, RevisionConflict
from context_center.engine.gate.proposal import Operation, ProposedContent, content_sha256
from context_center.engine.gate.records import ApprovalRecord, Decision, Status
from context_center.engine.kinds import format_time
from context_center.engine.model import Fact
from context_center.engine.store.memory import Memory

INTENT_VERSION = 1


def crash_point(name: str) -> None:
    """Fault-injection hook at each step of approving and rejecting; does nothing."""


def derived_fact_id(item_id: str) -> str:
    """The id an approved create gets: fixed by the item, so a retry can find the fact."""
    digest = hashlib.sha256(f"context-center approval {item_id}".encode()).hexdigest()
    return f"mem-{digest[:32]}"


class Intent(BaseModel):
    """What an approval is about to write, recorded before the store is touched."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    version: int = INTENT_VERSION
    id: str
    operation: Operation
    started_at: str  # the write's time stamp (created_at / updated_at / archive name)
    final_content: ProposedContent
    final_sha256: str
    edited: bool
    fact_id: str | None  # the create's derived id, or the target of an update or forget
    expected_revision: int | None

    @classmethod
    def begin(cls, record: ApprovalRecord, final: ProposedContent, when: datetime) -> Intent:
        return cls(
            id=record.id,
            operation=record.operation,
            started_at=format_time(when),
            final_content=final,
            final_sha256=content_sha256(final),
            edited=final.given() != record.content.given(),
            fact_id=derived_fact_id(record.id)
            if record.operation is Operation.CREATE
            else record.target_id,
            expected_revision=record.expected_revision,
        )

    @property
    def when(self) -> datetime:
        return datetime.fromisoformat(self.started_at)


@dataclass(frozen=True)
class Applied:
    """What the store holds once the write is done."""

    fact: Fact | None = None  # the fact written (create, update)
    archive_path: str | None = None  # where a forget moved it
    archived: Fact | None = None  # the fact a forget archived

    def result(self, record: ApprovalRecord) -> dict[str, Any]:
        if self.fact is not None:
            return {"ref": self.fact.ref, "id": self.fact.id, "revision": self.fact.revision}
        return {"ref": record.target_ref, "id": record.target_id, "archive_path": self.archive_path}

    def decision(self, record: ApprovalRecord, intent: Intent) -> Decision:
        return Decision(
            status=Status.APPROVED,
            decided_at=intent.started_at,
            edited=intent.edited,
            final_content=intent.final_content,
            final_sha256=intent.final_sha256,
            result=self.result(record),
        )


# --------------------------------------------------------------------------- writing


def apply_write(memory: Memory, record: ApprovalRecord, intent: Intent) -> Applied:
    """Write the approved content (create-only, or compare-and-set on the base)."""
    final, now = intent.final_content, intent.when
    if record.operation is Operation.CREATE:
        fact = memory.create(
            name=final.name or "",
            title=final.title or "",
            description=final.description or "",
            type=final.fact_type,
            scope=final.fact_scope,
            body=final.body or "",
            now=now,
            fact_id=intent.fact_id,
        )
        return Applied(fact=fact)
    if record.target_id is None or record.expected_revision is None:
        raise InvalidRequest(f"approval item {record.id} has no target or base revision")
    memory.load(persist_cache=False)
    if record.operation is Operation.UPDATE:
        fact = memory.update(
            record.target_id,
            expected_revision=record.expected_revision,
            expected_sha=record.base_sha256,
            name=final.name,
            title=final.title,
            description=final.description,
            type=final.type,
            body=final.body,
            now=now,
        )
        return Applied(fact=fact)
    entry = memory.resolve(record.target_id)
    if entry.fact.revision != record.expected_revision:  # said as such, not "content differs"
        raise RevisionConflict(
            f"revision conflict on {entry.fact.ref}: expected {record.expected_revision}, "
            f"found {entry.fact.revision}",
            current_revision=entry.fact.revision,
        )
    if record.base_sha256 is not None and entry.sha256 != record.base_sha256:
        raise RevisionConflict(
            f"{entry.fact.ref} changed since the forget was queued (content differs)",
            current_revision=entry.fact.revision,
        )
    fact, dest = memory.forget(
        record.target_id, expected_revision=record.expected_revision, now=now
    )
    return Applied(archive_path=str(dest), archived=fact)


# --------------------------------------------------------------------------- finding it again


def _versions(memory: Memory, fact_id: str) -> list[Fact]:
    """Every version of the fact that can be seen: the active one and its revision snapshots,
    or, once forgotten, its archive entries."""
    memory.load(persist_cache=False)
    try:
        entry = memory.resolve(fact_id)
    except NotFound:
        return [a.fact for a in memory.archived() if a.fact is not None and a.fact.id == fact_id]
    found = [entry.fact]
    with contextlib.suppress(EngineError, OSError):
        found.extend(r.fact for r in memory.revisions(fact_id))
    return found


def _stamped(fact: Fact, when: str) -> bool:
    return fact.updated_at is not None and format_time(fact.updated_at) == when


def _created(memory: Memory, intent: Intent) -> Applied | None:
    assert intent.fact_id is not None
    versions = _versions(memory, intent.fact_id)
    if not versions:
        return None
    first = min(versions, key=lambda f: f.revision)
    return Applied(fact=first)


def _updated(memory: Memory, intent: Intent) -> Applied | None:
    if intent.fact_id is None or intent.expected_revision is None:
        return None
    wanted = intent.expected_revision + 1
    for fact in _versions(memory, intent.fact_id):
        if fact.revision == wanted and _stamped(fact, intent.started_at):
            return Applied(fact=fact)
    return None


def _forgotten(memory: Memory, intent: Intent) -> Applied | None:
    if intent.fact_id is None:
        return None
    memory.load(persist_cache=False)
    with contextlib.suppress(NotFound):
        memory.resolve(intent.fact_id)
        return None  # still active: not forgotten
    for entry in memory.archived():
        fact = entry.fact
        if (
            fact is not None
            and fact.id == intent.fact_id
            and fact.revision == intent.expected_revision
            and entry.archived_at is not None
            and format_time(entry.archived_at) == intent.started_at
        ):
            return Applied(archive_path=str(entry.path), archived=fact)
    return None


def find_applied(memory: Memory, intent: Intent) -> Applied | None:
    """What the interrupted write left in the store, or None when it wrote nothing."""
    if intent.operation is Operation.CREATE:
        return _created(memory, intent)
    if intent.operation is Operation.UPDATE:
        return _updated(memory, intent)
    return _forgotten(memory, intent)
