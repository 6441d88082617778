"""The durable approval queue: agent writes the gate sent to a person, and the person's decisions.

Layout under ``<home>/approvals/`` (folders 0700, files 0600 — readable only by their owner)::

    pending/<id>.json    waiting for a person
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
applied at most once however many processes approve it; even after a crash between applying
and recording, a second approval fails on the store's own checks (name taken, revision moved).

``approve`` is the engine half of a person's act. Only the window's dialog and
``context-center approvals approve`` in an interactive terminal call it; the CLI refuses without
a terminal, so an agent's non-interactive shell cannot approve its own write. Anything that
announces a pending write (``announcement``) names the operation and the agent, never content.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator, Mapping
from datetime import datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from filelock import FileLock
from pydantic import BaseModel, ConfigDict, ValidationError

from context_center.engine.errors import (
    AlreadyExists,
    ApprovalRefused,
    EngineError,
    InvalidRequest,
    NotFound,
    RevisionConflict,
)
from context_center.engine.gate.decision import (
    DEFAULT_TYPE,
    Controller,
    GateDecision,
    GateReason,
    Operation,
    Outcome,
    ProposedWrite,
)
from context_center.engine.model import Fact, FactType, Scope, format_time, utc_now
from context_center.engine.store import atomic
from context_center.engine.store.locking import hold
from context_center.engine.store.memory import Memory
from context_center.engine.store.paths import Layout, slugify
from context_center.engine.store.private import FILE_MODE as _FILE_MODE
from context_center.engine.store.private import ensure_private_dir

log = logging.getLogger(__name__)

RECORD_VERSION = 1
AUDIT_FILE = "audit.jsonl"
LOCK_TIMEOUT_S = 30.0
ID_RE = re.compile(r"^apr-[0-9]{8}-[0-9]{9}-[0-9a-f]{12}$")

CREATE_FIELDS = ("name", "title", "description", "type", "scope", "body")
UPDATE_FIELDS = ("name", "title", "description", "type", "body")


class Status(StrEnum):
    PENDING = "pending"
    APPROVED = "approved"
    REJECTED = "rejected"


class ApprovalConflict(EngineError):
    """The store moved on since the write was queued; nothing was written."""

    code = "approval_conflict"


class Decision(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    status: Status
    decided_at: str
    reason: str | None = None
    edited: bool = False
    final_content: dict[str, Any] | None = None
    final_sha256: str | None = None
    result: dict[str, Any] | None = None


class ApprovalRecord(BaseModel):
    """One queued write, exactly as it is stored."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    version: int = RECORD_VERSION
    id: str
    created_at: str
    agent: str
    controller: Controller
    workspace: str
    operation: Operation
    content: dict[str, Any]
    target_id: str | None = None
    target_ref: str | None = None
    expected_revision: int | None = None
    base_sha256: str | None = None
    reasons: list[GateReason]
    content_sha256: str
    status: Status = Status.PENDING
    decision: Decision | None = None

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
            "name": self.content.get("name"),
            "expected_revision": self.expected_revision,
            "reasons": [r.model_dump() for r in self.reasons],
            "content_sha256": self.content_sha256,
        }

    def public_dict(self) -> dict[str, Any]:
        """The full record for ``approvals show`` (a person reviewing it sees the content)."""
        return self.model_dump(mode="json")


class ApprovalResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    record: ApprovalRecord
    fact: Fact | None = None
    archive_path: str | None = None


