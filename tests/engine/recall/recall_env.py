"""Fact factories for the recall tests (no store on disk: recall takes facts as input)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

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


SECRET_BODY = "The staging password is hunter2. Deploy staging with care."


def seed_secret_home(home: Path, workspace: Path, deploys: int = 8) -> Path:
    """A home whose project store holds a fact with a password in its body and ``deploys``
    plain ones, recalled once (so its recall cache is built and saved); the cache's path."""
    from context_center.engine import Engine

    writer = Engine(home=home, workspace=workspace)
    writer.create_fact(
        name="staging-db", title="Staging database", type=FactType.PROJECT, body=SECRET_BODY
    )
    for i in range(deploys):
        writer.create_fact(
            name=f"deploy-{i}", title=f"Deploy step {i}", type=FactType.PROJECT, body="Deploy."
        )
    writer.recall("staging database")
    path = writer.recaller.cache_path
    assert path is not None and path.is_file()
    return path
