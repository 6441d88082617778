"""Multi-step writes killed in the middle (issue 17): every state left behind is the old fact or
the new one, and what an older build left half-done repairs itself on the next open.

Each test builds the on-disk state a kill leaves (by hand, or by stopping the write at one
system call), then opens the store with a fresh engine, as the next process would.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from pathlib import Path

import pytest

from context_center.engine import Engine, EngineError, FactType
from context_center.engine.store import atomic


class Killed(BaseException):
    """Stands for SIGKILL at one system call: nothing after it runs, no cleanup either."""


def fresh(engine: Engine) -> Engine:
    return Engine(home=engine.home, workspace=engine.workspace)


def fact_files(store: Path) -> list[str]:
    return sorted(p.name for p in store.glob("*.md") if p.name != "MEMORY.md")


def kill_at(monkeypatch: pytest.MonkeyPatch, name: str, when) -> None:  # type: ignore[no-untyped-def]
    """Raise ``Killed`` instead of ``os.<name>(*args)`` the first time ``when(*args)`` holds."""
    real = getattr(os, name)

    def fake(*args, **kwargs):  # type: ignore[no-untyped-def]
        if when(*args):
            monkeypatch.setattr(os, name, real)
            raise Killed(name)
        return real(*args, **kwargs)

    monkeypatch.setattr(os, name, fake)


# -- rename --------------------------------------------------------------------------------


def test_an_older_builds_rename_killed_between_link_and_unlink_is_one_fact(engine: Engine) -> None:
    """Old protocol: link(old, new), unlink(old), write. Killed after the link, one inode has
    two names: that is one fact (the name it declares), not two excluded duplicates."""
    fact = engine.memory.create(name="old-name", type=FactType.PROJECT, body="the body")
    store = engine.layout.project_store
    os.link(store / "old-name.md", store / "new-name.md")
    other = fresh(engine)
    view = other.memory.load()
    assert view.diagnostics == []
    assert [e.fact.name for e in view.entries] == ["old-name"]
    assert other.memory.resolve(fact.id).fact.body == "the body"
    assert fact_files(store) == ["old-name.md"]  # the extra name was removed on open
    renamed = other.memory.update(fact.id, expected_revision=1, name="new-name")
    assert renamed.name == "new-name" and fact_files(store) == ["new-name.md"]


def test_a_rename_killed_before_the_old_name_is_removed_keeps_the_new_fact(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    fact = engine.memory.create(name="old-name", type=FactType.PROJECT, body="old body")
    store = engine.layout.project_store
    old = str(store / "old-name.md")
    kill_at(monkeypatch, "unlink", lambda path, *a: str(path) == old)
    with pytest.raises(Killed):
        engine.memory.update(fact.id, expected_revision=1, name="new-name", body="new body")
    monkeypatch.undo()
    view = fresh(engine).memory.load()
    assert view.diagnostics == []
    (entry,) = view.entries
    # the old fact or the new one, never both and never a mix of the two
    assert (entry.fact.name, entry.fact.body, entry.fact.revision) in {
        ("old-name", "old body", 1),
        ("new-name", "new body", 2),
    }
    assert fact_files(store) == [f"{entry.fact.name}.md"]
    assert fresh(engine).memory.resolve(fact.id).fact == entry.fact


def test_no_kill_point_of_a_rename_leaves_the_new_name_with_the_old_content(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Old protocol, killed after the unlink and before the write: the new name carried the
    old body and revision. Stopping at every write, link, rename and unlink of the rename must
    never produce that mix."""
    seen = []
    for call in ("write", "link", "rename", "replace", "unlink"):
        for nth in range(1, 4):
            home = engine.home.parent / f"home-{call}-{nth}"
            e = Engine(home=home, workspace=engine.workspace)
            fact = e.memory.create(name="old-name", type=FactType.PROJECT, body="old body")
            count = [0]

            def when(*args: object, _count: list[int] = count, _nth: int = nth) -> bool:
                _count[0] += 1
                return _count[0] == _nth

            kill_at(monkeypatch, call, when)
            with contextlib.suppress(Killed):
                e.memory.update(fact.id, expected_revision=1, name="new-name", body="new body")
            monkeypatch.undo()
            view = Engine(home=home, workspace=engine.workspace).memory.load()
            assert view.diagnostics == [], (call, nth)
            (entry,) = view.entries
            state = (entry.fact.name, entry.fact.body, entry.fact.revision)
            assert state in {("old-name", "old body", 1), ("new-name", "new body", 2)}, (call, nth)
            seen.append(state)
    assert ("new-name", "new body", 2) in seen and ("old-name", "old body", 1) in seen


# -- forget and recover -----------------------------------------------------------------------


def test_an_older_builds_forget_killed_between_link_and_unlink_leaves_no_archive_copy(
    engine: Engine,
) -> None:
    fact = engine.memory.create(name="kept", type=FactType.PROJECT, body="b")
    store = engine.layout.project_store
    (store / ".archive").mkdir()
    os.link(store / "kept.md", store / ".archive" / "20260101-000000.000-kept.md")
    other = fresh(engine)
    view = other.memory.load()
    assert [e.fact.id for e in view.entries] == [fact.id] and view.diagnostics == []
    assert other.memory.archived() == []
    assert list((store / ".archive").iterdir()) == []


