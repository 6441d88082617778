"""The write gate: what an agent's memory write (create, update, forget) may do on its own.

Every agent write gets exactly one outcome, with every reason that applies:

- ``applied`` at once — only a low-risk create: the caller owns this project's store (an
  interactive parent or a top-level headless run), the type is explicitly ``project`` or
  ``reference``, the scope is project or omitted, it is a pure create (no id, ref or expected
  revision), description and body are present, the body is within the automatic-write budget
  (6,000 characters), nothing sensitive is detected (``gate.secrets``), and no fact in either
  scope has the same name or an overlapping title or description (``gate.overlap``). The
  write goes through the store's create-only path, so if the name appeared concurrently the
  write fails (``create_conflict``) and nothing is overwritten.
- ``queued`` for a person — global facts, ``user``/``feedback`` facts, an implicit type, any
  update, possible duplicates, sensitive or over-long content, every forget, and a caller that
  does not own the store but is not refused.
- ``refused`` (fail closed) — a subagent, a headless caller that does not own the store, and
  malformed requests (invalid fields, missing fields, a ``project/…`` reference that
  contradicts an explicit scope, a target that does not exist).

The outcome is derived from the reason codes alone (``gate.reasons.outcome_of``). The checks
live in ``gate.checks`` (shared), ``gate.create`` and ``gate.update`` (update and forget).

A create without a ``name`` takes its name from the title (``slugify``); it is refused with
``missing_field`` when there is neither, and with ``name_underivable`` when nothing usable
remains of the name once made into a file name (only punctuation, a reserved name).

A person's own actions (the window, ``memory save``, restore, recover, accepting a suggestion)
never come through here. Reason codes are stable and part of the JSON contract; each code
appears at most once in a decision (several findings of one kind are listed in its message).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from context_center.engine.errors import AlreadyExists, EngineError
from context_center.engine.gate import reasons as rc
from context_center.engine.gate.approvals import ApprovalQueue
from context_center.engine.gate.checks import (
    AUTO_WRITE_BUDGET_CHARS,
    MAX_BODY_BYTES,
    caller_reasons,
    effective_operation,
    parse_request,
    shape_reasons,
)
from context_center.engine.gate.create import evaluate_create
from context_center.engine.gate.proposal import (
    DEFAULT_TYPE,
    Controller,
    GateDecision,
    GateRequest,
    Operation,
    ProposedContent,
    ProposedWrite,
)
from context_center.engine.gate.reasons import (
    BODY_OVER_BUDGET,
    BODY_TOO_LARGE,
    CREATE_CONFLICT,
    DESCRIPTION_MISSING,
    FORGET_NEEDS_CONFIRMATION,
    GLOBAL_SCOPE,
    HEADLESS_NOT_OWNER,
    INVALID_REQUEST,
    MISSING_FIELD,
    NAME_EXISTS,
    NAME_UNDERIVABLE,
    NOT_PURE_CREATE,
    NOT_STORE_OWNER,
    POSSIBLE_DUPLICATE,
    QUEUE_CODES,
    REF_SCOPE_MISMATCH,
    REFUSAL_CODES,
    REVISION_CONFLICT,
    SENSITIVE_CONTENT,
    STORE_UNAVAILABLE,
    SUBAGENT,
    TARGET_NOT_FOUND,
    TYPE_IMPLICIT,
    TYPE_NEEDS_CONFIRMATION,
    UPDATE_NEEDS_CONFIRMATION,
    GateReason,
    Outcome,
    merge_reasons,
    outcome_of,
    reason,
)
from context_center.engine.gate.update import evaluate_change
from context_center.engine.store.memory import Memory

__all__ = [
    "AUTO_WRITE_BUDGET_CHARS",
    "BODY_OVER_BUDGET",
    "BODY_TOO_LARGE",
    "CREATE_CONFLICT",
    "DEFAULT_TYPE",
    "DESCRIPTION_MISSING",
    "FORGET_NEEDS_CONFIRMATION",
    "GLOBAL_SCOPE",
    "HEADLESS_NOT_OWNER",
    "INVALID_REQUEST",
    "MAX_BODY_BYTES",
    "MISSING_FIELD",
    "NAME_EXISTS",
    "NAME_UNDERIVABLE",
    "NOT_PURE_CREATE",
    "NOT_STORE_OWNER",
    "POSSIBLE_DUPLICATE",
    "QUEUE_CODES",
    "REFUSAL_CODES",
    "REF_SCOPE_MISMATCH",
    "REVISION_CONFLICT",
    "SENSITIVE_CONTENT",
    "STORE_UNAVAILABLE",
    "SUBAGENT",
    "TARGET_NOT_FOUND",
    "TYPE_IMPLICIT",
    "TYPE_NEEDS_CONFIRMATION",
    "UPDATE_NEEDS_CONFIRMATION",
    "Controller",
    "GateDecision",
    "GateReason",
    "GateRequest",
    "Operation",
    "Outcome",
    "ProposedContent",
    "ProposedWrite",
    "assess",
    "evaluate",
    "merge_reasons",
    "parse_request",
]

log = logging.getLogger(__name__)


def _malformed(
    request: GateRequest | Mapping[str, Any], problems: list[GateReason]
) -> GateDecision:
    """A request that does not parse is refused, with what its caller fields already say."""
    raw = request if isinstance(request, Mapping) else {}
    caller = caller_reasons(raw.get("controller"), raw.get("owns_store") is True)
    return GateDecision(
        outcome=Outcome.REFUSED,
        reasons=merge_reasons([r for r in caller if rc.refuses(r.code)] + problems),
        operation=str(raw.get("operation", "")),
        agent=str(raw.get("agent", "")),
        controller=str(raw.get("controller", "")),
    )


def evaluate(
    request: GateRequest | Mapping[str, Any],
    memory: Memory,
    *,
    budget_chars: int = AUTO_WRITE_BUDGET_CHARS,
) -> GateDecision:
    """Decide without writing anything. ``outcome`` is what ``assess`` would do."""
    req = parse_request(request)
    if not isinstance(req, GateRequest):
        return _malformed(request, req)
    found = caller_reasons(req.controller, req.owns_store)
    operation, converted = effective_operation(req)
    found += converted
    found += shape_reasons(req)
    if operation is Operation.CREATE:
        more, proposal = evaluate_create(req, memory, budget_chars)
    else:
        contradicted = any(r.code == rc.REF_SCOPE_MISMATCH for r in found)
        more, proposal = evaluate_change(
            req, operation, memory, budget_chars, ref_contradicted=contradicted
        )
    found += more
    return GateDecision(
        outcome=outcome_of(found),
        reasons=merge_reasons(found),
        operation=operation.value,
        agent=req.agent,
        controller=req.controller.value,
        proposal=proposal,
    )


def apply_low_risk(decision: GateDecision, memory: Memory) -> GateDecision:
    """Write the low-risk create through the store's create-only path."""
    assert decision.proposal is not None
    c = decision.proposal.content
    try:
        fact = memory.create(
            name=c.name or "",
            title=c.title or "",
            description=c.description or "",
            type=c.fact_type,
            scope=c.fact_scope,
            body=c.body or "",
        )
    except AlreadyExists as exc:
        return decision.model_copy(
            update={
                "outcome": Outcome.REFUSED,
                "reasons": [
                    reason(
                        CREATE_CONFLICT,
                        f"{exc} (it appeared while the write was assessed; automatic writes "
                        "are create-only, nothing was overwritten)",
                    )
                ],
            }
        )
    return decision.model_copy(update={"fact": fact})