def content_sha256(content: Mapping[str, Any]) -> str:
    """The hash a record is bound to: sha256 of the content as canonical JSON."""
    canonical = json.dumps(dict(content), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def announcement(record: ApprovalRecord) -> str:
    """The one line that may leave the window about a pending write: operation and agent only."""
    return (
        f"Memory write waiting for approval: {record.operation.value} requested by "
        f"{record.agent} ({record.controller.value}), item {record.id}"
    )


def _new_id(now: datetime) -> str:
    return (
        f"apr-{now.strftime('%Y%m%d-%H%M%S')}{now.microsecond // 1000:03d}-{secrets.token_hex(6)}"
    )


def _dump(record: ApprovalRecord) -> bytes:
    return (
        json.dumps(record.model_dump(mode="json"), ensure_ascii=False, indent=2) + "\n"
    ).encode()


def _read_private(path: Path) -> bytes:
    """Read a regular file without following a symlink."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InvalidRequest(f"{path.name} is not a regular file")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


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
        self._memory_for = memory_for
        self._lock: FileLock | None = None

    @classmethod
    def for_layout(cls, layout: Layout) -> ApprovalQueue:
        return cls(layout.home, root=layout.approvals_dir)

    # -- places ----------------------------------------------------------------------------

    def folder(self, status: Status) -> Path:
        return self.root / status.value

    @property
    def audit_path(self) -> Path:
        return self.root / AUDIT_FILE

    def memory_for(self, workspace: Path) -> Memory:
        if self._memory_for is not None:
            return self._memory_for(workspace)
        return Memory(Layout(self.home, workspace))

    def _ensure_dirs(self) -> None:
        for folder in (self.root, *(self.folder(s) for s in Status)):
            ensure_private_dir(folder, "the approval queue folder")

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        self._ensure_dirs()
        if self._lock is None:
            self._lock = FileLock(str(self.root / ".lock"), timeout=LOCK_TIMEOUT_S, mode=_FILE_MODE)
        with hold(self._lock, "the approval queue"):
            yield

    # -- reading ---------------------------------------------------------------------------

    def _path(self, status: Status, item_id: str) -> Path:
        return self.folder(status) / f"{item_id}.json"

    def _load(self, path: Path) -> ApprovalRecord:
        try:
            record = ApprovalRecord.model_validate_json(_read_private(path))
        except ValidationError as exc:
            raise InvalidRequest(
                f"approval record {path.name} is damaged: {exc.error_count()} problem(s)"
            ) from exc
        if f"{record.id}.json" != path.name:
            raise InvalidRequest(f"approval record {path.name} names another id ({record.id})")
        if content_sha256(record.content) != record.content_sha256:
            raise ApprovalRefused(
                f"approval record {record.id} was altered after it was queued (content hash differs)"
            )
        return record

    @staticmethod
    def _check_id(item_id: str) -> str:
        item_id = item_id.strip()
        if not ID_RE.match(item_id):
            raise InvalidRequest(f"{item_id!r} is not an approval id (apr-…)")
        return item_id

    def _decided(self, item_id: str) -> ApprovalRecord | None:
        for status in (Status.APPROVED, Status.REJECTED):
            path = self._path(status, item_id)
            if path.exists():
                return self._load(path)
        return None

    def get(self, item_id: str) -> ApprovalRecord:
        """A record in any state (a decided one wins over a leftover pending copy)."""
        item_id = self._check_id(item_id)
        decided = self._decided(item_id)
        if decided is not None:
            return decided
        path = self._path(Status.PENDING, item_id)
        if not path.exists():
            raise NotFound(f"no approval item {item_id}")
        return self._load(path)

    def _listing(self, status: Status) -> list[Path]:
        try:
            names = os.listdir(self.folder(status))
        except OSError:
            return []
        return sorted(
            self.folder(status) / n for n in names if n.endswith(".json") and ID_RE.match(n[:-5])
        )

    def records(
        self, status: Status = Status.PENDING, *, workspace: Path | None = None
    ) -> list[ApprovalRecord]:
        """Records in one state, oldest first. Damaged files are skipped (and logged)."""
        decided: set[str] = set()
        if status is Status.PENDING:
            decided = {p.stem for s in (Status.APPROVED, Status.REJECTED) for p in self._listing(s)}
        out = []
        for path in self._listing(status):
            if path.stem in decided:
                continue  # a crash left the pending copy behind; the decision stands
            try:
                record = self._load(path)
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
            id=_new_id(now),
            created_at=format_time(now),
            agent=agent,
            controller=controller,
            workspace=str(workspace),
            operation=proposal.operation,
            content=dict(proposal.content),
            target_id=proposal.target_id,
            target_ref=proposal.target_ref,
            expected_revision=proposal.base_revision,
            base_sha256=proposal.base_sha256,
            reasons=list(reasons),
            content_sha256=content_sha256(proposal.content),
        )
        with self.locked():
            atomic.create_exclusive(
                self._path(Status.PENDING, record.id), _dump(record), mode=_FILE_MODE
            )
            self._audit("queued", record, reasons=[r.code for r in reasons])
        log.info(announcement(record))
        return record

    # -- deciding --------------------------------------------------------------------------

    def _claim(self, item_id: str) -> ApprovalRecord:
        """Under the lock: the pending record, or why it cannot be decided."""
        decided = self._decided(item_id)
        if decided is not None:
            raise ApprovalRefused(
                f"approval item {item_id} was already {decided.status.value}; approval is one-time",
                code="already_decided",
            )
        path = self._path(Status.PENDING, item_id)
        if not path.exists():
            raise NotFound(f"no pending approval item {item_id}")
        return self._load(path)

    def _finish(self, record: ApprovalRecord, decision: Decision) -> ApprovalRecord:
        done = record.model_copy(update={"status": decision.status, "decision": decision})
        atomic.create_exclusive(
            self._path(decision.status, record.id), _dump(done), mode=_FILE_MODE
        )
        pending = self._path(Status.PENDING, record.id)
        pending.unlink()
        atomic.fsync_dir(pending.parent)
        return done

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
        ``ApprovalConflict`` when the store moved on.
        """
        item_id = self._check_id(item_id)
        with self.locked():
            record = self._claim(item_id)
            if expected_sha256 is not None and record.content_sha256 != expected_sha256:
                raise ApprovalRefused(
                    f"approval item {item_id} is not the one that was reviewed (content hash "
                    "differs); show it again before approving"
                )
            final = final_content(record, edited)
            memory = self.memory_for(Path(record.workspace))
            try:
                fact, archive_path = _apply(memory, record, final, now=now)
            except (AlreadyExists, RevisionConflict, NotFound) as exc:
                self._audit("approve_failed", record, error=exc.code)
                raise ApprovalConflict(
                    f"approval item {item_id} cannot be applied: {exc}. Nothing was written; the "
                    "item stays pending (reject it, or edit it and approve again)."
                ) from exc
            except EngineError as exc:
                self._audit("approve_failed", record, error=exc.code)
                raise
            result: dict[str, Any]
            if fact is not None:
                result = {"ref": fact.ref, "id": fact.id, "revision": fact.revision}
            else:
                result = {
                    "ref": record.target_ref,
                    "id": record.target_id,
                    "archive_path": archive_path,
                }
            final_sha = content_sha256(final)
            decision = Decision(
                status=Status.APPROVED,
                decided_at=format_time(now or utc_now()),
                edited=final != record.content,
                final_content=final,
                final_sha256=final_sha,
                result=result,
            )
            done = self._finish(record, decision)
            self._audit(
                "approved",
                record,
                edited=decision.edited,
                final_sha256=final_sha,
                result_ref=result.get("ref"),
                result_revision=result.get("revision"),
            )
        return ApprovalResult(record=done, fact=fact, archive_path=archive_path)

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
            done = self._finish(record, decision)
            self._audit("rejected", record, reason=reason)
        return done

    # -- audit -----------------------------------------------------------------------------

    def _audit(self, event: str, record: ApprovalRecord | None = None, **extra: Any) -> None:
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
                    "name": record.content.get("name"),
                    "content_sha256": record.content_sha256,
                }
            )
        line.update({k: v for k, v in extra.items() if v is not None})
        _append_line(self.audit_path, (json.dumps(line, ensure_ascii=False) + "\n").encode())

    def audit_gate(self, decision: GateDecision, *, workspace: Path) -> None:
        """Record the gate's applied and refused outcomes (queued ones were logged when queued)."""
        if decision.outcome is Outcome.QUEUED:
            return
        line: dict[str, Any] = {
            "event": f"gate_{decision.outcome.value}",
            "operation": decision.operation,
            "agent": decision.agent,
            "controller": decision.controller,
            "workspace": str(workspace),
            "reasons": decision.codes,
        }
        if decision.fact is not None:
            line.update(
                {"result_ref": decision.fact.ref, "result_revision": decision.fact.revision}
            )
        elif decision.proposal is not None:
            line.update(
                {
                    "target_ref": decision.proposal.target_ref,
                    "name": decision.proposal.content.get("name"),
                }
            )
        with self.locked():
            self._audit(line.pop("event"), None, **line)

    def audit_entries(self) -> list[dict[str, Any]]:
        try:
            raw = self.audit_path.read_bytes()
        except OSError:
            return []
        out = []
        for line in raw.splitlines():
            with contextlib.suppress(ValueError):
                item = json.loads(line)
                if isinstance(item, dict):
                    out.append(item)
        return out


