"""Table models of the Suggestions tab: the candidates of a scan and the per-source counts."""

from __future__ import annotations

from typing import Any

from context_center.engine import MemoryCandidate, SkillCandidate, SourceCount
from context_center.ui.models.row_table import Column, RowTableModel

SOURCE_LABELS = {
    "history": "This workspace's session log",
    "claude": "Claude Code transcripts",
    "codex": "Codex CLI sessions",
}
STATUS_LABELS = {
    "ok": "read",
    "missing": "not found",
    "unconfirmed": "skipped (not confirmed local)",
}


def candidate_title(c: MemoryCandidate | SkillCandidate) -> str:
    if isinstance(c, MemoryCandidate):
        return c.title or c.name
    return c.name


def candidate_kind(c: MemoryCandidate | SkillCandidate) -> str:
    return "Memory" if isinstance(c, MemoryCandidate) else "Skill"


def candidate_detail(c: MemoryCandidate | SkillCandidate) -> str:
    """Short enough for a 900 px window: the scope only when it is global (the editor shows
    type and scope in full)."""
    if isinstance(c, MemoryCandidate):
        return "global" if c.scope.value == "global" else ""
    return f"{len(c.steps)} steps"


def candidate_kind_tip(c: MemoryCandidate | SkillCandidate) -> str:
    if isinstance(c, MemoryCandidate):
        return f"A memory fact: type {c.type.value}, scope {c.scope.value}"
    return f"A skill of {len(c.steps)} steps, written to {c.path}"


def candidate_evidence(c: MemoryCandidate | SkillCandidate) -> str:
    sessions = len({(e.source, e.session) for e in c.evidence})
    turns = c.turns if isinstance(c, SkillCandidate) else len(c.evidence)
    return f"{turns} turn{'s' * (turns != 1)}, {sessions} session{'s' * (sessions != 1)}"


def _latest(c: MemoryCandidate | SkillCandidate) -> str:
    times = [e.time for e in c.evidence if e.time]
    return max(times) if times else ""


def candidate_tooltip(c: MemoryCandidate | SkillCandidate) -> str:
    latest = _latest(c)[:16].replace("T", " ")
    return f"{candidate_title(c)}\n{c.description}\nLast said: {latest or 'unknown'}"


class CandidatesModel(RowTableModel[MemoryCandidate | SkillCandidate]):
    """Memory and skill candidates, one row each (``ROW_ROLE`` gives the candidate)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(
            [
                Column("Suggestion", candidate_title, tooltip=candidate_tooltip),
                Column(
                    "Kind",
                    lambda c: " · ".join(p for p in (candidate_kind(c), candidate_detail(c)) if p),
                    tooltip=candidate_kind_tip,
                ),
                Column(
                    "Evidence",
                    candidate_evidence,
                    header_tip="How many of your turns, in how many sessions, support it",
                ),
            ],
            parent,
        )


def _source_tip(s: SourceCount) -> str:
    lines = [SOURCE_LABELS.get(s.source, s.source), s.root, f"{s.files} file(s) read"]
    if s.note:
        lines.append(s.note)
    return "\n".join(lines)


class SourceCountsModel(RowTableModel[SourceCount]):
    """What each source of user turns contributed to the scan."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(
            [
                Column(
                    "Source", lambda s: SOURCE_LABELS.get(s.source, s.source), tooltip=_source_tip
                ),
                Column(
                    "Status",
                    lambda s: STATUS_LABELS.get(s.status, s.status),
                    tooltip=lambda s: s.note or STATUS_LABELS.get(s.status, s.status),
                    colour=lambda s: None if s.status != "unconfirmed" else "#a15c00",
                ),
                Column("Sessions", lambda s: str(s.sessions), numeric=True),
                Column("Turns", lambda s: str(s.turns), numeric=True),
                Column(
                    "Skipped",
                    lambda s: str(s.malformed),
                    numeric=True,
                    colour=lambda s: "#a15c00" if s.malformed else None,
                    tooltip=lambda s: f"{s.malformed} malformed line(s) skipped (never fatal)",
                    header_tip="Malformed lines that were skipped (never fatal)",
                ),
            ],
            parent,
        )


__all__ = ["CandidatesModel", "SourceCount", "SourceCountsModel"]
