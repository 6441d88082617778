"""The write gate: what an agent's memory write (create, update, forget) may do on its own.

Every agent write gets exactly one outcome, with every reason that applies:

- ``applied`` at once — only a low-risk create: the caller owns this project's store (an
  interactive parent or a top-level headless run), the type is explicitly ``project`` or
  ``reference``, the scope is project or omitted, it is a pure create (no id, ref or expected
  revision), description and body are present, the body is within the automatic-write budget
  (6,000 characters), nothing sensitive is detected (``engine.secrets``), and no fact in either
  scope has the same name or an overlapping title or description (``engine.overlap``). The
  write goes through the store's create-only path, so if the name appeared concurrently the
  write fails (``create_conflict``) and nothing is overwritten.
- ``queued`` for a person — global facts, ``user``/``feedback`` facts, an implicit type, any
  update, possible duplicates, sensitive or over-long content, every forget, and a caller that
  does not own the store but is not refused.
- ``refused`` (fail closed) — a subagent, a headless caller that does not own the store, and
  malformed requests (invalid fields, missing fields, a ``project/…`` reference that
  contradicts an explicit scope, a target that does not exist).

A create without a ``name`` takes its name from the title (``slugify``); it is refused with
``missing_field`` when there is neither, and with ``name_underivable`` when nothing usable
remains of the name once made into a file name (only punctuation, a reserved name).

A person's own actions (the window, ``memory save``, restore, recover, accepting a suggestion)
never come through here. Reason codes are stable and part of the JSON contract; each code
appears at most once in a decision (several findings of one kind are listed in its message).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from context_center.engine.errors import AlreadyExists, EngineError, InvalidName, NotFound
from context_center.engine.gate.overlap import phrases_overlap
from context_center.engine.gate.secrets import KINDS, find_sensitive
from context_center.engine.model import Fact, FactType, Scope
from context_center.engine.store.factfile import MAX_FILE_BYTES
from context_center.engine.store.factstore import Entry
from context_center.engine.store.memory import Memory, MemoryView, name_key
from context_center.engine.store.paths import slugify

if TYPE_CHECKING:
    from context_center.engine.gate.approvals import ApprovalQueue

log = logging.getLogger(__name__)

AUTO_WRITE_BUDGET_CHARS = 6000
# Room the front matter needs in a fact file; a body that cannot fit is refused outright.
_FRONT_MATTER_ALLOWANCE = 16 * 1024
MAX_BODY_BYTES = MAX_FILE_BYTES - _FRONT_MATTER_ALLOWANCE
DEFAULT_TYPE = FactType.PROJECT  # what an implicit type becomes when a person approves it


class Operation(StrEnum):
    CREATE = "create"
    UPDATE = "update"
    FORGET = "forget"


class Controller(StrEnum):
    INTERACTIVE = "interactive"
    HEADLESS = "headless"
    SUBAGENT = "subagent"


class Outcome(StrEnum):
    APPLIED = "applied"
    QUEUED = "queued"
    REFUSED = "refused"


# --------------------------------------------------------------------------- reason codes
# Refusals (fail closed).
SUBAGENT = "subagent"
HEADLESS_NOT_OWNER = "headless_not_owner"
INVALID_REQUEST = "invalid_request"
MISSING_FIELD = "missing_field"
REF_SCOPE_MISMATCH = "ref_scope_mismatch"
NAME_UNDERIVABLE = "name_underivable"
TARGET_NOT_FOUND = "target_not_found"
BODY_TOO_LARGE = "body_too_large"
CREATE_CONFLICT = "create_conflict"
REVISION_CONFLICT = "revision_conflict"
# Reasons to ask a person.
NOT_STORE_OWNER = "not_store_owner"
STORE_UNAVAILABLE = "store_unavailable"
TYPE_IMPLICIT = "type_implicit"
TYPE_NEEDS_CONFIRMATION = "type_needs_confirmation"
GLOBAL_SCOPE = "global_scope"
NOT_PURE_CREATE = "not_pure_create"
UPDATE_NEEDS_CONFIRMATION = "update_needs_confirmation"
FORGET_NEEDS_CONFIRMATION = "forget_needs_confirmation"
DESCRIPTION_MISSING = "description_missing"
BODY_OVER_BUDGET = "body_over_budget"
SENSITIVE_CONTENT = "sensitive_content"
NAME_EXISTS = "name_exists"
POSSIBLE_DUPLICATE = "possible_duplicate"

REFUSAL_CODES = frozenset(
    {
        SUBAGENT,
        HEADLESS_NOT_OWNER,
        INVALID_REQUEST,
        MISSING_FIELD,
        REF_SCOPE_MISMATCH,
        NAME_UNDERIVABLE,
        TARGET_NOT_FOUND,
        BODY_TOO_LARGE,
        CREATE_CONFLICT,
        REVISION_CONFLICT,
    }
)
QUEUE_CODES = frozenset(
    {
        NOT_STORE_OWNER,
        STORE_UNAVAILABLE,
        TYPE_IMPLICIT,
        TYPE_NEEDS_CONFIRMATION,
        GLOBAL_SCOPE,
        NOT_PURE_CREATE,
        UPDATE_NEEDS_CONFIRMATION,
        FORGET_NEEDS_CONFIRMATION,
        DESCRIPTION_MISSING,
        BODY_OVER_BUDGET,
        SENSITIVE_CONTENT,
        NAME_EXISTS,
        POSSIBLE_DUPLICATE,
    }
)

_REF = re.compile(r"^(?P<scope>project|global)/")
_ID = re.compile(r"^(mem-[0-9a-f]{32}|legacy-[0-9a-f]{8,64})$")


class GateRequest(BaseModel):
    """One agent write as the agent asked for it. ``None`` means "not given"."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    operation: Operation
    controller: Controller
    owns_store: bool = False  # fail closed: ownership must be stated
    agent: str = Field(min_length=1, max_length=200)
    name: str | None = None
    title: str | None = None
    description: str | None = None
    type: FactType | None = None  # None = implicit
    scope: Scope | None = None
    body: str | None = None
    id: str | None = None  # the fact to change: an id …
    ref: str | None = None  # … or a reference (project/<name>.md, global/<name>.md, a name)
    expected_revision: int | None = Field(default=None, ge=1)


