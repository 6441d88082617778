"""A Reasonix home read, migrated and written as Reasonix reads it (``reasonix_reader``)."""

from __future__ import annotations

import hashlib
import os
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
import reasonix_reader as rx

from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Freshness, Scope
from context_center.engine.store.paths import workspace_slug

FIXTURE = Path(__file__).parent / "fixtures" / "reasonix-home"


@pytest.fixture
def reasonix(home: Path, workspace: Path) -> Engine:
    shutil.copytree(FIXTURE, home, dirs_exist_ok=True)
    (home / "projects" / "WORKSPACE").rename(home / "projects" / workspace_slug(workspace))
    return Engine(home=home, workspace=workspace)


def tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def fact_files(engine: Engine) -> list[tuple[Scope, Path]]:
    out = []
    for scope, root in (
        (Scope.PROJECT, engine.layout.project_store),
        (Scope.GLOBAL, engine.layout.global_store),
    ):
        out += [(scope, p) for p in sorted(root.glob("*.md")) if p.name != "MEMORY.md"]
    return out


def fixture_copy(engine: Engine, path: Path) -> Path:
    """The fixture file a file of the copied home came from."""
    rel = path.relative_to(engine.home).parts
    if rel[0] == "projects":
        rel = ("projects", "WORKSPACE", *rel[2:])
    return FIXTURE.joinpath(*rel)


def sha_id(name: str, scope: str) -> str:
    seed = f"reasonix-memory-v2\x00{scope}\x00{name}".encode()
    return "legacy-" + hashlib.sha256(seed).hexdigest()[:24]


def test_reasonix_home_loads_as_is(reasonix: Engine) -> None:
    view = reasonix.memory.load(persist_cache=False)
    assert view.diagnostics == []
    by_ref = {f.ref: f for f in view.facts}
    assert set(by_ref) == {
        "global/prefers-pnpm.md",
        "global/issue-tracker.md",
        "global/no-name-feedback.md",
        "project/release-branch.md",
        "project/legacy-note.md",
        "project/testing-preference.md",  # testing_preference.md, name: Testing preference
        "project/中文约定.md",
        "project/package-manager.md",  # pnpm.md, name: package-manager
        "project/rebase-rule.md",
        "project/user-in-project.md",
        "project/scoped.md",
        "project/deploy-steps.md",
    }
    assert by_ref["global/issue-tracker.md"].type is FactType.REFERENCE  # from metadata.fact_type
    assert by_ref["global/prefers-pnpm.md"].type is FactType.USER
    rb = by_ref["project/release-branch.md"]
    assert (rb.type, rb.scope, rb.revision) == (FactType.FEEDBACK, Scope.PROJECT, 3)
    assert by_ref["project/testing-preference.md"].type is FactType.FEEDBACK  # Claude Code file
    assert by_ref["project/testing-preference.md"].title == "Testing preference"
    assert by_ref["project/中文约定.md"].title == "提交信息用中文"
    # yaml.v3's quoting is YAML to us: '' is one quote
    assert by_ref["project/rebase-rule.md"].title == "Ana's rule: rebase, never merge"
    # a missing title is shown the way Reasonix shows it: the name with '-' as spaces
    assert by_ref["project/package-manager.md"].title == "package manager"
    assert [r.revision for r in reasonix.memory.revisions("release-branch")] == [3, 2]
    assert (
        reasonix.memory.resolve("mem-4f0c9b1e2d3a4c5b6a7980f1e2d3c4b5").fact.name == "prefers-pnpm"
    )


def test_legacy_ids_are_the_ids_reasonix_derives(reasonix: Engine) -> None:
    view = reasonix.memory.load(persist_cache=False)
    ours = {(f.scope, f.name): f.id for f in view.facts}
    for scope, path in fact_files(reasonix):
        theirs = rx.read_fact(path)
        assert ours[(scope, rx.slug(theirs.name))] == theirs.id, path.name
    # spelled out: the name is the frontmatter name, the scope comes from the declared scope,
    # else the type (user/feedback: global; anything else, or none: project)
    assert ours[(Scope.PROJECT, "package-manager")] == sha_id("package-manager", "project")
    assert ours[(Scope.PROJECT, "testing-preference")] == sha_id("testing-preference", "global")
    assert ours[(Scope.PROJECT, "user-in-project")] == sha_id("user-in-project", "global")
    assert ours[(Scope.PROJECT, "scoped")] == sha_id("scoped", "project")
    assert ours[(Scope.GLOBAL, "no-name-feedback")] == sha_id("no-name-feedback", "global")
    assert ours[(Scope.PROJECT, "legacy-note")] == sha_id("legacy-note", "project")


