"""Suggestions as a service: the scan (read-only); accepting and dismissing are ``accept.py``'s.

``scan`` reads the three sources of user turns for the workspace (see ``sources.py``), keeps the
``SESSION_LIMIT`` most recent sessions across all of them, and proposes at most
``MEMORY_LIMIT`` memory candidates (newest first) and ``SKILL_LIMIT`` skill candidates. A memory
candidate is dropped when a fact of either scope or a loaded instruction file already says the
same thing (phrase-level overlap on the statement, URLs compared whole: ``known.py``) — the
scan's notes then name the fact or file it repeats —, when an earlier candidate of the same
scan does, or when a person already accepted or dismissed it. A skill candidate is dropped when
a skill of that name exists in ``<workspace>/.agents/skills/`` or ``<workspace>/.claude/
skills/``, or when decided. Scanning never writes a byte.

A remote workspace fails closed: ``scan`` returns no candidates and a plain explanation.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from context_center.engine.errors import EngineError
from context_center.engine.kinds import Scope, format_time, utc_now
from context_center.engine.model import Fact
from context_center.engine.store.paths import Layout
from context_center.engine.suggestions import mining, skills
from context_center.engine.suggestions.decisions import decisions_path, load_decisions
from context_center.engine.suggestions.facttexts import known_texts
from context_center.engine.suggestions.known import Covering, KnownTexts, Origin
from context_center.engine.suggestions.models import (
    MEMORY_LIMIT,
    SESSION_LIMIT,
    SKILL_FOLDER,
    SKILL_FOLDERS,
    SKILL_LIMIT,
    EvidenceItem,
    MemoryCandidate,
    ScanResult,
    SkillCandidate,
    SourceCount,
)
from context_center.engine.suggestions.remote import Mounts, read_mount_table, remote_reason
from context_center.engine.suggestions.skillfile import existing_skill, skill_body
from context_center.engine.suggestions.sources import SourceReport, read_sources
from context_center.engine.suggestions.textual import EPOCH, Evidence, hash32
from context_center.engine.suggestions.turns import UserTurn

__all__ = [
    "MEMORY_LIMIT",
    "SESSION_LIMIT",
    "SKILL_FOLDER",
    "SKILL_FOLDERS",
    "SKILL_LIMIT",
    "default_roots",
    "scan",
]

MAX_DUPLICATE_NOTES = 20


def _evidence(items: Iterable[Evidence]) -> list[EvidenceItem]:
    return [
        EvidenceItem(
            source=e.source,
            session=e.session,
            time=format_time(e.time) if e.time else None,
            quote=e.quote,
        )
        for e in items
    ]


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
    keep = set(sorted(last, key=lambda k: (last[k] or EPOCH, k), reverse=True)[:limit])
    return [t for turns in reads for t in turns if (t.source, t.session) in keep]


Facts = Sequence[Fact] | Callable[[], Sequence[Fact]]
Bodies = Sequence[str | tuple[str, str]] | Callable[[], Sequence[str | tuple[str, str]]]


@dataclass
class _Known:
    """The facts and instruction files, read when the first candidate needs them: a scan
    that proposes nothing does no work on the facts at all (``known.py``)."""

    facts: Facts
    bodies: Bodies
    phrases: Path | None = None
    max_cuts: int | None = None
    _facts: Sequence[Fact] | None = None
    _existing: Covering | None = None
    _names: set[str] | None = None

    def _all_facts(self) -> Sequence[Fact]:
        if self._facts is None:
            self._facts = self.facts() if callable(self.facts) else self.facts
        return self._facts

    def existing(self) -> Covering:
        if self._existing is None:
            bodies = self.bodies() if callable(self.bodies) else self.bodies
            self._existing = known_texts(
                self._all_facts(), bodies, self.phrases, max_cuts=self.max_cuts
            )
        return self._existing

    def taken_names(self) -> set[str]:
        if self._names is None:
            self._names = {f.name for f in self._all_facts() if f.scope is Scope.PROJECT}
        return self._names


@dataclass
class _Picker:
    """Chooses the memory candidates, remembering why the others were left out."""

    known: _Known
    decided_ids: set[str]
    decided_keys: set[tuple[str, str]]
    dismissed: KnownTexts = field(default_factory=KnownTexts)  # dismissed statements
    kept: KnownTexts = field(default_factory=KnownTexts)
    memories: list[MemoryCandidate] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    more_duplicates: int = 0

    def _left_out(self, title: str, origin: Origin) -> None:
        if len(self.notes) >= MAX_DUPLICATE_NOTES:
            self.more_duplicates += 1
            return
        self.notes.append(f"Left out “{title}”: {origin.describe()} already says this.")

    def consider(self, draft: mining.MemoryDraft) -> None:
        if draft.id in self.decided_ids or ("memory", draft.key) in self.decided_keys:
            return
        if self.dismissed.covers(draft.statement, draft.key):
            return  # a rule dismissed before, said again in other words
        if self.kept.covers(draft.statement, draft.key):
            return  # an earlier candidate of this scan says it (and its evidence is newer)
        origin = self.known.existing().covering(draft.statement, draft.key)
        if origin is not None:
            self._left_out(draft.title, origin)
            return
        name = draft.name
        taken = self.known.taken_names()
        if name in taken:
            name = f"{name}-{hash32(draft.key)}"
        taken.add(name)
        self.kept.add(draft.statement, Origin("candidate", name))
        self.memories.append(
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
                redacted=list(draft.redacted),
            )
        )

    def closing_notes(self) -> list[str]:
        if self.more_duplicates:
            return [
                *self.notes,
                f"… and {self.more_duplicates} more left out because a fact or instruction "
                "already says them.",
            ]
        return self.notes


def _skill_candidates(
    layout: Layout, turns: list[UserTurn], decided_ids: set[str], decided_keys: set[tuple[str, str]]
) -> list[SkillCandidate]:
    found: list[SkillCandidate] = []
    for sdraft in skills.skill_drafts(turns):
        if len(found) >= SKILL_LIMIT:
            break
        if sdraft.id in decided_ids or ("skill", sdraft.key) in decided_keys:
            continue
        if existing_skill(layout.workspace, sdraft.name) is not None:
            continue
        found.append(
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
    return found


def _decisions_note(layout: Layout, decided: int) -> list[str]:
    if decisions_path(layout).exists() and not decided:
        try:
            load_decisions(layout, strict=True)
        except EngineError as exc:
            return [str(exc)]
    return []


def scan(
    layout: Layout,
    facts: Facts,
    instruction_bodies: Bodies,
    *,
    claude_root: Path | str | None = None,
    codex_root: Path | str | None = None,
    now: datetime | None = None,
    session_limit: int = SESSION_LIMIT,
    mounts: Mounts = read_mount_table,
    phrases: Path | None = None,
    max_cuts: int | None = None,
) -> ScanResult:
    """Propose memory and skill candidates for ``layout.workspace``. Writes nothing.

    ``facts``: the active facts of both scopes (for dedup). ``instruction_bodies``: the loaded
    instruction texts, or (label, text) pairs so a note can name the file. Either may be a
    function returning them, called only when a candidate is to be compared with them. ``claude_root`` /
    ``codex_root`` default to ``default_roots()``. ``mounts`` returns the mount table (tests
    inject one; the default reads /proc/self/mounts). ``phrases``: the workspace's phrase
    index (``phraseindex.py``), read when present, never written here. ``max_cuts``: raise
    ``PhraseIndexBehind`` rather than cut more facts than that (None: no limit).
    """
    now = now or utc_now()
    reason = remote_reason(layout.workspace, mounts)
    if reason:
        return _empty(layout, now, reason)
    default_claude, default_codex = default_roots()
    reads = read_sources(
        layout,
        claude_root=Path(claude_root) if claude_root is not None else default_claude,
        codex_root=Path(codex_root) if codex_root is not None else default_codex,
        session_limit=session_limit,
        mounts=mounts,
    )
    turns = _window([r.turns for r in reads], session_limit)
    decisions = load_decisions(layout)
    decided_ids = {d.id for d in decisions}
    decided_keys: set[tuple[str, str]] = {(d.kind, d.key) for d in decisions}
    picker = _Picker(
        known=_Known(facts, instruction_bodies, phrases, max_cuts),
        decided_ids=decided_ids,
        decided_keys=decided_keys,
    )
    for d in decisions:
        if d.kind == "memory" and d.decision == "dismissed" and d.statement:
            picker.dismissed.add(d.statement, Origin("dismissed", d.id))
    for group in mining.memory_groups(turns):
        if len(picker.memories) >= MEMORY_LIMIT:
            break
        picker.consider(mining.draft_of(group))
    return ScanResult(
        workspace=str(layout.workspace),
        generated_at=format_time(now),
        available=True,
        memories=picker.memories,
        skills=_skill_candidates(layout, turns, decided_ids, decided_keys),
        sources=[_count(r.report) for r in reads],
        session_limit=session_limit,
        sessions_scanned=len({(t.source, t.session) for t in turns}),
        turns_scanned=len(turns),
        notes=picker.closing_notes() + _decisions_note(layout, len(decisions)),
    )


def has_turns(
    layout: Layout,
    *,
    claude_root: Path | None = None,
    codex_root: Path | None = None,
    mounts: Mounts = read_mount_table,
) -> bool:
    """Whether a scan of ``layout.workspace`` would read any user turn (a scan that reads
    none never looks at the facts). Writes nothing."""
    if remote_reason(layout.workspace, mounts):
        return False
    default_claude, default_codex = default_roots()
    reads = read_sources(
        layout,
        claude_root=claude_root or default_claude,
        codex_root=codex_root or default_codex,
        session_limit=SESSION_LIMIT,
        mounts=mounts,
    )
    return any(r.turns for r in reads)


def _count(report: SourceReport) -> SourceCount:
    return SourceCount.model_validate(report.public_dict())


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
