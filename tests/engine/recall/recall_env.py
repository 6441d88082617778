"""Fact factories for the recall tests (no store on disk: recall takes facts as input)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta

from context_center.engine.model import Fact, FactType, Scope

NOW = datetime(2026, 7, 27, 12, 0, tzinfo=UTC)
_counter = itertools.count(1)

MakeFact = Callable[..., Fact]


def fact(
    name: str,
    body: str,
    *,
    title: str = "",
    description: str = "",
    type: FactType = FactType.PROJECT,
    scope: Scope = Scope.PROJECT,
    age_days: float = 1.0,
    revision: int = 1,
    id: str | None = None,
) -> Fact:
    updated = NOW - timedelta(days=age_days)
    return Fact(
        id=id or f"mem-{next(_counter):032x}",
        revision=revision,
        created_at=updated,
        updated_at=updated,
        name=name,
        title=title or name.replace("-", " ").title(),
        description=description,
        type=type,
        scope=scope,
        body=body,
    )
