"""Suggestions: memory and skill candidates mined from past sessions, accepted only by a person.

``history`` is this workspace's own session log; ``sources`` reads it and the Claude Code and
Codex CLI transcripts; ``mining`` turns user turns into candidates; ``service`` scans (never
writing), accepts and dismisses.
"""

from context_center.engine.suggestions.history import (
    HistoryEntry,
    append_turn,
    history_path,
    read_history,
)
from context_center.engine.suggestions.service import (
    MEMORY_LIMIT,
    SESSION_LIMIT,
    SKILL_FOLDER,
    SKILL_FOLDERS,
    SKILL_LIMIT,
    AcceptResult,
    CandidateEdit,
    Decision,
    EvidenceItem,
    MemoryCandidate,
    RemoteWorkspace,
    ScanResult,
    SkillCandidate,
    SkillOutsideWorkspace,
    SourceCount,
    accept,
    dismiss,
    load_decisions,
    scan,
)
from context_center.engine.suggestions.sources import UserTurn, remote_reason

__all__ = [
    "MEMORY_LIMIT",
    "SESSION_LIMIT",
    "SKILL_FOLDER",
    "SKILL_FOLDERS",
    "SKILL_LIMIT",
    "AcceptResult",
    "CandidateEdit",
    "Decision",
    "EvidenceItem",
    "HistoryEntry",
    "MemoryCandidate",
    "RemoteWorkspace",
    "ScanResult",
    "SkillCandidate",
    "SkillOutsideWorkspace",
    "SourceCount",
    "UserTurn",
    "accept",
    "append_turn",
    "dismiss",
    "history_path",
    "load_decisions",
    "read_history",
    "remote_reason",
    "scan",
]
