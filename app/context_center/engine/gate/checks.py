"""The gate's checks that a create and an update share: who asks, the request's shape, the
content (budget, sensitive text) and possible duplicates. Each returns reasons; none writes.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError

from context_center.engine.gate import reasons as rc
from context_center.engine.gate.control import describe_controls
from context_center.engine.gate.overlap import phrases_overlap
from context_center.engine.gate.proposal import Controller, GateRequest, Operation
from context_center.engine.gate.reasons import GateReason, reason
from context_center.engine.gate.secrets import KINDS, find_sensitive
from context_center.engine.kinds import Scope
from context_center.engine.store.factfile import MAX_FILE_BYTES
from context_center.engine.store.keys import name_key
from context_center.engine.store.memory import Memory, MemoryView

AUTO_WRITE_BUDGET_CHARS = 6000
# Room the front matter needs in a fact file; a body that cannot fit is refused outright.
_FRONT_MATTER_ALLOWANCE = 16 * 1024
MAX_BODY_BYTES = MAX_FILE_BYTES - _FRONT_MATTER_ALLOWANCE

_REF = re.compile(r"^(?P<scope>project|global)/")


def text(value: str | None) -> str:
    return (value or "").strip()


def target_text(req: GateRequest) -> str:
    """The fact an update or forget names: its id, else its reference."""
    return text(req.id) or text(req.ref)


# --------------------------------------------------------------------------- the request


def _validation_reasons(exc: ValidationError) -> list[GateReason]:
    """Name the fields that are wrong, never their values (they may be secrets)."""
    out = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "request"
        out.append(reason(rc.INVALID_REQUEST, f"{where}: {err['msg']}"))
    return out


def parse_request(data: GateRequest | Mapping[str, Any]) -> GateRequest | list[GateReason]:
    if isinstance(data, GateRequest):
        return data
    try:
        return GateRequest.model_validate(dict(data))
    except ValidationError as exc:
        return _validation_reasons(exc)


def caller_reasons(controller: object, owns_store: bool) -> list[GateReason]:
    """What comes from who is asking: a subagent or a headless non-owner is refused, an
    interactive non-owner is queued."""
    if controller == Controller.SUBAGENT:
        return [reason(rc.SUBAGENT, "subagents cannot write memory; the request fails closed")]
    if owns_store:
        return []
    if controller == Controller.HEADLESS:
        return [
            reason(
                rc.HEADLESS_NOT_OWNER,
                "a headless caller that does not own this project's memory store cannot write to it",
            )
        ]
    if controller == Controller.INTERACTIVE:
        return [reason(rc.NOT_STORE_OWNER, "the caller does not own this project's memory store")]
    return []


def effective_operation(req: GateRequest) -> tuple[Operation, list[GateReason]]:
    """A create that names an existing fact (id, ref or expected revision) is an update."""
    if req.operation is Operation.CREATE and (
        target_text(req) or req.expected_revision is not None
    ):
        return Operation.UPDATE, [
            reason(
                rc.NOT_PURE_CREATE,
                "the create names an existing fact (id, ref or expected revision): it is an update",
            )
        ]
    return req.operation, []


def shape_reasons(req: GateRequest) -> list[GateReason]:
    """A reference that contradicts the explicit scope; a body no fact file can hold."""
    out: list[GateReason] = []
    ref_text = text(req.ref) or text(req.id)
    m = _REF.match(ref_text)
    if m and req.scope is not None and m.group("scope") != req.scope.value:
        out.append(
            reason(
                rc.REF_SCOPE_MISMATCH,
                f"the reference {ref_text!r} is in the {m.group('scope')} store but scope "
                f"{req.scope.value!r} was given",
            )
        )
    if req.body is not None and len(req.body.encode("utf-8")) > MAX_BODY_BYTES:
        out.append(
            reason(
                rc.BODY_TOO_LARGE,
                f"the body is larger than a fact file can hold ({MAX_BODY_BYTES} bytes)",
            )
        )
    return out


# --------------------------------------------------------------------------- the content


def _sensitive_reasons(fields: Mapping[str, str | None]) -> list[GateReason]:
    out = []
    for field, value in fields.items():
        if not value:
            continue
        kinds = sorted({span.kind for span in find_sensitive(value)})
        if kinds:
            labels = ", ".join(KINDS[k] for k in kinds)
            out.append(
                reason(
                    rc.SENSITIVE_CONTENT,
                    f"the {field} may contain sensitive information: {labels}",
                )
            )
    return out


def _control_reasons(fields: Mapping[str, str | None]) -> list[GateReason]:
    """Control characters (terminal escapes, BEL, bidi overrides …) refuse the write: a
    person reviewing or reading the fact would see something other than what a model gets."""
    found = {field: describe_controls(value) for field, value in fields.items() if value}
    found = {field: kinds for field, kinds in found.items() if kinds}
    if not found:
        return []
    what = "; ".join(f"the {field}: {kinds}" for field, kinds in found.items())
    return [
        reason(
            rc.CONTROL_CHARACTERS,
            f"control characters are not allowed in memory ({what}); remove them and try again",
        )
    ]


def content_reasons(req: GateRequest, body: str, budget_chars: int) -> list[GateReason]:
    """What a create and an update share about the new content: control characters, the body
    budget, then any sensitive text in the name, title, description or body."""
    fields = {"name": req.name, "title": req.title, "description": req.description, "body": body}
    out: list[GateReason] = _control_reasons(fields)
    if len(body) > budget_chars:
        out.append(
            reason(
                rc.BODY_OVER_BUDGET,
                f"the body has {len(body)} characters; the automatic-write budget is {budget_chars}",
            )
        )
    out.extend(
        _sensitive_reasons(
            {
                "name": req.name,
                "title": req.title,
                "description": req.description,
                "body": req.body,
            }
        )
    )
    return out


def duplicate_reasons(
    view: MemoryView, *, name: str | None, title: str, description: str, exclude_id: str | None
) -> list[GateReason]:
    out: list[GateReason] = []
    for entry in view.entries:
        fact = entry.fact
        if fact.id == exclude_id:
            continue
        if name is not None and name_key(fact.name) == name:
            out.append(reason(rc.NAME_EXISTS, f"a fact named {name!r} already exists: {fact.ref}"))
            continue
        if title and phrases_overlap(title, fact.display_title):
            out.append(reason(rc.POSSIBLE_DUPLICATE, f"the title overlaps the title of {fact.ref}"))
        elif description and fact.description and phrases_overlap(description, fact.description):
            out.append(
                reason(
                    rc.POSSIBLE_DUPLICATE, f"the description overlaps the description of {fact.ref}"
                )
            )
    return out


def store_unavailable(memory: Memory, view: MemoryView) -> GateReason | None:
    try:
        memory.project.root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return reason(rc.STORE_UNAVAILABLE, f"the project store is unavailable: {exc.strerror}")
    if any(d.code == "store_unreadable" and d.scope is Scope.PROJECT for d in view.diagnostics):
        return reason(rc.STORE_UNAVAILABLE, "the project store cannot be read")
    return None
