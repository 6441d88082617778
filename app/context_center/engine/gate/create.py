"""The gate's create path: what a new fact needs to be written without a person."""

from __future__ import annotations

from context_center.engine.errors import InvalidName
from context_center.engine.gate import reasons as rc
from context_center.engine.gate.checks import (
    content_reasons,
    duplicate_reasons,
    store_unavailable,
    text,
)
from context_center.engine.gate.proposal import (
    GateRequest,
    Operation,
    ProposedContent,
    ProposedWrite,
)
from context_center.engine.gate.reasons import GateReason, reason
from context_center.engine.kinds import FactType, Scope
from context_center.engine.store.memory import Memory
from context_center.engine.store.paths import slugify


def _name(req: GateRequest) -> tuple[str | None, list[GateReason]]:
    """The file name: the given name or the title, made into a file name."""
    raw = text(req.name) or text(req.title)
    if not raw:
        return None, [reason(rc.MISSING_FIELD, "name (or a title to derive it from) is required")]
    try:
        return checked_name(raw), []
    except InvalidName as exc:
        return None, [reason(rc.NAME_UNDERIVABLE, f"a file name cannot be derived: {exc}")]


def checked_name(raw: str) -> str:
    """``slugify(raw)``, refused (``InvalidName``) when ``raw`` holds a secret or a local path:
    a fact's name becomes its ref, which every agent is shown as it is."""
    stem = slugify(raw)
    if _holds_private(raw) or _slug_holds_secret(stem):
        raise InvalidName(
            "the name holds a secret or a local path; a fact's name is its file name and is "
            "shown to agents: choose another"
        )
    return stem


def _holds_private(raw: str) -> bool:
    """Whether the provider-visible sanitizer withholds or redacts something of ``raw``."""
    from context_center.engine.gate.visible import MARKERS, WITHHELD, visible_text

    shown = visible_text(raw)
    withheld = WITHHELD.partition("{")[0]
    return any(m in shown and m not in raw for m in (*MARKERS, withheld))


def _slug_holds_secret(stem: str) -> bool:
    """Whether the file name ``stem`` spells a secret the raw name did not (``Frob glpat_…``
    becomes ``frob-glpat-…``)."""
    from context_center.engine.gate.visible import withhold_in_name

    return withhold_in_name(stem) != stem


def _kind_reasons(req: GateRequest, scope: Scope) -> list[GateReason]:
    """Only explicit project/reference facts of the project store are low-risk."""
    out: list[GateReason] = []
    if req.type is None:
        out.append(
            reason(
                rc.TYPE_IMPLICIT,
                "the type is implicit; only explicit project/reference facts are low-risk",
            )
        )
    elif req.type in (FactType.USER, FactType.FEEDBACK):
        out.append(
            reason(
                rc.TYPE_NEEDS_CONFIRMATION,
                f"{req.type.value} facts need a person's confirmation; only project/reference facts are low-risk",
            )
        )
    if scope is Scope.GLOBAL:
        out.append(reason(rc.GLOBAL_SCOPE, "global memory requires confirmation"))
    if not text(req.description):
        out.append(
            reason(
                rc.DESCRIPTION_MISSING, "description and body are required for an automatic write"
            )
        )
    return out


def evaluate_create(
    req: GateRequest, memory: Memory, budget_chars: int
) -> tuple[list[GateReason], ProposedWrite | None]:
    """(reasons, proposal) of a pure create; no proposal when no name can be had."""
    body = req.body or ""
    out: list[GateReason] = []
    if not body.strip():
        out.append(reason(rc.MISSING_FIELD, "body is required to create a fact"))
    name, name_reasons = _name(req)
    out.extend(name_reasons)
    scope = req.scope or Scope.PROJECT
    out.extend(_kind_reasons(req, scope))
    out.extend(content_reasons(req, body, budget_chars))
    if name is None:
        return out, None
    title = text(req.title) or text(req.name)
    description = text(req.description)
    view = memory.load(persist_cache=False)
    unavailable = store_unavailable(memory, view)
    if unavailable is not None:
        out.append(unavailable)
    else:
        out.extend(
            duplicate_reasons(
                view, name=name, title=title, description=description, exclude_id=None
            )
        )
    content = ProposedContent(
        name=name, title=title, description=description, type=req.type, scope=scope, body=body
    )
    return out, ProposedWrite(operation=Operation.CREATE, content=content)