class GateReason(BaseModel):
    model_config = ConfigDict(frozen=True)

    code: str
    message: str


class ProposedWrite(BaseModel):
    """What would be written: the content and, for updates and forgets, the target and base."""

    model_config = ConfigDict(frozen=True)

    operation: Operation
    content: dict[str, Any] = Field(default_factory=dict)
    target_id: str | None = None
    target_ref: str | None = None
    base_revision: int | None = None
    base_sha256: str | None = None


class GateDecision(BaseModel):
    """The gate's answer. ``fact`` is set when applied; ``pending_id`` when queued."""

    model_config = ConfigDict(frozen=True)

    outcome: Outcome
    reasons: list[GateReason]
    operation: str
    agent: str
    controller: str
    proposal: ProposedWrite | None = None
    fact: Fact | None = None
    pending_id: str | None = None

    @property
    def codes(self) -> list[str]:
        return [r.code for r in self.reasons]

    def public_dict(self) -> dict[str, Any]:
        """The JSON form for the CLI: outcome, reasons, and the id or fact — never the body of
        a queued or refused write."""
        data: dict[str, Any] = {
            "outcome": self.outcome.value,
            "operation": self.operation,
            "agent": self.agent,
            "controller": self.controller,
            "reasons": [r.model_dump() for r in self.reasons],
        }
        if self.pending_id is not None:
            data["pending_id"] = self.pending_id
        if self.fact is not None:
            fact = self.fact.public_dict()
            fact.pop("body")
            data["fact"] = fact
        if self.proposal is not None and self.proposal.target_ref:
            data["target_ref"] = self.proposal.target_ref
        return data


# --------------------------------------------------------------------------- evaluation


def _reason(code: str, message: str) -> GateReason:
    return GateReason(code=code, message=message)


_MAX_MESSAGES_PER_CODE = 5


def merge_reasons(reasons: list[GateReason]) -> list[GateReason]:
    """One reason per code, in order of first appearance; the messages of a repeated code are
    joined (identical ones once), at most ``_MAX_MESSAGES_PER_CODE`` and a count of the rest."""
    messages: dict[str, list[str]] = {}
    for reason in reasons:
        seen = messages.setdefault(reason.code, [])
        if reason.message not in seen:
            seen.append(reason.message)
    out = []
    for code, texts in messages.items():
        shown = texts[:_MAX_MESSAGES_PER_CODE]
        message = "; ".join(shown)
        if len(texts) > len(shown):
            message += f"; and {len(texts) - len(shown)} more"
        out.append(_reason(code, message))
    return out


