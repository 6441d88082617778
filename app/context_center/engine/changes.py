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

from context_center.engine.model import Scope

T = TypeVar("T")


class FactChangeKind(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    RESTORED = "restored"
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
    origin: str | None = field(default=None, compare=False)

    @property
    def scopes(self) -> frozenset[Scope]:
        return frozenset(change.scope for change in self.facts)

    @property
    def any(self) -> bool:
        return bool(
            self.facts
            or self.instructions
            or self.approvals
            or self.suggestions
            or self.trace
            or self.history
        )

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
        origin=first.origin,
    )
