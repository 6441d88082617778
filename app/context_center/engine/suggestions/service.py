"""Suggestions as a service: scan (read-only), accept (a person's explicit action), dismiss.

``scan`` reads the three sources of user turns for the workspace (see ``sources.py``), keeps the
``SESSION_LIMIT`` most recent sessions across all of them, and proposes at most
``MEMORY_LIMIT`` memory candidates (newest first) and ``SKILL_LIMIT`` skill candidates. Memory
candidates are dropped when a fact of either scope or a loaded instruction body already says
the same thing (phrase-level overlap, ``engine.overlap.phrases_overlap``), when an earlier
candidate of the same scan does, or when a person already accepted or dismissed it. Skill
candidates are dropped when a skill of that name exists in ``<workspace>/.agents/skills/`` or
``<workspace>/.claude/skills/``, or when decided. Scanning never writes a byte.

``accept`` writes a memory candidate as a fact through ``Memory.create`` (no approval: the
person's click is the approval) or a skill candidate as ``<workspace>/.agents/skills/<name>/
SKILL.md`` (create-only; ``.agents/skills`` is the folder agents share, Codex and others read it;
refused with ``outside_workspace`` when a link on that path leads out of the workspace, and a
link at SKILL.md is never followed), then records the decision. ``dismiss`` records that the candidate is not wanted. Decisions live
in ``Layout.state_dir / "suggestions.json"`` (0600 in a 0700 folder, see ``private.py``) and are matched by id and by the candidate's
content key, so a dismissed statement stays dismissed when it is said again in a new session.

A remote workspace fails closed: ``scan`` returns no candidates and a plain explanation,
``accept`` and ``dismiss`` refuse with code ``remote_workspace``.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from context_center.engine.errors import (
    AlreadyExists,
    EngineError,
    InvalidRequest,
    NotFound,
    StoreUnavailable,
)
from context_center.engine.gate.overlap import normalise, phrases_overlap, tokens
from context_center.engine.model import Fact, FactType, Scope, format_time, utc_now
from context_center.engine.store import atomic
from context_center.engine.store.locking import LOG_TIMEOUT_S, file_lock, hold
from context_center.engine.store.paths import Layout, slugify
from context_center.engine.store.private import FILE_MODE, ensure_private_dir
from context_center.engine.suggestions import mining
from context_center.engine.suggestions.sources import (
    SourceReport,
    UserTurn,
    read_mount_table,
    read_sources,
    remote_reason,
)

SESSION_LIMIT = 24  # Reasonix reads its last 12 sessions; three sources share our window
MEMORY_LIMIT = 8
SKILL_LIMIT = 5
DECISIONS_FILE = "suggestions.json"
DECISIONS_VERSION = 1
SKILL_FOLDER = Path(".agents") / "skills"  # where accepted skills are written
SKILL_FOLDERS = (SKILL_FOLDER, Path(".claude") / "skills")  # where existing skills suppress
LOCK_TIMEOUT_S = LOG_TIMEOUT_S

CandidateKind = Literal["memory", "skill"]


class RemoteWorkspace(EngineError):
    code = "remote_workspace"


class SkillOutsideWorkspace(EngineError):
    """The skills folder, or a folder on the way to it, is a link that leads out of the
    workspace; nothing is written."""

    code = "outside_workspace"


# ---------------------------------------------------------------- data crossing the boundary


class EvidenceItem(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str
    session: str
    time: str | None
    quote: str


class MemoryCandidate(BaseModel):
    """A proposed fact. ``body`` states the rule with why and how to apply it."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["memory"] = "memory"
    id: str
    key: str
    name: str
    title: str
    description: str
    type: FactType
    scope: Scope = Scope.PROJECT
    body: str
    reason: str
    evidence: list[EvidenceItem]


class SkillCandidate(BaseModel):
    """A proposed skill; ``body`` is the Markdown below the SKILL.md front matter."""

    model_config = ConfigDict(frozen=True)

    kind: Literal["skill"] = "skill"
    id: str
    key: str
    name: str
    description: str
    steps: list[str]
    body: str
    path: str  # relative to the workspace, where accepting writes SKILL.md
    turns: int
    sessions: int
    evidence: list[EvidenceItem]


