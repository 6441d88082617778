"""Bad files never take the store down: each is reported, left untouched, and excluded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from context_center.engine.errors import AlreadyExists
from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope
from context_center.engine.store.factfile import MAX_FILE_BYTES

GOOD = "---\nid: mem-{hex}\nrevision: 1\ncreated_at: 2026-01-01T00:00:00.000Z\nupdated_at: 2026-01-01T00:00:00.000Z\nname: {name}\ntitle: {name}\ndescription: d\nmetadata:\n  type: project\n  scope: project\n---\n\nbody\n"

BAD_FILES: dict[str, tuple[bytes, str]] = {
    "malformed": (b"---\ntitle: [unclosed\n---\nbody\n", "malformed_yaml"),
    "not-a-mapping": (b"---\n- a\n- b\n---\nbody\n", "frontmatter_not_mapping"),
    "python-tag": (
        b"---\nid: !!python/object/apply:os.system ['touch /tmp/pwned']\n---\nbody\n",
        "unsafe_yaml_tag",
    ),
    "alias": (b"---\nbase: &b {type: user}\nmetadata: *b\n---\nbody\n", "yaml_alias"),
    "dup-key": (b"---\ntitle: one\ntitle: two\n---\nbody\n", "duplicate_key"),
    "latin1": ("---\ntitle: caf\u00e9\n---\nbody\n".encode("latin-1"), "invalid_utf8"),
    "nul": (b"---\ntitle: x\n---\nbo\x00dy\n", "nul_bytes"),
    # YAML's "\0" escape decodes to a NUL: refused as the byte is (it once broke recall)
    "nul-escaped": (b'---\ntitle: "heron \\0 nul"\n---\nbody\n', "nul_bytes"),
    "nul-escaped-description": (b'---\ndescription: "a\\x00b"\n---\nbody\n', "nul_bytes"),
    "unclosed": (b"---\ntitle: x\nbody without closing\n", "malformed_frontmatter"),
    "bad-type": (b"---\ntype: opinion\n---\nbody\n", "invalid_type"),
    "bad-revision": (b"---\nrevision: two\n---\nbody\n", "invalid_field"),
    "bad-id": (b"---\nid: ../../etc\n---\nbody\n", "invalid_field"),
    "huge-revision": (b"---\nrevision: 99999999999999999999999999\n---\nbody\n", "invalid_field"),
    # no UTC time before year 1 or after 9999: reported, not an OverflowError out of the load
    "time-before-year-one": (
        GOOD.format(hex="c" * 32, name="time-before-year-one")
        .replace("created_at: 2026-01-01T00:00:00.000Z", "created_at: 0001-01-01T00:00:00+01:00")
        .encode(),
        "invalid_field",
    ),
    "time-after-9999": (
        GOOD.format(hex="d" * 32, name="time-after-9999")
        .replace("updated_at: 2026-01-01T00:00:00.000Z", "updated_at: 9999-12-31T23:59:59-01:00")
        .encode(),
        "invalid_field",
    ),
}


@pytest.fixture
def store(engine: Engine) -> Path:
    root = engine.layout.project_store
    root.mkdir(parents=True)
    (root / "good.md").write_text(GOOD.format(hex="a" * 32, name="good"))
    return root


def test_each_bad_file_is_a_diagnostic_and_the_rest_loads(
    engine: Engine, store: Path, tmp_path: Path
) -> None:
    for name, (data, _) in BAD_FILES.items():
        (store / f"{name}.md").write_bytes(data)
    (store / "huge.md").write_bytes(b"---\ntitle: big\n---\n" + b"x" * (MAX_FILE_BYTES + 10))
    target = tmp_path / "elsewhere.md"
    target.write_text(GOOD.format(hex="b" * 32, name="elsewhere"))
    (store / "link.md").symlink_to(target)
    os.mkfifo(store / "pipe.md")
    before = {
        p.name: (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
        for p in store.iterdir()
    }

    view = engine.memory.load()

    assert [f.name for f in view.facts] == ["good"]
    codes = {d.path: d.code for d in view.diagnostics}
    for name, (_, code) in BAD_FILES.items():
        assert codes[f"{name}.md"] == code, name
    assert codes["huge.md"] == "too_large"
    assert codes["link.md"] == "symlink"
    assert codes["pipe.md"] == "not_regular_file"
    assert all(d.scope is Scope.PROJECT and d.message for d in view.diagnostics)
    after = {
        p.name: (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
        for p in store.iterdir()
    }
    for name, data in before.items():
        assert after[name] == data, f"{name} was changed"
    assert not Path("/tmp/pwned").exists()
    # diagnostics never carry absolute paths
    assert all(not d.path.startswith("/") for d in view.diagnostics)
    # the cached second open reports the same
    again = engine.memory.load()
    assert {d.path: d.code for d in again.diagnostics} == codes
    assert [f.name for f in again.facts] == ["good"]


def test_two_files_with_one_id_are_both_excluded(engine: Engine, store: Path) -> None:
    (store / "twin.md").write_text(GOOD.format(hex="a" * 32, name="twin"))
    view = engine.memory.load()
    assert view.facts == []
    assert sorted((d.path, d.code) for d in view.diagnostics) == [
        ("good.md", "duplicate_id"),
        ("twin.md", "duplicate_id"),
    ]


def test_an_excluded_file_is_never_read_for_the_legacy_fact_that_holds_its_name(
    engine: Engine, store: Path
) -> None:
    """good.md is excluded (its id is twin.md's too) while a legacy file declares the name
    ``good``: reading, saving and forgetting ``good`` act on what the list shows (the legacy
    fact), and the excluded files keep their bytes."""
    (store / "twin.md").write_text(GOOD.format(hex="a" * 32, name="twin"))
    (store / "zz.md").write_text("---\nname: good\ntitle: impostor\ntype: project\n---\nother\n")
    before = {p.name: p.read_bytes() for p in store.iterdir() if p.name != "zz.md"}
    listed = [(f.ref, f.title) for f in engine.memory.load().facts]
    assert listed == [("project/good.md", "impostor")]
    for ref in ("good", "project/good.md"):
        read = engine.memory.resolve(ref).fact
        assert (read.title, read.body.strip()) == ("impostor", "other")
    with pytest.raises(AlreadyExists):  # its save would move it onto the excluded good.md
        engine.memory.update("good", expected_revision=1, body="written")
    engine.memory.forget("good")
    assert not (store / "zz.md").exists()
    for name, data in before.items():
        assert (store / name).read_bytes() == data, f"{name} was changed"


def test_writes_still_work_beside_bad_files(engine: Engine, store: Path) -> None:
    (store / "broken.md").write_bytes(b"---\n: : :\n---\n")
    fact = engine.memory.create(name="fresh", type=FactType.PROJECT, body="b")
    assert fact.ref == "project/fresh.md"
    assert (store / "broken.md").read_bytes() == b"---\n: : :\n---\n"


def test_yaml_no_stays_text_and_no_silent_coercion(engine: Engine, store: Path) -> None:
    (store / "no.md").write_text(
        GOOD.format(hex="c" * 32, name="no").replace("title: no", "title: no\n")
    )
    fact = engine.memory.resolve("no").fact
    assert fact.title == "no" and fact.name == "no"


def test_a_bad_file_edited_into_shape_is_picked_up(engine: Engine, store: Path) -> None:
    bad = store / "later.md"
    bad.write_bytes(b"---\ntitle: [\n---\n")
    assert "later" not in [f.name for f in engine.memory.load().facts]
    bad.write_text(GOOD.format(hex="d" * 32, name="later"))
    os.utime(bad, ns=(1, 2))  # a different mtime even on coarse clocks
    assert "later" in [f.name for f in engine.memory.load().facts]


# -- what sync tools leave ---------------------------------------------------------------------

PNPM = GOOD.format(hex="e" * 32, name="pnpm").replace("revision: 1", "revision: 2")
PNPM_THEIRS = PNPM.replace("revision: 2", "revision: 3").replace("\nbody\n", "\ntheir body\n")
MERGED = (
    "---\nid: mem-" + "f" * 32 + "\n<<<<<<< HEAD\nrevision: 4\n=======\nrevision: 5\n"
    ">>>>>>> other\ncreated_at: 2026-01-01T00:00:00.000Z\nupdated_at: 2026-01-01T00:00:00.000Z\n"
    "name: merged\ntitle: merged\ndescription: d\nmetadata:\n  type: project\n  scope: project\n"
    "---\n\n<<<<<<< HEAD\nour body\n=======\ntheir body\n>>>>>>> other\n"
)
SYNC_SHAPES: dict[str, tuple[bytes, str]] = {
    "pnpm.sync-conflict-20261201-101112-ABCDEF7.md": (PNPM_THEIRS.encode(), "sync_conflict_copy"),
    "pnpm (Ana's conflicted copy 2026-12-01).md": (PNPM_THEIRS.encode(), "sync_conflict_copy"),
    "pnpm (conflicted copy 2026-12-01 (1)).md": (PNPM_THEIRS.encode(), "sync_conflict_copy"),
    "pnpm_REMOTE_4242.md": (PNPM_THEIRS.encode(), "sync_conflict_copy"),
    "merged.md": (MERGED.encode(), "git_conflict_markers"),
    "empty.md": (b"", "empty_file"),
    "blank.md": (b"\n   \n\t\n", "empty_file"),
    "plain.md": (b"# Notes\n\nNo frontmatter here.\n", "not_frontmatter_markdown"),
    "data.md": (b'{"name": "x", "type": "user"}\n', "not_frontmatter_markdown"),
}


@pytest.fixture
def synced(engine: Engine, store: Path) -> Path:
    (store / "pnpm.md").write_text(PNPM)
    for name, (data, _) in SYNC_SHAPES.items():
        (store / name).write_bytes(data)
    return store


def test_what_sync_tools_leave_is_a_diagnostic_with_its_own_code(
    engine: Engine, synced: Path
) -> None:
    view = engine.memory.load()
    assert sorted(f.name for f in view.facts) == ["good", "pnpm"]
    codes = {d.path: d.code for d in view.diagnostics}
    assert codes == {name: code for name, (_, code) in SYNC_SHAPES.items()}
    assert all(d.message for d in view.diagnostics)
    assert "copy of pnpm.md" in next(
        d.message for d in view.diagnostics if d.path.startswith("pnpm.")
    )
    for name, (data, _) in SYNC_SHAPES.items():
        assert (synced / name).read_bytes() == data, name  # untouched
    from context_center.engine.errors import InvalidRequest

    for ref, code in (("plain", "not_frontmatter_markdown"), ("merged", "git_conflict_markers")):
        with pytest.raises(InvalidRequest) as err:
            engine.memory.resolve(ref)
        assert err.value.code == code


def test_a_conflict_copy_pairs_with_its_fact(engine: Engine, synced: Path) -> None:
    engine.open()
    found = {(c.path, c.fact_ref) for c in engine.sync_conflicts()}
    assert ("pnpm.sync-conflict-20261201-101112-ABCDEF7.md", "project/pnpm.md") in found
    assert ("pnpm (Ana's conflicted copy 2026-12-01).md", "project/pnpm.md") in found
    assert ("merged.md", None) in found
    copy = next(c for c in engine.sync_conflicts() if c.path.endswith("ABCDEF7.md"))
    assert copy.sides == ("fact", "copy") and copy.fact_revision == 2
    assert copy.texts == (PNPM, PNPM_THEIRS)
    merged = next(c for c in engine.sync_conflicts() if c.path == "merged.md")
    assert merged.sides == ("ours", "theirs")
    assert "revision: 4" in merged.texts[0] and "our body" in merged.texts[0]
    assert "revision: 5" in merged.texts[1] and "their body" in merged.texts[1]


def test_keeping_the_copy_writes_it_as_a_new_revision(engine: Engine, synced: Path) -> None:
    import reasonix_reader as rx

    engine.open()
    name = "pnpm.sync-conflict-20261201-101112-ABCDEF7.md"
    changes = engine.keep_sync_side(Scope.PROJECT, name, "copy", expected_revision=2)
    fact, archived = changes.value
    assert (fact.name, fact.revision, fact.body) == ("pnpm", 4, "their body")  # above both
    assert not (synced / name).exists()
    assert archived.parent == synced / ".archive" and archived.read_text() == PNPM  # the other side
    assert engine.memory.resolve("pnpm").fact == fact
    assert rx.read_fact(synced / "pnpm.md").body == "their body"
    assert name not in {d.path for d in engine.memory.load().diagnostics}


def test_keeping_the_fact_archives_the_copy(engine: Engine, synced: Path) -> None:
    engine.open()
    name = "pnpm (Ana's conflicted copy 2026-12-01).md"
    fact, archived = engine.keep_sync_side(Scope.PROJECT, name, "fact").value
    assert (fact.revision, fact.body) == (4, "body")
    assert archived.read_bytes() == PNPM_THEIRS.encode() and not (synced / name).exists()
    assert [r.revision for r in engine.memory.revisions("pnpm")] == [4, 2]
    entries = {a.path.name: a for a in engine.memory.archived()}
    assert entries[archived.name].fact is not None  # listed, readable


def test_keeping_one_side_of_a_git_conflict(engine: Engine, synced: Path) -> None:
    engine.open()
    fact, archived = engine.keep_sync_side(Scope.PROJECT, "merged.md", "theirs").value
    assert (fact.name, fact.revision, fact.body) == ("merged", 6, "their body")
    text = (synced / "merged.md").read_text()
    assert "<<<<<<<" not in text and "revision: 6" in text
    assert "our body" in archived.read_text() and "revision: 4" in archived.read_text()
    assert engine.memory.resolve("merged").fact == fact


def test_keep_refuses_other_sides_and_other_files(engine: Engine, synced: Path) -> None:
    from context_center.engine.errors import InvalidRequest

    engine.open()
    with pytest.raises(InvalidRequest):
        engine.keep_sync_side(Scope.PROJECT, "merged.md", "copy")
    with pytest.raises(InvalidRequest):
        engine.keep_sync_side(Scope.PROJECT, "pnpm (conflicted copy 2026-12-01 (1)).md", "ours")
    with pytest.raises(InvalidRequest):
        engine.keep_sync_side(Scope.PROJECT, "../pnpm.md", "fact")
    assert (synced / "merged.md").read_bytes() == MERGED.encode()