def _append_line(path: Path, line: bytes) -> None:
    """Append one JSON line with a single ``O_APPEND`` write (caller holds the queue lock).

    Like the history log, the audit log is appended (``atomic.append_line``) rather than
    replaced: rewriting a growing log on every decision would be quadratic.
    """
    fd = os.open(
        path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), _FILE_MODE
    )
    try:
        atomic.append_line(fd, path, line)
    finally:
        os.close(fd)


# --------------------------------------------------------------------------- applying


def final_content(record: ApprovalRecord, edited: Mapping[str, Any] | None) -> dict[str, Any]:
    """The content an approval would write: the proposal with a person's edits applied and
    checked (raises ``InvalidRequest``/``InvalidName`` for an edit that cannot be written)."""
    final = dict(record.content)
    if not edited:
        return final
    if record.operation is Operation.FORGET:
        raise InvalidRequest("a forget has no content to edit; approve or reject it as it is")
    allowed = CREATE_FIELDS if record.operation is Operation.CREATE else UPDATE_FIELDS
    unknown = set(edited) - set(allowed)
    if unknown:
        raise InvalidRequest(
            f"cannot edit {', '.join(sorted(unknown))} of a {record.operation.value}; "
            f"editable: {', '.join(allowed)}"
        )
    for key, value in edited.items():
        if value is not None and not isinstance(value, str):
            raise InvalidRequest(f"edited {key} must be text")
        if key == "type" and value is not None:
            _enum(FactType, value, "type")
        if key == "scope":
            _enum(Scope, value or "project", "scope")
        if key == "name" and value is not None:
            value = slugify(value)
        final[key] = value if key in ("body", "type", "scope") else (value or "").strip()
    if record.operation is Operation.CREATE:
        if not str(final.get("body") or "").strip():
            raise InvalidRequest("the edited fact has no body")
        if not final.get("name"):
            raise InvalidRequest("the edited fact has no name")
    return final


