"""Legacy upgrade and a real Reasonix home loading as is."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Freshness, Scope
from context_center.engine.store.factfile import legacy_id
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


def test_reasonix_home_loads_as_is(reasonix: Engine) -> None:
    view = reasonix.memory.load(persist_cache=False)
    assert view.diagnostics == []
    by_ref = {f.ref: f for f in view.facts}
    assert set(by_ref) == {
        "global/prefers-pnpm.md",
        "global/issue-tracker.md",
        "project/release-branch.md",
        "project/legacy-note.md",
        "project/testing_preference.md",
        "project/中文约定.md",
    }
    assert by_ref["global/issue-tracker.md"].type is FactType.REFERENCE  # from metadata.fact_type
    assert by_ref["global/prefers-pnpm.md"].type is FactType.USER
    rb = by_ref["project/release-branch.md"]
    assert (rb.type, rb.scope, rb.revision) == (FactType.FEEDBACK, Scope.PROJECT, 3)
    assert by_ref["project/testing_preference.md"].type is FactType.FEEDBACK  # Claude Code file
    assert by_ref["project/testing_preference.md"].title == "Testing preference"
    assert by_ref["project/中文约定.md"].title == "提交信息用中文"
    assert [r.revision for r in reasonix.memory.revisions("release-branch")] == [3, 2]
    assert (
        reasonix.memory.resolve("mem-4f0c9b1e2d3a4c5b6a7980f1e2d3c4b5").fact.name == "prefers-pnpm"
    )


def test_migration_upgrades_legacy_facts_once(reasonix: Engine, home: Path) -> None:
    before = reasonix.memory.load(persist_cache=False)
    legacy_before = {f.ref: f for f in before.facts if f.id.startswith("legacy-")}
    assert set(legacy_before) == {"project/legacy-note.md", "project/testing_preference.md"}
    changed = reasonix.memory.migrate()
    assert sorted(changed) == ["project/legacy-note.md", "project/testing_preference.md"]
    after = {f.ref: f for f in reasonix.memory.load().facts}
    for ref, fact in legacy_before.items():
        assert after[ref].id == fact.id  # the deterministic id did not change on migration
        assert after[ref].revision == 1
        assert after[ref].body == fact.body
    text = (reasonix.layout.project_store / "testing_preference.md").read_text()
    assert (
        "id: legacy-" in text
        and "metadata:\n  type: project\n  fact_type: feedback\n  scope: project" in text
    )
    snapshot = tree(home)
    assert reasonix.memory.migrate() == []  # idempotent
    assert tree(home) == snapshot
    # the stale MEMORY.md line was dropped on rebuild; the index lists every project fact
    index = (reasonix.layout.project_store / "MEMORY.md").read_text()
    assert "(legacy-note.md)" in index and "(中文约定.md)" in index
    global_index = (reasonix.layout.global_store / "MEMORY.md").read_text()
    assert "removed.md" not in global_index and "(prefers-pnpm.md)" in global_index


def test_legacy_ids_are_deterministic_and_scope_specific(tmp_path: Path) -> None:
    assert legacy_id(Scope.PROJECT, "x") == legacy_id(Scope.PROJECT, "x")
    assert legacy_id(Scope.PROJECT, "x") != legacy_id(Scope.GLOBAL, "x")
    for n in range(2):
        home = tmp_path / f"h{n}"
        ws = tmp_path / f"w{n}"
        ws.mkdir()
        eng = Engine(home=home, workspace=ws)
        for store in (eng.layout.project_store, eng.layout.global_store):
            store.mkdir(parents=True)
            (store / "same.md").write_text("---\ndescription: d\n---\nbody\n")
        facts = {f.scope: f for f in eng.memory.load().facts}
        assert facts[Scope.PROJECT].id == legacy_id(Scope.PROJECT, "same")
        assert facts[Scope.GLOBAL].id == legacy_id(Scope.GLOBAL, "same")
        assert facts[Scope.PROJECT].type is FactType.PROJECT  # missing type: routing default
        assert facts[Scope.GLOBAL].type is FactType.USER


def test_missing_fields_are_filled_from_the_file(engine: Engine) -> None:
    store = engine.layout.project_store
    store.mkdir(parents=True)
    path = store / "bare.md"
    path.write_text("Just a body, no frontmatter.\n")
    import os

    os.utime(path, (1_700_000_000, 1_700_000_000))
    fact = engine.memory.load().facts[0]
    assert fact.revision == 1 and fact.scope is Scope.PROJECT
    # a missing time is missing until migration: freshness counts it as current
    assert fact.updated_at is None and fact.freshness() is Freshness.CURRENT
    assert fact.created_at is not None and int(fact.created_at.timestamp()) == 1_700_000_000
    assert engine.memory.migrate() == ["project/bare.md"]
    migrated = engine.memory.resolve("bare").fact
    assert migrated.id == fact.id and migrated.updated_at is not None
    assert int(migrated.updated_at.timestamp()) == 1_700_000_000  # migration: the file's mtime
    assert engine.memory.migrate() == []
    assert migrated.body == "Just a body, no frontmatter."


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
