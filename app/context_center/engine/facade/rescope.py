"""Moving a fact between the project store and the global store (promote and back).

The two stores are two folders, so a move cannot be one rename. ``Engine.rescope_fact`` holds
both stores' locks (always project first, then global, so two processes moving facts in
opposite directions never wait on each other) and then:

1. checks the fact is still at the revision the person saw (``expected_revision``) and that
   the target store has no fact of that name (``rescope_name_taken``) or id
   (``rescope_id_taken``);
2. copies the fact's saved revisions into the target store (re-rendered for the new scope, so
   the Revisions view and restore keep working there), then saves the current file as the
   snapshot of its revision;
3. creates the fact in the target store with the same id, as the next revision (an exclusive
   create: it never overwrites);
4. forgets the source: one no-replace rename into the source store's ``.archive`` (the exact
   bytes stay recoverable there; the archive entry says where the fact used to live).

A process killed between 3 and 4 leaves the same id active in both stores, never neither: the
Memory tab shows the pair as a conflict (the project copy masks the global one in recall),
and running the same move again recognises it (the target holds that id at revision + 1 with
the source's content) and only finishes step 4. A kill before 3 leaves the source as it was
(extra snapshots in the target are inert files nothing lists).
"""

from __future__ import annotations

import os
from datetime import datetime
from typing import TYPE_CHECKING

from context_center.engine.changes import Changes, FactChange, FactChangeKind
from context_center.engine.facade.core import EngineCore
from context_center.engine.kinds import Scope, utc_now

if TYPE_CHECKING:
    from context_center.engine.model import Fact
    from context_center.engine.store.entries import Entry
    from context_center.engine.store.factstore import FactStore

_CONTENT = ("name", "title", "description", "type", "body")


def _same_content(a: Fact, b: Fact) -> bool:
    return all(getattr(a, key) == getattr(b, key) for key in _CONTENT)


class RescopeAPI(EngineCore):
    def rescope_fact(
        self,
        ref: str,
        scope: Scope | str,
        *,
        expected_revision: int,
        now: datetime | None = None,
    ) -> Changes[Fact]:
        """Move a fact to ``scope`` (project → global or back), keeping its id and history.

        The value is the fact in its new store (revision + 1). The change-set names it
        (CREATED, in the target scope) and the source file (ARCHIVED, in the old scope).
        Refused with ``same_scope`` when it is already there, ``revision_conflict`` when it
        changed since the person saw it, ``rescope_name_taken`` / ``rescope_id_taken`` when the
        target store already has a fact of that name / id. Nothing is written when refused.
        """
        from context_center.engine.errors import InvalidRequest

        target_scope = Scope(scope)
        first = self.memory.resolve(ref).fact
        if first.scope is target_scope:
            raise InvalidRequest(
                f"{first.ref} is already a {target_scope.value} fact", code="same_scope"
            )
        source = self.memory.store(first.scope)
        target = self.memory.store(target_scope)
        with self.memory.project.locked(), self.memory.global_.locked():
            entry = self._fresh_source(source, first, expected_revision)
            done = self._interrupted_move(target, entry.fact)
            if done is None:
                self._check_target(target, entry.fact)
                done = self._write_target(source, target, entry, now or utc_now())
            source.forget(entry.fact.name, expected_revision=entry.fact.revision, now=now)
        gone = entry.fact
        return Changes(
            done,
            facts=(
                FactChange(done.scope, done.name, done.id, FactChangeKind.CREATED, done.revision),
                FactChange(gone.scope, gone.name, gone.id, FactChangeKind.ARCHIVED, gone.revision),
            ),
        )

    @staticmethod
    def _fresh_source(source: FactStore, first: Fact, expected_revision: int) -> Entry:
        from context_center.engine.errors import NotFound, RevisionConflict

        entry = source.find_id(first.id)
        if entry is None:
            raise NotFound(f"{first.ref} is no longer active")
        fact = entry.fact
        if fact.revision != expected_revision:
            raise RevisionConflict(
                f"revision conflict on {fact.ref}: expected {expected_revision}, found "
                f"{fact.revision}",
                current_revision=fact.revision,
            )
        return entry

    @staticmethod
    def _interrupted_move(target: FactStore, fact: Fact) -> Fact | None:
        """The target's copy when an earlier move of this fact was killed after step 3."""
        there = target.find_id(fact.id)
        if there is None:
            return None
        if there.fact.revision == fact.revision + 1 and _same_content(there.fact, fact):
            return there.fact
        from context_center.engine.errors import AlreadyExists

        raise AlreadyExists(
            f"id {fact.id} is already active in the {target.scope.value} store as "
            f"{there.fact.ref}; resolve that pair first",
            code="rescope_id_taken",
        )

    @staticmethod
    def _check_target(target: FactStore, fact: Fact) -> None:
        from context_center.engine.errors import AlreadyExists

        taken = f"{target.scope.value}/{fact.name}.md"
        if fact.name in target.snapshot().entries or os.path.lexists(
            target.root / f"{fact.name}.md"
        ):
            raise AlreadyExists(
                f"{taken} already exists: rename one of the two facts first (nothing was moved)",
                code="rescope_name_taken",
            )

    @staticmethod
    def _write_target(source: FactStore, target: FactStore, entry: Entry, now: datetime) -> Fact:
        import hashlib

        from context_center.engine.model import Fact
        from context_center.engine.store.entries import Entry as StoreEntry
        from context_center.engine.store.factfile import render_fact
        from context_center.engine.store.revisions import list_snapshots, save_snapshot

        fact = entry.fact
        moved = Fact.model_validate(
            fact.model_copy(
                update={"scope": target.scope, "revision": fact.revision + 1, "updated_at": now}
            ).model_dump()
        )
        render_fact(moved)  # refuses an unrepresentable value before anything is written
        history = [(s.fact, s.path) for s in list_snapshots(source.root, source.scope, fact.id)]
        for old, path in [*history, (fact, entry.path)]:
            copy = old.model_copy(update={"scope": target.scope})
            blob = render_fact(copy)
            save_snapshot(
                target.root, StoreEntry(copy, path, hashlib.sha256(blob).hexdigest()), blob
            )
        # the store's own create path, with the moved fact's id and revision
        created = target._write_new(moved)
        target.index_change(put=moved)
        target._remember(created)
        return moved
