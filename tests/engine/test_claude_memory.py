"""Claude Code's auto memory: found where Claude Code keeps it, shown read-only with what Claude
Code loads of its index, and imported into the store by a person's action."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from claude_memory_home import FILES, build, encoded, memory_folder, snapshot

from context_center.engine.claude_memory import canonical_root, index_load, locate
from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope


@pytest.fixture(autouse=True)
def _no_config_dir(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", raising=False)


@pytest.fixture
def user_home(tmp_path: Path) -> Path:
    path = tmp_path / "user-home"
    path.mkdir()
    return path


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository whose path has the characters Claude Code replaces (., _, space)."""
    path = tmp_path / "work" / "shop.app_v2 beta"
    (path / ".git").mkdir(parents=True)
    return path


@pytest.fixture
def folder(user_home: Path, repo: Path) -> Path:
    return build(user_home, repo)


@pytest.fixture
def engine(home: Path, repo: Path) -> Engine:
    return Engine(home=home, workspace=repo)


# ---------------------------------------------------------------- where it is


def test_the_folder_is_under_the_encoded_project_root(user_home: Path, repo: Path) -> None:
    location = locate(repo, home=user_home)
    assert location.folder == user_home / ".claude" / "projects" / encoded(repo) / "memory"
    assert location.encoded.startswith("-") and "." not in location.encoded
    assert " " not in location.encoded and "_" not in location.encoded


def test_a_subfolder_and_a_linked_worktree_share_the_repositorys_memory(
    user_home: Path, repo: Path, tmp_path: Path
) -> None:
    sub = repo / "src" / "checkout"
    sub.mkdir(parents=True)
    assert canonical_root(sub) == repo
    worktree = tmp_path / "wt-feature"
    worktree.mkdir()
    (repo / ".git" / "worktrees" / "wt-feature").mkdir(parents=True)
    (worktree / ".git").write_text(f"gitdir: {repo}/.git/worktrees/wt-feature\n")
    assert canonical_root(worktree) == repo
    assert locate(worktree, home=user_home).folder == memory_folder(user_home, repo)
    plain = tmp_path / "notes"
    plain.mkdir()
    assert canonical_root(plain) == plain


def test_the_config_dir_and_the_settings_override_are_honoured(
    user_home: Path, repo: Path, tmp_path: Path
) -> None:
    custom = tmp_path / "claude-config"
    env = {"CLAUDE_CONFIG_DIR": str(custom)}
    assert locate(repo, home=user_home, env=env).folder.is_relative_to(custom / "projects")
    (custom).mkdir()
    target = tmp_path / "my-memory"
    (custom / "settings.json").write_text(json.dumps({"autoMemoryDirectory": str(target)}))
    location = locate(repo, home=user_home, env=env)
    assert location.folder == target and location.from_settings


def test_a_long_path_gets_claude_codes_hashed_name(user_home: Path, tmp_path: Path) -> None:
    deep = tmp_path.joinpath(*["segment-with-a-long-name"] * 10)
    (deep / ".git").mkdir(parents=True)
    name = locate(deep, home=user_home).encoded
    plain = encoded(deep)
    assert len(plain) > 200 and name.startswith(plain[:200] + "-") and len(name) > 201


# ---------------------------------------------------------------- what is in it


def test_the_view_lists_memories_index_and_what_claude_code_loads(
    engine: Engine, user_home: Path, folder: Path
) -> None:
    view = engine.claude_memory(home=user_home)
    assert view.exists and view.folder == str(folder)
    assert view.folder_label == "~/.claude/projects/" + folder.parent.name + "/memory"
    by_file = {m.file: m for m in view.memories}
    assert set(by_file) == set(FILES)  # MEMORY.md is the index, not a memory
    pnpm = by_file["feedback_pnpm.md"]
    assert (pnpm.name, pnpm.fact_type, pnpm.indexed, pnpm.index_loaded) == (
        "Prefers pnpm",
        FactType.FEEDBACK,
        True,
        True,
    )
    assert pnpm.description.startswith("Use pnpm") and pnpm.body.startswith("Use pnpm for every")
    assert by_file["user_role.md"].fact_type is FactType.USER
    topic = by_file["debugging.md"]
    assert not topic.front_matter and topic.fact_type is None and not topic.indexed
    assert [line.target for line in view.index] == [
        "feedback_pnpm.md",
        "project_staging.md",
        "reference_grafana.md",
        "user_role.md",
    ]
    assert view.load is not None and view.load.cut_by == "none"
    assert view.load.text == (folder / "MEMORY.md").read_text(encoding="utf-8").strip()