def _text(value: str | None) -> str:
    return (value or "").strip()


def _validation_reasons(exc: ValidationError) -> list[GateReason]:
    """Name the fields that are wrong, never their values (they may be secrets)."""
    out = []
    for err in exc.errors():
        where = ".".join(str(p) for p in err["loc"]) or "request"
        out.append(_reason(INVALID_REQUEST, f"{where}: {err['msg']}"))
    return out


def parse_request(data: GateRequest | Mapping[str, Any]) -> GateRequest | list[GateReason]:
    if isinstance(data, GateRequest):
        return data
    try:
        return GateRequest.model_validate(dict(data))
    except ValidationError as exc:
        return _validation_reasons(exc)


def _sensitive_reasons(fields: Mapping[str, str | None]) -> list[GateReason]:
    out = []
    for field, value in fields.items():
        if not value:
            continue
        kinds = sorted({span.kind for span in find_sensitive(value)})
        if kinds:
            labels = ", ".join(KINDS[k] for k in kinds)
            out.append(
                _reason(
                    SENSITIVE_CONTENT, f"the {field} may contain sensitive information: {labels}"
                )
            )
    return out


def _content_reasons(req: GateRequest, body: str, budget_chars: int) -> list[GateReason]:
    """What a create and an update share about the new content: the body budget, then any
    sensitive text in the name, title, description or body."""
    reasons: list[GateReason] = []
    if len(body) > budget_chars:
        reasons.append(
            _reason(
                BODY_OVER_BUDGET,
                f"the body has {len(body)} characters; the automatic-write budget is {budget_chars}",
            )
        )
    reasons.extend(
        _sensitive_reasons(
            {
                "name": req.name,
                "title": req.title,
                "description": req.description,
                "body": req.body,
            }
        )
    )
    return reasons


def _duplicate_reasons(
    view: MemoryView, *, name: str | None, title: str, description: str, exclude_id: str | None
) -> list[GateReason]:
    out: list[GateReason] = []
    for entry in view.entries:
        fact = entry.fact
        if fact.id == exclude_id:
            continue
        if name is not None and name_key(fact.name) == name:
            out.append(_reason(NAME_EXISTS, f"a fact named {name!r} already exists: {fact.ref}"))
            continue
        if title and phrases_overlap(title, fact.display_title):
            out.append(_reason(POSSIBLE_DUPLICATE, f"the title overlaps the title of {fact.ref}"))
        elif description and fact.description and phrases_overlap(description, fact.description):
            out.append(
                _reason(
                    POSSIBLE_DUPLICATE, f"the description overlaps the description of {fact.ref}"
                )
            )
    return out


def _store_unavailable(memory: Memory, view: MemoryView) -> GateReason | None:
    try:
        memory.project.root.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return _reason(STORE_UNAVAILABLE, f"the project store is unavailable: {exc.strerror}")
    if any(d.code == "store_unreadable" and d.scope is Scope.PROJECT for d in view.diagnostics):
        return _reason(STORE_UNAVAILABLE, "the project store cannot be read")
    return None


def _caller_reasons(
    controller: object, owns_store: bool
) -> tuple[list[GateReason], list[GateReason]]:
    """(refusals, reasons to queue) that come from who is asking."""
    refuse: list[GateReason] = []
    queue: list[GateReason] = []
    if controller == Controller.SUBAGENT:
        refuse.append(_reason(SUBAGENT, "subagents cannot write memory; the request fails closed"))
    elif not owns_store:
        if controller == Controller.HEADLESS:
            refuse.append(
                _reason(
                    HEADLESS_NOT_OWNER,
                    "a headless caller that does not own this project's memory store cannot write to it",
                )
            )
        elif controller == Controller.INTERACTIVE:
            queue.append(
                _reason(NOT_STORE_OWNER, "the caller does not own this project's memory store")
            )
    return refuse, queue


def _resolve_target(memory: Memory, req: GateRequest) -> Entry:
    ref = _text(req.id) or _text(req.ref)
    memory.load(persist_cache=False)
    return memory.resolve(ref)


