"""Undoing a person's quick decisions: a dismissed suggestion, a rejected agent write.

* ``Engine.restore_suggestion(candidate_id)`` removes the dismissal from the decisions file, so
  the next scan may propose the candidate again. Only a dismissal is undone (an accepted
  candidate wrote a fact; forgetting that fact is its undo).
* ``Engine.requeue_rejected(item_id)`` puts a rejected write back in front of a person as a
  **new pending item** with the same content, base revision and reasons. The rejection stays
  exactly as it was recorded (its record in ``rejected/`` and its ``rejected`` audit line); the
  undo is its own audit event, ``requeued``, naming both items (``requeued_from`` on it; the
  old item is one-time and stays rejected). An item is requeued at most once: a second undo is
  refused (``already_requeued``). The new pending file is written before the audit line; a
  process killed in between leaves the new item pending without its line, and the next
  ``requeue_rejected`` of the old item finds it (same content and base) and writes the line.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

from context_center.engine.changes import Changes
from context_center.engine.facade.gate import GateAPI

if TYPE_CHECKING:
    from context_center.engine.gate.approvals import ApprovalRecord
    from context_center.engine.suggestions import Decision


def _same_write(a: ApprovalRecord, b: ApprovalRecord) -> bool:
    return (
        a.content_sha256 == b.content_sha256
        and a.workspace == b.workspace
        and a.agent == b.agent
        and a.operation == b.operation
        and a.target_id == b.target_id
        and a.expected_revision == b.expected_revision
    )


class UndoAPI(GateAPI):
    def restore_suggestion(self, candidate_id: str) -> Changes[Decision]:
        """Undo a dismissal: the candidate is no longer marked dismissed (the value is the
        dismissal removed). Refused with ``not_dismissed`` when it was not dismissed."""
        from context_center.engine.errors import InvalidRequest
        from context_center.engine.suggestions.decisions import load_decisions, remove

        wanted = candidate_id.strip()
        known = {d.id: d for d in load_decisions(self.layout, strict=True)}
        found = known.get(wanted)
        if found is None or found.decision != "dismissed":
            raise InvalidRequest(
                f"suggestion {wanted} is not dismissed; there is nothing to undo",
                code="not_dismissed",
            )
        gone = remove(self.layout, wanted)
        if gone is None:  # undone meanwhile by another window
            raise InvalidRequest(f"suggestion {wanted} is not dismissed", code="not_dismissed")
        return Changes(gone, suggestions=True)

    def requeue_rejected(
        self, item_id: str, *, now: datetime | None = None
    ) -> Changes[ApprovalRecord]:
        """Undo a rejection: the same write waits for approval again as a new item (the value).
        The rejection and its audit line stay; ``requeued`` is logged with both ids."""
        from context_center.engine.errors import InvalidRequest
        from context_center.engine.gate.approvals import Status
        from context_center.engine.gate.records import dump, new_id
        from context_center.engine.kinds import format_time, utc_now
        from context_center.engine.store import atomic
        from context_center.engine.store.private import FILE_MODE

        queue = self.approvals
        with queue.locked():
            old = queue.get(item_id)
            if old.status is not Status.REJECTED:
                raise InvalidRequest(
                    f"approval item {old.id} is {old.status.value}, not rejected",
                    code="not_rejected",
                )
            if any(
                e.get("event") == "requeued" and e.get("requeued_from") == old.id
                for e in queue.audit_entries()
            ):
                raise InvalidRequest(
                    f"approval item {old.id} was already put back in the queue",
                    code="already_requeued",
                )
            again = next((r for r in queue.pending() if _same_write(r, old)), None)
            if again is None:
                moment = now or utc_now()
                again = old.model_copy(
                    update={
                        "id": new_id(moment),
                        "created_at": format_time(moment),
                        "status": Status.PENDING,
                        "decision": None,
                    }
                )
                atomic.create_exclusive(
                    queue.files.path(Status.PENDING, again.id), dump(again), mode=FILE_MODE
                )
            queue.audit.record("requeued", again, requeued_from=old.id)
        return Changes(again, approvals=True)