def test_ids_of_earlier_builds_resolve_as_aliases(reasonix: Engine) -> None:
    from context_center.engine.store.legacy import old_legacy_id

    reasonix.memory.load(persist_cache=False)
    # an unmigrated file by the id an earlier build derived (directory scope + stem)
    old = old_legacy_id(Scope.PROJECT, "legacy-note")
    assert reasonix.memory.resolve(old).fact.ref == "project/legacy-note.md"
    # a file an earlier build migrated keeps its old id, and the id Reasonix had derived
    # before that migration (its declared name then is now the title) resolves too
    assert reasonix.memory.resolve("legacy-f8f2fc32931515858f0f8fc29b6190d4").fact.name == (
        "deploy-steps"
    )
    before = sha_id("deploy-checklist", "project")
    assert reasonix.memory.resolve(before).fact.ref == "project/deploy-steps.md"
    reasonix.memory.migrate()
    assert reasonix.memory.resolve(old).fact.ref == "project/legacy-note.md"
    assert reasonix.memory.resolve(before).fact.ref == "project/deploy-steps.md"


def test_migration_keeps_the_name_and_moves_the_file_to_it(reasonix: Engine) -> None:
    store = reasonix.layout.project_store
    before = reasonix.memory.resolve("package-manager").fact
    assert reasonix.memory.resolve("project/package-manager.md").fact == before
    changed = reasonix.memory.migrate()
    assert "project/package-manager.md" in changed
    assert not (store / "pnpm.md").exists()
    text = (store / "package-manager.md").read_text()
    assert "\nname: package-manager\ntitle: package manager\n" in text
    after = reasonix.memory.resolve("package-manager").fact
    assert (after.id, after.name, after.revision, after.body) == (
        before.id,
        "package-manager",
        1,
        before.body,
    )
    theirs = rx.read_fact(store / "package-manager.md")
    assert (theirs.id, theirs.name, theirs.display_title) == (
        before.id,
        "package-manager",
        "package manager",
    )
    # a Claude-style human name is slugged the way Reasonix slugs it, and moves with it
    assert (store / "testing-preference.md").is_file() and not (
        store / "testing_preference.md"
    ).exists()


def test_migrated_files_read_back_identically_by_reasonix(reasonix: Engine, home: Path) -> None:
    before = {f.id: f for f in reasonix.memory.load(persist_cache=False).facts}
    changed = reasonix.memory.migrate()
    assert sorted(changed) == [
        "global/no-name-feedback.md",
        "project/legacy-note.md",
        "project/package-manager.md",
        "project/scoped.md",
        "project/testing-preference.md",
        "project/user-in-project.md",
    ]
    after = {f.id: f for f in reasonix.memory.load().facts}
    assert set(after) == set(before)  # no id changed
    for scope, path in fact_files(reasonix):
        theirs = rx.read_fact(path)
        ours = after[theirs.id]
        if ours.ref not in changed:  # v2 files are left exactly as they were
            assert path.read_bytes() == fixture_copy(reasonix, path).read_bytes()
            continue
        assert ours.scope is scope and theirs.scope == scope.value
        assert (theirs.name, theirs.title, theirs.description) == (
            ours.name,
            ours.title,
            ours.description,
        )
        assert theirs.type == ours.type.value and theirs.revision == ours.revision
        assert theirs.body == ours.body == before[ours.id].body
        assert path.name == f"{ours.name}.md"
    snapshot = tree(home)
    assert reasonix.memory.migrate() == []  # idempotent
    assert tree(home) == snapshot


