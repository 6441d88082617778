"""Suggestions: memory and skill candidates mined from past sessions, accepted only by a person.

``history`` is this workspace's own session log; ``sources`` reads it and the Claude Code and
Codex CLI transcripts (``claude_source``, ``codex_source``, shared parts in ``turns``; whether a
workspace is local: ``remote``); ``mining`` turns user turns into memory candidates (leaving out
pasted material, ``pasted``, and e-mail addresses and secrets, ``privacy``), ``skills`` into skill
candidates; ``service`` scans (never writing, duplicates judged by ``known``); ``accept``
accepts and dismisses (``decisions``, ``skillfile``). ``models`` holds the data that crosses the
boundary.

The names below load lazily, so importing one submodule (``remote`` for the workspace check
every command makes) does not load the miners.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from context_center.lazy import lazy_exports

if TYPE_CHECKING:
    from context_center.engine.suggestions.accept import (
        accept as accept,
    )
    from context_center.engine.suggestions.accept import (
        dismiss as dismiss,
    )
    from context_center.engine.suggestions.decisions import (
        load_decisions as load_decisions,
    )
    from context_center.engine.suggestions.history import (
        HistoryEntry as HistoryEntry,
    )
    from context_center.engine.suggestions.history import (
        append_turn as append_turn,
    )
    from context_center.engine.suggestions.history import (
        history_path as history_path,
    )
    from context_center.engine.suggestions.history import (
        read_history as read_history,
    )
    from context_center.engine.suggestions.models import (
        MEMORY_LIMIT as MEMORY_LIMIT,
    )
    from context_center.engine.suggestions.models import (
        SESSION_LIMIT as SESSION_LIMIT,
    )
    from context_center.engine.suggestions.models import (
        SKILL_FOLDER as SKILL_FOLDER,
    )
    from context_center.engine.suggestions.models import (
        SKILL_FOLDERS as SKILL_FOLDERS,
    )
    from context_center.engine.suggestions.models import (
        SKILL_LIMIT as SKILL_LIMIT,
    )
    from context_center.engine.suggestions.models import (
        AcceptResult as AcceptResult,
    )
    from context_center.engine.suggestions.models import (
        CandidateEdit as CandidateEdit,
    )
    from context_center.engine.suggestions.models import (
        Decision as Decision,
    )
    from context_center.engine.suggestions.models import (
        EvidenceItem as EvidenceItem,
    )
    from context_center.engine.suggestions.models import (
        MemoryCandidate as MemoryCandidate,
    )
    from context_center.engine.suggestions.models import (
        RemoteWorkspace as RemoteWorkspace,
    )
    from context_center.engine.suggestions.models import (
        ScanResult as ScanResult,
    )
    from context_center.engine.suggestions.models import (
        SkillCandidate as SkillCandidate,
    )
    from context_center.engine.suggestions.models import (
        SkillOutsideWorkspace as SkillOutsideWorkspace,
    )
    from context_center.engine.suggestions.models import (
        SourceCount as SourceCount,
    )
    from context_center.engine.suggestions.remote import (
        remote_reason as remote_reason,
    )
    from context_center.engine.suggestions.service import (
        scan as scan,
    )
    from context_center.engine.suggestions.turns import (
        UserTurn as UserTurn,
    )

_EXPORTS: dict[str, str] = {
    "accept": "accept",
    "dismiss": "accept",
    "load_decisions": "decisions",
    "HistoryEntry": "history",
    "append_turn": "history",
    "history_path": "history",
    "read_history": "history",
    "MEMORY_LIMIT": "models",
    "SESSION_LIMIT": "models",
    "SKILL_FOLDER": "models",
    "SKILL_FOLDERS": "models",
    "SKILL_LIMIT": "models",
    "AcceptResult": "models",
    "CandidateEdit": "models",
    "Decision": "models",
    "EvidenceItem": "models",
    "MemoryCandidate": "models",
    "RemoteWorkspace": "models",
    "ScanResult": "models",
    "SkillCandidate": "models",
    "SkillOutsideWorkspace": "models",
    "SourceCount": "models",
    "remote_reason": "remote",
    "scan": "service",
    "UserTurn": "turns",
}
__all__ = sorted(_EXPORTS)


__getattr__ = lazy_exports(__name__, _EXPORTS, globals())


def __dir__() -> list[str]:
    return __all__