class SourceCount(BaseModel):
    model_config = ConfigDict(frozen=True)

    source: str
    root: str
    status: str
    files: int
    sessions: int
    turns: int
    malformed: int
    note: str = ""


class ScanResult(BaseModel):
    """What a scan found. ``available`` is False when it failed closed (see ``explanation``)."""

    model_config = ConfigDict(frozen=True)

    workspace: str
    generated_at: str
    available: bool
    explanation: str | None = None
    memories: list[MemoryCandidate] = Field(default_factory=list)
    skills: list[SkillCandidate] = Field(default_factory=list)
    sources: list[SourceCount] = Field(default_factory=list)
    session_limit: int = SESSION_LIMIT
    sessions_scanned: int = 0
    turns_scanned: int = 0
    notes: list[str] = Field(default_factory=list)

    @property
    def malformed(self) -> dict[str, int]:
        """Skipped malformed lines per source."""
        return {s.source: s.malformed for s in self.sources}

    def candidate(self, candidate_id: str) -> MemoryCandidate | SkillCandidate | None:
        for memory in self.memories:
            if memory.id == candidate_id:
                return memory
        for skill in self.skills:
            if skill.id == candidate_id:
                return skill
        return None

    def public_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class CandidateEdit(BaseModel):
    """What a person changed before accepting. Unset fields keep the candidate's value."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    title: str | None = None
    description: str | None = None
    type: FactType | None = None
    scope: Scope | None = None
    body: str | None = None
    steps: list[str] | None = None


class Decision(BaseModel):
    model_config = ConfigDict(frozen=True, extra="ignore")

    id: str
    key: str
    kind: CandidateKind
    decision: Literal["accepted", "dismissed"]
    time: str
    ref: str | None = None


class AcceptResult(BaseModel):
    model_config = ConfigDict(frozen=True)

    kind: CandidateKind
    id: str
    ref: str  # "project/<name>.md" for a fact, ".agents/skills/<name>/SKILL.md" for a skill
    fact: dict[str, Any] | None = None
    path: str | None = None


# ---------------------------------------------------------------- decisions


def decisions_path(layout: Layout) -> Path:
    return layout.state_dir / DECISIONS_FILE


def load_decisions(layout: Layout, *, strict: bool = False) -> list[Decision]:
    """The recorded decisions. An unreadable file counts as none, or raises with ``strict``
    (so a write never replaces a file it could not understand)."""
    path = decisions_path(layout)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return []
    except OSError as exc:
        if strict:
            raise StoreUnavailable(f"cannot read {path.name}: {exc.strerror}") from exc
        return []
    try:
        data = json.loads(raw)
        rows = data["decisions"] if isinstance(data, dict) else None
        if not isinstance(rows, list):
            raise ValueError("no decisions list")
        return [Decision.model_validate(row) for row in rows]
    except (ValueError, KeyError, TypeError, ValidationError) as exc:
        if strict:
            raise StoreUnavailable(
                f"{path} is not a valid decisions file ({exc}); fix or remove it, then try again"
            ) from exc
        return []


def _record(layout: Layout, decision: Decision) -> None:
    path = decisions_path(layout)
    ensure_private_dir(path.parent)
    lock = file_lock(str(path) + ".lock", timeout=LOCK_TIMEOUT_S, mode=FILE_MODE)
    with hold(lock, f"the suggestion decisions ({path.name})"):
        rows = [d for d in load_decisions(layout, strict=True) if d.id != decision.id]
        rows.append(decision)
        payload = {
            "v": DECISIONS_VERSION,
            "decisions": [d.model_dump(mode="json") for d in rows],
        }
        # replaced whole, so a file an older version left 0644 comes back 0600
        text = json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
        atomic.write_text(path, text, mode=FILE_MODE)


# ---------------------------------------------------------------- scanning


def _evidence(items: Iterable[mining.Evidence]) -> list[EvidenceItem]:
    return [
        EvidenceItem(
            source=e.source,
            session=e.session,
            time=format_time(e.time) if e.time else None,
            quote=e.quote,
        )
        for e in items
    ]


_PIECE_SPLIT_RE = re.compile(r"[\n。！？!?；;]+|\.(?:\s+|$)")
_BULLET_RE = re.compile(r"^\s*(?:[-*+>#]+|\d+[.)、])\s*")
MIN_PIECE_CHARS = 6


class KnownTexts:
    """What the facts and instructions already say, cut into phrases (lines and sentences) so
    a statement can be compared phrase by phrase. ``phrases_overlap`` is meant for short texts
    (it never matches texts of very different lengths), so whole bodies are not compared with
    it; they only count when they contain the statement outright."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.keys: list[str] = []
        self._index: dict[str, list[int]] = {}

    def add(self, text: str, *, whole: bool = True) -> None:
        if not text or not text.strip():
            return
        if whole:
            self.keys.append(mining.normalize_key(text))
        for raw in _PIECE_SPLIT_RE.split(text):
            piece = _BULLET_RE.sub("", raw).strip()
            if len(normalise(piece)) < MIN_PIECE_CHARS:
                continue
            slot = len(self.pieces)
            self.pieces.append(piece)
            for token in set(tokens(piece)):
                self._index.setdefault(token, []).append(slot)

    def covers(self, statement: str, key: str) -> bool:
        if key and any(key in text_key for text_key in self.keys):
            return True
        seen: set[int] = set()
        for token in set(tokens(statement)):
            for slot in self._index.get(token, ()):
                if slot in seen:
                    continue
                seen.add(slot)
                if phrases_overlap(statement, self.pieces[slot]):
                    return True
        return False


