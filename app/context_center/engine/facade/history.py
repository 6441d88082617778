"""Who changed what and when: the revision history of facts merged with the approval audit log.

``Engine.history(ref=None, limit=200)`` returns ``HistoryRow`` records, newest first:

* one row per revision of a fact (its ``updated_at``): revision 1 is ``created``, a later one
  ``revised`` (``renamed`` when its name changed), with the fields it changed in ``detail``
  (name and type with old → new; title, description, text by name). A revision the audit log names as an approved write (``result_ref`` and
  ``result_revision``) is attributed to that approval: the agent proposed it, a person approved
  it (``via="approval"``); one the gate applied at once is the agent's (``via="gate"``). Any
  other revision was written directly — the window, the CLI, an import, or a hand edit saved
  through the engine — and the store does not record by whom (``who="person"``,
  ``via="direct"``).
* one row per audit event of this workspace: ``queued``, ``approved``, ``rejected``,
  ``requeued`` (a rejection undone), ``approve_failed``, ``gate_applied``, ``gate_refused``.

Without ``ref`` the revisions of the ``limit`` most recently updated facts are read (a folder
listing each, so the cost does not grow with the store); with ``ref`` every revision of that
fact and the audit events that name it. Rows carry refs and names, never bodies.
"""

from __future__ import annotations

import contextlib
import heapq
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from context_center.engine.facade.gate import GateAPI

if TYPE_CHECKING:
    from context_center.engine.model import Fact
    from context_center.engine.store.entries import RevisionEntry

_VIA_EVENT = {
    "queued": "approval queue",
    "approved": "approval",
    "rejected": "approval",
    "requeued": "approval",
    "approve_failed": "approval",
    "gate_applied": "gate",
    "gate_refused": "gate",
}


@dataclass(frozen=True)
class HistoryRow:
    """One change: when, which fact, what happened, who did it and through which path."""

    at: datetime | None
    ref: str  # "<scope>/<name>.md" as it was then ("" when the event names no fact)
    action: str  # created, revised, queued, approved, rejected, requeued, approve_failed, …
    who: str  # "person", or the agent's name
    via: str  # direct, approval, approval queue, gate
    fact_id: str | None = None
    revision: int | None = None
    agent: str | None = None  # the agent whose write it was (also on an approval's rows)
    item_id: str | None = None  # the approval item, for audit rows
    detail: str = ""  # reason codes, an error code, a rejection reason

    def to_json(self) -> dict[str, Any]:
        return {
            "at": self.at.isoformat() if self.at else None,
            "ref": self.ref,
            "action": self.action,
            "who": self.who,
            "via": self.via,
            "fact_id": self.fact_id,
            "revision": self.revision,
            "agent": self.agent,
            "item_id": self.item_id,
            "detail": self.detail,
        }


def _parse_time(text: object) -> datetime | None:
    if not isinstance(text, str):
        return None
    with contextlib.suppress(ValueError):
        return datetime.fromisoformat(text.replace("Z", "+00:00"))
    return None


def _audit_ref(event: dict[str, Any]) -> str:
    for key in ("result_ref", "target_ref"):
        value = event.get(key)
        if isinstance(value, str) and value:
            return value
    return ""


def _detail(event: dict[str, Any]) -> str:
    parts: list[str] = []
    reasons = event.get("reasons")
    if isinstance(reasons, list):
        parts.extend(str(r) for r in reasons)
    for key in ("reason", "error", "requeued_from", "requeued_as"):
        value = event.get(key)
        if value:
            parts.append(f"{key.replace('_', ' ')}: {value}")
    return ", ".join(parts)


def audit_row(event: dict[str, Any], item_refs: dict[str, str] | None = None) -> HistoryRow:
    """One audit line as a history row (the agent proposed it; a person decided). A create's
    lines before it was applied name no scope: ``item_refs`` (approval id → ref) fills it in."""
    name = str(event.get("event", ""))
    ref = _audit_ref(event) or (item_refs or {}).get(str(event.get("id")), "")
    agent = event.get("agent") if isinstance(event.get("agent"), str) else None
    person = name in ("approved", "rejected", "requeued")
    revision = event.get("result_revision")
    return HistoryRow(
        at=_parse_time(event.get("at")),
        ref=ref or (f"{event['name']}.md" if event.get("name") else ""),
        action=name,
        who="person" if person else (agent or "?"),
        via=_VIA_EVENT.get(name, "approval"),
        revision=revision if isinstance(revision, int) else None,
        agent=agent,
        item_id=event.get("id") if isinstance(event.get("id"), str) else None,
        detail=_detail(event),
    )


def _attribution(events: list[dict[str, Any]]) -> dict[tuple[str, int], dict[str, Any]]:
    """(ref, revision) → the audit event that wrote it (an approval or the gate)."""
    found: dict[tuple[str, int], dict[str, Any]] = {}
    for event in events:
        if event.get("event") not in ("approved", "gate_applied"):
            continue
        ref, revision = event.get("result_ref"), event.get("result_revision")
        if isinstance(ref, str) and isinstance(revision, int):
            found[(ref, revision)] = event
    return found


