"""The gate's change path: an update or a forget of an existing fact, which always waits for a
person. It finds the target, checks the scope and the expected revision, and proposes the
change bound to the revision (and content hash) it was based on."""

from __future__ import annotations

from typing import Any

from context_center.engine.errors import EngineError, InvalidName, NotFound
from context_center.engine.gate import reasons as rc
from context_center.engine.gate.checks import (
    content_reasons,
    duplicate_reasons,
    target_text,
    text,
)
from context_center.engine.gate.create import checked_name
from context_center.engine.gate.proposal import (
    GateRequest,
    Operation,
    ProposedContent,
    ProposedWrite,
)
from context_center.engine.gate.reasons import GateReason, reason
from context_center.engine.kinds import Scope
from context_center.engine.store.factstore import Entry
from context_center.engine.store.memory import Memory
from context_center.engine.store.paths import slugify


def _find_target(
    req: GateRequest, operation: Operation, memory: Memory
) -> tuple[Entry | None, list[GateReason]]:
    """The fact the change names: by id or ref, or (an update with only a name and an
    expected revision) by that name."""
    ref = target_text(req)
    if not ref and not (operation is Operation.UPDATE and text(req.name)):
        return None, [reason(rc.MISSING_FIELD, f"{operation.value} needs the fact's id or ref")]
    try:
        memory.load(persist_cache=False)
        return memory.resolve(ref or slugify(text(req.name))), []
    except NotFound as exc:
        return None, [reason(rc.TARGET_NOT_FOUND, str(exc))]
    except EngineError as exc:
        return None, [reason(rc.INVALID_REQUEST, str(exc))]


def _scope_reasons(req: GateRequest, target: Entry, ref_contradicted: bool) -> list[GateReason]:
    fact = target.fact
    if req.scope is None or fact.scope is req.scope or ref_contradicted:
        return []  # a contradicting reference was already reported about the reference itself
    return [
        reason(
            rc.REF_SCOPE_MISMATCH,
            f"{fact.ref} is a {fact.scope.value} fact but scope {req.scope.value!r} was given",
        )
    ]


def _changed_fields(
    req: GateRequest, target: Entry | None
) -> tuple[dict[str, Any], list[GateReason]]:
    """The fields an update gives (text stripped, the name made into a file name); a name
    equal to the target's own is no change."""
    content: dict[str, Any] = {}
    out: list[GateReason] = []
    for key in ("name", "title", "description", "body"):
        value = getattr(req, key)
        if value is not None:
            content[key] = value if key == "body" else value.strip()
    if req.type is not None:
        content["type"] = req.type
    if "name" in content:
        try:
            content["name"] = checked_name(content["name"])
        except InvalidName as exc:
            out.append(reason(rc.NAME_UNDERIVABLE, f"a file name cannot be derived: {exc}"))
    if target is not None and content.get("name") == target.fact.name:
        content.pop("name")
    if not content:
        out.append(reason(rc.MISSING_FIELD, "an update needs at least one changed field"))
    return content, out


def _update_reasons(
    req: GateRequest, memory: Memory, target: Entry | None, budget_chars: int
) -> tuple[ProposedContent, list[GateReason]]:
    content, out = _changed_fields(req, target)
    out.extend(content_reasons(req, req.body or "", budget_chars))
    title, description = text(req.title), text(req.description)
    if target is not None and (title or description or "name" in content):
        out.extend(
            duplicate_reasons(
                memory.view(),
                name=content.get("name"),
                title=title,
                description=description,
                exclude_id=target.fact.id,
            )
        )
    return ProposedContent(**content), out


def _base_reasons(req: GateRequest, target: Entry) -> list[GateReason]:
    fact = target.fact
    out: list[GateReason] = []
    if fact.scope is Scope.GLOBAL:
        out.append(reason(rc.GLOBAL_SCOPE, "global memory requires confirmation"))
    if req.expected_revision is not None and req.expected_revision != fact.revision:
        out.append(
            reason(
                rc.REVISION_CONFLICT,
                f"expected revision {req.expected_revision} but {fact.ref} is at "
                f"revision {fact.revision}; read it again",
            )
        )
    return out


def evaluate_change(
    req: GateRequest,
    operation: Operation,
    memory: Memory,
    budget_chars: int,
    *,
    ref_contradicted: bool,
) -> tuple[list[GateReason], ProposedWrite | None]:
    """(reasons, proposal) of an update or forget; no proposal without a target."""
    if operation is Operation.UPDATE:
        out = [reason(rc.UPDATE_NEEDS_CONFIRMATION, "memory updates require confirmation")]
    else:
        out = [reason(rc.FORGET_NEEDS_CONFIRMATION, "forgetting a fact requires confirmation")]
    target, found = _find_target(req, operation, memory)
    out.extend(found)
    if target is not None:
        out.extend(_scope_reasons(req, target, ref_contradicted))
    content = ProposedContent()
    if operation is Operation.UPDATE:
        content, changes = _update_reasons(req, memory, target, budget_chars)
        out.extend(changes)
    if target is None:
        return out, None
    out.extend(_base_reasons(req, target))
    base = req.expected_revision or target.fact.revision
    proposal = ProposedWrite(
        operation=operation,
        content=content,
        target_id=target.fact.id,
        target_ref=target.fact.ref,
        base_revision=base,
        base_sha256=target.sha256 if base == target.fact.revision else None,
    )
    return out, proposal