def known_texts(facts: Sequence[Fact], instruction_bodies: Sequence[str]) -> KnownTexts:
    known = KnownTexts()
    for fact in facts:
        known.add(fact.title)
        known.add(fact.description)
        known.add(fact.body)
    for body in instruction_bodies:
        known.add(body)
    return known


def existing_skill(workspace: Path, name: str) -> Path | None:
    """The folder of an existing skill called ``name``, in any of ``SKILL_FOLDERS``. A link
    counts as existing even when it leads nowhere (it is never followed to write through it)."""
    for folder in SKILL_FOLDERS:
        candidate = workspace / folder / name
        if os.path.lexists(candidate) or os.path.lexists(candidate / "SKILL.md"):
            return candidate
    return None


def check_inside_workspace(workspace: Path, rel: Path) -> None:
    """Refuse (``SkillOutsideWorkspace``) when ``workspace / rel`` or any folder on the way to
    it is a link that resolves outside the workspace. Links that stay inside are fine."""
    root = workspace.resolve()
    current = workspace
    for part in rel.parts:
        current = current / part
        if not os.path.lexists(current):
            break  # nothing further down exists yet; it will be created as plain folders
        real = current.resolve()
        if not real.is_relative_to(root):
            shown = current.relative_to(workspace)
            raise SkillOutsideWorkspace(
                f"{shown} leads outside the workspace (to {real}); skills are only written "
                f"inside the workspace: replace the link with a folder, or remove it"
            )


def render_skill(name: str, description: str, body: str) -> str:
    front = yaml.safe_dump(
        {"name": name, "description": description},
        allow_unicode=True,
        sort_keys=False,
        width=1_000_000,
    )
    return f"---\n{front}---\n\n{body.strip()}\n"


def skill_body(
    name: str,
    description: str,
    steps: Sequence[str],
    turns: int,
    sessions: int,
    example: str | None = None,
) -> str:
    title = name.replace("-", " ").strip().capitalize() or "Workflow"
    when = "Use this skill when asked for this workflow"
    when += f", for example: “{example}”" if example else "."
    lines = [f"# {title}", "", description, "", when, ""]
    lines += ["## Steps", ""]
    lines += [f"{i}. {step}" for i, step in enumerate(steps, 1)]
    lines += [
        "",
        "## Notes",
        "",
        f"Suggested from {turns} requests across {sessions} sessions in this workspace; "
        "stop and report if a step fails instead of continuing to the next one.",
    ]
    return "\n".join(lines)


def _empty(layout: Layout, now: datetime, explanation: str) -> ScanResult:
    return ScanResult(
        workspace=str(layout.workspace),
        generated_at=format_time(now),
        available=False,
        explanation=explanation,
    )


