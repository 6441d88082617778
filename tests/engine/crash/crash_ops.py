"""The operations the crash-point harness kills: every kind of write a person or agent makes.

Each starting home holds a bystander fact (``other``) besides the one acted on, so "every
acknowledged write is present and intact" covers what the operation must not touch. Contexts
hold references, never paths: each run acts on a copy of the starting home in a folder of its
own. Times are fixed (``NOW``) so the state after a complete run is the same on every run.
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from typing import Any

from crash_harness import Operation

from context_center.engine import Engine, FactType, Scope

NOW = datetime(2026, 3, 4, 5, 6, 7, 890000, tzinfo=UTC)
LATER = datetime(2026, 3, 4, 6, 0, 0, tzinfo=UTC)


def _base(engine: Engine) -> dict[str, Any]:
    engine.memory.create(
        name="other", type=FactType.PROJECT, body="A bystander: never touched.", now=NOW
    )
    engine.memory.create(
        name="global note", type=FactType.USER, scope=Scope.GLOBAL, body="Global.", now=NOW
    )
    fact = engine.memory.create(
        name="release branch",
        title="Release branch",
        description="where releases are cut",
        type=FactType.PROJECT,
        body="Cut from main.",
        now=NOW,
    )
    return {"id": fact.id, "ref": fact.ref}


def _updated(engine: Engine) -> dict[str, Any]:
    ctx = _base(engine)
    engine.memory.update(ctx["id"], expected_revision=1, body="Cut from release/*.", now=NOW)
    return ctx


def _forgotten(engine: Engine) -> dict[str, Any]:
    ctx = _base(engine)
    engine.memory.update(ctx["id"], expected_revision=1, body="Cut from release/*.", now=NOW)
    _, dest = engine.memory.forget(ctx["id"], now=NOW)
    ctx["archive_ref"] = f"project/.archive/{dest.name}"
    return ctx


def _legacy(engine: Engine) -> dict[str, Any]:
    _base(engine)
    store = engine.layout.project_store
    (store / "deploy-notes.md").write_text(
        "---\nname: deploy-notes\ndescription: how we deploy\ntype: project\n---\n\n"
        "Deploy on Tuesdays.\n"
    )
    stamp = NOW.timestamp()
    os.utime(store / "deploy-notes.md", (stamp, stamp))
    return {}


def _rules(engine: Engine) -> dict[str, Any]:
    _base(engine)
    (engine.workspace / "AGENTS.md").write_text("# Project rules\n\n- Use tabs.\n")
    return {}


def _edit(engine: Engine) -> dict[str, Any]:
    _base(engine)
    (engine.workspace / "AGENTS.md").write_text("# Project rules\n\n- Use tabs.\n")
    return {"text": "# Project rules\n\n- Use spaces.\n- Keep lines short.\n"}


def _save_doc(engine: Engine, ctx: dict[str, Any]) -> object:
    doc = engine.read_instruction_file(engine.workspace / "AGENTS.md")
    return engine.save_instruction_file(doc, ctx["text"])


STORE_OPS = [
    Operation(
        "create",
        _base,
        lambda e, c: e.memory.create(
            name="answer language", type=FactType.USER, body="Answer in English.", now=LATER
        ),
    ),
    Operation(
        "update",
        _base,
        lambda e, c: e.memory.update(
            c["id"], expected_revision=1, body="Cut from release/*.", title="Releases", now=LATER
        ),
    ),
    Operation(
        "rename",
        _updated,
        lambda e, c: e.memory.update(
            c["id"], expected_revision=2, name="release branches", body="Renamed.", now=LATER
        ),
    ),
    Operation("forget", _updated, lambda e, c: e.memory.forget(c["id"], now=LATER)),
    Operation("recover", _forgotten, lambda e, c: e.memory.recover(c["archive_ref"], now=LATER)),
    Operation("restore", _updated, lambda e, c: e.memory.restore(c["id"], 1, now=LATER)),
    Operation("migrate", _legacy, lambda e, c: e.memory.migrate()),
    Operation(
        "rule add",
        _rules,
        lambda e, c: e.add_rule("Run the tests before pushing.", "project"),
        files=("workspace/AGENTS.md",),
    ),
    Operation(
        "rule add (new file)",
        _base,
        lambda e, c: e.add_rule("Prefer small commits.", "local"),
        files=("workspace/AGENTS.local.md",),
    ),
    Operation("instruction edit", _edit, _save_doc, files=("workspace/AGENTS.md",)),
]


# -- approvals: the queue is settled (finishes an interrupted decision) before every look -------


def _queue_state(engine: Engine) -> object:
    """Which item is in which state (the decision times are fixed by ``LATER``)."""
    return sorted(
        (r.id, status)
        for status in ("pending", "approved", "rejected")
        for r in engine.approval_records(status)
    )


def _settle(engine: Engine) -> object:
    return engine.approvals.pending()


def _queued(request: dict[str, Any], setup: Any = _base) -> Any:
    def build(engine: Engine) -> dict[str, Any]:
        ctx = setup(engine)
        full = {"controller": "interactive", "owns_store": True, "agent": "claude-code"}
        for key, value in request.items():  # "$id": the id of the fact the setup made
            full[key] = ctx[value[1:]] if str(value).startswith("$") else value
        decision = engine.agent_write(full).value
        assert decision.pending_id is not None, decision.reasons
        ctx["item"] = decision.pending_id
        return ctx

    return build


def _approve(engine: Engine, ctx: dict[str, Any]) -> object:
    return engine.approvals.approve(ctx["item"], None, now=LATER)


def _reject(engine: Engine, ctx: dict[str, Any]) -> object:
    return engine.approvals.reject(ctx["item"], "no", now=LATER)


_CREATE = {
    "operation": "create",
    "name": "answer language",
    "title": "Answer language",
    "description": "preference",
    "type": "user",
    "body": "Answer in English.",
}


def approval_ops() -> list[Operation]:
    """Approve each kind of queued write once, and reject one (the approvals area's code)."""
    kinds = {
        "create": _queued(_CREATE),
        "update": _queued({"operation": "update", "id": "$id", "body": "Cut after the freeze."}),
        "rename": _queued(
            {"operation": "update", "id": "$id", "name": "release branches", "body": "Renamed."}
        ),
        "forget": _queued({"operation": "forget", "id": "$id"}),
    }
    ops = [
        Operation(f"approve {kind}", setup, _approve, settle=_settle, extra_state=_queue_state)
        for kind, setup in kinds.items()
    ]
    ops.append(
        Operation("reject", kinds["create"], _reject, settle=_settle, extra_state=_queue_state)
    )
    return ops


def all_ops() -> list[Operation]:
    return [*STORE_OPS, *approval_ops()]