def evaluate(
    request: GateRequest | Mapping[str, Any],
    memory: Memory,
    *,
    budget_chars: int = AUTO_WRITE_BUDGET_CHARS,
) -> GateDecision:
    """Decide without writing anything. ``outcome`` is what ``assess`` would do."""
    parsed = parse_request(request)
    if not isinstance(parsed, GateRequest):
        raw = request if isinstance(request, Mapping) else {}
        return GateDecision(
            outcome=Outcome.REFUSED,
            reasons=merge_reasons(
                _caller_reasons(raw.get("controller"), raw.get("owns_store") is True)[0] + parsed
            ),
            operation=str(raw.get("operation", "")),
            agent=str(raw.get("agent", "")),
            controller=str(raw.get("controller", "")),
        )
    req = parsed

    # Who is asking.
    refuse, queue = _caller_reasons(req.controller, req.owns_store)

    # What it asks for.
    target_given = bool(_text(req.id) or _text(req.ref))
    operation = req.operation
    if operation is Operation.CREATE and (target_given or req.expected_revision is not None):
        queue.append(
            _reason(
                NOT_PURE_CREATE,
                "the create names an existing fact (id, ref or expected revision): it is an update",
            )
        )
        operation = Operation.UPDATE
    ref_text = _text(req.ref) or _text(req.id)
    m = _REF.match(ref_text)
    if m and req.scope is not None and m.group("scope") != req.scope.value:
        refuse.append(
            _reason(
                REF_SCOPE_MISMATCH,
                f"the reference {ref_text!r} is in the {m.group('scope')} store but scope "
                f"{req.scope.value!r} was given",
            )
        )
    if req.body is not None and len(req.body.encode("utf-8")) > MAX_BODY_BYTES:
        refuse.append(
            _reason(
                BODY_TOO_LARGE,
                f"the body is larger than a fact file can hold ({MAX_BODY_BYTES} bytes)",
            )
        )

    proposal: ProposedWrite | None = None
    title, description, body = _text(req.title), _text(req.description), req.body or ""

    if operation is Operation.CREATE:
        name: str | None = None
        if not body.strip():
            refuse.append(_reason(MISSING_FIELD, "body is required to create a fact"))
        raw_name = _text(req.name) or title
        if not raw_name:
            refuse.append(_reason(MISSING_FIELD, "name (or a title to derive it from) is required"))
        else:
            try:
                name = slugify(raw_name)
            except InvalidName as exc:
                refuse.append(_reason(NAME_UNDERIVABLE, f"a file name cannot be derived: {exc}"))
        scope = req.scope or Scope.PROJECT
        if req.type is None:
            queue.append(
                _reason(
                    TYPE_IMPLICIT,
                    "the type is implicit; only explicit project/reference facts are low-risk",
                )
            )
        elif req.type in (FactType.USER, FactType.FEEDBACK):
            queue.append(
                _reason(
                    TYPE_NEEDS_CONFIRMATION,
                    f"{req.type.value} facts need a person's confirmation; only project/reference facts are low-risk",
                )
            )
        if scope is Scope.GLOBAL:
            queue.append(_reason(GLOBAL_SCOPE, "global memory requires confirmation"))
        if not description:
            queue.append(
                _reason(
                    DESCRIPTION_MISSING, "description and body are required for an automatic write"
                )
            )
        queue.extend(_content_reasons(req, body, budget_chars))
        if name is not None:
            view = memory.load(persist_cache=False)
            unavailable = _store_unavailable(memory, view)
            if unavailable is not None:
                queue.append(unavailable)
            else:
                queue.extend(
                    _duplicate_reasons(
                        view,
                        name=name,
                        title=title or _text(req.name),
                        description=description,
                        exclude_id=None,
                    )
                )
            proposal = ProposedWrite(
                operation=Operation.CREATE,
                content={
                    "name": name,
                    "title": title or _text(req.name),
                    "description": description,
                    "type": req.type.value if req.type else None,
                    "scope": scope.value,
                    "body": body,
                },
            )
    else:
        if operation is Operation.UPDATE:
            queue.append(_reason(UPDATE_NEEDS_CONFIRMATION, "memory updates require confirmation"))
        else:
            queue.append(
                _reason(FORGET_NEEDS_CONFIRMATION, "forgetting a fact requires confirmation")
            )
        target: Entry | None = None
        if not target_given:
            if operation is Operation.UPDATE and _text(req.name):
                target_given = True  # a create with expected_revision: the fact of that name
            else:
                refuse.append(
                    _reason(MISSING_FIELD, f"{operation.value} needs the fact's id or ref")
                )
        if target_given:
            try:
                target = (
                    _resolve_target(memory, req)
                    if (_text(req.id) or _text(req.ref))
                    else _resolve_by_name(memory, _text(req.name))
                )
            except NotFound as exc:
                refuse.append(_reason(TARGET_NOT_FOUND, str(exc)))
            except EngineError as exc:
                refuse.append(_reason(INVALID_REQUEST, str(exc)))
        ref_contradicted = any(r.code == REF_SCOPE_MISMATCH for r in refuse)
        if (
            target is not None
            and req.scope is not None
            and target.fact.scope is not req.scope
            and not ref_contradicted  # already said, about the reference itself
        ):
            refuse.append(
                _reason(
                    REF_SCOPE_MISMATCH,
                    f"{target.fact.ref} is a {target.fact.scope.value} fact but scope "
                    f"{req.scope.value!r} was given",
                )
            )
        content: dict[str, Any] = {}
        if operation is Operation.UPDATE:
            for key in ("name", "title", "description", "body"):
                value = getattr(req, key)
                if value is not None:
                    content[key] = value if key == "body" else value.strip()
            if req.type is not None:
                content["type"] = req.type.value
            if "name" in content:
                try:
                    content["name"] = slugify(content["name"])
                except InvalidName as exc:
                    refuse.append(
                        _reason(NAME_UNDERIVABLE, f"a file name cannot be derived: {exc}")
                    )
            if target is not None and content.get("name") == target.fact.name:
                content.pop("name")
            if not content:
                refuse.append(_reason(MISSING_FIELD, "an update needs at least one changed field"))
            queue.extend(_content_reasons(req, body, budget_chars))
            if target is not None and (title or description or "name" in content):
                queue.extend(
                    _duplicate_reasons(
                        memory.view(),
                        name=content.get("name"),
                        title=title,
                        description=description,
                        exclude_id=target.fact.id,
                    )
                )
        if target is not None:
            if target.fact.scope is Scope.GLOBAL:
                queue.append(_reason(GLOBAL_SCOPE, "global memory requires confirmation"))
            base = req.expected_revision or target.fact.revision
            proposal = ProposedWrite(
                operation=operation,
                content=content,
                target_id=target.fact.id,
                target_ref=target.fact.ref,
                base_revision=base,
                base_sha256=target.sha256 if base == target.fact.revision else None,
            )
            if req.expected_revision is not None and req.expected_revision != target.fact.revision:
                refuse.append(
                    _reason(
                        REVISION_CONFLICT,
                        f"expected revision {req.expected_revision} but {target.fact.ref} is at "
                        f"revision {target.fact.revision}; read it again",
                    )
                )

    if refuse:
        outcome = Outcome.REFUSED
    elif queue:
        outcome = Outcome.QUEUED
    else:
        outcome = Outcome.APPLIED
    return GateDecision(
        outcome=outcome,
        reasons=merge_reasons(refuse + queue),
        operation=operation.value,
        agent=req.agent,
        controller=req.controller.value,
        proposal=proposal,
    )