def _window(reads: Sequence[list[UserTurn]], limit: int) -> list[UserTurn]:
    """The turns of the ``limit`` most recent sessions across all sources."""
    last: dict[tuple[str, str], datetime | None] = {}
    for turns in reads:
        for turn in turns:
            key = (turn.source, turn.session)
            seen = last.get(key)
            if key not in last or (turn.time and (seen is None or turn.time > seen)):
                last[key] = turn.time
    epoch = mining.EPOCH
    keep = set(sorted(last, key=lambda k: (last[k] or epoch, k), reverse=True)[:limit])
    return [t for turns in reads for t in turns if (t.source, t.session) in keep]


def scan(
    layout: Layout,
    facts: Sequence[Fact],
    instruction_bodies: Sequence[str],
    *,
    claude_root: Path | str | None = None,
    codex_root: Path | str | None = None,
    now: datetime | None = None,
    session_limit: int = SESSION_LIMIT,
    mounts: Callable[[], list[tuple[str, str]] | None] = read_mount_table,
) -> ScanResult:
    """Propose memory and skill candidates for ``layout.workspace``. Writes nothing.

    ``facts``: the active facts of both scopes (for dedup). ``instruction_bodies``: the loaded
    instruction texts. ``claude_root`` / ``codex_root`` default to ``default_roots()``.
    ``mounts`` returns the mount table (tests inject one; the default reads /proc/self/mounts).
    """
    now = now or utc_now()
    reason = remote_reason(layout.workspace, mounts)
    if reason:
        return _empty(layout, now, reason)
    default_claude, default_codex = default_roots()
    claude = Path(claude_root) if claude_root is not None else default_claude
    codex = Path(codex_root) if codex_root is not None else default_codex
    reads = read_sources(
        layout, claude_root=claude, codex_root=codex, session_limit=session_limit, mounts=mounts
    )
    turns = _window([r.turns for r in reads], session_limit)
    decisions = load_decisions(layout)
    decided_ids = {d.id for d in decisions}
    decided_keys = {(d.kind, d.key) for d in decisions}

    existing = known_texts(facts, instruction_bodies)
    taken_names = {f.name for f in facts if f.scope is Scope.PROJECT}
    memories: list[MemoryCandidate] = []
    kept = KnownTexts()
    for draft in mining.memory_drafts(turns):
        if len(memories) >= MEMORY_LIMIT:
            break
        if draft.id in decided_ids or ("memory", draft.key) in decided_keys:
            continue
        if kept.covers(draft.statement, draft.key) or existing.covers(draft.statement, draft.key):
            continue
        name = draft.name
        if name in taken_names:
            name = f"{name}-{mining.hash32(draft.key)}"
        taken_names.add(name)
        kept.add(draft.statement)
        memories.append(
            MemoryCandidate(
                id=draft.id,
                key=draft.key,
                name=name,
                title=draft.title,
                description=draft.description,
                type=draft.type,
                body=draft.body,
                reason=draft.reason,
                evidence=_evidence(draft.evidence),
            )
        )

    skills: list[SkillCandidate] = []
    for sdraft in mining.skill_drafts(turns):
        if len(skills) >= SKILL_LIMIT:
            break
        if sdraft.id in decided_ids or ("skill", sdraft.key) in decided_keys:
            continue
        if existing_skill(layout.workspace, sdraft.name) is not None:
            continue
        skills.append(
            SkillCandidate(
                id=sdraft.id,
                key=sdraft.key,
                name=sdraft.name,
                description=sdraft.description,
                steps=list(sdraft.steps),
                body=skill_body(
                    sdraft.name,
                    sdraft.description,
                    sdraft.steps,
                    sdraft.turns,
                    sdraft.sessions,
                    sdraft.evidence[0].quote if sdraft.evidence else None,
                ),
                path=str(SKILL_FOLDER / sdraft.name / "SKILL.md"),
                turns=sdraft.turns,
                sessions=sdraft.sessions,
                evidence=_evidence(sdraft.evidence),
            )
        )

    notes: list[str] = []
    if decisions_path(layout).exists() and not decisions:
        try:
            load_decisions(layout, strict=True)
        except EngineError as exc:
            notes.append(str(exc))
    return ScanResult(
        workspace=str(layout.workspace),
        generated_at=format_time(now),
        available=True,
        memories=memories,
        skills=skills,
        sources=[_count(r.report) for r in reads],
        session_limit=session_limit,
        sessions_scanned=len({(t.source, t.session) for t in turns}),
        turns_scanned=len(turns),
        notes=notes,
    )


