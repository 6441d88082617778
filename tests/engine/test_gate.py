"""The write gate: each auto-allow condition, each reason to queue or refuse, the create race."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_center.engine.facade import Engine
from context_center.engine.gate import decision as gate
from context_center.engine.gate.approvals import ApprovalQueue
from context_center.engine.gate.decision import (
    AUTO_WRITE_BUDGET_CHARS,
    GateRequest,
    Outcome,
    assess,
    evaluate,
)
from context_center.engine.model import FactType, Scope


def req(**overrides: Any) -> dict[str, Any]:
    """A request that passes every auto-allow condition."""
    base: dict[str, Any] = {
        "operation": "create",
        "controller": "interactive",
        "owns_store": True,
        "agent": "claude-code",
        "name": "test command",
        "title": "Test command",
        "description": "how the suite is run",
        "type": "project",
        "body": "Run the tests with `pytest -q` from the repository root.",
    }
    base.update(overrides)
    return {k: v for k, v in base.items() if v is not ...}


def existing(engine: Engine, name: str = "Release branch", **kw: Any) -> Any:
    args: dict[str, Any] = {
        "title": name,
        "description": f"notes on {name}",
        "type": FactType.PROJECT,
        "body": f"Body of {name}.",
    }
    args.update(kw)
    return engine.memory.create(name=name, **args)


def codes(decision: gate.GateDecision) -> list[str]:
    return decision.codes


# --------------------------------------------------------------------------- applied at once


def test_low_risk_create_is_applied(engine: Engine) -> None:
    decision = assess(req(), engine.memory)
    assert decision.outcome is Outcome.APPLIED
    assert decision.reasons == []
    assert decision.fact is not None
    assert decision.fact.ref == "project/test-command.md"
    assert decision.fact.revision == 1
    on_disk = engine.memory.resolve("project/test-command.md").fact
    assert on_disk.body == req()["body"]
    assert on_disk.type is FactType.PROJECT
    assert ApprovalQueue.for_layout(engine.layout).pending() == []


@pytest.mark.parametrize("controller", ["interactive", "headless"])
def test_both_owning_controllers_may_auto_create(engine: Engine, controller: str) -> None:
    assert assess(req(controller=controller), engine.memory).outcome is Outcome.APPLIED


def test_reference_type_and_explicit_project_scope_are_low_risk(engine: Engine) -> None:
    d = assess(req(type="reference", scope="project"), engine.memory)
    assert d.outcome is Outcome.APPLIED
    assert d.fact is not None and d.fact.type is FactType.REFERENCE


def test_body_exactly_at_budget_is_allowed(engine: Engine) -> None:
    body = "x" * AUTO_WRITE_BUDGET_CHARS
    assert evaluate(req(body=body), engine.memory).outcome is Outcome.APPLIED


@pytest.mark.parametrize(
    ("title", "ref"),
    [("Test command", "project/test-command.md"), ("包管理器", "project/包管理器.md")],
)
def test_missing_name_is_derived_from_the_title(engine: Engine, title: str, ref: str) -> None:
    d = assess(req(name=None, title=title), engine.memory)
    assert d.outcome is Outcome.APPLIED, d.reasons
    assert d.fact is not None and d.fact.ref == ref
    assert d.fact.title == title


def test_name_refused_only_when_nothing_usable_remains(engine: Engine) -> None:
    assert codes(evaluate(req(name=None, title="!!! ???"), engine.memory)) == [
        gate.NAME_UNDERIVABLE
    ]
    assert codes(evaluate(req(name=None, title=None), engine.memory)) == [gate.MISSING_FIELD]
    assert evaluate(req(name="  ", title="Test command"), engine.memory).outcome is Outcome.APPLIED


def test_evaluate_writes_nothing(engine: Engine) -> None:
    assert evaluate(req(), engine.memory).outcome is Outcome.APPLIED
    assert engine.memory.load().facts == []
    assert ApprovalQueue.for_layout(engine.layout).pending() == []


# --------------------------------------------------------------------------- queued


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"owns_store": False}, gate.NOT_STORE_OWNER),
        ({"type": None}, gate.TYPE_IMPLICIT),
        ({"type": "user"}, gate.TYPE_NEEDS_CONFIRMATION),
        ({"type": "feedback"}, gate.TYPE_NEEDS_CONFIRMATION),
        ({"scope": "global"}, gate.GLOBAL_SCOPE),
        ({"description": None}, gate.DESCRIPTION_MISSING),
        ({"description": "   "}, gate.DESCRIPTION_MISSING),
        ({"body": "x" * (AUTO_WRITE_BUDGET_CHARS + 1)}, gate.BODY_OVER_BUDGET),
        ({"body": "deploy key: ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8"}, gate.SENSITIVE_CONTENT),
        ({"body": "ping ops@example.com on failure"}, gate.SENSITIVE_CONTENT),
        ({"description": "API_KEY=abc123 is in .env"}, gate.SENSITIVE_CONTENT),
        ({"title": "Ｂｅａｒｅｒ abcdefghijklmnopqrstu"}, gate.SENSITIVE_CONTENT),
        (
            {
                "body": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n-----END OPENSSH PRIVATE KEY-----"
            },
            gate.SENSITIVE_CONTENT,
        ),
    ],
)
def test_each_reason_to_queue(engine: Engine, overrides: dict[str, Any], code: str) -> None:
    decision = assess(req(**overrides), engine.memory)
    assert decision.outcome is Outcome.QUEUED
    assert codes(decision) == [code]
    assert decision.pending_id is not None
    assert engine.memory.load().facts == []  # nothing written
    queue = ApprovalQueue.for_layout(engine.layout)
    [record] = queue.pending()
    assert record.id == decision.pending_id
    assert [r.code for r in record.reasons] == [code]


@pytest.mark.parametrize(
    "body",
    [
        "token ghp_abcdefghij\u034fklmnopqrstuvwxyz0123456789",  # combining grapheme joiner
        "token ghp_abcdefghij\ufe0fklmnopqrstuvwxyz0123456789",  # variation selector
        "token ghp_abcdefghij\U000e0041klmnopqrstuvwxyz0123456789",  # tag character
        "token ghp_abcdefghij\u3164klmnopqrstuvwxyz0123456789",  # Hangul filler
        "CI uses glpat-" + "xK9mPq2RsT4vWy6Za8Bc",
        "maps key AIza" + "SyD4bX9kQ2mN7pR3tV8wY1zA5cE0gH6jL9oU",
        "billing sk_" + "live_51H8kQ2mN7pR3tV8",
        "publish with npm_" + "Ab3dEf6hIj" * 3 + "Kl9mNo",
        "AWS_SECRET_ACCESS_KEY wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "curl -H 'x: Bearer eyJhbGciOi'",
        "the staging password=hunter2",
    ],
)
def test_obfuscated_and_new_credential_classes_are_queued(engine: Engine, body: str) -> None:
    d = evaluate(req(body=body), engine.memory)
    assert d.outcome is Outcome.QUEUED
    assert codes(d) == [gate.SENSITIVE_CONTENT]


@pytest.mark.parametrize(
    "body",
    [
        "Passwords need password_min_length=12 and max_password_age=90.",
        "Set use_api_key: true.",
        "PWD=/home/x",
    ],
)
def test_configuration_is_not_sensitive(engine: Engine, body: str) -> None:
    assert evaluate(req(body=body), engine.memory).outcome is Outcome.APPLIED


def test_sensitive_reason_names_kinds_not_values(engine: Engine) -> None:
    d = evaluate(req(body="the password=hunter2 and ops@example.com"), engine.memory)
    [reason] = d.reasons
    assert "hunter2" not in reason.message and "ops@example.com" not in reason.message
    assert "email address" in reason.message and "body" in reason.message


def test_every_reason_is_listed(engine: Engine) -> None:
    existing(engine, "test command")
    d = evaluate(
        req(type="user", scope="global", description="", body="ops@example.com " + "x" * 7000),
        engine.memory,
    )
    assert d.outcome is Outcome.QUEUED
    assert codes(d) == [
        gate.TYPE_NEEDS_CONFIRMATION,
        gate.GLOBAL_SCOPE,
        gate.DESCRIPTION_MISSING,
        gate.BODY_OVER_BUDGET,
        gate.SENSITIVE_CONTENT,
        gate.NAME_EXISTS,
    ]


@pytest.mark.parametrize("scope", [Scope.PROJECT, Scope.GLOBAL])
def test_same_name_in_either_scope_is_queued(engine: Engine, scope: Scope) -> None:
    existing(engine, "test command", scope=scope, title="Something else", description="unrelated")
    d = assess(req(), engine.memory)
    assert d.outcome is Outcome.QUEUED
    assert codes(d) == [gate.NAME_EXISTS]
    assert f"{scope.value}/test-command.md" in d.reasons[0].message


@pytest.mark.parametrize(
    ("their_title", "their_description", "title", "description"),
    [
        ("包管理", "别的", "包管理器", "用 pnpm 安装依赖"),
        ("Prefer tabs", "indentation", "prefer tabs over spaces", "editor settings"),
        ("Deploys", "deploy to staging first", "Release steps", "first deploy staging"),
        ("发布", "部署前先跑测试", "上线", "先跑测试再部署"),
    ],
)
def test_overlapping_title_or_description_is_queued(
    engine: Engine, their_title: str, their_description: str, title: str, description: str
) -> None:
    existing(
        engine, "other fact", title=their_title, description=their_description, scope=Scope.GLOBAL
    )
    d = assess(req(name="new fact", title=title, description=description), engine.memory)
    assert d.outcome is Outcome.QUEUED
    assert codes(d) == [gate.POSSIBLE_DUPLICATE]
    assert "global/other-fact.md" in d.reasons[0].message


@pytest.mark.parametrize(
    ("their_title", "title"),
    [("依赖管理", "包管理"), ("branch management", "package manager")],
)
def test_non_overlapping_titles_are_applied(engine: Engine, their_title: str, title: str) -> None:
    existing(engine, "other fact", title=their_title, description="zzz")
    d = assess(req(name="new fact", title=title, description="yyy qqq"), engine.memory)
    assert d.outcome is Outcome.APPLIED, d.reasons


def test_update_is_queued_with_its_base(engine: Engine) -> None:
    fact = existing(engine)
    d = assess(
        req(
            operation="update",
            id=fact.id,
            name=None,
            title=None,
            description=None,
            type=None,
            body="new body",
        ),
        engine.memory,
    )
    assert d.outcome is Outcome.QUEUED
    assert codes(d) == [gate.UPDATE_NEEDS_CONFIRMATION]
    assert d.proposal is not None
    assert d.proposal.target_id == fact.id
    assert d.proposal.base_revision == 1
    assert d.proposal.content.given() == {"body": "new body"}
    assert engine.memory.resolve(fact.id).fact.body == fact.body


@pytest.mark.parametrize(
    "extra",
    [
        {"id": "FACT_ID"},
        {"ref": "project/release-branch.md"},
        {"expected_revision": 1, "name": "release branch"},
    ],
)
def test_create_with_id_ref_or_revision_is_not_a_pure_create(
    engine: Engine, extra: dict[str, Any]
) -> None:
    fact = existing(engine)
    extra = {k: (fact.id if v == "FACT_ID" else v) for k, v in extra.items()}
    d = assess(req(**{"name": None, **extra}), engine.memory)
    assert d.outcome is Outcome.QUEUED
    assert gate.NOT_PURE_CREATE in codes(d)
    assert gate.UPDATE_NEEDS_CONFIRMATION in codes(d)
    assert d.operation == "update"


def test_forget_is_always_queued(engine: Engine) -> None:
    fact = existing(engine)
    d = assess(
        {
            "operation": "forget",
            "controller": "headless",
            "owns_store": True,
            "agent": "codex",
            "ref": "release-branch",
        },
        engine.memory,
    )
    assert d.outcome is Outcome.QUEUED
    assert codes(d) == [gate.FORGET_NEEDS_CONFIRMATION]
    assert d.proposal is not None and d.proposal.target_id == fact.id
    assert engine.memory.resolve(fact.id).fact.id == fact.id  # still active


def test_global_target_adds_global_reason(engine: Engine) -> None:
    fact = existing(engine, scope=Scope.GLOBAL)
    d = evaluate(
        {
            "operation": "forget",
            "controller": "interactive",
            "owns_store": True,
            "agent": "a",
            "id": fact.id,
        },
        engine.memory,
    )
    assert codes(d) == [gate.FORGET_NEEDS_CONFIRMATION, gate.GLOBAL_SCOPE]


def test_update_possible_duplicate_excludes_itself(engine: Engine) -> None:
    fact = existing(engine, "deploy notes", title="Deploy notes")
    existing(engine, "other", title="Deploy checklist notes", description="x y z")
    d = evaluate(
        req(
            operation="update",
            id=fact.id,
            name=None,
            type=None,
            description=None,
            title="Deploy checklist notes",
        ),
        engine.memory,
    )
    assert codes(d) == [gate.UPDATE_NEEDS_CONFIRMATION, gate.POSSIBLE_DUPLICATE]
    assert "project/other.md" in d.reasons[1].message


# --------------------------------------------------------------------------- refused


def test_subagent_is_refused(engine: Engine) -> None:
    d = assess(req(controller="subagent"), engine.memory)
    assert d.outcome is Outcome.REFUSED
    assert codes(d) == [gate.SUBAGENT]
    assert engine.memory.load().facts == []
    assert ApprovalQueue.for_layout(engine.layout).pending() == []


def test_subagent_is_refused_even_for_a_forget(engine: Engine) -> None:
    fact = existing(engine)
    d = assess(
        {
            "operation": "forget",
            "controller": "subagent",
            "owns_store": True,
            "agent": "sub",
            "id": fact.id,
        },
        engine.memory,
    )
    assert d.outcome is Outcome.REFUSED
    assert gate.SUBAGENT in codes(d)


def test_headless_non_owner_is_refused(engine: Engine) -> None:
    d = assess(req(controller="headless", owns_store=False), engine.memory)
    assert d.outcome is Outcome.REFUSED
    assert codes(d) == [gate.HEADLESS_NOT_OWNER]


def test_ownership_defaults_to_false(engine: Engine) -> None:
    data = req(controller="headless")
    del data["owns_store"]
    assert codes(evaluate(data, engine.memory)) == [gate.HEADLESS_NOT_OWNER]


@pytest.mark.parametrize(
    ("data", "code"),
    [
        (req(operation="rename"), gate.INVALID_REQUEST),
        (req(controller="root"), gate.INVALID_REQUEST),
        (req(type="secret"), gate.INVALID_REQUEST),
        (req(agent=""), gate.INVALID_REQUEST),
        (req(unexpected="field"), gate.INVALID_REQUEST),
        (req(expected_revision=0), gate.INVALID_REQUEST),
        (req(body=None), gate.MISSING_FIELD),
        (req(body="  \n "), gate.MISSING_FIELD),
        (req(name=None, title=None), gate.MISSING_FIELD),
        (req(name="!!!", title=None), gate.NAME_UNDERIVABLE),
        (req(name="memory"), gate.NAME_UNDERIVABLE),
    ],
)
def test_malformed_requests_are_refused(engine: Engine, data: dict[str, Any], code: str) -> None:
    d = assess(data, engine.memory)
    assert d.outcome is Outcome.REFUSED
    assert code in codes(d)
    assert engine.memory.load().facts == []
    assert ApprovalQueue.for_layout(engine.layout).pending() == []


def test_invalid_request_reason_names_field_not_value(engine: Engine) -> None:
    d = evaluate(req(type="sk-" + "x" * 20), engine.memory)
    assert d.reasons[0].message.startswith("type:")
    assert "sk-" not in d.reasons[0].message


def test_malformed_subagent_request_lists_both(engine: Engine) -> None:
    d = evaluate(req(controller="subagent", bogus=1), engine.memory)
    assert codes(d) == [gate.SUBAGENT, gate.INVALID_REQUEST]


def test_ref_contradicting_scope_is_refused(engine: Engine) -> None:
    fact = existing(engine)
    d = evaluate(
        {
            "operation": "update",
            "controller": "interactive",
            "owns_store": True,
            "agent": "a",
            "ref": "project/release-branch.md",
            "scope": "global",
            "body": "b",
        },
        engine.memory,
    )
    assert d.outcome is Outcome.REFUSED
    assert gate.REF_SCOPE_MISMATCH in codes(d)
    # An id whose fact lives in the other scope contradicts it too.
    d = evaluate(
        {
            "operation": "forget",
            "controller": "interactive",
            "owns_store": True,
            "agent": "a",
            "id": fact.id,
            "scope": "global",
        },
        engine.memory,
    )
    assert gate.REF_SCOPE_MISMATCH in codes(d)


@pytest.mark.parametrize("with_fact", [True, False])
def test_ref_scope_mismatch_is_reported_once(engine: Engine, with_fact: bool) -> None:
    if with_fact:
        existing(engine, "test command")
    d = evaluate(req(ref="project/test-command.md", scope="global"), engine.memory)
    assert d.outcome is Outcome.REFUSED
    assert codes(d).count(gate.REF_SCOPE_MISMATCH) == 1
    assert len(codes(d)) == len(set(codes(d)))


def test_repeated_findings_share_one_reason(engine: Engine) -> None:
    existing(engine, "test command")  # project
    existing(engine, "test command", scope=Scope.GLOBAL)
    for i in range(7):
        existing(engine, f"release {i}", title=f"Release checklist {i}", description=f"zz {i}")
    d = evaluate(
        req(
            title="Release checklist",
            description="ops@example.com",
            body="ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8",
        ),
        engine.memory,
    )
    assert codes(d)[0] == gate.SENSITIVE_CONTENT
    assert sorted(codes(d)[1:]) == [gate.NAME_EXISTS, gate.POSSIBLE_DUPLICATE]  # in store order
    by_code = {r.code: r.message for r in d.reasons}
    assert (
        "description" in by_code[gate.SENSITIVE_CONTENT]
        and "body" in by_code[gate.SENSITIVE_CONTENT]
    )
    assert "project/test-command.md" in by_code[gate.NAME_EXISTS]
    assert "global/test-command.md" in by_code[gate.NAME_EXISTS]
    assert by_code[gate.POSSIBLE_DUPLICATE].endswith("; and 2 more")
    # Refusals are merged too: no body and no name is one missing_field.
    d = evaluate(req(name=None, title=None, body=None), engine.memory)
    assert codes(d) == [gate.MISSING_FIELD]
    assert "body" in d.reasons[0].message and "name" in d.reasons[0].message
    d = evaluate(req(type="secret", controller="root"), engine.memory)
    assert codes(d) == [gate.INVALID_REQUEST]


def test_merge_reasons_keeps_order_and_drops_identical_messages() -> None:
    r = gate.GateReason
    merged = gate.merge_reasons(
        [
            r(code="b", message="one"),
            r(code="a", message="x"),
            r(code="b", message="two"),
            r(code="b", message="one"),
        ]
    )
    assert [(m.code, m.message) for m in merged] == [("b", "one; two"), ("a", "x")]


_FIELD = st.one_of(
    st.none(),
    st.sampled_from(
        [
            "",
            "test command",
            "project/test-command.md",
            "global/test-command.md",
            "!!!",
            "Release branch",
        ]
    ),
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    data=st.fixed_dictionaries(
        {
            "operation": st.sampled_from(["create", "update", "forget"]),
            "controller": st.sampled_from(["interactive", "headless", "subagent", "root"]),
            "owns_store": st.booleans(),
            "agent": st.sampled_from(["a", ""]),
        },
        optional={
            "name": _FIELD,
            "title": _FIELD,
            "description": st.sampled_from(["", "notes on Release branch", "ops@example.com"]),
            "type": st.sampled_from(["project", "user", "reference", "bogus"]),
            "scope": st.sampled_from(["project", "global"]),
            "body": st.sampled_from(["", "b", "password=hunter2 ops@example.com", "x" * 6001]),
            "ref": _FIELD,
            "id": _FIELD,
            "expected_revision": st.sampled_from([0, 1, 2]),
        },
    )
)
def test_every_reason_code_at_most_once(engine: Engine, data: dict[str, Any]) -> None:
    if not engine.memory.load(persist_cache=False).facts:
        existing(engine, "test command", scope=Scope.GLOBAL)
        existing(engine)
    d = evaluate(data, engine.memory)
    assert len(d.codes) == len(set(d.codes)), d.codes


@pytest.mark.parametrize("operation", ["update", "forget"])
def test_target_must_exist(engine: Engine, operation: str) -> None:
    d = assess(
        {
            "operation": operation,
            "controller": "interactive",
            "owns_store": True,
            "agent": "a",
            "ref": "project/nope.md",
            "body": "x",
        },
        engine.memory,
    )
    assert d.outcome is Outcome.REFUSED
    assert gate.TARGET_NOT_FOUND in codes(d)


@pytest.mark.parametrize("operation", ["update", "forget"])
def test_target_is_required(engine: Engine, operation: str) -> None:
    d = evaluate(
        {
            "operation": operation,
            "controller": "interactive",
            "owns_store": True,
            "agent": "a",
            "body": "x",
        },
        engine.memory,
    )
    assert d.outcome is Outcome.REFUSED
    assert gate.MISSING_FIELD in codes(d)


def test_update_needs_a_change(engine: Engine) -> None:
    fact = existing(engine)
    d = evaluate(
        {
            "operation": "update",
            "controller": "interactive",
            "owns_store": True,
            "agent": "a",
            "id": fact.id,
        },
        engine.memory,
    )
    assert d.outcome is Outcome.REFUSED
    assert gate.MISSING_FIELD in codes(d)


def test_stale_expected_revision_is_refused(engine: Engine) -> None:
    fact = existing(engine)
    engine.memory.update(fact.id, expected_revision=1, body="person's edit")
    d = evaluate(
        {
            "operation": "update",
            "controller": "interactive",
            "owns_store": True,
            "agent": "a",
            "id": fact.id,
            "expected_revision": 1,
            "body": "agent",
        },
        engine.memory,
    )
    assert d.outcome is Outcome.REFUSED
    assert gate.REVISION_CONFLICT in codes(d)


def test_body_larger_than_a_fact_file_is_refused(engine: Engine) -> None:
    d = evaluate(req(body="x" * (gate.MAX_BODY_BYTES + 1)), engine.memory)
    assert d.outcome is Outcome.REFUSED
    assert gate.BODY_TOO_LARGE in codes(d)


def test_request_model_is_strict() -> None:
    r = GateRequest(operation="create", controller="headless", agent="x")  # type: ignore[arg-type]
    assert r.owns_store is False
    with pytest.raises(ValueError):
        GateRequest(operation="create", controller="headless", agent="x", extra=1)  # type: ignore[call-arg,arg-type]


def test_public_dict_never_carries_a_queued_body(engine: Engine) -> None:
    d = assess(req(type="user", body="secret-ish body text"), engine.memory)
    text = json.dumps(d.public_dict())
    assert "secret-ish body text" not in text
    assert d.public_dict()["pending_id"] == d.pending_id


# --------------------------------------------------------------------------- create-only at the store


def test_name_taken_between_evaluation_and_write_fails_without_overwriting(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    real_evaluate = gate.evaluate

    def evaluate_then_race(*args: Any, **kwargs: Any) -> gate.GateDecision:
        decision = real_evaluate(*args, **kwargs)
        # Another writer takes the name after the gate looked.
        other = Engine(home=engine.home, workspace=engine.workspace)
        other.memory.create(
            name="test command", type=FactType.PROJECT, body="the other writer's body"
        )
        return decision

    monkeypatch.setattr(gate, "evaluate", evaluate_then_race)
    d = assess(req(), engine.memory)
    assert d.outcome is Outcome.REFUSED
    assert codes(d) == [gate.CREATE_CONFLICT]
    assert engine.memory.resolve("project/test-command.md").fact.body == "the other writer's body"


RACER = r"""
import json, sys, time
from context_center.engine.facade import Engine
from context_center.engine.gate.decision import assess
home, ws, tag, start = sys.argv[1:5]
engine = Engine(home=home, workspace=ws)
request = {"operation": "create", "controller": "headless", "owns_store": True, "agent": tag,
           "name": "shared name", "title": "Shared name", "description": "a race",
           "type": "project", "body": "written by " + tag}
