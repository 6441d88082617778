"""Suggestions mined from past sessions, a person's accept/dismiss, the history log, and
Claude Code's own memory (read-only, with a person's import into the store)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from context_center.engine.changes import Changes, FactChange, FactChangeKind
from context_center.engine.facade.core import EngineCore
from context_center.engine.kinds import Scope

if TYPE_CHECKING:
    from context_center.engine.claude_memory import ClaudeMemoryView, ImportReport
    from context_center.engine.model import Fact
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
        self,
        *,
        claude_root: Path | None = None,
        codex_root: Path | None = None,
        max_cuts: int | None = None,
    ) -> ScanResult:
        """Mine candidates from recent user turns. Writes nothing, not even a store cache; a
        remote workspace reads no local memory or instructions at all. ``max_cuts``: raise
        PhraseIndexBehind instead of cutting more facts than that into phrases (the ones the
        workspace's phrase index does not describe; ``index_fact_phrases`` writes it), for a
        caller that would rather have the index written elsewhere first (the window)."""
        from context_center.engine.instructions.resolve import resolve_instructions
        from context_center.engine.suggestions import remote_reason, scan
        from context_center.engine.suggestions.service import default_roots

        default_claude, default_codex = default_roots()
        claude = claude_root or default_claude
        codex = codex_root or default_codex
        if remote_reason(self.workspace):
            return scan(self.layout, [], [], claude_root=claude, codex_root=codex)

        def facts() -> list[Fact]:
            return self.memory.load(persist_cache=False).facts

        def labelled() -> list[tuple[str, str]]:
            chain = resolve_instructions(
                self.home, self.workspace if self.explicit_workspace else None, self.workspace
            )
            return [(doc.label, doc.body) for doc in chain.documents]

        # Read only when a candidate is to be compared with them (none: no work on facts).
        return scan(
            self.layout,
            facts,
            labelled,
            claude_root=claude,
            codex_root=codex,
            phrases=self._phrase_index_path(),
            max_cuts=max_cuts,
        )

    def _phrase_index_path(self) -> Path:
        from context_center.engine.store.paths import workspace_cache_dir
        from context_center.engine.suggestions.phraseindex import FILE_NAME

        return workspace_cache_dir(self.layout) / FILE_NAME

    def index_fact_phrases(
        self, *, claude_root: Path | None = None, codex_root: Path | None = None
    ) -> int:
        """Bring the workspace's phrase index up to date with the facts of both scopes (the
        suggestions scan reads it, so that it cuts only the facts changed since): maintenance,
        writing one private file in the cache folder and nothing else. Returns how many facts
        it had to add (0: it was current, nothing written). A workspace whose scan would read
        no user turn (so never the facts) and a remote workspace (no local memory is read
        there) get none. Raises StoreUnavailable when the stores cannot be read or the cache
        folder cannot be written (a missing index only costs speed)."""
        from context_center.engine.errors import StoreUnavailable
        from context_center.engine.suggestions.facttexts import refresh_phrase_index
        from context_center.engine.suggestions.service import has_turns

        if not has_turns(self.layout, claude_root=claude_root, codex_root=codex_root):
            return 0  # no turn to scan, or a remote workspace (``has_turns`` says no)
        facts = self.memory.load(persist_cache=False).facts
        try:
            return refresh_phrase_index(facts, self._phrase_index_path())
        except OSError as exc:
            raise StoreUnavailable(f"cannot write the phrase index: {exc.strerror}") from exc

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
            rescan=lambda: self.scan_suggestions(claude_root=claude_root, codex_root=codex_root),
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

        decision = dismiss(
            self.layout,
            candidate,
            claude_root=claude_root,
            codex_root=codex_root,
            rescan=lambda: self.scan_suggestions(claude_root=claude_root, codex_root=codex_root),
        )
        return Changes(decision, suggestions=True)

    def append_history(
        self, text: str, *, session: str | None = None, time: datetime | None = None
    ) -> Changes[HistoryEntry]:
        """Log one user turn to this workspace's history (a source for suggestions)."""
        from context_center.engine.suggestions import append_turn

        entry = append_turn(self.layout, text, session=session, time=time)
        return Changes(entry, history=True)

    # -- Claude Code's own memory ----------------------------------------------------------

    def claude_memory(
        self, *, claude_root: Path | None = None, home: Path | None = None
    ) -> ClaudeMemoryView:
        """Claude Code's auto memory for this workspace as Claude Code sees it: its memory
        files, its ``MEMORY.md`` index and what it loads of it. Reads only; writes nothing.
        ``claude_root`` is Claude Code's folder (default ``$CLAUDE_CONFIG_DIR``, else
        ``<home>/.claude``); ``home`` defaults to the user's home."""
        from context_center.engine.claude_memory import locate, read_view

        location = locate(self.workspace, home=home, claude_root=claude_root)
        return read_view(location, self.workspace, home)

    def import_claude_memory(
        self,
        *,
        dry_run: bool = False,
        scope: Scope = Scope.PROJECT,
        claude_root: Path | None = None,
        home: Path | None = None,
        now: datetime | None = None,
    ) -> Changes[ImportReport]:
        """A person copies Claude Code's memories into the store as new facts (not queued: it
        is their action). Duplicates by name or title are reported and skipped; ``dry_run``
        reports what would happen and writes nothing. Claude Code's files are never changed."""
        from context_center.engine.claude_memory import ImportReport, plan_import
        from context_center.engine.errors import AlreadyExists, EngineError

        view = self.claude_memory(claude_root=claude_root, home=home)
        facts = self.memory.load(persist_cache=False).facts
        items = []
        created: list[FactChange] = []
        for planned in plan_import(view, facts, scope):
            item = planned.item
            if item.action == "would_import" and not dry_run:
                try:
                    change = self.create_fact(  # type: ignore[attr-defined]
                        name=item.name,
                        title=item.title,
                        description=planned.description,
                        type=item.type,
                        scope=scope,
                        body=planned.body,
                        now=now,
                    )
                except AlreadyExists as exc:
                    item = item.model_copy(update={"action": "duplicate", "reason": str(exc)})
                except EngineError as exc:
                    item = item.model_copy(update={"action": "skipped", "reason": str(exc)})
                else:
                    fact = change.value
                    item = item.model_copy(
                        update={"action": "imported", "name": fact.name, "ref": fact.ref}
                    )
                    created.extend(change.facts)
            items.append(item)
        report = ImportReport(
            source=view.folder_label, exists=view.exists, scope=scope, dry_run=dry_run, items=items
        )
        return Changes(report, facts=tuple(created))