def _what_changed(fact: Fact, before: Fact | None) -> str:
    """The fields this revision changed against the one before it (names, never bodies)."""
    if before is None:
        return ""
    parts = [
        f"{key}: {getattr(before, key).value if key == 'type' else getattr(before, key)} → "
        f"{getattr(fact, key).value if key == 'type' else getattr(fact, key)}"
        for key in ("name", "type")
        if getattr(before, key) != getattr(fact, key)
    ]
    parts.extend(
        label
        for key, label in (("title", "title"), ("description", "description"), ("body", "text"))
        if getattr(before, key) != getattr(fact, key)
    )
    return ", ".join(parts)


def revision_row(
    fact: Fact, by: dict[tuple[str, int], dict[str, Any]], before: Fact | None = None
) -> HistoryRow:
    """One revision; ``before`` is the revision it replaced (what changed goes in ``detail``;
    a new name makes it ``renamed``)."""
    event = by.get((fact.ref, fact.revision))
    if fact.revision == 1:
        action = "created"
    elif before is not None and before.name != fact.name:
        action = "renamed"
    else:
        action = "revised"
    if event is None:
        who, via, agent, item = "person", "direct", None, None
    else:
        agent = str(event.get("agent") or "?")
        item = event.get("id") if isinstance(event.get("id"), str) else None
        approved = event.get("event") == "approved"
        who, via = ("person", "approval") if approved else (agent, "gate")
    return HistoryRow(
        at=fact.updated_at,
        ref=fact.ref,
        action=action,
        who=who,
        via=via,
        fact_id=fact.id,
        revision=fact.revision,
        agent=agent,
        item_id=item,
        detail=_what_changed(fact, before),
    )


def revision_rows(
    revisions: list[RevisionEntry], by: dict[tuple[str, int], dict[str, Any]]
) -> list[HistoryRow]:
    """Rows of one fact's revisions, each compared with the revision before it."""
    ordered = sorted(revisions, key=lambda r: (r.revision, r.current))
    rows = []
    before: Fact | None = None
    for entry in ordered:
        rows.append(revision_row(entry.fact, by, before))
        before = entry.fact
    return rows


def _sort_key(row: HistoryRow) -> tuple[float, int]:
    return (row.at.timestamp() if row.at else 0.0, row.revision or 0)


class HistoryAPI(GateAPI):
    def history(self, ref: str | None = None, *, limit: int = 200) -> list[HistoryRow]:
        """Revisions and approval events of this workspace, newest first (at most ``limit``).

        ``ref`` (a ref, id or name) keeps the rows of that one fact; a ref of a fact that is no
        longer active still finds its audit events."""
        events = [
            e for e in self._audit_events() if e.get("workspace") in (None, str(self.workspace))
        ]
        by = _attribution(events)
        groups: list[list[RevisionEntry]] = []
        refs: set[str] = set()
        if ref is None:
            entries = [
                *self.memory.project.load().entries.values(),
                *self.memory.global_.load().entries.values(),
            ]  # cache-backed, without the conflicts a full view computes
            latest = heapq.nlargest(
                max(limit, 0),
                entries,
                key=lambda e: e.fact.updated_at.timestamp() if e.fact.updated_at else 0.0,
            )
            # by store and file name: an id lookup of a global fact would rescan the project
            # store first
            groups = [self.memory.store(e.fact.scope).revisions(e.path.name[:-3]) for e in latest]
        else:
            revisions, refs = self._one_fact(ref)
            groups = [revisions]
        item_refs = self._item_refs(events)
        if ref is not None:
            events = [
                e for e in events if (_audit_ref(e) or item_refs.get(str(e.get("id")))) in refs
            ]
        rows = [row for group in groups for row in revision_rows(group, by)]
        rows.extend(audit_row(e, item_refs) for e in events)
        rows.sort(key=_sort_key, reverse=True)
        return rows[: max(limit, 0)]

    def _one_fact(self, ref: str) -> tuple[list[RevisionEntry], set[str]]:
        from context_center.engine.errors import EngineError

        try:
            entry = self.memory.resolve(ref)
        except EngineError:
            text = ref.strip()
            return [], {text if text.endswith(".md") else f"{text}.md"}
        revisions = self.memory.store(entry.fact.scope).revisions(entry.path.name[:-3])
        return revisions, {r.fact.ref for r in revisions}

    def _item_refs(self, events: list[dict[str, Any]]) -> dict[str, str]:
        """Approval id → the fact's ref: from the item's own lines that name it, else from its
        record (a create waiting for a person, or one rejected, names no scope in the log)."""
        found: dict[str, str] = {}
        for event in events:
            ref, item = _audit_ref(event), event.get("id")
            if ref and isinstance(item, str):
                found.setdefault(item, ref)
        wanted = {e.get("id") for e in events} - set(found)
        if wanted:
            from context_center.engine.gate.approvals import Status

            for status in (Status.PENDING, Status.REJECTED):
                for record in self.approvals.records(status, workspace=self.workspace):
                    if record.id in wanted:
                        found[record.id] = record.ref
        return found

    def _audit_events(self) -> list[dict[str, Any]]:
        return self.approvals.audit_entries()
