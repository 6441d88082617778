"""Agents' writes through the gate, and the approval queue a person decides."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from context_center.engine.changes import Changes, FactChange, FactChangeKind
from context_center.engine.facade.core import EngineCore

if TYPE_CHECKING:
    from context_center.engine.gate.approvals import (
        ApprovalQueue,
        ApprovalRecord,
        ApprovalResult,
        Status,
    )
    from context_center.engine.gate.decision import GateDecision, GateRequest
    from context_center.engine.store.factstore import Entry


class GateAPI(EngineCore):
    _approvals: ApprovalQueue | None = None

    @property
    def approvals(self) -> ApprovalQueue:
        """The home's durable approval queue (one for every workspace)."""
        if self._approvals is None:
            from context_center.engine.gate.approvals import ApprovalQueue

            self._approvals = ApprovalQueue(
                self.home, root=self.layout.approvals_dir, memory_for=self._memory_for
            )
        return self._approvals

    def agent_write(self, request: GateRequest | Mapping[str, Any]) -> Changes[GateDecision]:
        """An agent's create, update or forget: applied (low-risk create), queued, or refused."""
        from context_center.engine.gate.decision import Outcome, assess

        decision = assess(request, self.memory, queue=self.approvals)
        facts: tuple[FactChange, ...] = ()
        if decision.outcome is Outcome.APPLIED and decision.fact is not None:
            fact = decision.fact
            facts = (FactChange(fact.scope, fact.name, fact.id, FactChangeKind.CREATED, 1),)
        return Changes(decision, facts=facts, approvals=decision.outcome is Outcome.QUEUED)

    def approval_records(
        self, status: Status | str, *, this_workspace: bool = False
    ) -> list[ApprovalRecord]:
        from context_center.engine.gate.approvals import Status

        workspace = self.workspace if this_workspace else None
        return self.approvals.records(Status(status), workspace=workspace)

    def pending_approvals(self, *, this_workspace: bool = False) -> list[ApprovalRecord]:
        return self.approvals.pending(workspace=self.workspace if this_workspace else None)

    def approval_target(self, record: ApprovalRecord) -> Entry:
        """The fact an update or forget proposal changes, read now (in its own workspace)."""
        from context_center.engine.errors import InvalidRequest

        if not record.target_id:
            raise InvalidRequest(f"{record.id} does not change an existing fact")
        return self._memory_for(Path(record.workspace)).resolve(record.target_id)

    def approval(self, item_id: str) -> ApprovalRecord:
        """One item of the queue, pending or decided."""
        return self.approvals.get(item_id)

    def approve(
        self,
        item_id: str,
        edited: Mapping[str, Any] | None = None,
        *,
        expected_sha256: str | None = None,
    ) -> Changes[ApprovalResult]:
        """A person's approval: applies the write once, bound to the content they were shown."""
        result = self.approvals.approve(item_id, edited, expected_sha256=expected_sha256)
        record = result.record
        kind = {
            "create": FactChangeKind.CREATED,
            "update": FactChangeKind.UPDATED,
            "forget": FactChangeKind.ARCHIVED,
        }[record.operation.value]
        facts: tuple[FactChange, ...] = ()
        if result.fact is not None:
            fact = result.fact
            facts = (FactChange(fact.scope, fact.name, fact.id, kind, fact.revision),)
        elif result.archived is not None:  # a forget: the fact left for the archive
            gone = result.archived
            facts = (FactChange(gone.scope, gone.name, gone.id, kind, gone.revision),)
        mine = Path(record.workspace) == self.workspace
        return Changes(result, facts=facts if mine else (), approvals=True)

    def reject(self, item_id: str, reason: str | None = None) -> Changes[ApprovalRecord]:
        """A person's rejection: nothing is written; the decision is recorded."""
        return Changes(self.approvals.reject(item_id, reason), approvals=True)
