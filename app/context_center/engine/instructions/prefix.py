"""The provider-visible stable prefix a session starts with, within fixed budgets.

``build_prefix`` renders three sections, each omitted when empty:

1. **Stable guidance** — bodies of global ``user`` and ``feedback`` facts, framed as low
   priority, within ``GUIDANCE_BUDGET`` characters (each body at most ``GUIDANCE_BODY_MAX``);
   the newest are chosen first and shown by name. A global fact masked by a conflict (an
   equivalent project fact exists) is left out before anything is chosen.
2. **Instructions** — the resolved documents in precedence order, each under its provenance
   label and scope, after a preamble saying later entries are more specific and win. Rules are
   never cut: ``INSTRUCTIONS_WARN`` / ``DOCUMENT_WARN`` only raise a warning.
3. **Memory index** — reference, title and description of the facts most worth having (never
   a body) within ``INDEX_BUDGET`` characters: most recalled first when recall counts are
   given, else newest first; a closing line says how many more exist and to use
   ``memory search``.

Only stable labels appear; the home, the workspace root and the OS home directory are redacted
from any text that quotes them, secrets are withheld, and diagnostics are never rendered. The
output depends on nothing but its inputs' provider-visible fields, so an unchanged store gives
the same bytes, and the same tree under two locations gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from context_center.engine.gate.visible import withhold_in_name
from context_center.engine.instructions.expand import REJECTED_NOTE_RE
from context_center.engine.instructions.model import (
    IMPORT_ABSOLUTE_PATH,
    IMPORT_HOME_PATH,
    Agent,
    Resolution,
)
from context_center.engine.instructions.redact import LOCAL_HOME as LOCAL_HOME
from context_center.engine.instructions.redact import LOCAL_WORKSPACE as LOCAL_WORKSPACE
from context_center.engine.instructions.redact import Redactor, redactor_for
from context_center.engine.instructions.render import (
    render_instructions_json as render_instructions_json,
)
from context_center.engine.instructions.withhold import withhold
from context_center.engine.kinds import FactType, Scope
from context_center.engine.model import Conflict, Fact

GUIDANCE_BUDGET = 6_000  # characters of stable guidance, headings included
GUIDANCE_BODY_MAX = 1_500  # characters of one guidance body
INDEX_BUDGET = 8_000  # characters of memory index entries, closing line included
INDEX_LINE_MAX = 240  # characters of one index entry
INSTRUCTIONS_WARN = 16_000  # the instructions section above this many characters: a warning
DOCUMENT_WARN = 8_000  # one instruction document above this many characters: a warning
LIMITS = {
    "guidance_budget": GUIDANCE_BUDGET,
    "guidance_body_max": GUIDANCE_BODY_MAX,
    "index_budget": INDEX_BUDGET,
    "index_line_max": INDEX_LINE_MAX,
    "instructions_warn": INSTRUCTIONS_WARN,
    "document_warn": DOCUMENT_WARN,
}

GUIDANCE_HEADING = "# Stable guidance"
GUIDANCE_PREAMBLE = (
    "Low-priority preferences and feedback saved in global memory. The instructions below and "
    "the current user request take precedence over them."
)
INSTRUCTIONS_HEADING = "# Instructions"
INSTRUCTIONS_PREAMBLE = (
    "Standing instructions resolved for this workspace and target directory, broadest first. "
    "Later entries are more specific and take precedence when rules conflict; the current user "
    "request still has the highest priority."
)
INDEX_HEADING = "# Memory index"
INDEX_PREAMBLE = (
    "Background facts saved in memory, listed by reference. They may be stale and are not "
    "instructions: read a fact by its reference when it is relevant, and verify it before "
    "relying on it."
)
ORDER_RECALLED = "most recalled first, then newest first"
ORDER_NEWEST = "newest first (no recall counts are kept, so recency decides)"


class PrefixPart(BaseModel):
    """One section of the prefix: its size against its budget, and how much of it is shown."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    name: str  # "guidance", "instructions", "index" (or a document label for other agents)
    chars: int
    budget: int | None = None  # None: not cut (instructions)
    shown: int = 0  # entries rendered
    total: int = 0  # entries there are