def test_created_at_keeps_the_precision_it_was_written_with(reasonix: Engine) -> None:
    path = reasonix.layout.project_store / "rebase-rule.md"
    reasonix.memory.load()
    reasonix.memory.update("rebase-rule", expected_revision=2, body="Rebase, then review.")
    text = path.read_text()
    assert "\ncreated_at: 2026-05-14T08:12:33.123456789Z\n" in text
    assert rx.read_fact(path).created_at == "2026-05-14T08:12:33.123456789Z"
    # the title yaml.v3 wrote as 'Ana''s rule…' is now written so Reasonix reads it right
    assert rx.read_fact(path).title == "Ana's rule: rebase, never merge"
    issue = reasonix.layout.global_store / "issue-tracker.md"
    reasonix.memory.update("global/issue-tracker", expected_revision=1, description="Bugs go here")
    assert "\ncreated_at: 2026-10-01T08:00:00Z\n" in issue.read_text()


def test_missing_update_time_is_filled_from_the_file_on_migration(engine: Engine) -> None:
    store = engine.layout.project_store
    store.mkdir(parents=True)
    path = store / "bare.md"
    path.write_text("---\ndescription: only a description\n---\nJust a body.\n")
    os.utime(path, (1_700_000_000, 1_700_000_000))
    fact = engine.memory.load().facts[0]
    assert fact.revision == 1 and fact.scope is Scope.PROJECT and fact.title == "bare"
    # a missing time is missing until migration: freshness counts it as current
    assert fact.updated_at is None and fact.freshness() is Freshness.CURRENT
    assert fact.created_at is not None and int(fact.created_at.timestamp()) == 1_700_000_000
    assert engine.memory.migrate() == ["project/bare.md"]
    migrated = engine.memory.resolve("bare").fact
    assert migrated.id == fact.id and migrated.updated_at is not None
    assert int(migrated.updated_at.timestamp()) == 1_700_000_000  # migration: the file's mtime
    assert engine.memory.migrate() == []
    assert migrated.body == "Just a body."


def test_migration_never_overwrites_a_file_changed_meanwhile(engine: Engine) -> None:
    store = engine.layout.project_store
    store.mkdir(parents=True)
    path = store / "racy.md"
    path.write_text("---\ntype: project\n---\nold\n")
    snap = engine.memory.project.load(persist_cache=False)
    entry = snap.entries["racy"]
    path.write_text("---\ntype: project\n---\nnew text from another program\n")
    assert engine.memory.project.rewrite_canonical(entry) is False
    assert path.read_text().endswith("new text from another program\n")


def test_migration_leaves_a_file_whose_name_is_taken(engine: Engine) -> None:
    store = engine.layout.project_store
    engine.memory.create(name="package-manager", type=FactType.PROJECT, body="the v2 fact")
    (store / "pnpm.md").write_text("---\nname: package-manager\ntype: project\n---\nlegacy\n")
    view = engine.memory.load()
    assert [d.code for d in view.diagnostics] == ["duplicate_name"]
    assert view.diagnostics[0].path == "pnpm.md"
    assert engine.memory.resolve("package-manager").fact.body == "the v2 fact"
    engine.memory.migrate()
    assert (store / "pnpm.md").read_text().endswith("legacy\n")  # untouched


def test_archive_entries_with_collision_suffixes(reasonix: Engine) -> None:
    archived = reasonix.memory.archived()
    names = sorted((a.path.name, a.fact.name if a.fact else None) for a in archived)
    assert names == [
        ("20261015-080000.000-legacy-gone.md", "legacy-gone"),
        ("20261101-101010.123-old-fact-1.md", "old-fact"),
        ("20261101-101010.123-old-fact.md", "old-fact"),
    ]
    fact = reasonix.memory.recover("project/.archive/20261101-101010.123-old-fact-1.md")
    assert (fact.name, fact.id, fact.revision) == (
        "old-fact",
        "mem-aaaabbbbccccddddeeeeffff00002222",
        4,
    )
    from context_center.engine.errors import ArchiveRefused

    with pytest.raises(ArchiveRefused):  # its name is active again
        reasonix.memory.recover("project/.archive/20261101-101010.123-old-fact.md")
    gone = reasonix.memory.recover("global/.archive/20261015-080000.000-legacy-gone.md")
    assert gone.id == sha_id("legacy-gone", "global") and gone.ref == "global/legacy-gone.md"
    assert rx.read_fact(reasonix.layout.global_store / "legacy-gone.md").id == gone.id


