"""Facts of both stores: list, read, a person's save/forget/restore/recover, migration."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine.changes import Changes, FactChange, FactChangeKind, migrated
from context_center.engine.errors import EngineError
from context_center.engine.facade.core import EngineCore
from context_center.engine.kinds import FactType, Scope

if TYPE_CHECKING:
    from context_center.engine.model import Diagnostic, Fact
    from context_center.engine.store.factstore import ArchivedEntry, Entry, RevisionEntry
    from context_center.engine.store.memory import MemoryView
    from context_center.engine.store.syncresolve import SyncConflict


@dataclass(frozen=True)
class LoadedEntries:
    """Both stores' active entries as read from disk, before conflicts are computed."""

    project: list[Entry]
    global_: list[Entry]
    diagnostics: list[Diagnostic]


def fact_change(fact: Fact, kind: FactChangeKind) -> FactChange:
    return FactChange(fact.scope, fact.name, fact.id, kind, fact.revision)


class FactsAPI(EngineCore):
    def open(self, *, migrate: bool = False, persist_cache: bool = True) -> MemoryView:
        """Load both stores. With ``migrate`` (the window, mutating commands) legacy facts are
        upgraded in place first, which is safe because every rewrite re-checks the file's hash
        under the store lock."""
        if migrate:
            self.memory.migrate()
        return self.memory.load(persist_cache=persist_cache)

    def load_entries(self, *, trust_cache: bool = False) -> LoadedEntries:
        """Read both stores (cache-backed) without computing conflicts: what a table needs
        first. ``view()`` afterwards has the conflicts of the same state.

        ``trust_cache``: a fact file whose name and inode are those its store's parsed-facts
        cache holds is taken from the cache without a ``stat``, so an edit made in place, or
        a file replaced by one that got the same inode number back, is not seen; nothing is
        written or repaired. Only for a first look that a normal load checks right after (the
        window's Memory tab at 50,000 facts)."""
        project = self.memory.project.load(trust_cache=trust_cache)
        global_ = self.memory.global_.load(trust_cache=trust_cache)
        return LoadedEntries(
            list(project.entries.values()),
            list(global_.entries.values()),
            project.diagnostics + global_.diagnostics,
        )

    def view(self) -> MemoryView:
        """The last loaded state, updated by this process's own writes (no disk scan)."""
        return self.memory.view()

    def read_fact(self, ref: str) -> Entry:
        """``project/<name>.md``, ``global/<name>.md``, an id or a bare name (project first)."""
        return self.memory.resolve(ref)

    def create_fact(
        self,
        *,
        name: str,
        title: str = "",
        description: str = "",
        type: FactType,
        scope: Scope = Scope.PROJECT,
        body: str,
        now: datetime | None = None,
    ) -> Changes[Fact]:
        """A person's new fact (create-only: an existing name is refused, and so is a name
        holding a secret or a local path: it would be the fact's ref)."""
        from context_center.engine.gate.create import checked_name

        checked_name(name)
        fact = self.memory.create(
            name=name,
            title=title,
            description=description,
            type=type,
            scope=scope,
            body=body,
            now=now,
        )
        return Changes(fact, facts=(fact_change(fact, FactChangeKind.CREATED),))

    def update_fact(
        self,
        ref: str,
        *,
        expected_revision: int,
        expected_sha: str | None = None,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        type: FactType | None = None,
        body: str | None = None,
        now: datetime | None = None,
    ) -> Changes[Fact]:
        """A person's edit, checked against the revision (and hash) they saw."""
        if name is not None:
            from context_center.engine.gate.create import checked_name

            checked_name(name)
        before = self.memory.resolve(ref).fact
        fact = self.memory.update(
            ref,
            expected_revision=expected_revision,
            expected_sha=expected_sha,
            name=name,
            title=title,
            description=description,
            type=type,
            body=body,
            now=now,
        )
        changed = [fact_change(fact, FactChangeKind.UPDATED)]
        if fact.name != before.name:  # a rename: the old file name is gone
            changed.append(FactChange(before.scope, before.name, before.id, FactChangeKind.RENAMED))
        return Changes(fact, facts=tuple(changed))

    def revisions(self, ref: str) -> list[RevisionEntry]:
        return self.memory.revisions(ref)

    def restore_fact(
        self, ref: str, revision: int, *, now: datetime | None = None
    ) -> Changes[Fact]:
        """Bring back an older revision's content as a new revision."""
        fact = self.memory.restore(ref, revision, now=now)
        return Changes(fact, facts=(fact_change(fact, FactChangeKind.RESTORED),))

    def forget_fact(
        self, ref: str, *, expected_revision: int | None = None, now: datetime | None = None
    ) -> Changes[tuple[Fact, Path]]:
        """Move a fact to its store's archive (recoverable)."""
        fact, dest = self.memory.forget(ref, expected_revision=expected_revision, now=now)
        return Changes((fact, dest), facts=(fact_change(fact, FactChangeKind.ARCHIVED),))

    def archived(self) -> list[ArchivedEntry]:
        return self.memory.archived()

    def archive_ref(self, entry: ArchivedEntry) -> str:
        """The reference of an archive entry as ``memory recover`` takes it."""
        return self.memory.archive_ref(entry)

    def recover_fact(
        self, path: str | Path, *, name: str | None = None, now: datetime | None = None
    ) -> Changes[Fact]:
        """Bring an archived fact back (refused while a fact of that name is active; ``name``
        recovers it under another name, keeping its id and history)."""
        fact = self.memory.recover(path, name=name, now=now)
        return Changes(fact, facts=(fact_change(fact, FactChangeKind.RECOVERED),))

    def migrate(self) -> Changes[list[str]]:
        """Rewrite legacy facts in canonical form (idempotent). The value lists changed refs."""
        refs = self.memory.migrate()
        written: dict[str, tuple[str, int]] = {}
        for ref in refs:  # as it is now: another process may have moved it since
            with contextlib.suppress(EngineError):
                fact = self.memory.resolve(ref).fact
                written[ref] = (fact.id, fact.revision)
        return migrated(refs, written)

    def sync_conflicts(self) -> list[SyncConflict]:
        """Conflict copies and files with git conflict markers in the loaded stores, each
        paired with its fact and carrying both sides' text (for a diff)."""
        from context_center.engine.store.syncresolve import find_conflicts

        return find_conflicts(self.memory)

    def keep_sync_side(
        self,
        scope: Scope,
        path: str,
        side: str,
        *,
        expected_revision: int | None = None,
        now: datetime | None = None,
    ) -> Changes[tuple[Fact, Path]]:
        """Resolve a sync conflict (``SyncConflict.scope``/``path``) by keeping ``side`` (one of
        its ``sides``): it becomes a new revision of the fact, the other side goes to the
        archive. The value is (the fact as written, the archive entry). The ARCHIVED change
        names that archive entry (its file stem, no id), not the fact, which stays active."""
        from context_center.engine.store.syncresolve import keep_side

        fact, dest = keep_side(
            self.memory, scope, path, side, expected_revision=expected_revision, now=now
        )
        return Changes(
            (fact, dest),
            facts=(
                fact_change(fact, FactChangeKind.UPDATED),
                FactChange(scope, dest.name[:-3], "", FactChangeKind.ARCHIVED),
            ),
        )