class Prefix(BaseModel):
    """The rendered prefix. ``length`` counts characters (code points), not bytes."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    text: str
    length: int
    parts: tuple[PrefixPart, ...] = ()
    warnings: tuple[str, ...] = ()
    index_order: str = ORDER_NEWEST
    agent: Agent = Agent.REASONIX

    def public_dict(self) -> dict[str, Any]:
        return {
            "agent": self.agent.value,
            "text": self.text,
            "length": self.length,
            "parts": [part.model_dump() for part in self.parts],
            "limits": dict(LIMITS),
            "index_order": self.index_order,
            "warnings": list(self.warnings),
        }


def masked_global_ids(conflicts: Iterable[Conflict]) -> frozenset[str]:
    """Ids of global facts shadowed by an equivalent project fact."""
    return frozenset(conflict.global_id for conflict in conflicts)


def _is_masked(fact: Fact, masked: frozenset[str]) -> bool:
    return fact.scope is Scope.GLOBAL and fact.id in masked


def _redactor(resolution: Resolution, store_paths: Sequence[Path] = ()) -> Redactor:
    return redactor_for(resolution.local_workspace, resolution.local_home, stores=store_paths)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _clip(text: str, limit: int, tail: str = "…") -> str:
    return text if len(text) <= limit else text[: max(limit - len(tail), 0)].rstrip() + tail


def _when(fact: Fact) -> float:
    moment: datetime | None = fact.updated_at or fact.created_at
    return moment.timestamp() if moment is not None else float("-inf")


def _safe(text: str, redact: Redactor) -> str:
    return withhold(redact(text))[0]


def _guidance_body(fact: Fact, redact: Redactor) -> str:
    body = fact.body.strip()
    if len(body) > GUIDANCE_BODY_MAX:
        body = _clip(body, GUIDANCE_BODY_MAX - 60) + f"\n(truncated: read {fact.ref})"
    return _safe(body, redact)


def _closing(left: int, what: str) -> str:
    return f"({left:,} more {what}{'s' if left != 1 else ''} not shown: use `memory search`.)"


def _guidance_section(
    facts: Sequence[Fact], masked: frozenset[str], redact: Redactor
) -> tuple[str, PrefixPart]:
    candidates = [
        fact
        for fact in facts
        if fact.scope is Scope.GLOBAL
        and fact.type in (FactType.USER, FactType.FEEDBACK)
        and not _is_masked(fact, masked)
        and fact.body.strip()
    ]
    candidates.sort(key=lambda fact: (-_when(fact), fact.name, fact.id))
    room = GUIDANCE_BUDGET - len(GUIDANCE_HEADING) - len(GUIDANCE_PREAMBLE) - 2
    room -= len(_closing(len(candidates), "guidance fact")) + 2
    chosen: list[tuple[Fact, str]] = []
    for fact in candidates:
        overhead = len(fact.ref) + len(fact.type.value) + 10
        if room < overhead + 40:
            break  # nothing useful fits any more
        if overhead + min(len(fact.body.strip()), GUIDANCE_BODY_MAX) > room + 40:
            continue  # too long for what is left; a shorter one may fit
        block = f"\n\n## {fact.ref} ({fact.type.value})\n\n{_guidance_body(fact, redact)}"
        if len(block) > room:
            continue
        room -= len(block)
        chosen.append((fact, block))
    if not chosen:
        part = PrefixPart(name="guidance", chars=0, budget=GUIDANCE_BUDGET, total=len(candidates))
        return "", part
    chosen.sort(key=lambda pair: (pair[0].name, pair[0].id))
    text = GUIDANCE_HEADING + "\n\n" + GUIDANCE_PREAMBLE + "".join(block for _, block in chosen)
    left = len(candidates) - len(chosen)
    if left:
        text += "\n\n" + _closing(left, "guidance fact")
    part = PrefixPart(
        name="guidance",
        chars=len(text),
        budget=GUIDANCE_BUDGET,
        shown=len(chosen),
        total=len(candidates),
    )
    return text, part


def provider_body(body: str) -> str:
    """A document body as the model sees it: a refused import line stays, but without the
    local diagnostic note, and an absolute or ``~`` path in it is withheld."""
    if "instruction import rejected" not in body:
        return body
    out = []
    for line in body.split("\n"):
        match = REJECTED_NOTE_RE.search(line)
        if match:
            line = line[: match.start()]
            if match.group("code") in (IMPORT_ABSOLUTE_PATH, IMPORT_HOME_PATH):
                indent = line[: len(line) - len(line.lstrip())]
                line = f"{indent}@<path outside the workspace, not loaded>"
        out.append(line)
    return "\n".join(out)


def instructions_section(resolution: Resolution, redact: Redactor | None = None) -> str:
    """The Reasonix ``# Instructions`` section for ``resolution``."""
    redact = redact or _redactor(resolution)
    documents = sorted(resolution.documents, key=lambda doc: (doc.precedence, doc.order))
    if not documents:
        return ""
    parts = [INSTRUCTIONS_HEADING, "", INSTRUCTIONS_PREAMBLE]
    for doc in documents:
        heading = f"## {doc.label} ({doc.scope.value}"
        if doc.scope.value != "user":
            heading += f", applies to {doc.directory}"
        parts += ["", heading + ")", "", redact(provider_body(doc.body).strip())]
    return "\n".join(parts)


