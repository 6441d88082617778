"""The approval queue: durable records, one-time approval bound to content and base revision,
edit-then-approve, reject, the audit log, and several processes at once."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from context_center.engine.errors import ApprovalRefused, InvalidName, InvalidRequest, NotFound
from context_center.engine.facade import Engine
from context_center.engine.gate.approvals import (
    ApprovalConflict,
    ApprovalQueue,
    Status,
    announcement,
    content_sha256,
)
from context_center.engine.gate.decision import Outcome, assess
from context_center.engine.model import FactType, Scope

BODY = "Always answer in English; the user reads logs in English only."


def queued_create(engine: Engine, name: str = "answer language", **kw: Any) -> str:
    data: dict[str, Any] = {
        "operation": "create",
        "controller": "interactive",
        "owns_store": True,
        "agent": "claude-code",
        "name": name,
        "title": name.capitalize(),
        "description": f"preference: {name}",
        "type": "user",  # user facts always wait for a person
        "body": BODY,
    }
    data.update(kw)
    d = assess(data, engine.memory)
    assert d.outcome is Outcome.QUEUED, d.reasons
    assert d.pending_id is not None
    return d.pending_id


def queue_of(engine: Engine) -> ApprovalQueue:
    return ApprovalQueue.for_layout(engine.layout)


def make_fact(engine: Engine, name: str = "release branch") -> Any:
    return engine.memory.create(
        name=name,
        title=name.title(),
        description=f"about {name}",
        type=FactType.PROJECT,
        body=f"Body of {name}.",
    )


def queued_change(engine: Engine, operation: str, fact_id: str, **kw: Any) -> str:
    data = {
        "operation": operation,
        "controller": "headless",
        "owns_store": True,
        "agent": "codex",
        "id": fact_id,
        **kw,
    }
    d = assess(data, engine.memory)
    assert d.outcome is Outcome.QUEUED, d.reasons
    assert d.pending_id is not None
    return d.pending_id


# --------------------------------------------------------------------------- the record


def test_record_holds_everything_and_is_private(engine: Engine) -> None:
    item = queued_create(engine)
    queue = queue_of(engine)
    path = engine.layout.approvals_dir / "pending" / f"{item}.json"
    raw = json.loads(path.read_text())
    assert raw["id"] == item
    assert raw["agent"] == "claude-code"
    assert raw["controller"] == "interactive"
    assert raw["workspace"] == str(engine.workspace)
    assert raw["operation"] == "create"
    assert raw["content"] == {
        "name": "answer-language",
        "title": "Answer language",
        "description": "preference: answer language",
        "type": "user",
        "scope": "project",
        "body": BODY,
    }
    assert raw["expected_revision"] is None
    assert [r["code"] for r in raw["reasons"]] == ["type_needs_confirmation"]
    assert raw["content_sha256"] == content_sha256(raw["content"])
    assert raw["created_at"].endswith("Z")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    for folder in ("", "pending", "approved", "rejected"):
        assert stat.S_IMODE((engine.layout.approvals_dir / folder).stat().st_mode) == 0o700
    assert stat.S_IMODE(queue.audit_path.stat().st_mode) == 0o600
    [record] = queue.pending()
    assert record.id == item and record.status is Status.PENDING


def test_update_record_is_bound_to_its_base(engine: Engine) -> None:
    fact = make_fact(engine)
    item = queued_change(engine, "update", fact.id, body="new body")
    record = queue_of(engine).get(item)
    assert record.target_id == fact.id
    assert record.target_ref == "project/release-branch.md"
    assert record.expected_revision == 1
    assert record.base_sha256 == engine.memory.resolve(fact.id).sha256
    assert record.content.given() == {"body": "new body"}


def test_queue_survives_a_restart(home: Path, workspace: Path) -> None:
    script = (
        "import sys\n"
        "from context_center.engine.facade import Engine\n"
        "from context_center.engine.gate.decision import assess\n"
        "e = Engine(home=sys.argv[1], workspace=sys.argv[2])\n"
        "d = assess({'operation': 'create', 'controller': 'headless', 'owns_store': True,"
        " 'agent': 'codex', 'name': 'n', 'title': 'T', 'description': 'd', 'body': 'b'}, e.memory)\n"
        "print(d.pending_id)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(home), str(workspace)],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    item = out.stdout.strip()
    assert item.startswith("apr-")
    # A fresh process-level view: nothing is held in memory between these.
    engine = Engine(home=home, workspace=workspace)
    queue = ApprovalQueue(home)
    assert [r.id for r in queue.pending()] == [item]
    result = queue.approve(item)
    assert result.fact is not None
    assert engine.open().facts[0].ref == "project/n.md"
    assert engine.open().facts[0].type is FactType.PROJECT  # an implicit type becomes project


# --------------------------------------------------------------------------- approving


def test_approve_create_applies_once(engine: Engine) -> None:
    item = queued_create(engine)
    queue = queue_of(engine)
    result = queue.approve(item)
    assert result.fact is not None
    assert result.fact.ref == "project/answer-language.md"
    assert result.fact.type is FactType.USER
    assert engine.memory.resolve("answer-language").fact.body == BODY
    assert queue.pending() == []
    done = queue.get(item)
    assert done.status is Status.APPROVED
    assert done.decision is not None and done.decision.edited is False
    assert done.decision.result == {
        "ref": "project/answer-language.md",
        "id": result.fact.id,
        "revision": 1,
    }
    assert not (engine.layout.approvals_dir / "pending" / f"{item}.json").exists()
    with pytest.raises(ApprovalRefused) as excinfo:
        queue.approve(item)
    assert excinfo.value.code == "already_decided"


def test_approve_update_is_compare_and_set(engine: Engine) -> None:
    fact = make_fact(engine)
    item = queued_change(engine, "update", fact.id, body="agent's new body", title="New title")
    result = queue_of(engine).approve(item)
    assert result.fact is not None and result.fact.revision == 2
    now = engine.memory.resolve(fact.id).fact
    assert (now.body, now.title) == ("agent's new body", "New title")


def test_approve_forget_archives(engine: Engine) -> None:
    fact = make_fact(engine)
    item = queued_change(engine, "forget", fact.id)
    result = queue_of(engine).approve(item)
    assert result.fact is None and result.archive_path is not None
    assert Path(result.archive_path).exists()
    with pytest.raises(NotFound):
        engine.memory.resolve(fact.id)


def test_approval_after_base_revision_moved_is_a_conflict(engine: Engine) -> None:
    fact = make_fact(engine)
    item = queued_change(engine, "update", fact.id, body="agent's body")
    engine.memory.update(fact.id, expected_revision=1, body="the person's newer body")
    queue = queue_of(engine)
    with pytest.raises(ApprovalConflict) as excinfo:
        queue.approve(item)
    assert excinfo.value.code == "approval_conflict"
    assert "expected 1, found 2" in str(excinfo.value)
    now = engine.memory.resolve(fact.id).fact
    assert (now.revision, now.body) == (2, "the person's newer body")  # nothing lost
    assert [r.id for r in queue.pending()] == [item]  # still there to reject
    assert queue.audit_entries()[-1]["event"] == "approve_failed"
    assert queue.audit_entries()[-1]["error"] == "revision_conflict"
    queue.reject(item, "superseded")
    assert queue.pending() == []


def test_approval_after_hand_edit_is_a_conflict(engine: Engine) -> None:
    fact = make_fact(engine)
    item = queued_change(engine, "update", fact.id, body="agent's body")
    path = engine.layout.project_store / "release-branch.md"
    path.write_text(path.read_text().replace("Body of release branch.", "Edited by hand."))
    with pytest.raises(ApprovalConflict):
        queue_of(engine).approve(item)
    assert "Edited by hand." in path.read_text()


def test_approving_a_create_whose_name_was_taken_is_a_conflict(engine: Engine) -> None:
    item = queued_create(engine)
    engine.memory.create(name="answer language", type=FactType.USER, body="the person's own fact")
    queue = queue_of(engine)
    with pytest.raises(ApprovalConflict):
        queue.approve(item)
    assert engine.memory.resolve("answer-language").fact.body == "the person's own fact"
    # The person may rename it and try again.
    result = queue.approve(item, {"name": "answer language 2"})
    assert result.fact is not None and result.fact.ref == "project/answer-language-2.md"


@pytest.mark.parametrize("moved", ["revision", "forgotten"])
def test_forget_approval_conflicts_when_the_fact_moved(engine: Engine, moved: str) -> None:
    fact = make_fact(engine)
    item = queued_change(engine, "forget", fact.id)
    if moved == "revision":
        engine.memory.update(fact.id, expected_revision=1, body="newer")
    else:
        engine.memory.forget(fact.id)
    with pytest.raises(ApprovalConflict) as excinfo:
        queue_of(engine).approve(item)
    if moved == "revision":
        assert engine.memory.resolve(fact.id).fact.body == "newer"
        # the revision moved: said so, with both numbers (not "content differs")
        assert "expected 1, found 2" in str(excinfo.value)


def test_edit_then_approve_writes_and_audits_the_edit(engine: Engine) -> None:
    item = queued_create(engine)
    queue = queue_of(engine)
    edited = {
        "body": "Answer in English unless asked otherwise.",
        "scope": "global",
        "type": "feedback",
    }
    result = queue.approve(item, edited)
    assert result.fact is not None
    assert result.fact.ref == "global/answer-language.md"
    assert result.fact.type is FactType.FEEDBACK
    assert engine.memory.resolve("global/answer-language.md").fact.body == edited["body"]
    record = queue.get(item)
    assert record.decision is not None
    assert record.decision.edited is True
    assert record.decision.final_content is not None
    assert record.decision.final_content.body == edited["body"]
    assert record.content.body == BODY  # the original proposal stays on record
    assert record.decision.final_sha256 == content_sha256(record.decision.final_content)
    approved = [e for e in queue.audit_entries() if e["event"] == "approved"]
    assert approved[-1]["edited"] is True
    assert approved[-1]["final_sha256"] == record.decision.final_sha256


@pytest.mark.parametrize(
    ("edited", "error"),
    [
        ({"id": "mem-x"}, InvalidRequest),
        ({"type": "secret"}, InvalidRequest),
        ({"scope": "elsewhere"}, InvalidRequest),
        ({"body": ""}, InvalidRequest),
        ({"body": 5}, InvalidRequest),
        ({"name": "!!!"}, InvalidName),
    ],
)
def test_bad_edits_are_refused_and_change_nothing(
    engine: Engine, edited: dict[str, Any], error: type
) -> None:
    item = queued_create(engine)
    with pytest.raises(error):
        queue_of(engine).approve(item, edited)
    assert [r.id for r in queue_of(engine).pending()] == [item]
    assert engine.memory.load().facts == []


def test_a_forget_cannot_be_edited(engine: Engine) -> None:
    fact = make_fact(engine)
    item = queued_change(engine, "forget", fact.id)
    with pytest.raises(InvalidRequest):
        queue_of(engine).approve(item, {"body": "x"})


def test_reject_keeps_a_record_with_reason(engine: Engine) -> None:
    item = queued_create(engine)
    queue = queue_of(engine)
    record = queue.reject(item, "  not a real preference ")
    assert record.status is Status.REJECTED
    assert record.decision is not None and record.decision.reason == "not a real preference"
    assert (engine.layout.approvals_dir / "rejected" / f"{item}.json").exists()
    assert queue.pending() == []
    assert [r.id for r in queue.records(Status.REJECTED)] == [item]
    assert engine.memory.load().facts == []
    with pytest.raises(ApprovalRefused):
        queue.approve(item)
    with pytest.raises(ApprovalRefused):
        queue.reject(item)


def test_altered_record_is_refused(engine: Engine) -> None:
    item = queued_create(engine)
    path = engine.layout.approvals_dir / "pending" / f"{item}.json"
    raw = json.loads(path.read_text())
    raw["content"]["body"] = "something the agent slipped in later"
    path.write_text(json.dumps(raw))
    with pytest.raises(ApprovalRefused):
        queue_of(engine).approve(item)
    assert engine.memory.load().facts == []


@pytest.mark.parametrize(
    "bad", ["../../etc/passwd", "apr-1", "", "apr-20260101-000000000-zzzzzzzzzzzz"]
)
def test_ids_are_validated(engine: Engine, bad: str) -> None:
    with pytest.raises(InvalidRequest):
        queue_of(engine).get(bad)


def test_unknown_id(engine: Engine) -> None:
    with pytest.raises(NotFound):
        queue_of(engine).approve("apr-20260101-000000000-0123456789ab")


def test_leftover_pending_copy_after_a_crash_is_ignored(engine: Engine) -> None:
    item = queued_create(engine)
    queue = queue_of(engine)
    pending = engine.layout.approvals_dir / "pending" / f"{item}.json"
    saved = pending.read_bytes()
    queue.approve(item)
    pending.write_bytes(saved)  # as if the process died before removing it
    assert queue.pending() == []
    with pytest.raises(ApprovalRefused):
        queue.approve(item)
    assert len(engine.memory.load().facts) == 1


def test_announcement_names_operation_and_agent_only(
    engine: Engine, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("INFO", logger="context_center.engine.gate.approvals")
    item = queued_create(
        engine, body="ops-secret-body-text", description="desc-text", title="Title-text"
    )
    record = queue_of(engine).get(item)
    text = announcement(record)
    assert "create" in text and "claude-code" in text
    for secret in ("ops-secret-body-text", "desc-text", "Title-text"):
        assert secret not in text
        assert secret not in caplog.text
    assert text in caplog.text


def test_audit_log_has_no_fact_text(engine: Engine) -> None:
    fact = make_fact(engine)
    a = queued_create(engine, body="BODY-MARKER", description="DESC-MARKER", title="TITLE-MARKER")
    b = queued_change(engine, "update", fact.id, body="UPDATE-MARKER")
    queue = queue_of(engine)
    queue.approve(a, {"body": "EDITED-MARKER"})
    queue.reject(b, "no")
    assess(
        {"operation": "create", "controller": "subagent", "agent": "sub", "body": "SUB-MARKER"},
        engine.memory,
    )
    raw = queue.audit_path.read_text()
    for marker in (
        "BODY-MARKER",
        "DESC-MARKER",
        "TITLE-MARKER",
        "UPDATE-MARKER",
        "EDITED-MARKER",
        "SUB-MARKER",
    ):
        assert marker not in raw
    events = [e["event"] for e in queue.audit_entries()]
    assert events == ["queued", "queued", "approved", "rejected", "gate_refused"]


def test_pending_can_be_filtered_by_workspace(home: Path, tmp_path: Path) -> None:
    ws1, ws2 = tmp_path / "w1", tmp_path / "w2"
    ws1.mkdir()
    ws2.mkdir()
    a = queued_create(Engine(home=home, workspace=ws1))
    b = queued_create(Engine(home=home, workspace=ws2))
    queue = ApprovalQueue(home)
    assert [r.id for r in queue.pending()] == [a, b]
    assert [r.id for r in queue.pending(workspace=ws2)] == [b]
    # Approving applies to the record's own workspace.
    queue.approve(b)
    assert Engine(home=home, workspace=ws2).open().facts[0].scope is Scope.PROJECT
    assert Engine(home=home, workspace=ws1).open().facts == []


# --------------------------------------------------------------------------- several processes

APPROVER = r"""
import json, sys, time
from context_center.engine.gate.approvals import ApprovalQueue
from context_center.engine.errors import EngineError
home, item, start = sys.argv[1:4]
queue = ApprovalQueue(home)
while time.time() < float(start):
    time.sleep(0.001)