while time.time() < float(start):
    time.sleep(0.001)
d = assess(request, engine.memory)
print(json.dumps({"outcome": d.outcome.value, "codes": d.codes}))
"""


@pytest.mark.slow
def test_concurrent_auto_creates_apply_exactly_once(home: Path, workspace: Path) -> None:
    start = time.time() + 1.5
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RACER, str(home), str(workspace), f"agent-{i}", str(start)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for i in range(6)
    ]
    results = []
    for proc in procs:
        out, err = proc.communicate(timeout=60)
        assert proc.returncode == 0, err
        results.append(json.loads(out))
    applied = [r for r in results if r["outcome"] == "applied"]
    assert len(applied) == 1, results
    for r in results:
        if r["outcome"] != "applied":
            # Lost the race at the store (create-only) or saw the winner's fact (name taken).
            assert r["codes"] in (["create_conflict"], ["name_exists"]), r
    engine = Engine(home=home, workspace=workspace)
    [fact] = engine.open().facts
    assert fact.revision == 1
    assert fact.body.startswith("written by agent-")
    assert not list((engine.layout.project_store / ".revisions").glob("*/*"))  # never replaced


# --------------------------------------------------------------------------- the code sets


def test_every_code_is_in_exactly_one_set() -> None:
    from context_center.engine.gate import reasons

    codes = {
        value
        for name, value in vars(reasons).items()
        if name.isupper() and isinstance(value, str) and not name.startswith("_")
    }
    assert codes == reasons.REFUSAL_CODES | reasons.QUEUE_CODES
    assert not reasons.REFUSAL_CODES & reasons.QUEUE_CODES


def test_the_outcome_follows_the_codes_and_an_unknown_code_fails_closed() -> None:
    from context_center.engine.gate.reasons import outcome_of, reason

    assert outcome_of([]) is Outcome.APPLIED
    assert outcome_of([reason(gate.GLOBAL_SCOPE, "x")]) is Outcome.QUEUED
    assert (
        outcome_of([reason(gate.GLOBAL_SCOPE, "x"), reason(gate.SUBAGENT, "y")]) is Outcome.REFUSED
    )
    assert outcome_of([reason("a_code_nobody_knows", "z")]) is Outcome.REFUSED


def test_refusals_come_first_whatever_order_they_were_found_in(engine: Engine) -> None:
    d = evaluate(
        req(controller="interactive", owns_store=False, type="user", body=""), engine.memory
    )
    assert d.outcome is Outcome.REFUSED
    assert codes(d) == [gate.MISSING_FIELD, gate.NOT_STORE_OWNER, gate.TYPE_NEEDS_CONFIRMATION]


def test_the_queue_module_does_not_import_the_gate() -> None:
    """approvals ⇄ decision was an import cycle; the queue now needs only the gate's types."""
    script = (
        "import sys, context_center.engine.gate.approvals\n"
        "print('context_center.engine.gate.decision' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == "False"


def test_a_create_proposal_is_typed_and_keeps_an_implicit_type(engine: Engine) -> None:
    d = evaluate(req(type=...), engine.memory)
    assert d.proposal is not None
    content = d.proposal.content
    assert content.type is None and content.fact_type is FactType.PROJECT
    assert content.given() == {
        "name": "test-command",
        "title": "Test command",
        "description": "how the suite is run",
        "type": None,
        "scope": "project",
        "body": "Run the tests with `pytest -q` from the repository root.",
    }