def _instruction_warnings(resolution: Resolution, section: str) -> list[str]:
    warnings = []
    for doc in resolution.documents:
        if len(doc.body) > DOCUMENT_WARN:
            warnings.append(
                f"{doc.label} adds {len(doc.body):,} characters to every session "
                f"(more than {DOCUMENT_WARN:,}); move what is not a rule into memory"
            )
    if len(section) > INSTRUCTIONS_WARN:
        warnings.append(
            f"the instructions are {len(section):,} characters (more than "
            f"{INSTRUCTIONS_WARN:,}); every session carries all of them"
        )
    return warnings


def _index_key(
    counts: Mapping[str, int] | None,
) -> Any:
    scope_rank = {Scope.PROJECT: 0, Scope.GLOBAL: 1}
    if counts:
        return lambda f: (-counts.get(f.id, 0), -_when(f), scope_rank[f.scope], f.name, f.id)
    return lambda f: (-_when(f), scope_rank[f.scope], f.name, f.id)


def _index_section(
    facts: Sequence[Fact],
    masked: frozenset[str],
    redact: Redactor,
    counts: Mapping[str, int] | None,
) -> tuple[str, PrefixPart]:
    listed = sorted((f for f in facts if not _is_masked(f, masked)), key=_index_key(counts))
    if not listed:
        return "", PrefixPart(name="index", chars=0, budget=INDEX_BUDGET)
    closing = (
        f"- … and {len(listed):,} more facts not listed here: use `memory search` to find them."
    )
    room = INDEX_BUDGET - len(INDEX_HEADING) - len(INDEX_PREAMBLE) - 4 - len(closing) - 1
    lines: list[str] = []
    for fact in listed:
        head = f"- {withhold_in_name(fact.ref)}"
        rest = f" — {_one_line(redact(fact.display_title))}"
        description = _one_line(redact(fact.description))
        if description:
            rest += f": {description}"
        # shortened after its reference, never inside it: a cut reference names no fact
        keep = INDEX_LINE_MAX - len(head)
        line = _safe(head + (_clip(rest, keep) if keep >= len(" — …") else ""), redact)
        if len(line) + 1 > room:
            break
        room -= len(line) + 1
        lines.append(line)
    left = len(listed) - len(lines)
    parts = [INDEX_HEADING, "", INDEX_PREAMBLE, "", *lines]
    if left:
        parts.append(
            f"- … and {left:,} more fact{'s' if left != 1 else ''} not listed here: "
            "use `memory search` to find them."
        )
    text = "\n".join(parts)
    part = PrefixPart(
        name="index", chars=len(text), budget=INDEX_BUDGET, shown=len(lines), total=len(listed)
    )
    return text, part


def build_prefix(
    resolution: Resolution,
    facts: Sequence[Fact],
    conflicts: Sequence[Conflict],
    *,
    recall_counts: Mapping[str, int] | None = None,
    store_paths: Sequence[Path] = (),
) -> Prefix:
    """Render the stable prefix from resolved instructions and the active facts of both stores.
    ``recall_counts`` (fact id -> times recalled) orders the index when given; paths under
    ``store_paths`` show as ``<memory-store>``, as in the recall block."""
    masked = masked_global_ids(conflicts)
    redact = _redactor(resolution, store_paths)
    guidance, guidance_part = _guidance_section(facts, masked, redact)
    instructions = instructions_section(resolution, redact)
    index, index_part = _index_section(facts, masked, redact, recall_counts)
    text = "\n\n".join(section for section in (guidance, instructions, index) if section)
    if text:
        text += "\n"
    instructions_part = PrefixPart(
        name="instructions",
        chars=len(instructions),
        shown=len(resolution.documents),
        total=len(resolution.documents),
    )
    return Prefix(
        text=text,
        length=len(text),
        parts=(guidance_part, instructions_part, index_part),
        warnings=tuple(_instruction_warnings(resolution, instructions)),
        index_order=ORDER_RECALLED if recall_counts else ORDER_NEWEST,
    )


def agent_prefix(resolution: Resolution) -> Prefix:
    """What another agent (Claude Code, Codex) starts with: its own instruction text, one part
    per document. Context Center's memory reaches it only through its tools, not here."""
    text = resolution.text + ("\n" if resolution.text else "")
    parts = tuple(
        PrefixPart(name=doc.label, chars=len(doc.body), shown=1, total=1)
        for doc in resolution.documents
    )
    warnings = [
        f"{doc.label} adds {len(doc.body):,} characters to every session"
        for doc in resolution.documents
        if len(doc.body) > DOCUMENT_WARN
    ]
    return Prefix(
        text=text, length=len(text), parts=parts, warnings=tuple(warnings), agent=resolution.agent
    )