try:
    queue.approve(item)
    print(json.dumps("applied"))
except EngineError as exc:
    print(json.dumps(exc.code))
"""


@pytest.mark.slow
def test_two_processes_approving_one_item_apply_it_once(engine: Engine) -> None:
    item = queued_create(engine)
    start = time.time() + 1.5
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", APPROVER, str(engine.home), item, str(start)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(4)
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        results.append(json.loads(out))
    assert sorted(results) == ["already_decided"] * 3 + ["applied"], results
    [fact] = engine.memory.load().facts
    assert fact.revision == 1
    assert [e["event"] for e in queue_of(engine).audit_entries()].count("approved") == 1


AGENT = r"""
import json, sys
from context_center.engine.facade import Engine
from context_center.engine.gate.decision import assess
home, ws, tag, n = sys.argv[1:5]
engine = Engine(home=home, workspace=ws)
ids = []
for i in range(int(n)):
    d = assess({"operation": "create", "controller": "interactive", "owns_store": True,
                "agent": tag, "name": f"{tag} note {i}", "title": f"{tag} note {i}",
                "description": "d", "type": "feedback", "body": f"from {tag} #{i}"}, engine.memory)
    assert d.outcome.value == "queued", d.reasons
    ids.append(d.pending_id)
print(json.dumps(ids))
"""


@pytest.mark.slow
def test_agents_queueing_while_a_person_approves_lose_nothing(engine: Engine) -> None:
    agents, per_agent = 4, 6
    procs = [
        subprocess.Popen(
            [
                sys.executable,
                "-c",
                AGENT,
                str(engine.home),
                str(engine.workspace),
                f"agent{i}",
                str(per_agent),
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(agents)
    ]
    queue = queue_of(engine)
    approved: list[str] = []
    deadline = time.time() + 90
    while len(approved) < agents * per_agent and time.time() < deadline:
        for record in queue.pending():
            queue.approve(record.id)
            approved.append(record.id)
        time.sleep(0.01)
    queued: list[str] = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        queued.extend(json.loads(out))
    assert len(queued) == agents * per_agent
    assert sorted(approved) == sorted(queued)  # every queued item approved, none twice
    facts = engine.memory.load().facts
    assert len(facts) == agents * per_agent
    assert all(f.revision == 1 for f in facts)
    assert queue.pending() == []
    events = [e["event"] for e in queue.audit_entries()]
    assert events.count("queued") == events.count("approved") == agents * per_agent
    assert len(os.listdir(engine.layout.approvals_dir / "approved")) == agents * per_agent


# --------------------------------------------------------------------------- typed content, recovery


def test_the_stored_content_is_exactly_the_given_fields(engine: Engine) -> None:
    """The typed proposal reads back as it was written: a record written as plain JSON by an
    older build loads with the same hash, and an update stores only what it changes."""
    from context_center.engine.gate.proposal import ProposedContent

    item = queued_create(engine, type=None)
    path = engine.layout.approvals_dir / "pending" / f"{item}.json"
    raw = json.loads(path.read_text())
    assert raw["content"]["type"] is None  # implicit, and kept as such
    record = queue_of(engine).get(item)
    assert isinstance(record.content, ProposedContent)
    assert record.content.given() == raw["content"]
    assert content_sha256(record.content) == content_sha256(raw["content"]) == raw["content_sha256"]
    assert record.content.fact_type is FactType.PROJECT
    assert record.content.effective(record.operation).type is FactType.PROJECT


def test_an_unknown_content_field_is_a_damaged_record(engine: Engine) -> None:
    item = queued_create(engine)
    path = engine.layout.approvals_dir / "pending" / f"{item}.json"
    raw = json.loads(path.read_text())
    raw["content"]["id"] = "mem-" + "0" * 32
    path.write_text(json.dumps(raw))
    with pytest.raises(InvalidRequest):
        queue_of(engine).approve(item)
    assert engine.memory.load().facts == []


def test_a_forget_result_names_the_archived_fact(engine: Engine) -> None:
    fact = make_fact(engine)
    item = queued_change(engine, "forget", fact.id)
    result = queue_of(engine).approve(item)
    assert result.archived is not None and result.archived.id == fact.id
    assert result.recovered is False


def test_the_applying_folder_is_private_and_empty_after_approval(engine: Engine) -> None:
    item = queued_create(engine)
    queue_of(engine).approve(item)
    applying = engine.layout.approvals_dir / "applying"
    assert stat.S_IMODE(applying.stat().st_mode) == 0o700
    assert os.listdir(applying) == []


def test_a_conflict_leaves_no_intent_behind(engine: Engine) -> None:
    fact = make_fact(engine)
    item = queued_change(engine, "update", fact.id, body="agent's body")
    engine.memory.update(fact.id, expected_revision=1, body="newer")
    with pytest.raises(ApprovalConflict):
        queue_of(engine).approve(item)
    assert os.listdir(engine.layout.approvals_dir / "applying") == []


def test_a_store_error_after_the_write_still_records_the_approval(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The write happened, then the store reported a failure (say, updating MEMORY.md): the
    approval is recorded, once, rather than left pending over a live fact."""
    from context_center.engine.errors import StoreUnavailable
    from context_center.engine.gate import approvals
    from context_center.engine.gate.apply import apply_write as real

    def write_then_fail(*args: Any, **kwargs: Any) -> Any:
        real(*args, **kwargs)
        raise StoreUnavailable("the index could not be written")

    monkeypatch.setattr(approvals, "apply_write", write_then_fail)
    item = queued_create(engine)
    result = queue_of(engine).approve(item)
    assert result.record.status is Status.APPROVED
    [fact] = engine.memory.load().facts
    assert result.fact is not None and result.fact.id == fact.id


