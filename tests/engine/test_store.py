"""The fact store: create, update, references, revisions, restore, forget, recover, MEMORY.md."""

from __future__ import annotations

import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from context_center.engine.errors import (
    AlreadyExists,
    ArchiveRefused,
    ContentConflict,
    InvalidName,
    InvalidRequest,
    NotFound,
    RevisionConflict,
)
from context_center.engine.facade import Engine
from context_center.engine.model import Fact, FactType, Freshness, Scope, freshness_of
from context_center.engine.store.factfile import parse_fact_bytes


def make(engine: Engine, name: str = "Release branch", **kw: object) -> Fact:
    args: dict[str, object] = {
        "title": name,
        "description": f"about {name}",
        "type": FactType.PROJECT,
        "body": f"Body of {name}.",
    }
    args.update(kw)
    return engine.memory.create(name=name, **args)  # type: ignore[arg-type]


def test_create_writes_canonical_file(engine: Engine) -> None:
    fact = make(engine, type=FactType.FEEDBACK)
    path = engine.layout.project_store / "release-branch.md"
    text = path.read_text()
    assert text.startswith("---\nid: mem-")
    assert "revision: 1\n" in text
    assert "metadata:\n  type: project\n  fact_type: feedback\n  scope: project\n---\n" in text
    assert fact.ref == "project/release-branch.md"
    assert fact.id.startswith("mem-") and len(fact.id) == 36
    parsed = parse_fact_bytes(
        path.read_bytes(),
        stem="release-branch",
        directory_scope=Scope.PROJECT,
        mtime=datetime.now(UTC),
    )
    assert parsed.fact == fact and not parsed.legacy


def test_scope_defaults_to_project_and_type_never_implies_scope(engine: Engine) -> None:
    user = make(engine, "tabs", type=FactType.USER)
    assert user.scope is Scope.PROJECT
    ref = make(engine, "docs url", type=FactType.REFERENCE, scope=Scope.GLOBAL)
    assert ref.scope is Scope.GLOBAL and ref.type is FactType.REFERENCE
    text = (engine.layout.global_store / "docs-url.md").read_text()
    assert "  type: user\n  fact_type: reference\n  scope: global\n" in text


def test_create_is_create_only(engine: Engine) -> None:
    first = make(engine)
    with pytest.raises(AlreadyExists):
        make(engine, body="other")
    assert engine.memory.resolve("release-branch").fact == first


@pytest.mark.parametrize("bad", ["../outside", "a/b", "/etc/passwd", "C:\\x\\y", "../../etc/x"])
def test_path_like_names_are_slugged_inside_the_store(engine: Engine, bad: str) -> None:
    fact = make(engine, bad)
    path = engine.layout.project_store / f"{fact.name}.md"
    assert path.is_file()
    assert path.parent == engine.layout.project_store
    assert "/" not in fact.name and not fact.name.startswith(".")


@pytest.mark.parametrize("bad", ["", "///", "...", "..", "CON", "nul", "LPT1", "memory", "  "])
def test_unusable_names_are_refused(engine: Engine, bad: str) -> None:
    with pytest.raises(InvalidName):
        make(engine, bad)
    assert not list(engine.layout.project_store.glob("*.md")) or all(
        p.name == "MEMORY.md" for p in engine.layout.project_store.glob("*.md")
    )


def test_references_round_trip(engine: Engine) -> None:
    p = make(engine, "shared", body="project text")
    g = make(engine, "shared", body="global text", scope=Scope.GLOBAL)
    mem = engine.memory
    assert mem.resolve("project/shared.md").fact == p
    assert mem.resolve("project/shared").fact == p
    assert mem.resolve("global/shared.md").fact == g
    assert mem.resolve("shared").fact == p  # bare name: project first
    assert mem.resolve(g.id).fact == g
    assert mem.resolve("Shared").fact == p
    only_global = make(engine, "only global", scope=Scope.GLOBAL)
    assert mem.resolve("only-global").fact == only_global
    for bad in ("project/../x", "../shared", "other/shared.md"):
        with pytest.raises((NotFound, InvalidRequest)):
            mem.resolve(bad)
    # update, revisions, restore and forget all accept the same references
    updated = mem.update("global/shared.md", expected_revision=1, body="global v2")
    assert updated.scope is Scope.GLOBAL and updated.revision == 2
    assert [r.revision for r in mem.revisions(g.id)] == [2, 1]
    restored = mem.restore("global/shared", 1)
    assert restored.body == "global text" and restored.revision == 3
    fact, dest = mem.forget("global/shared.md")
    assert fact.id == g.id and dest.parent == engine.layout.global_store / ".archive"
    assert mem.resolve("shared").fact.id == p.id


