"""The approval audit log (``approvals/audit.jsonl``): one JSON line per event.

Events: ``queued``, ``approved``, ``approve_failed``, ``rejected``, and the gate's
``gate_applied`` / ``gate_refused`` outcomes. A line names the operation, agent, controller,
workspace, refs, names and hashes — never a fact's title, description or body. Lines are
appended (``atomic.append_line``), never rewritten; the caller holds the queue lock.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

from context_center.engine.gate.proposal import GateDecision
from context_center.engine.gate.reasons import Outcome
from context_center.engine.gate.records import ApprovalRecord
from context_center.engine.kinds import format_time, utc_now
from context_center.engine.store import atomic
from context_center.engine.store.private import FILE_MODE

AUDIT_FILE = "audit.jsonl"


class AuditLog:
    def __init__(self, path: Path) -> None:
        self.path = path

    def record(self, event: str, record: ApprovalRecord | None = None, **extra: Any) -> None:
        """Append one event, about ``record`` if given; ``None`` extras are left out."""
        line: dict[str, Any] = {"v": 1, "at": format_time(utc_now()), "event": event}
        if record is not None:
            line.update(
                {
                    "id": record.id,
                    "operation": record.operation.value,
                    "agent": record.agent,
                    "controller": record.controller.value,
                    "workspace": record.workspace,
                    "target_ref": record.target_ref,
                    "name": record.content.name,
                    "content_sha256": record.content_sha256,
                }
            )
        line.update({k: v for k, v in extra.items() if v is not None})
        atomic.append_line(
            self.path,
            (json.dumps(line, ensure_ascii=False) + "\n").encode(),
            mode=FILE_MODE,
            what="the approval audit log",
        )

    def gate_outcome(self, decision: GateDecision, *, workspace: Path) -> None:
        """The gate's applied or refused outcome (a queued one is logged when it is queued)."""
        if decision.outcome is Outcome.QUEUED:
            return
        extra: dict[str, Any] = {
            "operation": decision.operation,
            "agent": decision.agent,
            "controller": decision.controller,
            "workspace": str(workspace),
            "reasons": decision.codes,
        }
        if decision.fact is not None:
            extra.update(
                {"result_ref": decision.fact.ref, "result_revision": decision.fact.revision}
            )
        elif decision.proposal is not None:
            extra.update(
                {
                    "target_ref": decision.proposal.target_ref,
                    "name": decision.proposal.content.name,
                }
            )
        self.record(f"gate_{decision.outcome.value}", None, **extra)

    def entries(self) -> list[dict[str, Any]]:
        try:
            raw = self.path.read_bytes()
        except OSError:
            return []
        out = []
        for line in raw.splitlines():
            with contextlib.suppress(ValueError, RecursionError):
                item = json.loads(line)
                if isinstance(item, dict):
                    out.append(item)
        return out

    def has(self, event: str, item_id: str) -> bool:
        return any(e.get("event") == event and e.get("id") == item_id for e in self.entries())