def _count(report: SourceReport) -> SourceCount:
    return SourceCount.model_validate(report.public_dict())


# ---------------------------------------------------------------- accept / dismiss


def _refuse_remote(layout: Layout, mounts: Callable[[], list[tuple[str, str]] | None]) -> None:
    reason = remote_reason(layout.workspace, mounts)
    if reason:
        raise RemoteWorkspace(reason)


def _find(
    layout: Layout,
    candidate: str | MemoryCandidate | SkillCandidate,
    *,
    claude_root: Path | str | None,
    codex_root: Path | str | None,
    now: datetime | None,
    mounts: Callable[[], list[tuple[str, str]] | None],
) -> MemoryCandidate | SkillCandidate:
    if not isinstance(candidate, str):
        return candidate
    candidate_id = candidate.strip()
    # Dedup against facts only filters; the id is the same with or without it.
    result = scan(
        layout, [], [], claude_root=claude_root, codex_root=codex_root, now=now, mounts=mounts
    )
    found = result.candidate(candidate_id)
    if found is not None:
        return found
    for decision in load_decisions(layout):
        if decision.id == candidate_id:
            raise InvalidRequest(f"suggestion {candidate_id} was already {decision.decision}")
    raise NotFound(
        f"no current suggestion has id {candidate_id!r} (scan again to see the current ones)"
    )


def _previous(layout: Layout, found: MemoryCandidate | SkillCandidate) -> Decision | None:
    for decision in load_decisions(layout, strict=True):
        if decision.id == found.id or (decision.kind, decision.key) == (found.kind, found.key):
            return decision
    return None


def accept(
    layout: Layout,
    candidate: str | MemoryCandidate | SkillCandidate,
    edited: CandidateEdit | dict[str, Any] | None = None,
    *,
    memory: Any = None,
    claude_root: Path | str | None = None,
    codex_root: Path | str | None = None,
    now: datetime | None = None,
    mounts: Callable[[], list[tuple[str, str]] | None] = read_mount_table,
) -> AcceptResult:
    """Apply a candidate (by id, or the object a scan returned) as a person's explicit action.

    A memory candidate becomes a fact through ``memory.create`` (an ``engine.memory.Memory``;
    one for ``layout`` is made when none is given). A skill candidate becomes
    ``<workspace>/.agents/skills/<name>/SKILL.md``, never overwriting an existing skill
    (``AlreadyExists``). ``edited`` overrides fields before writing.
    """
    _refuse_remote(layout, mounts)
    found = _find(
        layout, candidate, claude_root=claude_root, codex_root=codex_root, now=now, mounts=mounts
    )
    previous = _previous(layout, found)
    if previous is not None:
        raise InvalidRequest(f"suggestion {found.id} was already {previous.decision}")
    edit = (
        edited if isinstance(edited, CandidateEdit) else CandidateEdit.model_validate(edited or {})
    )
    when = now or utc_now()
    if isinstance(found, MemoryCandidate):
        result = _accept_memory(layout, found, edit, memory, when)
    else:
        result = _accept_skill(layout, found, edit)
    _record(
        layout,
        Decision(
            id=found.id,
            key=found.key,
            kind=found.kind,
            decision="accepted",
            time=format_time(when),
            ref=result.ref,
        ),
    )
    return result


def _accept_memory(
    layout: Layout, found: MemoryCandidate, edit: CandidateEdit, memory: Any, when: datetime
) -> AcceptResult:
    if edit.steps is not None:
        raise InvalidRequest("steps belong to skill suggestions, not memory suggestions")
    if memory is None:
        from context_center.engine.store.memory import Memory

        memory = Memory(layout)
    body = edit.body if edit.body is not None else found.body
    if not body.strip():
        raise InvalidRequest("an accepted memory needs a body")
    fact: Fact = memory.create(
        name=edit.name if edit.name is not None else found.name,
        title=edit.title if edit.title is not None else found.title,
        description=edit.description if edit.description is not None else found.description,
        type=edit.type or found.type,
        scope=edit.scope or found.scope,
        body=body,
        now=when,
    )
    return AcceptResult(kind="memory", id=found.id, ref=fact.ref, fact=fact.public_dict(when))