def assess(
    request: GateRequest | Mapping[str, Any],
    memory: Memory,
    *,
    queue: ApprovalQueue | None = None,
    budget_chars: int = AUTO_WRITE_BUDGET_CHARS,
) -> GateDecision:
    """Evaluate an agent's write and act on it: apply the low-risk create, queue the rest for a
    person (``queue`` defaults to the home's approval queue), or refuse."""
    decision = evaluate(request, memory, budget_chars=budget_chars)
    queue = queue or ApprovalQueue.for_layout(memory.layout)
    if decision.outcome is Outcome.APPLIED:
        decision = apply_low_risk(decision, memory)
    elif decision.outcome is Outcome.QUEUED:
        assert decision.proposal is not None
        record = queue.enqueue(
            proposal=decision.proposal,
            agent=decision.agent,
            controller=Controller(decision.controller),
            workspace=memory.layout.workspace,
            reasons=decision.reasons,
        )
        decision = decision.model_copy(update={"pending_id": record.id})
    try:
        queue.audit_gate(decision, workspace=memory.layout.workspace)
    except (EngineError, OSError) as exc:  # the outcome stands; a missing audit line is logged
        log.warning(
            "could not record the gate's %s outcome in the audit log: %s",
            decision.outcome.value,
            exc,
        )
    return decision
