"""Engine.rescope_fact: moving a fact project ↔ global keeps its id and history, refuses a
name or id taken in the target, respects the revision the person saw, and a move killed
between its steps is finished by running it again."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine import Changes, FactChangeKind
from context_center.engine.errors import AlreadyExists, InvalidRequest, RevisionConflict
from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope


def make_engine(tmp_path: Path) -> Engine:
    workspace = tmp_path / "ws"
    workspace.mkdir()
    return Engine(home=tmp_path / "home", workspace=workspace)


def make(engine: Engine, name: str = "release branch", scope: Scope = Scope.PROJECT) -> str:
    fact = engine.create_fact(
        name=name, title=name.title(), type=FactType.PROJECT, scope=scope, body=f"About {name}."
    ).value
    return fact.id


def test_promote_to_global_keeps_id_content_and_history(tmp_path: Path) -> None:
    engine = make_engine(tmp_path)
    fid = make(engine)
    engine.update_fact(fid, expected_revision=1, body="Second text.")
    changes = engine.rescope_fact(fid, Scope.GLOBAL, expected_revision=2)
    assert isinstance(changes, Changes)
    moved = changes.value
    assert (moved.id, moved.scope, moved.revision, moved.body) == (
        fid,
        Scope.GLOBAL,
        3,
        "Second text.",
    )
    kinds = {(c.scope, c.kind) for c in changes.facts}
    assert kinds == {
        (Scope.GLOBAL, FactChangeKind.CREATED),
        (Scope.PROJECT, FactChangeKind.ARCHIVED),
    }
    view = engine.open()
    assert [e.fact.ref for e in view.project] == []
    assert [e.fact.ref for e in view.global_] == ["global/release-branch.md"]
    revisions = [r.revision for r in engine.revisions(fid)]
    assert revisions == [3, 2, 1]
    # the old copy is recoverable from the project archive, nothing was lost
    assert [a.fact.id for a in engine.archived() if a.fact] == [fid]
    # an older revision can be restored in its new store
    assert engine.restore_fact(fid, 1).value.body == "About release branch."


def test_move_back_to_project(tmp_path: Path) -> None:
    engine = make_engine(tmp_path)
    fid = make(engine, "house style", Scope.GLOBAL)
    moved = engine.rescope_fact("global/house-style.md", "project", expected_revision=1).value
    assert moved.ref == "project/house-style.md" and moved.id == fid
    assert engine.read_fact(fid).fact.scope is Scope.PROJECT


def test_refusals_write_nothing(tmp_path: Path) -> None:
    engine = make_engine(tmp_path)
    fid = make(engine)
    make(engine, "release branch", Scope.GLOBAL)
    with pytest.raises(AlreadyExists) as taken:
        engine.rescope_fact(fid, Scope.GLOBAL, expected_revision=1)
    assert taken.value.code == "rescope_name_taken"
    with pytest.raises(RevisionConflict):
        engine.rescope_fact(fid, Scope.GLOBAL, expected_revision=7)
    with pytest.raises(InvalidRequest) as same:
        engine.rescope_fact(fid, Scope.PROJECT, expected_revision=1)
    assert same.value.code == "same_scope"
    view = engine.open()
    assert len(view.project) == 1 and len(view.global_) == 1
    assert engine.read_fact(fid).fact.revision == 1
    assert engine.archived() == []


def test_a_move_killed_before_the_archive_step_is_finished_by_running_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = make_engine(tmp_path)
    fid = make(engine)
    store = engine.memory.project

    def killed(*_a: object, **_k: object) -> None:
        raise KeyboardInterrupt  # the process dies here

    monkeypatch.setattr(store, "forget", killed)
    with pytest.raises(KeyboardInterrupt):
        engine.rescope_fact(fid, Scope.GLOBAL, expected_revision=1)
    monkeypatch.undo()
    # never neither: the id is active in both stores, shown as a conflict
    fresh = Engine(home=engine.home, workspace=engine.workspace)
    view = fresh.open()
    assert [c.key for c in view.conflicts] == ["id"]
    done = fresh.rescope_fact(fid, Scope.GLOBAL, expected_revision=1).value
    assert done.revision == 2 and done.scope is Scope.GLOBAL
    view = fresh.open()
    assert view.project == [] and [e.fact.id for e in view.global_] == [fid]


def test_an_unrelated_fact_with_that_id_in_the_target_is_refused(tmp_path: Path) -> None:
    engine = make_engine(tmp_path)
    fid = make(engine)
    engine.memory.create(
        name="other", type=FactType.USER, scope=Scope.GLOBAL, body="x", fact_id=fid
    )
    with pytest.raises(AlreadyExists) as taken:
        engine.rescope_fact("project/release-branch.md", Scope.GLOBAL, expected_revision=1)
    assert taken.value.code == "rescope_id_taken"