def test_update_is_compare_and_set_with_snapshots(engine: Engine) -> None:
    fact = make(engine)
    mem = engine.memory
    v2 = mem.update(fact.ref, expected_revision=1, body="second")
    assert v2.revision == 2 and v2.id == fact.id and v2.created_at == fact.created_at
    snap = engine.layout.project_store / ".revisions" / fact.id / "000000001.md"
    assert snap.is_file()
    assert "Body of Release branch." in snap.read_text()
    with pytest.raises(RevisionConflict) as err:
        mem.update(fact.ref, expected_revision=1, body="stale")
    assert "expected 1, found 2" in str(err.value)
    assert err.value.current_revision == 2
    assert mem.resolve(fact.ref).fact.body == "second"
    assert sorted(p.name for p in snap.parent.iterdir()) == ["000000001.md"]


def test_hand_edit_without_revision_bump_is_not_overwritten(engine: Engine) -> None:
    fact = make(engine)
    path = engine.layout.project_store / "release-branch.md"
    path.write_text(path.read_text().replace("Body of Release branch.", "Edited by hand."))
    with pytest.raises(ContentConflict):
        engine.memory.update(fact.ref, expected_revision=1, body="mine")
    assert "Edited by hand." in path.read_text()
    # with the hash of what the person saw (the hand-edited file), the save goes through
    entry = engine.memory.resolve(fact.ref)
    v2 = engine.memory.update(fact.ref, expected_revision=1, expected_sha=entry.sha256, body="mine")
    assert v2.revision == 2
    snap = engine.layout.project_store / ".revisions" / fact.id / "000000001.md"
    assert "Edited by hand." in snap.read_text()  # the hand edit is kept in history
    with pytest.raises(ContentConflict):
        engine.memory.update(fact.ref, expected_revision=2, expected_sha="0" * 64, body="x")


def test_rename_only_through_id(engine: Engine) -> None:
    fact = make(engine)
    with pytest.raises(InvalidRequest):
        engine.memory.update(fact.ref, expected_revision=1, name="new name")
    renamed = engine.memory.update(fact.id, expected_revision=1, name="new name")
    assert renamed.ref == "project/new-name.md" and renamed.id == fact.id
    assert not (engine.layout.project_store / "release-branch.md").exists()
    other = make(engine, "other")
    with pytest.raises(AlreadyExists):
        engine.memory.update(other.id, expected_revision=1, name="new name")
    assert engine.memory.resolve("new-name").fact.body == "Body of Release branch."


def test_restore_creates_a_new_higher_revision(engine: Engine) -> None:
    fact = make(engine)
    mem = engine.memory
    mem.update(fact.ref, expected_revision=1, body="two", title="Two")
    mem.update(fact.ref, expected_revision=2, body="three")
    restored = mem.restore(fact.ref, 1)
    assert restored.revision == 4 and restored.body == fact.body and restored.title == fact.title
    revs = mem.revisions(fact.ref)
    assert [r.revision for r in revs] == [4, 3, 2, 1]
    assert revs[0].current
    with pytest.raises(NotFound):
        mem.restore(fact.ref, 9)
    with pytest.raises(InvalidRequest):
        mem.restore(fact.ref, 4)


def test_forget_archives_and_leaves_listings(engine: Engine) -> None:
    fact = make(engine)
    _, dest = engine.memory.forget(fact.ref)
    assert dest.parent.name == ".archive"
    assert dest.name.endswith("-release-branch.md")
    assert len(dest.name.split("-")[0]) == 8
    view = engine.memory.load()
    assert view.facts == []
    assert "release-branch" not in (engine.layout.project_store / "MEMORY.md").read_text()
    archived = engine.memory.archived()
    assert [a.fact.id for a in archived if a.fact] == [fact.id]


def test_recover_becomes_a_new_revision(engine: Engine) -> None:
    fact = make(engine)
    engine.memory.update(fact.ref, expected_revision=1, body="v2")
    _, dest = engine.memory.forget(fact.ref)
    recovered = engine.memory.recover(dest)
    assert recovered.id == fact.id and recovered.revision == 3 and recovered.body == "v2"
    assert not dest.exists()
    assert [r.revision for r in engine.memory.revisions(fact.ref)] == [3, 2, 1]


def test_recover_by_archive_ref(engine: Engine) -> None:
    fact = make(engine, scope=Scope.GLOBAL)
    _, dest = engine.memory.forget(fact.ref)
    recovered = engine.memory.recover(f"global/.archive/{dest.name}")
    assert recovered.ref == "global/release-branch.md"


