"""Suggestions mined from past sessions, a person's accept/dismiss, and the history log."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from context_center.engine.changes import Changes, FactChange, FactChangeKind
from context_center.engine.facade.core import EngineCore
from context_center.engine.model import Scope

if TYPE_CHECKING:
    from context_center.engine.suggestions import (
        AcceptResult,
        CandidateEdit,
        Decision,
        MemoryCandidate,
        ScanResult,
        SkillCandidate,
    )
    from context_center.engine.suggestions.history import HistoryEntry


class SuggestionsAPI(EngineCore):
    def scan_suggestions(
        self, *, claude_root: Path | None = None, codex_root: Path | None = None
    ) -> ScanResult:
        """Mine candidates from recent user turns. Writes nothing, not even a store cache; a
        remote workspace reads no local memory or instructions at all."""
        from context_center.engine.instructions.resolve import resolve_instructions
        from context_center.engine.suggestions import remote_reason, scan
        from context_center.engine.suggestions.service import default_roots

        default_claude, default_codex = default_roots()
        claude = claude_root or default_claude
        codex = codex_root or default_codex
        if remote_reason(self.workspace):
            return scan(self.layout, [], [], claude_root=claude, codex_root=codex)
        facts = self.memory.load(persist_cache=False).facts
        chain = resolve_instructions(
            self.home, self.workspace if self.explicit_workspace else None, self.workspace
        )
        labelled = [(doc.label, doc.body) for doc in chain.documents]
        return scan(self.layout, facts, labelled, claude_root=claude, codex_root=codex)

    def accept_suggestion(
        self,
        candidate: str | MemoryCandidate | SkillCandidate,
        edited: CandidateEdit | dict[str, Any] | None = None,
        *,
        claude_root: Path | None = None,
        codex_root: Path | None = None,
    ) -> Changes[AcceptResult]:
        """A person accepts a candidate: a memory becomes a fact, a skill a SKILL.md."""
        from context_center.engine.suggestions import accept

        result = accept(
            self.layout,
            candidate,
            edited,
            memory=self.memory,
            claude_root=claude_root,
            codex_root=codex_root,
        )
        facts: tuple[FactChange, ...] = ()
        if result.fact is not None:
            fact = result.fact
            facts = (
                FactChange(
                    Scope(fact.get("scope", "project")),
                    str(fact.get("name", "")),
                    str(fact.get("id", "")),
                    FactChangeKind.CREATED,
                    1,
                ),
            )
        return Changes(result, facts=facts, suggestions=True)

    def dismiss_suggestion(
        self,
        candidate: str | MemoryCandidate | SkillCandidate,
        *,
        claude_root: Path | None = None,
        codex_root: Path | None = None,
    ) -> Changes[Decision]:
        """A person does not want this candidate; it is never proposed again."""
        from context_center.engine.suggestions import dismiss

        decision = dismiss(self.layout, candidate, claude_root=claude_root, codex_root=codex_root)
        return Changes(decision, suggestions=True)

    def append_history(
        self, text: str, *, session: str | None = None, time: datetime | None = None
    ) -> Changes[HistoryEntry]:
        """Log one user turn to this workspace's history (a source for suggestions)."""
        from context_center.engine.suggestions import append_turn

        entry = append_turn(self.layout, text, session=session, time=time)
        return Changes(entry, history=True)