def test_a_failed_write_that_wrote_nothing_is_logged_and_stays_pending(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from context_center.engine.gate import approvals

    def fail(*args: Any, **kwargs: Any) -> Any:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(approvals, "apply_write", fail)
    item = queued_create(engine)
    with pytest.raises(OSError):
        queue_of(engine).approve(item)
    assert [r.id for r in queue_of(engine).pending()] == [item]
    assert queue_of(engine).audit_entries()[-1]["event"] == "approve_failed"
    assert os.listdir(engine.layout.approvals_dir / "applying") == []


def test_a_damaged_intent_is_dropped_and_the_item_stays_pending(engine: Engine) -> None:
    item = queued_create(engine)
    queue = queue_of(engine)
    with queue.locked():
        (engine.layout.approvals_dir / "applying" / f"{item}.json").write_text("{not json")
    assert [r.id for r in queue.pending()] == [item]
    assert os.listdir(engine.layout.approvals_dir / "applying") == []
    assert queue.approve(item).fact is not None


def test_old_orphaned_temp_files_are_swept_from_the_queue(engine: Engine) -> None:
    from context_center.engine.store import atomic

    item = queued_create(engine)
    pending = engine.layout.approvals_dir / "pending"
    old, fresh = pending / ".tmp-00112233aabbccdd", pending / ".tmp-44556677aabbccdd"
    old.write_bytes(b"half a record")
    fresh.write_bytes(b"being written")
    past = time.time() - atomic.ORPHAN_AGE_S - 60
    os.utime(old, (past, past))
    assert [r.id for r in queue_of(engine).pending()] == [item]
    assert not old.exists()
    assert fresh.exists()  # a writer may still be busy with it


def test_engine_approve_reports_what_changed(engine: Engine) -> None:
    from context_center.engine.changes import FactChangeKind

    fact = make_fact(engine)
    item = queued_change(engine, "forget", fact.id)
    done = engine.approve(item)
    assert done.approvals is True
    [change] = done.facts
    assert (change.kind, change.id, change.ref) == (
        FactChangeKind.ARCHIVED,
        fact.id,
        "project/release-branch.md",
    )
    created = engine.approve(queued_create(engine))
    assert [c.kind for c in created.facts] == [FactChangeKind.CREATED]