def test_a_link_based_forget_killed_before_the_unlink_leaves_no_archive_copy(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the system has no no-replace rename, forget falls back to link + unlink."""
    fact = engine.memory.create(name="kept", type=FactType.PROJECT, body="b")
    monkeypatch.setattr(atomic, "renameat2_noreplace", lambda src, dst: False)
    path = str(engine.layout.project_store / "kept.md")
    kill_at(monkeypatch, "unlink", lambda p, *a: str(p) == path)
    with pytest.raises(Killed):
        engine.memory.forget(fact.ref)
    monkeypatch.undo()
    other = fresh(engine)
    assert [e.fact.id for e in other.memory.load().entries] == [fact.id]
    assert other.memory.archived() == []


def test_an_older_builds_recover_killed_before_removing_the_entry_leaves_no_archive_copy(
    engine: Engine,
) -> None:
    """Old protocol: snapshot, write the next revision, unlink the entry. Killed before the
    unlink, the entry stays while its fact is active again."""
    fact = engine.memory.create(name="back", type=FactType.PROJECT, body="b")
    _, dest = engine.memory.forget(fact.ref)
    archived_bytes = dest.read_bytes()
    recovered = engine.memory.recover(dest)
    assert recovered.revision == 2
    dest.write_bytes(archived_bytes)  # the entry the old build did not get to remove
    other = fresh(engine)
    other.memory.load()
    assert other.memory.archived() == []
    assert not dest.exists()
    assert other.memory.resolve(fact.id).fact.revision == 2


def test_a_recover_stopped_at_any_step_never_doubles(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped at every system call of a recover: one active fact or one archive entry."""
    for nth in range(1, 200):
        home = engine.home.parent / f"home-recover-{nth}"
        e = Engine(home=home, workspace=engine.workspace)
        fact = e.memory.create(name="back", type=FactType.PROJECT, body="b")
        _, dest = e.memory.forget(fact.ref)
        count = [0]

        def when(*args: object, _count: list[int] = count, _nth: int = nth) -> bool:
            _count[0] += 1
            return _count[0] == _nth

        for call in ("write", "fsync", "link", "rename", "replace", "unlink"):
            kill_at(monkeypatch, call, when)
        stopped = False
        try:
            e.memory.recover(dest)
        except Killed:
            stopped = True
        monkeypatch.undo()
        other = Engine(home=home, workspace=engine.workspace)
        view = other.memory.load()
        active = [x.fact for x in view.entries]
        archived = other.memory.archived()
        assert view.diagnostics == [], nth
        assert len(active) + len(archived) == 1, (nth, active, archived)
        if not stopped:  # the recover ran to its end: every step was covered
            assert nth > 5
            break
    else:
        raise AssertionError("the recover never ran to its end")


# -- orphan temp files ----------------------------------------------------------------------------


def _orphan(folder: Path, name: str, age_s: float) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(b"half a write")
    then = time.time() - age_s
    os.utime(path, (then, then))
    return path


def test_orphan_temp_files_are_swept_when_ours_and_old(engine: Engine) -> None:
    fact = engine.memory.create(name="f", type=FactType.PROJECT, body="v1")
    engine.memory.update(fact.ref, expected_revision=1, body="v2")
    store = engine.layout.project_store
    revisions = store / ".revisions" / fact.id
    old = [
        _orphan(revisions, ".tmp-0123456789abcdef", 7200),
        _orphan(store, ".tmp-00000000000000aa", 7200),
        _orphan(store / ".archive", ".tmp-fedcba9876543210", 7200),
        _orphan(store / ".revisions", ".tmp-1111111111111111", 7200),
    ]
    kept = [
        _orphan(revisions, ".tmp-aaaaaaaaaaaaaaaa", 60),  # young: a writer may still own it
        _orphan(revisions, ".tmp-not-ours", 7200),  # not our name pattern
        _orphan(store, ".tmp-ABCDEF0123456789", 7200),  # not our name pattern (upper case)
    ]
    age_sweep_marker(store)  # the deep sweep runs at most once per orphan age
    fresh(engine).memory.load()
    assert [p for p in old if p.exists()] == []
    assert all(p.exists() for p in kept)
    assert fresh(engine).memory.resolve(fact.ref).fact.body == "v2"


def test_orphans_in_the_engines_other_folders_are_swept(engine: Engine) -> None:
    engine.memory.create(name="f", type=FactType.PROJECT, body="v1")
    old = [
        _orphan(engine.layout.state_dir, ".tmp-0123456789abcdef", 7200),
        _orphan(engine.layout.approvals_dir / "pending", ".tmp-0123456789abcdee", 7200),
    ]
    age_sweep_marker(engine.layout.project_store)
    fresh(engine).memory.load()
    assert [p for p in old if p.exists()] == []


def test_two_copies_that_cannot_be_told_apart_stay_excluded(engine: Engine, tmp_path: Path) -> None:
    fact = engine.memory.create(name="old-name", type=FactType.PROJECT, body="b")
    store = engine.layout.project_store
    os.link(store / "old-name.md", store / "new-name.md")
    copy_home = tmp_path / "copy-home"
    shutil.copytree(engine.home, copy_home, symlinks=True)
    copied = Engine(home=copy_home, workspace=engine.workspace)
    # copytree does not keep hard links: two files with one id, one content and one revision
    # cannot be told apart, so both stay excluded (nothing is deleted on a guess)
    view = copied.memory.load()
    assert [d.code for d in view.diagnostics] == ["duplicate_id", "duplicate_id"]
    with pytest.raises(EngineError):
        copied.memory.resolve("old-name")
    assert fact_files(copied.layout.project_store) == ["new-name.md", "old-name.md"]
    assert fresh(engine).memory.resolve(fact.id).fact.name == "old-name"


def age_sweep_marker(store: Path) -> None:
    """Make the store's last periodic sweep look older than the orphan age."""
    from context_center.engine.store import repair
    from context_center.engine.store.paths import store_cache_dir

    marker = store_cache_dir(store) / repair.MARKER
    if marker.exists():
        then = time.time() - 2 * atomic.ORPHAN_AGE_S
        os.utime(marker, (then, then))
