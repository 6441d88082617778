"""Resolving a reference for a mutation reads the disk as it is now (issue 12): no prior
``memory.load()`` is needed, and a snapshot made stale by another process is never trusted."""

from __future__ import annotations

import gc

import pytest

from context_center.engine import Engine, FactType


def other(engine: Engine) -> Engine:
    return Engine(home=engine.home, workspace=engine.workspace)


def test_mutations_by_id_need_no_prior_load(engine: Engine) -> None:
    fact = engine.memory.create(name="f", type=FactType.PROJECT, body="v1")
    e = other(engine)  # never loaded
    assert e.memory.update(fact.id, expected_revision=1, body="v2").revision == 2
    e = other(engine)
    assert e.memory.update(fact.id, expected_revision=2, name="renamed").name == "renamed"
    e = other(engine)
    assert e.memory.restore(fact.id, 1).body == "v1"
    e = other(engine)
    forgotten, _ = e.memory.forget(fact.id)
    assert forgotten.id == fact.id


def test_an_id_written_by_another_process_after_the_load_resolves(engine: Engine) -> None:
    engine.memory.load()
    fact = other(engine).memory.create(name="late", type=FactType.PROJECT, body="v1")
    assert engine.memory.resolve(fact.id).fact.name == "late"
    assert engine.memory.update(fact.id, expected_revision=1, body="v2").revision == 2


def test_a_rename_by_another_process_does_not_strand_a_loaded_engine(engine: Engine) -> None:
    fact = engine.memory.create(name="before", type=FactType.PROJECT, body="v1")
    engine.memory.load()
    other(engine).memory.update(fact.id, expected_revision=1, name="after")
    # the loaded snapshot still says "before"; the id must resolve against the disk
    updated = engine.memory.update(fact.id, expected_revision=2, body="v3")
    assert (updated.name, updated.revision) == ("after", 3)
    forgotten, _ = engine.memory.forget(fact.id)
    assert forgotten.name == "after"


def test_a_name_reused_by_another_fact_is_not_taken_for_the_id(engine: Engine) -> None:
    fact = engine.memory.create(name="spot", type=FactType.PROJECT, body="first")
    engine.memory.load()
    e = other(engine)
    e.memory.update(fact.id, expected_revision=1, name="moved")
    e.memory.create(name="spot", type=FactType.PROJECT, body="a different fact")
    updated = engine.memory.update(fact.id, expected_revision=2, body="second")
    assert updated.name == "moved"
    assert engine.memory.resolve("spot").fact.body == "a different fact"


def test_loading_never_freezes_the_garbage_collector(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gc.freeze is a process-wide decision: a front end makes it, never an engine load."""
    for i in range(3):
        engine.memory.create(name=f"f{i}", type=FactType.PROJECT, body="b")

    def refuse() -> None:
        raise AssertionError("the engine called gc.freeze()")

    monkeypatch.setattr(gc, "freeze", refuse)
    assert len(other(engine).memory.load().facts) == 3
    assert len(other(engine).open().facts) == 3
    assert gc.isenabled()


def test_the_front_end_helper_freezes_only_when_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    from context_center.engine import gc_paused

    calls: list[str] = []
    monkeypatch.setattr(gc, "freeze", lambda: calls.append("freeze"))
    with gc_paused():
        assert not gc.isenabled()
    assert calls == [] and gc.isenabled()
    with gc_paused(freeze=True):
        pass
    assert calls == ["freeze"] and gc.isenabled()