def test_recover_refuses_active_id_or_name_and_keeps_entry(engine: Engine) -> None:
    fact = make(engine)
    _, dest = engine.memory.forget(fact.ref)
    make(engine)  # same name, new id
    with pytest.raises(ArchiveRefused, match="already active"):
        engine.memory.recover(dest)
    assert dest.exists()
    # same id active under another name: copy the archive entry back in under another name
    other = engine.layout.project_store / "renamed.md"
    other.write_bytes(dest.read_bytes())
    engine.memory.forget("release-branch")
    engine.memory.load()
    with pytest.raises(ArchiveRefused, match="already active"):
        engine.memory.recover(dest)
    assert dest.exists()


def test_recover_refuses_paths_outside_its_own_archive(engine: Engine, tmp_path: Path) -> None:
    fact = make(engine)
    _, dest = engine.memory.forget(fact.ref)
    outside = tmp_path / "outside.md"
    outside.write_bytes(dest.read_bytes())
    with pytest.raises(ArchiveRefused):
        engine.memory.recover(outside)
    with pytest.raises(NotFound):  # nothing there, and not an archive entry anyway
        engine.memory.recover(engine.layout.project_store / ".archive" / ".." / "x.md")
    with pytest.raises(ArchiveRefused):  # a real file, reached through `..`
        engine.memory.recover(engine.layout.project_store / ".archive" / ".." / "MEMORY.md")
    link = engine.layout.project_store / ".archive" / "20260101-000000.000-link.md"
    link.symlink_to(outside)
    with pytest.raises(ArchiveRefused, match="not a regular file"):
        engine.memory.recover(link)
    fifo = engine.layout.project_store / ".archive" / "20260101-000000.000-fifo.md"
    os.mkfifo(fifo)
    with pytest.raises(ArchiveRefused):
        engine.memory.recover(fifo)
    # the other workspace's archive is not ours
    other = Engine(home=engine.home, workspace=tmp_path / "elsewhere")
    with pytest.raises(ArchiveRefused):
        other.memory.recover(dest)
    assert dest.exists() and outside.exists()


def test_recover_refuses_symlinked_archive_folder(engine: Engine, tmp_path: Path) -> None:
    fact = make(engine)
    _, dest = engine.memory.forget(fact.ref)
    real = tmp_path / "real-archive"
    (engine.layout.project_store / ".archive").rename(real)
    (engine.layout.project_store / ".archive").symlink_to(real)
    with pytest.raises(ArchiveRefused):
        engine.memory.recover(engine.layout.project_store / ".archive" / dest.name)
    assert (real / dest.name).exists()


def test_memory_index_is_derived_and_keeps_hand_lines(engine: Engine) -> None:
    store = engine.layout.project_store
    make(engine, "alpha")
    index = store / "MEMORY.md"
    index.write_text(
        index.read_text()
        + "\nMy own note stays.\n- [Ghost](ghost.md) — [project/project] stale line\n"
    )
    make(engine, "beta")
    text = index.read_text()
    assert "My own note stays." in text
    assert "ghost.md" not in text
    assert "- [alpha](alpha.md) — [project/project] about alpha" in text
    assert "- [beta](beta.md) — [project/project] about beta" in text
    # a stale line is never loaded as a fact
    index.write_text(text + "- [Phantom](phantom.md) — [project/user] not real\n")
    assert sorted(f.name for f in engine.memory.load().facts) == ["alpha", "beta"]


def test_freshness_table() -> None:
    now = datetime(2026, 6, 1, tzinfo=UTC)

    def age(days: int) -> datetime:
        return now - timedelta(days=days)

    cases = [
        (FactType.REFERENCE, 14, Freshness.FRESH),
        (FactType.REFERENCE, 15, Freshness.CURRENT),
        (FactType.REFERENCE, 45, Freshness.CURRENT),
        (FactType.REFERENCE, 46, Freshness.STALE),
        (FactType.PROJECT, 30, Freshness.FRESH),
        (FactType.PROJECT, 31, Freshness.CURRENT),
        (FactType.PROJECT, 181, Freshness.STALE),
        (FactType.USER, 90, Freshness.FRESH),
        (FactType.FEEDBACK, 91, Freshness.CURRENT),
        (FactType.FEEDBACK, 366, Freshness.STALE),
    ]
    for fact_type, days, expected in cases:
        assert freshness_of(fact_type, age(days), now) is expected, (fact_type, days)
    assert freshness_of(FactType.USER, now + timedelta(days=3), now) is Freshness.CURRENT
    assert freshness_of(FactType.USER, None, now) is Freshness.CURRENT