def _enum(cls: Any, value: Any, what: str) -> Any:
    try:
        return cls(str(value))
    except ValueError as exc:
        choices = ", ".join(m.value for m in cls)
        raise InvalidRequest(f"{what} {value!r} is not one of {choices}") from exc


def _apply(
    memory: Memory, record: ApprovalRecord, final: dict[str, Any], *, now: datetime | None
) -> tuple[Fact | None, str | None]:
    if record.operation is Operation.CREATE:
        fact = memory.create(
            name=str(final["name"]),
            title=str(final.get("title") or ""),
            description=str(final.get("description") or ""),
            type=FactType(final["type"]) if final.get("type") else DEFAULT_TYPE,
            scope=Scope(final.get("scope") or "project"),
            body=str(final["body"]),
            now=now,
        )
        return fact, None
    if record.target_id is None or record.expected_revision is None:
        raise InvalidRequest(f"approval item {record.id} has no target or base revision")
    memory.load(persist_cache=False)
    if record.operation is Operation.UPDATE:
        fact = memory.update(
            record.target_id,
            expected_revision=record.expected_revision,
            expected_sha=record.base_sha256,
            name=final.get("name"),
            title=final.get("title"),
            description=final.get("description"),
            type=FactType(final["type"]) if final.get("type") else None,
            body=final.get("body"),
            now=now,
        )
        return fact, None
    entry = memory.resolve(record.target_id)
    if record.base_sha256 is not None and entry.sha256 != record.base_sha256:
        raise RevisionConflict(
            f"{entry.fact.ref} changed since the forget was queued (content differs)",
            current_revision=entry.fact.revision,
        )
    _, dest = memory.forget(record.target_id, expected_revision=record.expected_revision, now=now)
    return None, str(dest)