def test_no_folder_is_an_empty_view(engine: Engine, user_home: Path) -> None:
    view = engine.claude_memory(home=user_home)
    assert not view.exists and view.memories == [] and view.load is None
    assert view.tried and all("projects" in p for p in view.tried)


def test_claude_code_loads_the_first_200_lines(engine: Engine) -> None:
    text = "\n".join(f"- [Note {i}](note_{i}.md) — hook {i}" for i in range(1, 251)) + "\n\n"
    load = index_load(text)
    assert (load.lines, load.loaded_lines, load.cut_by) == (250, 200, "lines")
    kept, warning = load.text.split("\n\n> WARNING: ")
    assert kept.splitlines()[-1] == "- [Note 200](note_200.md) — hook 200"
    assert warning.startswith("MEMORY.md is 250 lines (limit: 200). Only part of it was loaded.")


def test_claude_code_loads_at_most_25000_characters_cut_at_a_line(engine: Engine) -> None:
    line = "x" * 200
    load = index_load("\n".join([line] * 150))
    # 150 lines of 201 characters: the last line break at or before 25,000 ends line 124
    assert (load.lines, load.units, load.loaded_lines, load.cut_by) == (150, 30149, 124, "size")
    assert load.text.startswith((line + "\n") * 123 + line + "\n\n> WARNING: ")
    assert "MEMORY.md is 29.4KB (limit: 24.4KB) — index entries are too long." in load.text


def test_the_size_limit_counts_utf16_code_units() -> None:
    cjk = index_load("\n".join(["中" * 200] * 150))  # a Chinese character is one unit
    assert cjk.loaded_lines == 124
    emoji = index_load("\n".join(["😀" * 100] * 150))  # an emoji is two, as in JavaScript
    assert emoji.units == 30149 and emoji.loaded_lines == 124
    both = index_load("\n".join(["y" * 200] * 250))
    assert both.cut_by == "lines and size" and "250 lines and 49.1KB" in both.text
    exact = index_load("a" * 25_000)
    assert exact.cut_by == "none" and exact.text == "a" * 25_000


def test_reading_changes_nothing(engine: Engine, user_home: Path, folder: Path) -> None:
    before = snapshot(user_home)
    engine.claude_memory(home=user_home)
    assert snapshot(user_home) == before


# ---------------------------------------------------------------- import


def _facts(engine: Engine) -> dict[str, object]:
    return {f.ref: f for f in engine.memory.load(persist_cache=False).facts}


def test_import_copies_memories_as_facts_and_never_touches_the_source(
    engine: Engine, user_home: Path, folder: Path
) -> None:
    before = snapshot(user_home)
    changes = engine.import_claude_memory(home=user_home)
    report = changes.value
    actions = {item.file: (item.action, item.ref) for item in report.items}
    assert actions["feedback_pnpm.md"] == ("imported", "project/prefers-pnpm.md")
    assert actions["project_staging.md"] == ("imported", "project/staging-deploys.md")
    assert actions["reference_grafana.md"] == ("imported", "project/latency-dashboards.md")
    assert actions["user_role.md"][0] == "imported"
    assert actions["debugging.md"] == ("imported", "project/debugging.md")
    assert actions["deploy_token.md"][0] == "skipped"
    token = next(i for i in report.items if i.file == "deploy_token.md")
    assert "ghp_" not in token.reason and "sensitive" in token.reason
    facts = _facts(engine)
    pnpm = facts["project/prefers-pnpm.md"]
    assert (pnpm.title, pnpm.type, pnpm.scope) == ("Prefers pnpm", FactType.FEEDBACK, Scope.PROJECT)  # type: ignore[attr-defined]
    assert pnpm.body.startswith("Use pnpm for every install")  # type: ignore[attr-defined]
    assert facts["project/staging-deploys.md"].type is FactType.PROJECT  # type: ignore[attr-defined]
    assert facts["project/latency-dashboards.md"].type is FactType.REFERENCE  # type: ignore[attr-defined]
    topic = next(i for i in report.items if i.file == "debugging.md")
    assert topic.type is FactType.PROJECT and "no type" in topic.reason
    assert {c.ref for c in changes.facts} == {i.ref for i in report.items if i.action == "imported"}
    assert report.count("imported") == 5
    # a person's action: written at once, nothing queued
    assert engine.pending_approvals() == []
    # Claude Code's files are byte for byte and mtime for mtime what they were
    assert snapshot(user_home) == before