def test_conflicts_by_id_name_and_title(engine: Engine) -> None:
    make(engine, "Release branch", scope=Scope.PROJECT)
    make(engine, "release_branch", scope=Scope.GLOBAL)  # same slug
    make(engine, "deploy", title="Deploy Steps!", scope=Scope.PROJECT)
    make(engine, "deploying", title="deploy steps", scope=Scope.GLOBAL)  # same normalised title
    make(engine, "unrelated", scope=Scope.GLOBAL)
    view = engine.memory.load()
    pairs = {(c.key, c.project_ref, c.global_ref, c.resolution) for c in view.conflicts}
    assert pairs == {
        ("name", "project/release-branch.md", "global/release-branch.md", "project_over_global"),
        ("title", "project/deploy.md", "global/deploying.md", "project_over_global"),
    }
    assert len(view.facts) == 5  # nothing deleted or hidden
    # same id in both scopes (a copied file)
    g = engine.layout.global_store / "copied.md"
    src = (
        (engine.layout.project_store / "deploy.md")
        .read_text()
        .replace("scope: project", "scope: global")
    )
    g.write_text(src)
    view = engine.memory.load()
    # the copy keeps its declared name (Reasonix names a fact by its frontmatter name)
    assert any(c.key == "id" and c.global_ref == "global/deploy.md" for c in view.conflicts)


def test_long_names_resolve_by_the_name_they_were_saved_with(engine: Engine) -> None:
    for name in ("a" * 600, "é" * 300):
        fact = make(engine, name)
        assert len(fact.name.encode()) <= 252
        assert engine.memory.resolve(name).fact.id == fact.id
        assert engine.memory.resolve(f"project/{name}.md").fact.id == fact.id
        updated = engine.memory.update(name, expected_revision=1, body="v2")
        assert updated.revision == 2


def test_excluded_files_cannot_be_read_or_changed_by_name(engine: Engine) -> None:
    store = engine.layout.project_store
    store.mkdir(parents=True)
    text = (
        "---\nid: mem-{h}\nrevision: 1\ncreated_at: 2026-01-01T00:00:00.000Z\n"
        "updated_at: 2026-01-01T00:00:00.000Z\nname: {n}\ntitle: {n}\ndescription: d\n"
        "metadata:\n  type: project\n  scope: project\n---\n\nbody\n"
    )
    (store / "dup-a.md").write_text(text.format(h="1" * 32, n="dup-a"))
    (store / "dup-b.md").write_text(text.format(h="1" * 32, n="dup-b"))
    (store / "broken.md").write_text("---\n- x\n---\n")
    before = {p.name: p.read_bytes() for p in store.glob("*.md")}
    for ref in ("dup-a", "project/dup-b.md", "broken"):
        with pytest.raises(InvalidRequest) as err:
            engine.memory.resolve(ref)
        assert err.value.code in ("duplicate_id", "frontmatter_not_mapping")
        with pytest.raises(InvalidRequest):
            engine.memory.update(ref, expected_revision=1, body="changed")
        with pytest.raises(InvalidRequest):
            engine.memory.forget(ref)
    assert {p.name: p.read_bytes() for p in store.glob("*.md")} == before


def test_symlinked_store_folders_are_never_written_through(engine: Engine, tmp_path: Path) -> None:
    fact = make(engine)
    outside = tmp_path / "outside-revisions"
    outside.mkdir()
    (engine.layout.project_store / ".revisions").symlink_to(outside)
    from context_center.engine.errors import StoreUnavailable

    with pytest.raises(StoreUnavailable) as err:
        engine.memory.update(fact.ref, expected_revision=1, body="v2")
    assert err.value.code == "unsafe_store_folder"
    assert list(outside.iterdir()) == []
    assert engine.memory.resolve(fact.ref).fact.revision == 1
    # a symlinked cache folder (outside the home) is neither read nor written
    from context_center.engine.store.paths import store_cache_dir

    cache = store_cache_dir(engine.layout.project_store)
    fake = tmp_path / "fake-cache"
    cache.rename(tmp_path / "old-cache")
    fake.mkdir()
    cache.symlink_to(fake)
    engine.memory.load()
    assert list(fake.iterdir()) == []
    assert not (engine.layout.project_store / ".cache").exists()


def test_freshness_clock_agrees_with_freshness_of_at_every_boundary() -> None:
    from datetime import UTC, datetime, timedelta

    from context_center.engine.model import FRESHNESS_DAYS, FreshnessClock, freshness_of

    now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    clock = FreshnessClock(now)
    tiny = timedelta(microseconds=1)
    for fact_type, (fresh, current) in FRESHNESS_DAYS.items():
        moments: list[datetime | None] = [None, now + tiny, now, now - tiny]
        for days in (fresh, current):
            edge = now - timedelta(days=days)
            moments += [edge + tiny, edge, edge - tiny]
        moments.append(now - timedelta(days=current * 3))
        for moment in moments:
            assert clock.of(fact_type, moment) is freshness_of(fact_type, moment, now), (
                fact_type,
                moment,
            )