def test_forget_writes_an_archive_entry_reasonix_lists(reasonix: Engine) -> None:
    when = datetime(2026, 11, 1, 10, 10, 10, 123000, tzinfo=UTC)
    reasonix.memory.create(name="old-fact", type=FactType.PROJECT, body="third")
    _, dest = reasonix.memory.forget("old-fact", now=when)
    assert dest.name == "20261101-101010.123-old-fact-2.md"  # -1 was taken already
    assert rx.read_fact(dest).name == "old-fact"


def test_memory_index_lines_are_reasonix_index_lines_tagged_or_not(reasonix: Engine) -> None:
    store = reasonix.layout.project_store
    reasonix.memory.migrate()
    text = (store / "MEMORY.md").read_text()
    files = rx.index_files(text)
    names = sorted(f.name for f in reasonix.memory.load().facts if f.scope is Scope.PROJECT)
    assert sorted(files) == names  # one line per fact: old and Claude-style lines replaced
    assert len(files) == len(set(files))
    assert "gone.md" not in text and "testing_preference.md" not in text
    assert text.startswith("# Project memory\n\nHand-written note: keep this line.\n")
    assert "- [CI runner](legacy-note.md) — [project/project] CI runs on" in text
    # an untagged line written by hand for a fact is replaced on its next change, not kept
    (store / "MEMORY.md").write_text(text + "- [CI, by hand](legacy-note.md) — typed by a person\n")
    reasonix.memory.update("legacy-note", expected_revision=1, description="CI on ci-01")
    text = (store / "MEMORY.md").read_text()
    assert rx.index_files(text).count("legacy-note") == 1 and "by hand" not in text
    # the line of a forgotten fact goes away; hand-written lines stay
    reasonix.memory.forget("legacy-note")
    text = (store / "MEMORY.md").read_text()
    assert "legacy-note" not in rx.index_files(text)
    assert "Hand-written note: keep this line." in text


def test_a_crlf_file_comes_out_of_migration_with_one_kind_of_line_ending(
    home: Path, workspace: Path
) -> None:
    store = home / "memory" / "global"
    store.mkdir(parents=True)
    path = store / "deploy-notes.md"
    path.write_bytes(
        b"---\r\nname: Deploy Notes\r\ndescription: how we deploy\r\ntype: project\r\n---\r\n"
        b"Line one.\r\nLine two.\r\n\r\nLast line.\r\n"
    )
    engine = Engine(home=home, workspace=workspace)
    (fact,) = engine.memory.load(persist_cache=False).facts
    assert fact.body == "Line one.\nLine two.\n\nLast line."  # read as the lines it holds
    engine.migrate()
    data = path.read_bytes()
    assert b"\r" not in data and data.endswith(b"Line one.\nLine two.\n\nLast line.\n")
    (again,) = engine.memory.load(persist_cache=False).facts
    assert again.body == fact.body and again.id == fact.id


def test_a_body_cached_by_a_build_that_kept_cr_reads_as_lf() -> None:
    """The parsed-facts cache of an earlier build holds bodies with CR line ends; the facts
    it gives are the facts the files parse to now (else the recall index sees a change on
    every cold turn)."""
    from context_center.engine.store.factcache import fact_from_values

    values = {
        "id": "mem-" + "0" * 32,
        "revision": 1,
        "created_at": None,
        "updated_at": None,
        "name": "crlf",
        "title": "CRLF",
        "description": "",
        "type": "project",
        "body": "line one\r\nline two",
    }
    fact = fact_from_values(values, Scope.PROJECT)
    assert fact.body == "line one\nline two"


def test_the_change_set_of_a_migration_names_each_fact_by_id_and_revision(engine: Engine) -> None:
    """``memory migrate --json`` lists ``changes.facts``: each with the id and revision it
    was written with (an outside review found an empty id and a null revision)."""
    store = engine.layout.project_store
    store.mkdir(parents=True)
    (store / "old.md").write_text("---\nname: Old Thing\ntype: project\n---\nlegacy body\n")
    before = engine.memory.load().facts[0]
    done = engine.migrate()
    assert done.value == ["project/old-thing.md"]
    [change] = [c.to_json() for c in done.facts]
    assert change == {
        "ref": "project/old-thing.md",
        "scope": "project",
        "name": "old-thing",
        "id": before.id,
        "kind": "migrated",
        "revision": engine.memory.resolve("old-thing").fact.revision,
    }
    assert change["id"].startswith("legacy-") and change["revision"] >= 1
