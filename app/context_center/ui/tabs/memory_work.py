"""The Memory tab's engine work (runs in the worker thread; plain data in and out)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from context_center.engine import (
    Area,
    Changes,
    Conflict,
    Diagnostic,
    Engine,
    Entry,
    Fact,
    FactChangeKind,
    FactType,
    gc_paused,
)
from context_center.ui.dialogs.fact_editor import FactDraft
from context_center.ui.models.facts import FactRow, build_rows


@dataclass(frozen=True)
class MemoryData:
    """What the first step of a refresh loads in the worker thread: every row."""

    rows: list[FactRow]
    diagnostics: list[Diagnostic]
    total_project: int
    total_global: int

    @property
    def diagnostics_count(self) -> int:
        return len(self.diagnostics)


def load_memory(engine: Engine, trusted: bool = False) -> MemoryData:
    """Both stores, as table rows. Conflicts come in a second step (``load_conflicts``) so the
    table is usable as soon as the files are read. ``trusted``: the window's first look, which
    takes every file the store cache names with the same inode from the cache without a
    ``stat`` (``Engine.load_entries(trust_cache=True)``); the tab checks it right after."""
    # 50k facts and rows: no cycles, and the cyclic GC would rescan them often. Freezing the
    # survivors out of it is a process-wide decision, the window's to make (never the engine's).
    with gc_paused(freeze=True):
        loaded = engine.load_entries(trust_cache=trusted)
        # the search text is built after the table is shown (``MemoryTab.refresh``)
        rows = build_rows([*loaded.project, *loaded.global_], datetime.now(UTC), haystacks=False)
    diagnostics = sorted(loaded.diagnostics, key=lambda d: (str(d.scope), d.path))
    return MemoryData(rows, diagnostics, len(loaded.project), len(loaded.global_))


def same_files(a: MemoryData, b: MemoryData) -> bool:
    """Whether two loads read the same files as the same content (the trusted first look and
    the check after it, in the common case)."""
    return (
        len(a.rows) == len(b.rows)
        and [(r.ref, r.entry.sha256, r.revision) for r in a.rows]
        == [(r.ref, r.entry.sha256, r.revision) for r in b.rows]
        and [(d.code, d.path) for d in a.diagnostics] == [(d.code, d.path) for d in b.diagnostics]
    )


def read_entries(engine: Engine, refs: list[str]) -> list[Entry]:
    """Fact files read again one by one (a hand edit the watcher named): no store scan."""
    return [engine.read_fact(ref) for ref in refs]


def hand_edits(changes: Changes[object], source: object | None) -> set[tuple[str, str]] | None:
    """The (scope, name) of fact files the watcher saw edited in place, when that is all the
    change-set says (no create, delete or other area of the Memory tab); else None."""
    if source is not None or changes.outside & {Area.FACTS, Area.WORKSPACE} or not changes.facts:
        return None
    if any(c.kind is not FactChangeKind.UPDATED or c.id for c in changes.facts):
        return None
    return {(c.scope.value, c.name) for c in changes.facts}


def patch_rows(rows: list[FactRow], changed: list[FactRow]) -> list[FactRow] | None:
    """``rows`` with each of ``changed`` in place of the row of the same file; None when a
    changed file is not a row yet, or its title, name or id moved (conflicts and sort keys
    may change then: reload everything instead)."""
    where = {(r.scope, r.name): i for i, r in enumerate(rows)}
    out = list(rows)
    for row in changed:
        i = where.get((row.scope, row.name))
        if i is None or out[i].id != row.id or out[i].title != row.title:
            return None
        out[i] = row
    return out


def load_conflicts(engine: Engine) -> list[Conflict]:
    """Project-over-global pairs of the state ``load_memory`` just read (no disk scan)."""
    return engine.view().conflicts


def current_entry(engine: Engine, fact_id: str) -> Entry | None:
    view = engine.open(persist_cache=False)
    for entry in view.entries:
        if entry.fact.id == fact_id:
            return entry
    return None


def update_fact(engine: Engine, entry: Entry, draft: FactDraft) -> Changes[Fact]:
    """Save against the revision and the content hash the person edited from."""
    fact = entry.fact
    return engine.update_fact(
        fact.id,
        expected_revision=fact.revision,
        expected_sha=entry.sha256,
        title=draft.title.strip() or fact.title,
        description=draft.description,
        type=FactType(draft.type),
        body=draft.body,
    )


def create_fact(engine: Engine, draft: FactDraft) -> Changes[Fact]:
    return engine.create_fact(
        name=draft.name,
        title=draft.title,
        description=draft.description,
        type=draft.type,
        scope=draft.scope,
        body=draft.body,
    )


def forget_fact(engine: Engine, fact: Fact) -> Changes[tuple[Fact, Path]]:
    return engine.forget_fact(fact.id, expected_revision=fact.revision)
