"""A person's write migrates legacy facts only when the stores' caches say there are any."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from context_center.engine import Engine, FactType
from context_center.engine.store import migrate as migrate_mod
from context_center.engine.store.paths import workspace_slug

FIXTURE = Path(__file__).parent / "fixtures" / "reasonix-home"


def test_a_reasonix_home_is_migrated_before_the_first_write(home: Path, workspace: Path) -> None:
    shutil.copytree(FIXTURE, home, dirs_exist_ok=True)
    (home / "projects" / "WORKSPACE").rename(home / "projects" / workspace_slug(workspace))
    engine = Engine(home=home, workspace=workspace)
    assert engine.memory.needs_migration()  # no cache yet: cannot tell, so yes
    engine.open(persist_cache=True)  # the cache now counts the legacy files
    assert engine.memory.needs_migration()
    assert engine.prepare_write().value  # migrated
    assert not Engine(home=home, workspace=workspace).memory.needs_migration()


def test_a_canonical_store_is_not_loaded_before_a_write(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine.memory.create(name="one", type=FactType.PROJECT, body="1")
    engine.open(persist_cache=True)
    fresh = Engine(home=engine.home, workspace=engine.workspace)

    def boom(memory: object) -> list[str]:
        raise AssertionError("migrated")

    monkeypatch.setattr(migrate_mod, "migrate", boom)
    assert fresh.prepare_write().value == []
    done = fresh.create_fact(name="two", type=FactType.PROJECT, body="2")
    assert done.value.name == "two"
    assert fresh.memory.project._snapshot is None  # nothing was loaded for the write
