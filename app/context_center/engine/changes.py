"""What one mutation changed: the typed change-set every ``Engine`` mutation returns.

Front ends react to a ``Changes`` instead of guessing: the window refreshes only the views whose
flags are set (and skips the changes it started itself, by ``origin``), the CLI prints it with
``--json``, the agent server logs it. A change-set says *what kind* of state moved and *which
facts*; it never carries bodies, so it is safe to log.

``Changes`` is generic in the mutation's own result (the saved fact, the archive entry, the
approval result…), available as ``value``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any, Generic, TypeVar

from context_center.engine.kinds import Scope

T = TypeVar("T")


class Area(StrEnum):
    """The kinds of state a view may show; a change-set touches one or more of them."""

    FACTS = "facts"
    ARCHIVE = "archive"
    INSTRUCTIONS = "instructions"
    APPROVALS = "approvals"
    TRACE = "trace"
    SUGGESTIONS = "suggestions"
    WORKSPACE = "workspace"


class FactChangeKind(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    RESTORED = "restored"
    RENAMED = "renamed"  # the fact's old name: it now lives under another
    ARCHIVED = "archived"
    RECOVERED = "recovered"
    MIGRATED = "migrated"


@dataclass(frozen=True)
class FactChange:
    """One fact that changed: its scope, file name (stem), id and what happened to it."""

    scope: Scope
    name: str
    id: str
    kind: FactChangeKind
    revision: int | None = None

    @property
    def ref(self) -> str:
        return f"{self.scope.value}/{self.name}.md"

    def to_json(self) -> dict[str, Any]:
        return {
            "ref": self.ref,
            "scope": self.scope.value,
            "name": self.name,
            "id": self.id,
            "kind": self.kind.value,
            "revision": self.revision,
        }


@dataclass(frozen=True)
class Changes(Generic[T]):
    """The change-set of one mutation, with the mutation's result as ``value``."""

    value: T
    facts: tuple[FactChange, ...] = ()
    instructions: tuple[str, ...] = ()  # labels of instruction files written
    approvals: bool = False  # the approval queue changed (queued, decided)
    suggestions: bool = False  # suggestion decisions changed
    trace: bool = False  # the last recall trace was replaced
    history: bool = False  # the session history log grew
    outside: frozenset[Area] = frozenset()  # areas another process changed (names unknown)
    origin: str | None = field(default=None, compare=False)

    @classmethod
    def seen_on_disk(cls, areas: frozenset[Area] | set[Area]) -> Changes[None]:
        """What a file watcher knows: these areas changed on disk, by someone else."""
        return Changes(None, outside=frozenset(areas))

    @property
    def areas(self) -> frozenset[Area]:
        """Every area this change-set touches (what views check)."""
        found = set(self.outside)
        if self.facts:
            found.add(Area.FACTS)
        if any(c.kind in (FactChangeKind.ARCHIVED, FactChangeKind.RECOVERED) for c in self.facts):
            found.add(Area.ARCHIVE)
        if self.instructions:
            found.add(Area.INSTRUCTIONS)
        if self.approvals:
            found.add(Area.APPROVALS)
        if self.trace:
            found.add(Area.TRACE)
        if self.suggestions or self.history:
            found.add(Area.SUGGESTIONS)
        return frozenset(found)

    @property
    def scopes(self) -> frozenset[Scope]:
        return frozenset(change.scope for change in self.facts)

    @property
    def any(self) -> bool:
        return bool(self.areas)

    def with_origin(self, origin: str | None) -> Changes[T]:
        return replace(self, origin=origin)

    def to_json(self) -> dict[str, Any]:
        """The change-set without its value: what the CLI prints under ``"changes"``."""
        return {
            "facts": [change.to_json() for change in self.facts],
            "instructions": list(self.instructions),
            "approvals": self.approvals,
            "suggestions": self.suggestions,
            "trace": self.trace,
            "history": self.history,
            "areas": sorted(area.value for area in self.areas),
        }


def merge(first: Changes[Any], *others: Changes[Any]) -> Changes[None]:
    """The union of several change-sets (a bulk action), without a value."""
    sets = (first, *others)
    return Changes(
        value=None,
        facts=tuple(change for s in sets for change in s.facts),
        instructions=tuple(label for s in sets for label in s.instructions),
        approvals=any(s.approvals for s in sets),
        suggestions=any(s.suggestions for s in sets),
        trace=any(s.trace for s in sets),
        history=any(s.history for s in sets),
        outside=frozenset().union(*(s.outside for s in sets)),
        origin=first.origin,
    )


def migrated(
    refs: list[str], written: dict[str, tuple[str, int]] | None = None
) -> Changes[list[str]]:
    """The change-set of a migration: each rewritten fact by its ref (the value is the refs),
    with the id and revision it was written with (``written``, by ref) where known."""
    facts = []
    for ref in refs:
        scope, _, file = ref.partition("/")
        fact_id, revision = (written or {}).get(ref, ("", None))
        facts.append(
            FactChange(
                Scope(scope), file.removesuffix(".md"), fact_id, FactChangeKind.MIGRATED, revision
            )
        )
    return Changes(refs, facts=tuple(facts))