def _resolve_by_name(memory: Memory, name: str) -> Entry:
    memory.load(persist_cache=False)
    return memory.resolve(slugify(name))


def assess(
    request: GateRequest | Mapping[str, Any],
    memory: Memory,
    *,
    queue: ApprovalQueue | None = None,
    budget_chars: int = AUTO_WRITE_BUDGET_CHARS,
) -> GateDecision:
    """Evaluate an agent's write and act on it: apply the low-risk create, queue the rest for a
    person (``queue`` defaults to the home's approval queue), or refuse."""
    from context_center.engine.gate.approvals import ApprovalQueue

    decision = evaluate(request, memory, budget_chars=budget_chars)
    queue = queue or ApprovalQueue.for_layout(memory.layout)
    if decision.outcome is Outcome.APPLIED:
        assert decision.proposal is not None
        c = decision.proposal.content
        try:
            fact = memory.create(
                name=c["name"],
                title=c["title"],
                description=c["description"],
                type=FactType(c["type"]),
                scope=Scope(c["scope"]),
                body=c["body"],
            )
        except AlreadyExists as exc:
            decision = decision.model_copy(
                update={
                    "outcome": Outcome.REFUSED,
                    "reasons": [
                        _reason(
                            CREATE_CONFLICT,
                            f"{exc} (it appeared while the write was assessed; automatic writes "
                            "are create-only, nothing was overwritten)",
                        )
                    ],
                }
            )
        else:
            decision = decision.model_copy(update={"fact": fact})
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
