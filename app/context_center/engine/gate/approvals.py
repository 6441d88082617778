"""The durable approval queue: agent writes the gate sent to a person, and the person's decisions.

Layout under ``<home>/approvals/`` (folders 0700, files 0600 — readable only by their owner)::

    pending/<id>.json    waiting for a person
    applying/<id>.json   an approval in progress: what it is about to write (``gate.apply``)
    approved/<id>.json   applied; the record gains a ``decision`` with the final content
    rejected/<id>.json   rejected, with the person's optional reason
    audit.jsonl          one line per event (queued, approved, approve_failed, rejected, and the
                         gate's applied/refused outcomes) — operation, agent, refs and hashes,
                         never a fact's title, description or body
    .lock                serialises queue changes across processes (an flock; the kernel drops
                         it if a process dies)

A record holds the id, when it was queued, the agent and its controller kind, the workspace,
the operation, the exact proposed content, the target fact and the revision (and content hash)
the proposal was based on, the gate's reasons, and the sha256 of the content.

Approval is one-time and bound to that content and base: a create goes through the store's
create-only path, an update is a compare-and-set against the base revision and content hash, a
forget checks the base revision. If the store moved on, ``approve`` raises
``ApprovalConflict``, writes nothing, and leaves the item pending (a person may reject it, or
edit a create's name and try again). The person may edit the proposal first; the edited
content is what is written and kept in the approved record. Under the queue lock an item is
applied at most once however many processes approve it.

A crash at any step leaves the item either pending with nothing written or approved with the
fact written once: the approval records its intent before it writes, and the next look at the
item (listing, showing, approving or rejecting it) finds out which (``gate.apply``) and records
it. A decision recorded but not yet logged or tidied is finished the same way.

``approve`` is the engine half of a person's act. Only the window's dialog and
``context-center approvals approve`` in an interactive terminal call it; the CLI refuses without
a terminal, so an agent's non-interactive shell cannot approve its own write. Anything that
announces a pending write (``announcement``) names the operation and the agent, never content.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from context_center.engine.errors import (
    AlreadyExists,
    ApprovalRefused,
    EngineError,
    InvalidRequest,
    NotFound,
    RevisionConflict,
)
from context_center.engine.gate import apply
from context_center.engine.gate.apply import Applied, Intent, apply_write, find_applied
from context_center.engine.gate.audit import AUDIT_FILE, AuditLog
from context_center.engine.gate.edits import final_content
from context_center.engine.gate.folders import QueueFolders, unlink
from context_center.engine.gate.proposal import (
    CREATE_FIELDS,
    UPDATE_FIELDS,
    Controller,
    GateDecision,
    ProposedWrite,
    content_sha256,
)
from context_center.engine.gate.reasons import GateReason, Outcome
from context_center.engine.gate.records import (
    ID_RE,
    ApprovalConflict,
    ApprovalRecord,
    ApprovalResult,
    Decision,
    Status,
    announcement,
    dump,
    new_id,
)
from context_center.engine.kinds import format_time, utc_now
from context_center.engine.store import atomic
from context_center.engine.store.locking import STORE_TIMEOUT_S, file_lock, hold
from context_center.engine.store.memory import Memory
from context_center.engine.store.paths import Layout
from context_center.engine.store.private import FILE_MODE as _FILE_MODE

__all__ = [
    "CREATE_FIELDS",
    "UPDATE_FIELDS",
    "ApprovalConflict",
    "ApprovalQueue",
    "ApprovalRecord",
    "ApprovalResult",
    "Decision",
    "Status",
    "announcement",
    "content_sha256",
    "final_content",
]

log = logging.getLogger(__name__)

_CONFLICTS = (AlreadyExists, RevisionConflict, NotFound)


class ApprovalQueue:
    """The queue of one home. ``memory_for(workspace)`` opens the stores a record applies to."""

    def __init__(
        self,
        home: Path,
        *,
        root: Path | None = None,
        memory_for: Callable[[Path], Memory] | None = None,
    ) -> None:
        self.home = Path(home)
        self.root = root or Layout(self.home, self.home).approvals_dir
        self.files = QueueFolders(self.root)
        self.audit = AuditLog(self.root / AUDIT_FILE)
        self._memory_for = memory_for
        self._lock: FileLock | None = None

    @classmethod
    def for_layout(cls, layout: Layout) -> ApprovalQueue:
        return cls(layout.home, root=layout.approvals_dir)

    def folder(self, status: Status) -> Path:
        return self.files.folder(status)

    @property
    def audit_path(self) -> Path:
        return self.audit.path

    def memory_for(self, workspace: Path) -> Memory:
        if self._memory_for is not None:
            return self._memory_for(workspace)
        return Memory(Layout(self.home, workspace))

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        self.files.ensure()
        if self._lock is None:
            self._lock = file_lock(self.root / ".lock", timeout=STORE_TIMEOUT_S, mode=_FILE_MODE)
        with hold(self._lock, "the approval queue"):
            yield

    # -- reading ---------------------------------------------------------------------------

    @staticmethod
    def _check_id(item_id: str) -> str:
        item_id = item_id.strip()
        if not ID_RE.match(item_id):
            raise InvalidRequest(f"{item_id!r} is not an approval id (apr-…)")
        return item_id

    def get(self, item_id: str) -> ApprovalRecord:
        """A record in any state (a decided one wins over a leftover pending copy)."""
        item_id = self._check_id(item_id)
        if self.files.interrupted({item_id}):
            self._recover_quietly({item_id})
        decided = self.files.decided(item_id)
        if decided is not None:
            return decided
        path = self.files.path(Status.PENDING, item_id)
        if not path.exists():
            raise NotFound(f"no approval item {item_id}")
        return self.files.load(path)

    def records(
        self, status: Status = Status.PENDING, *, workspace: Path | None = None
    ) -> list[ApprovalRecord]:
        """Records in one state, oldest first. Damaged files are skipped (and logged). An
        approval or rejection a crash interrupted is finished first."""
        interrupted = self.files.interrupted()
        if interrupted:
            self._recover_quietly(interrupted)
        decided: set[str] = set()
        if status is Status.PENDING:
            decided = {
                p.stem for s in (Status.APPROVED, Status.REJECTED) for p in self.files.listing(s)
            }
        out = []
        for path in self.files.listing(status):
            if path.stem in decided:
                continue  # a crash left the pending copy behind; the decision stands
            try:
                record = self.files.load(path)
            except (EngineError, OSError) as exc:
                log.warning("skipping approval record %s: %s", path.name, exc)
                continue
            if workspace is not None and record.workspace != str(workspace):
                continue
            out.append(record)
        return sorted(out, key=lambda r: (r.created_at, r.id))

    def pending(self, *, workspace: Path | None = None) -> list[ApprovalRecord]:
        return self.records(Status.PENDING, workspace=workspace)

    # -- queueing --------------------------------------------------------------------------

    def enqueue(
        self,
        *,
        proposal: ProposedWrite,
        agent: str,
        controller: Controller,
        workspace: Path,
        reasons: list[GateReason],
        now: datetime | None = None,
    ) -> ApprovalRecord:
        now = now or utc_now()
        record = ApprovalRecord(
            id=new_id(now),
            created_at=format_time(now),
            agent=agent,
            controller=controller,
            workspace=str(workspace),
            operation=proposal.operation,
            content=proposal.content,
            target_id=proposal.target_id,
            target_ref=proposal.target_ref,
            expected_revision=proposal.base_revision,
            base_sha256=proposal.base_sha256,
            reasons=list(reasons),
            content_sha256=content_sha256(proposal.content),
        )
        with self.locked():
            atomic.create_exclusive(
                self.files.path(Status.PENDING, record.id), dump(record), mode=_FILE_MODE
            )
            self._audit("queued", record, reasons=[r.code for r in reasons])
        log.info(announcement(record))
        return record

    # -- deciding --------------------------------------------------------------------------

    def _claim(self, item_id: str) -> ApprovalRecord:
        """Under the lock: the pending record, or why it cannot be decided."""
        self._recover(item_id)
        decided = self.files.decided(item_id)
        if decided is not None:
            raise ApprovalRefused(
                f"approval item {item_id} was already {decided.status.value}; approval is one-time",
                code="already_decided",
            )
        path = self.files.path(Status.PENDING, item_id)
        if not path.exists():
            raise NotFound(f"no pending approval item {item_id}")
        return self.files.load(path)

    def _finish(self, record: ApprovalRecord, decision: Decision, **audit: Any) -> ApprovalRecord:
        """Record the decision, log it, then remove the pending copy. A crash between these
        steps is finished by ``_recover``: the decided record is what counts."""
        step = "approve" if decision.status is Status.APPROVED else "reject"
        done = record.model_copy(update={"status": decision.status, "decision": decision})
        atomic.create_exclusive(
            self.files.path(decision.status, record.id), dump(done), mode=_FILE_MODE
        )
        apply.crash_point(f"{step}.decided")
        self._audit(decision.status.value, record, **audit)
        apply.crash_point(f"{step}.audited")
        unlink(self.files.path(Status.PENDING, record.id))
        apply.crash_point(f"{step}.pending_removed")
        return done

    def _finish_approval(
        self, record: ApprovalRecord, intent: Intent, applied: Applied, *, recovered: bool = False
    ) -> ApprovalResult:
        decision = applied.decision(record, intent)
        result = decision.result or {}
        done = self._finish(
            record,
            decision,
            edited=decision.edited,
            final_sha256=decision.final_sha256,
            result_ref=result.get("ref"),
            result_revision=result.get("revision"),
            recovered=True if recovered else None,
        )
        unlink(self.files.intent_path(record.id))
        apply.crash_point("approve.intent_removed")
        return ApprovalResult(
            record=done,
            fact=applied.fact,
            archive_path=applied.archive_path,
            archived=applied.archived,
            recovered=recovered,
        )

    def approve(
        self,
        item_id: str,
        edited: Mapping[str, Any] | None = None,
        *,
        expected_sha256: str | None = None,
        now: datetime | None = None,
    ) -> ApprovalResult:
        """Apply a pending write once, bound to its content and base revision.

        ``edited`` replaces fields of the proposal (a person's edit); the result is what is
        written and recorded. ``expected_sha256`` is the content hash of the record the person
        was shown; if the record no longer has it, nothing is applied. Raises
        ``ApprovalConflict`` when the store moved on. The intent is recorded before the store
        is written, so a crash at any step is finished (or undone) by the next look.
        """
        item_id = self._check_id(item_id)
        with self.locked():
            record = self._claim(item_id)
            if expected_sha256 is not None and record.content_sha256 != expected_sha256:
                raise ApprovalRefused(
                    f"approval item {item_id} is not the one that was reviewed (content hash "
                    "differs); show it again before approving"
                )
            intent = Intent.begin(record, final_content(record, edited), now or utc_now())
            memory = self.memory_for(Path(record.workspace))
            atomic.write_bytes(self.files.intent_path(item_id), dump(intent), mode=_FILE_MODE)
            apply.crash_point("approve.intent_written")
            try:
                applied = apply_write(memory, record, intent)
            except Exception as exc:
                return self._after_failed_write(memory, record, intent, exc)
            apply.crash_point("approve.applied")
            return self._finish_approval(record, intent, applied)

    def _after_failed_write(
        self, memory: Memory, record: ApprovalRecord, intent: Intent, exc: Exception
    ) -> ApprovalResult:
        """The store refused (or failed part-way): if the write happened after all, record the
        approval; otherwise drop the intent, log the failure and raise."""
        try:
            applied = find_applied(memory, intent)
        except Exception:
            raise exc from None  # the intent stays; the next look at the item decides
        if applied is not None:
            log.warning("approval %s was applied, then the store reported: %s", record.id, exc)
            return self._finish_approval(record, intent, applied)
        unlink(self.files.intent_path(record.id))
        code = exc.code if isinstance(exc, EngineError) else type(exc).__name__
        self._audit("approve_failed", record, error=code)
        if isinstance(exc, _CONFLICTS):
            raise ApprovalConflict(
                f"approval item {record.id} cannot be applied: {exc}. Nothing was written; the "
                "item stays pending (reject it, or edit it and approve again)."
            ) from exc
        raise exc

    def reject(
        self, item_id: str, reason: str | None = None, *, now: datetime | None = None
    ) -> ApprovalRecord:
        item_id = self._check_id(item_id)
        reason = (reason or "").strip() or None
        with self.locked():
            record = self._claim(item_id)
            decision = Decision(
                status=Status.REJECTED, decided_at=format_time(now or utc_now()), reason=reason
            )
            return self._finish(record, decision, reason=reason)

    # -- recovering from a crash -------------------------------------------------------------

    def _recover_quietly(self, items: set[str]) -> None:
        """Finish interrupted items for a reader; a failure is logged, never raised."""
        try:
            with self.locked():
                for item_id in sorted(items):
                    self._recover(item_id)
                atomic.sweep_temp(self.files.applying_dir)
        except (EngineError, OSError) as exc:
            log.warning("could not finish an interrupted approval: %s", exc)

    def _recover(self, item_id: str) -> None:
        """Under the lock: finish what a crash interrupted for this item, if anything."""
        intent = self.files.read_intent(item_id)
        decided = self.files.decided(item_id)
        if decided is not None:
            self._tidy(decided)
            return
        pending = self.files.path(Status.PENDING, item_id)
        if intent is None:
            return
        if not pending.exists():
            unlink(self.files.intent_path(item_id))
            return
        record = self.files.load(pending)
        applied = find_applied(self.memory_for(Path(record.workspace)), intent)
        if applied is not None:
            self._finish_approval(record, intent, applied, recovered=True)
            return
        unlink(self.files.intent_path(item_id))
        self._audit("approve_failed", record, error="interrupted")

    def _tidy(self, decided: ApprovalRecord) -> None:
        """A decision was recorded; log it if the crash came first, drop the leftovers."""
        pending = self.files.path(Status.PENDING, decided.id)
        intent = self.files.intent_path(decided.id)
        if not (pending.exists() or intent.exists()):
            return
        if not self.audit.has(decided.status.value, decided.id):
            self._audit(decided.status.value, decided, recovered=True)
        unlink(pending)
        unlink(intent)

    # -- audit -----------------------------------------------------------------------------

    def _audit(self, event: str, record: ApprovalRecord | None = None, **extra: Any) -> None:
        self.audit.record(event, record, **extra)

    def audit_gate(self, decision: GateDecision, *, workspace: Path) -> None:
        """Record the gate's applied and refused outcomes (queued ones were logged when queued)."""
        if decision.outcome is not Outcome.QUEUED:
            with self.locked():
                self.audit.gate_outcome(decision, workspace=workspace)

    def audit_entries(self) -> list[dict[str, Any]]:
        return self.audit.entries()
