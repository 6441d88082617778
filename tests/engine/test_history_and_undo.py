"""Engine.history (revisions merged with the approval audit log), Engine.requeue_rejected (the
undo of a rejection, logged as its own event) and Engine.restore_suggestion (the undo of a
dismissal)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from context_center.engine import HistoryRow
from context_center.engine.errors import InvalidRequest
from context_center.engine.facade import Engine
from context_center.engine.gate.approvals import Status
from context_center.engine.model import FactType
from context_center.engine.suggestions import load_decisions
from context_center.engine.suggestions.decisions import record
from context_center.engine.suggestions.models import Decision


def make_engine(tmp_path: Path) -> Engine:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return Engine(home=tmp_path / "home", workspace=workspace)


def agent_create(engine: Engine, name: str = "answer language") -> str:
    data: dict[str, Any] = {
        "operation": "create",
        "controller": "interactive",
        "owns_store": True,
        "agent": "claude-code",
        "name": name,
        "title": name.capitalize(),
        "description": f"preference: {name}",
        "type": "user",
        "body": "Answer in English.",
    }
    decision = engine.agent_write(data).value
    assert decision.pending_id is not None
    return decision.pending_id


def test_history_names_who_and_how(tmp_path: Path) -> None:
    engine = make_engine(tmp_path)
    mine = engine.create_fact(name="release", type=FactType.PROJECT, body="main").value
    engine.update_fact(mine.id, expected_revision=1, body="trunk")
    item = agent_create(engine)
    approved = engine.approve(item).value.fact
    assert approved is not None
    rows = engine.history()
    assert all(isinstance(r, HistoryRow) for r in rows)
    got = {(r.ref, r.action, r.who, r.via, r.revision) for r in rows}
    assert ("project/release.md", "created", "person", "direct", 1) in got
    assert ("project/release.md", "revised", "person", "direct", 2) in got
    assert (approved.ref, "created", "person", "approval", 1) in got
    assert (approved.ref, "queued", "claude-code", "approval queue", None) in got
    assert (approved.ref, "approved", "person", "approval", 1) in got
    made = next(r for r in rows if r.ref == approved.ref and r.action == "created")
    assert made.agent == "claude-code" and made.item_id == item
    # newest first
    times = [r.at for r in rows if r.at]
    assert times == sorted(times, reverse=True)
    # one fact only
    only = engine.history(mine.id)
    assert {r.ref for r in only} == {"project/release.md"} and len(only) == 2
    assert len(engine.history(limit=1)) == 1
    json.dumps([r.to_json() for r in rows])  # typed rows are JSON-able


def test_history_says_what_each_revision_changed(tmp_path: Path) -> None:
    engine = make_engine(tmp_path)
    fact = engine.create_fact(name="release", type=FactType.PROJECT, body="main").value
    engine.update_fact(fact.id, expected_revision=1, type=FactType.REFERENCE, body="trunk")
    engine.update_fact(fact.id, expected_revision=2, name="release-notes")
    rows = engine.history(fact.id)
    assert [(r.revision, r.action, r.detail) for r in rows] == [
        (3, "renamed", "name: release → release-notes"),
        (2, "revised", "type: project → reference, text"),
        (1, "created", ""),
    ]
    assert [r.ref for r in rows] == [
        "project/release-notes.md",
        "project/release.md",
        "project/release.md",
    ]


def test_requeue_keeps_the_rejection_and_logs_its_own_event(tmp_path: Path) -> None:
    engine = make_engine(tmp_path)
    item = agent_create(engine)
    engine.reject(item, "not now")
    changes = engine.requeue_rejected(item)
    again = changes.value
    assert changes.approvals and again.id != item and again.status is Status.PENDING
    assert again.content == engine.approval(item).content
    assert engine.approval(item).status is Status.REJECTED  # the rejection stands
    assert [r.id for r in engine.pending_approvals()] == [again.id]
    events = [
        (e["event"], e.get("id"), e.get("requeued_from")) for e in engine.approvals.audit_entries()
    ]
    assert ("rejected", item, None) in events
    assert events[-1] == ("requeued", again.id, item)
    with pytest.raises(InvalidRequest) as twice:
        engine.requeue_rejected(item)
    assert twice.value.code == "already_requeued"
    with pytest.raises(InvalidRequest) as pending:
        engine.requeue_rejected(again.id)
    assert pending.value.code == "not_rejected"
    rows = engine.history()
    assert any(r.action == "requeued" and "requeued from" in r.detail for r in rows)
    # the new item can be approved like any other
    assert engine.approve(again.id).value.fact is not None


def test_requeue_interrupted_before_its_audit_line_is_finished_not_doubled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(tmp_path)
    item = agent_create(engine)
    engine.reject(item)
    audit = engine.approvals.audit

    def killed(*_a: object, **_k: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(audit, "record", killed)
    with pytest.raises(KeyboardInterrupt):
        engine.requeue_rejected(item)
    monkeypatch.undo()
    [left] = engine.pending_approvals()
    again = engine.requeue_rejected(item).value
    assert again.id == left.id and len(engine.pending_approvals()) == 1


def test_restore_a_dismissed_suggestion(tmp_path: Path) -> None:
    engine = make_engine(tmp_path)
    layout = engine.layout
    for cid, what in (("mem-1", "dismissed"), ("mem-2", "accepted")):
        record(
            layout,
            Decision(
                id=cid, key=f"k{cid}", kind="memory", decision=what, time="2026-01-01T00:00:00Z"
            ),  # type: ignore[arg-type]
        )
    changes = engine.restore_suggestion("mem-1")
    assert changes.suggestions and changes.value.id == "mem-1"
    assert [d.id for d in load_decisions(layout)] == ["mem-2"]
    for cid in ("mem-1", "mem-2", "nope"):
        with pytest.raises(InvalidRequest) as refused:
            engine.restore_suggestion(cid)
        assert refused.value.code == "not_dismissed"