def _accept_skill(layout: Layout, found: SkillCandidate, edit: CandidateEdit) -> AcceptResult:
    if edit.type is not None or edit.scope not in (None, Scope.PROJECT) or edit.title is not None:
        raise InvalidRequest("a skill suggestion takes name, description, steps or body edits")
    name = slugify(edit.name) if edit.name is not None else found.name
    description = " ".join(
        (edit.description if edit.description is not None else found.description).split()
    )
    if not description:
        raise InvalidRequest("an accepted skill needs a description")
    if edit.body is not None:
        body = edit.body
    elif edit.steps is not None or name != found.name or description != found.description:
        steps = [
            s.strip() for s in (edit.steps if edit.steps is not None else found.steps) if s.strip()
        ]
        if not steps:
            raise InvalidRequest("an accepted skill needs at least one step")
        example = found.evidence[0].quote if found.evidence else None
        body = skill_body(name, description, steps, found.turns, found.sessions, example)
    else:
        body = found.body
    if not body.strip():
        raise InvalidRequest("an accepted skill needs a body")
    rel = SKILL_FOLDER / name / "SKILL.md"
    workspace = layout.workspace
    check_inside_workspace(workspace, rel)
    existing = existing_skill(workspace, name)
    if existing is not None:
        raise AlreadyExists(
            f"a skill named {name!r} already exists ({existing.relative_to(workspace)}); "
            "skills are never overwritten: choose another name"
        )
    target = workspace / rel
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreUnavailable(f"cannot create {rel.parent}: {exc.strerror}") from exc
    # Again now that the folders exist, in case a link appeared meanwhile. The file itself is
    # hard-linked into place, which never follows a link already sitting at SKILL.md.
    check_inside_workspace(workspace, rel)
    try:
        atomic.create_exclusive(target, render_skill(name, description, body).encode("utf-8"))
    except FileExistsError as exc:
        raise AlreadyExists(f"{rel} already exists; skills are never overwritten") from exc
    return AcceptResult(kind="skill", id=found.id, ref=str(rel), path=str(target))


def dismiss(
    layout: Layout,
    candidate: str | MemoryCandidate | SkillCandidate,
    *,
    claude_root: Path | str | None = None,
    codex_root: Path | str | None = None,
    now: datetime | None = None,
    mounts: Callable[[], list[tuple[str, str]] | None] = read_mount_table,
) -> Decision:
    """Record that a person does not want this candidate; it is never proposed again.
    Dismissing an already dismissed candidate is a no-op that returns the earlier decision."""
    _refuse_remote(layout, mounts)
    if isinstance(candidate, str):
        for decision in load_decisions(layout, strict=True):
            if decision.id == candidate.strip():
                if decision.decision == "dismissed":
                    return decision
                raise InvalidRequest(f"suggestion {decision.id} was already accepted")
    found = _find(
        layout, candidate, claude_root=claude_root, codex_root=codex_root, now=now, mounts=mounts
    )
    previous = _previous(layout, found)
    if previous is not None:
        if previous.decision == "dismissed":
            return previous
        raise InvalidRequest(f"suggestion {found.id} was already accepted")
    decision = Decision(
        id=found.id,
        key=found.key,
        kind=found.kind,
        decision="dismissed",
        time=format_time(now or utc_now()),
    )
    _record(layout, decision)
    return decision


def default_roots() -> tuple[Path, Path]:
    """Where Claude Code and Codex CLI keep their data for the person running this process:
    ``$CLAUDE_CONFIG_DIR`` else ``~/.claude``, and ``$CODEX_HOME`` else ``~/.codex`` (the same
    variables those tools honour)."""
    home = Path(os.path.expanduser("~"))
    claude = os.environ.get("CLAUDE_CONFIG_DIR", "").strip()
    codex = os.environ.get("CODEX_HOME", "").strip()
    return (
        Path(claude).expanduser() if claude else home / ".claude",
        Path(codex).expanduser() if codex else home / ".codex",
    )
