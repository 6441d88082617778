"""One target, three agents: which instruction file each loads, and where they differ.

``compare(profiles)`` takes the Reasonix, Claude Code and Codex resolutions for one target and
builds the Compare table — every instruction file any of them found, with each agent's state
(loaded, imported, not loaded, cut off, not reached, needs approval, refused, duplicate) and
sizes against the limits — plus cross-agent diagnostics:

* ``cross_import_ignored``: an import one agent follows and another ignores (an inline
  ``@path`` Reasonix skips; a ``..`` or ``~`` import Reasonix refuses but Claude Code loads;
  Codex follows no import at all);
* ``cross_file_unseen``: a file one agent loads that another never sees (``AGENTS.md`` for
  Claude Code without an import, ``.claude/CLAUDE.md`` for Reasonix and Codex);
* ``cross_codex_cut``: content past Codex's ``project_doc_max_bytes``;
* ``cross_duplicate_rule``: the same rule line twice in one agent's context.

``diff_texts`` is a unified diff of two agents' exact texts.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from context_center.engine.instructions.model import (
    Agent,
    FileState,
    ImportStatus,
    Resolution,
)

AGENT_NAMES = {Agent.REASONIX: "Reasonix", Agent.CLAUDE_CODE: "Claude Code", Agent.CODEX: "Codex"}
MAX_CROSS = 60
MAX_DIFF_LINES = 4000
_LOADED = {FileState.LOADED, FileState.IMPORTED, FileState.CUT_OFF}
_RULE_RE = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+(?P<rule>.{12,})$")


_HOMES = (
    ("user/", Agent.REASONIX),
    ("~/.claude/", Agent.CLAUDE_CODE),
    ("~/.codex/", Agent.CODEX),
    ("$CODEX_HOME/", Agent.CODEX),
)
_TOP_NAMES = ("AGENTS", "CLAUDE", "REASONIX")


def _never(agent: Agent, label: str) -> str:
    """Why ``agent`` does not read ``label`` (a file another agent found)."""
    name = label.rsplit("/", 1)[-1]
    for prefix, owner in _HOMES:
        if label.startswith(prefix) and owner is not agent:
            return f"{prefix} is {AGENT_NAMES[owner]}'s own home"
    if agent is Agent.CLAUDE_CODE and name == "AGENTS.md":
        return (
            "Claude Code reads AGENTS.md only where no CLAUDE.md is in the working directory "
            "or above it, or when a file it loads imports it"
        )
    if agent is Agent.CLAUDE_CODE and name.startswith(("AGENTS", "REASONIX")):
        return f"Claude Code reads {name} only when a file it loads imports it"
    if agent is Agent.CLAUDE_CODE and not name.startswith(_TOP_NAMES):
        return "no file Claude Code loads here imports it"
    if agent is Agent.CODEX:
        if name.startswith(("CLAUDE", "REASONIX")) or "/.claude/" in label:
            return f"Codex reads only AGENTS.override.md, AGENTS.md or a fallback name, not {name}"
        return "Codex follows no imports"
    if agent is Agent.REASONIX:
        if "/.claude/" in label or label.startswith(".claude/") or name == "AGENTS.override.md":
            return f"Reasonix never reads {label.split('/', 1)[-1]}"
        if not name.startswith(_TOP_NAMES):
            return "Reasonix imports only an @path alone on its line, inside the file's folder"
    return f"{AGENT_NAMES[agent]} does not read it here"


class CompareCell(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    state: FileState
    loaded_bytes: int = 0
    detail: str = ""


class CompareRow(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    label: str
    size: int
    agents: dict[str, CompareCell]


class AgentSummary(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    agent: Agent
    documents: int
    chars: int
    bytes: int
    limits: dict[str, int] = Field(default_factory=dict)


class CrossDiagnostic(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    code: str
    path: str
    agents: tuple[Agent, ...]
    message: str
    line: int | None = None


class Comparison(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    target: str
    rows: tuple[CompareRow, ...]
    summaries: tuple[AgentSummary, ...]
    diagnostics: tuple[CrossDiagnostic, ...]
    profiles: dict[str, Resolution]

    def text_of(self, agent: Agent | str) -> str:
        return self.profiles[Agent(agent).value].text


def _rows(profiles: Sequence[Resolution]) -> list[CompareRow]:
    order: list[str] = []
    sizes: dict[str, int] = {}
    cells: dict[str, dict[str, CompareCell]] = {}
    for res in profiles:
        for item in res.files:
            if item.label not in cells:
                order.append(item.label)
                cells[item.label] = {}
            sizes[item.label] = max(sizes.get(item.label, 0), item.size)
            cells[item.label].setdefault(
                res.agent.value,
                CompareCell(state=item.state, loaded_bytes=item.loaded_bytes, detail=item.detail),
            )
    rows = []
    for label in order:
        agents = {}
        for res in profiles:
            agents[res.agent.value] = cells[label].get(res.agent.value) or CompareCell(
                state=FileState.NOT_LOADED, detail=_never(res.agent, label)
            )
        rows.append(CompareRow(label=label, size=sizes[label], agents=agents))
    return rows


def _import_differences(by_agent: dict[Agent, Resolution]) -> list[CrossDiagnostic]:
    out: list[CrossDiagnostic] = []
    reasonix, claude = by_agent.get(Agent.REASONIX), by_agent.get(Agent.CLAUDE_CODE)
    if reasonix is None or claude is None:
        return out
    seen_by_reasonix = {
        (imp.source, imp.line): imp for doc in reasonix.documents for imp in doc.imports
    }
    followed = {ImportStatus.LOADED, ImportStatus.NEEDS_APPROVAL, ImportStatus.ALREADY_LOADED}
    for doc in claude.documents:
        for imp in doc.imports:
            if imp.status not in followed:
                continue
            mine = seen_by_reasonix.get((imp.source, imp.line))
            if mine is None and any(d.label == imp.source for d in reasonix.documents):
                out.append(
                    CrossDiagnostic(
                        code="cross_import_ignored",
                        path=imp.source,
                        line=imp.line,
                        agents=(Agent.CLAUDE_CODE, Agent.REASONIX),
                        message=f"{imp.source}:{imp.line} imports {imp.target} for Claude Code; "
                        "Reasonix reads only an @path alone on its line and skips it",
                    )
                )
            elif mine is not None and mine.status is ImportStatus.REJECTED:
                out.append(
                    CrossDiagnostic(
                        code="cross_import_ignored",
                        path=imp.source,
                        line=imp.line,
                        agents=(Agent.CLAUDE_CODE, Agent.REASONIX),
                        message=f"{imp.source}:{imp.line}: Claude Code follows the import of "
                        f"{imp.target}; Reasonix refuses it ({mine.code})",
                    )
                )
    return out


def _codex_imports(by_agent: dict[Agent, Resolution]) -> list[CrossDiagnostic]:
    codex = by_agent.get(Agent.CODEX)
    if codex is None:
        return []
    loaded = {doc.label for doc in codex.documents}
    out = []
    for agent in (Agent.REASONIX, Agent.CLAUDE_CODE):
        res = by_agent.get(agent)
        for doc in res.documents if res is not None else ():
            for imp in doc.imports:
                if imp.source in loaded and imp.status is ImportStatus.LOADED:
                    out.append(
                        CrossDiagnostic(
                            code="cross_import_ignored",
                            path=imp.source,
                            line=imp.line,
                            agents=(agent, Agent.CODEX),
                            message=f"{imp.source}:{imp.line} imports {imp.target} for "
                            f"{AGENT_NAMES[agent]}; Codex follows no imports, so it never sees it",
                        )
                    )
    return out


def _unseen(rows: Sequence[CompareRow]) -> list[CrossDiagnostic]:
    out = []
    for row in rows:
        loads = [Agent(a) for a, c in row.agents.items() if c.state in _LOADED]
        misses = [Agent(a) for a, c in row.agents.items() if c.state is FileState.NOT_LOADED]
        if loads and misses:
            names = ", ".join(AGENT_NAMES[a] for a in loads)
            never = "; ".join(
                f"never {AGENT_NAMES[a]} ({row.agents[a.value].detail})" for a in misses
            )
            out.append(
                CrossDiagnostic(
                    code="cross_file_unseen",
                    path=row.label,
                    agents=(*loads, *misses),
                    message=f"{row.label} reaches {names}; {never}",
                )
            )
    return out


def _cut(by_agent: dict[Agent, Resolution]) -> list[CrossDiagnostic]:
    codex = by_agent.get(Agent.CODEX)
    if codex is None or codex.cut is None:
        return []
    cut = codex.cut
    lost = [f.label for f in codex.files if f.state is FileState.NOT_REACHED]
    tail = f"; never reached: {', '.join(lost)}" if lost else ""
    return [
        CrossDiagnostic(
            code="cross_codex_cut",
            path=cut.label,
            line=cut.line,
            agents=(Agent.CODEX,),
            message=f"Codex stops at byte {cut.byte_offset} of {cut.label} (line {cut.line}, "
            f"column {cut.column}): project_doc_max_bytes is {cut.limit}{tail}",
        )
    ]


def _duplicates(res: Resolution) -> list[CrossDiagnostic]:
    where: dict[str, list[str]] = {}
    for doc in res.documents:
        for line in doc.body.split("\n"):
            match = _RULE_RE.match(line)
            if match:
                key = " ".join(match.group("rule").split()).lower()
                where.setdefault(key, []).append(doc.label)
    out = []
    for rule, labels in where.items():
        if len(labels) > 1:
            places = ", ".join(dict.fromkeys(labels))
            out.append(
                CrossDiagnostic(
                    code="cross_duplicate_rule",
                    path=labels[0],
                    agents=(res.agent,),
                    message=f"“{rule[:80]}” is in {AGENT_NAMES[res.agent]}'s context "
                    f"{len(labels)} times ({places})",
                )
            )
    return out


def compare(profiles: Sequence[Resolution]) -> Comparison:
    by_agent = {res.agent: res for res in profiles}
    rows = _rows(profiles)
    diagnostics = [
        *_import_differences(by_agent),
        *_codex_imports(by_agent),
        *_unseen(rows),
        *_cut(by_agent),
    ]
    for res in profiles:
        diagnostics.extend(_duplicates(res))
    summaries = tuple(
        AgentSummary(
            agent=res.agent,
            documents=len(res.documents),
            chars=len(res.text),
            bytes=len(res.text.encode("utf-8")),
            limits=dict(res.limits),
        )
        for res in profiles
    )
    return Comparison(
        target=profiles[0].target if profiles else "workspace",
        rows=tuple(rows),
        summaries=summaries,
        diagnostics=tuple(diagnostics[:MAX_CROSS]),
        profiles={res.agent.value: res for res in profiles},
    )


def diff_texts(comparison: Comparison, first: Agent | str, second: Agent | str) -> str:
    """A unified diff of two agents' texts (``a/<agent>`` → ``b/<agent>``), bounded."""
    a, b = Agent(first), Agent(second)
    lines = difflib.unified_diff(
        comparison.text_of(a).splitlines(),
        comparison.text_of(b).splitlines(),
        fromfile=f"a/{a.value}",
        tofile=f"b/{b.value}",
        lineterm="",
    )
    out = []
    for count, line in enumerate(lines):
        if count >= MAX_DIFF_LINES:
            out.append(f"… (diff cut at {MAX_DIFF_LINES} lines)")
            break
        out.append(line)
    return "\n".join(out)


def compare_json(comparison: Comparison) -> dict[str, object]:
    """The ``memory instructions --compare --json`` form (no absolute paths)."""
    from context_center.engine.instructions.render import render_instructions_json

    return {
        "target": comparison.target,
        "agents": [s.model_dump(mode="json") for s in comparison.summaries],
        "files": [row.model_dump(mode="json") for row in comparison.rows],
        "diagnostics": [d.model_dump(mode="json") for d in comparison.diagnostics],
        "profiles": {
            agent: render_instructions_json(res) for agent, res in comparison.profiles.items()
        },
    }