def test_a_second_import_imports_nothing(engine: Engine, user_home: Path, folder: Path) -> None:
    engine.import_claude_memory(home=user_home)
    count = len(_facts(engine))
    again = engine.import_claude_memory(home=user_home)
    assert again.value.count("imported") == 0 and again.facts == ()
    assert again.value.count("duplicate") == 5
    assert len(_facts(engine)) == count


def test_duplicates_by_name_or_title_are_reported_and_skipped(
    engine: Engine, user_home: Path, folder: Path
) -> None:
    engine.create_fact(name="prefers-pnpm", title="Package manager", type=FactType.USER, body="x")
    engine.create_fact(
        name="friday-staging",
        title="staging  DEPLOYS",
        type=FactType.PROJECT,
        scope=Scope.GLOBAL,
        body="y",
    )
    report = engine.import_claude_memory(home=user_home).value
    by_file = {item.file: item for item in report.items}
    assert by_file["feedback_pnpm.md"].action == "duplicate"
    assert by_file["feedback_pnpm.md"].ref == "project/prefers-pnpm.md"
    assert by_file["project_staging.md"].action == "duplicate"
    assert by_file["project_staging.md"].ref == "global/friday-staging.md"
    assert "title" in by_file["project_staging.md"].reason
    assert _facts(engine)["project/prefers-pnpm.md"].title == "Package manager"  # type: ignore[attr-defined]


def test_a_dry_run_writes_nothing_and_says_what_would_happen(
    engine: Engine, home: Path, user_home: Path, folder: Path
) -> None:
    before_home = snapshot(home)
    before_claude = snapshot(user_home)
    changes = engine.import_claude_memory(home=user_home, dry_run=True)
    assert changes.facts == () and changes.value.dry_run
    assert changes.value.count("would_import") == 5 and changes.value.count("imported") == 0
    assert snapshot(home) == before_home and snapshot(user_home) == before_claude
    assert _facts(engine) == {}


def test_import_into_the_global_scope(engine: Engine, user_home: Path, folder: Path) -> None:
    report = engine.import_claude_memory(home=user_home, scope=Scope.GLOBAL).value
    refs = {i.ref for i in report.items if i.action == "imported"}
    assert "global/prefers-pnpm.md" in refs and all((r or "").startswith("global/") for r in refs)
    topic = next(i for i in report.items if i.file == "debugging.md")
    assert topic.type is FactType.USER
    assert all(f.scope is Scope.GLOBAL for f in _facts(engine).values())  # type: ignore[attr-defined]


def test_import_without_a_folder_imports_nothing(engine: Engine, user_home: Path) -> None:
    changes = engine.import_claude_memory(home=user_home)
    assert changes.value.items == [] and not changes.value.exists and changes.facts == ()


def test_links_and_unreadable_files_are_not_followed(
    engine: Engine, user_home: Path, folder: Path, tmp_path: Path
) -> None:
    outside = tmp_path / "secret.md"
    outside.write_text("---\nname: Outside\ntype: user\n---\n\nnot Claude Code's\n")
    (folder / "linked.md").symlink_to(outside)
    (folder / "big.md").write_text("x" * (300 * 1024))
    (folder / "latin1.md").write_bytes("caf\xe9".encode("latin-1"))
    view = engine.claude_memory(home=user_home)
    problems = {m.file: m.problem for m in view.memories if m.problem}
    assert problems == {
        "linked.md": "a link (not followed)",
        "big.md": "larger than 256 KB",
        "latin1.md": "not UTF-8 text",
    }
    report = engine.import_claude_memory(home=user_home).value
    skipped = {i.file for i in report.items if i.action == "skipped"}
    assert {"linked.md", "big.md", "latin1.md", "deploy_token.md"} == skipped
    assert "not Claude Code's" not in str([f.body for f in engine.memory.load().facts])
