"""Each agent's chain on a monorepo-shaped tree: golden snapshots per profile and target, and
the Claude Code rules one by one (imports in prose, lists and blockquotes, escaped spaces,
anchors, code and comments, ~ and .. imports, the depth limit, .claude/rules with paths:,
external imports and their approval, AGENTS.md only through an import)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from instruction_trees import check_golden, monorepo, snapshot, write_tree

from context_center.engine.instructions.markdown import find_mentions
from context_center.engine.instructions.model import ImportStatus, Resolution
from context_center.engine.instructions.profiles.claude_code import resolve_claude_code
from context_center.engine.instructions.profiles.claude_rules import parse_rule, reaches
from context_center.engine.instructions.service import Places, resolve_for

TARGETS = {"root": ".", "api": "packages/api", "web": "apps/web"}
AGENTS = ("reasonix", "claude-code", "codex")


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Places, Path, Path]:
    home, user_home, repo = monorepo(tmp_path)
    places = Places(
        home=home,
        workspace=None,
        user_home=user_home,
        codex_home=user_home / ".codex",
        ceiling=tmp_path,
    )
    return places, repo, tmp_path


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("where", sorted(TARGETS))
def test_profile_matches_golden(tree: tuple[Places, Path, Path], agent: str, where: str) -> None:
    places, repo, base = tree
    res = resolve_for(agent, places, repo / TARGETS[where])
    check_golden(f"monorepo-{where}-{agent}.txt", snapshot(res, base))
    assert str(base) not in res.model_dump_json()
    assert str(base) not in res.text


def claude(tree: tuple[Places, Path, Path], rel: str = ".") -> Resolution:
    places, repo, base = tree
    return resolve_claude_code(repo, repo / rel, user_home=places.user_home, ceiling=base)


def imports_of(res: Resolution) -> dict[str, ImportStatus]:
    return {imp.target: imp.status for doc in res.documents for imp in doc.imports}


def test_claude_order_user_then_root_down_with_rules_and_local(tree) -> None:  # type: ignore[no-untyped-def]
    res = claude(tree, "packages/api")
    assert [d.label for d in res.documents] == [
        "~/.claude/CLAUDE.md",
        "~/.claude/rules/tone.md",
        "workspace/CLAUDE.md",
        "workspace/.claude/CLAUDE.md",
        "workspace/.claude/rules/testing.md",
        "workspace/CLAUDE.local.md",
        "workspace/packages/api/CLAUDE.md",
    ]
    states = {f.label: f.state.value for f in res.files}
    assert states["workspace/.claude/rules/frontend/react.md"] == "not_loaded"
    # a rule with paths: is not part of the launch text, even where its globs reach (it loads
    # when Claude reads a matching file); its status says that files here can match
    api = next(f for f in res.files if f.label == "workspace/.claude/rules/api.md")
    assert api.state.value == "not_loaded" and "files in the target directory can match" in (
        api.detail or ""
    )
    react = next(f for f in res.files if f.label == "workspace/.claude/rules/frontend/react.md")
    assert "can match" not in (react.detail or "")
    assert "workspace/AGENTS.md" not in [d.label for d in res.documents]


def test_claude_imports_in_prose_lists_quotes_but_never_code_or_comments(tree) -> None:  # type: ignore[no-untyped-def]
    res = claude(tree)
    found = imports_of(res)
    for label in (
        "workspace/AGENTS.md",
        "workspace/docs/architecture.md",  # in a sentence of a list item
        "workspace/docs/style guide.md",  # escaped space, #anchor dropped
        "workspace/docs/review.md",  # in a blockquote, trailing full stop
    ):
        assert found[label] is ImportStatus.LOADED, label
    for never in ("fenced", "indented", "commented", "multiline-comment", "code"):
        assert f"workspace/docs/{never}.md" not in found
        assert f"{never.upper()}-MUST-NOT-LOAD" not in res.text
    assert not any("alice" in t or "example.com" in t for t in found)  # mention, e-mail
    assert found["workspace/tanstack/react-query"] is ImportStatus.MISSING
    notes = {d.code: d.severity.value for d in res.diagnostics}
    assert notes["import_missing"] == "note"


def test_claude_depth_limit_is_four_levels(tree) -> None:  # type: ignore[no-untyped-def]
    res = claude(tree)
    depths = {imp.target: (imp.depth, imp.status) for d in res.documents for imp in d.imports}
    assert depths["workspace/docs/deep/three.md"] == (4, ImportStatus.LOADED)
    assert depths["workspace/docs/deep/four.md"] == (5, ImportStatus.REJECTED)
    assert "depth four" not in res.text and "depth three" in res.text


def test_claude_external_imports_wait_for_approval_then_load(tree) -> None:  # type: ignore[no-untyped-def]
    places, repo, _base = tree
    before = imports_of(claude(tree))
    assert before["~/.claude/personal.md"] is ImportStatus.NEEDS_APPROVAL
    assert before["above/1/outside.md"] is ImportStatus.NEEDS_APPROVAL
    (places.user_home / ".claude.json").write_text(
        json.dumps({"projects": {str(repo): {"hasClaudeMdExternalIncludesApproved": True}}})
    )
    res = claude(tree)
    after = imports_of(res)
    assert after["~/.claude/personal.md"] is ImportStatus.LOADED
    assert after["above/1/outside.md"] is ImportStatus.LOADED
    assert "OUTSIDE-THE-REPO" in res.text and str(repo) not in res.text


def test_claude_external_import_approval_is_read_where_claude_config_dir_puts_it(
    tree, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    places, repo, _base = tree
    config = tmp_path / "claude-config"
    config.mkdir()
    approved = {"projects": {str(repo): {"hasClaudeMdExternalIncludesApproved": True}}}
    (places.user_home / ".claude.json").write_text(json.dumps(approved))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    # Claude Code ignores ~/.claude.json once CLAUDE_CONFIG_DIR is set
    assert imports_of(claude(tree))["above/1/outside.md"] is ImportStatus.NEEDS_APPROVAL
    (config / ".claude.json").write_text(json.dumps(approved))
    assert imports_of(claude(tree))["above/1/outside.md"] is ImportStatus.LOADED


def test_claude_in_a_package_the_root_imports_are_external(tree) -> None:  # type: ignore[no-untyped-def]
    found = imports_of(claude(tree, "packages/api"))
    assert found["workspace/AGENTS.md"] is ImportStatus.NEEDS_APPROVAL
    assert found["workspace/packages/api/AGENTS.md"] is ImportStatus.LOADED


def test_claude_reads_directories_above_the_workspace(tmp_path: Path) -> None:
    base = tmp_path / "base"
    write_tree(base, {"CLAUDE.md": "- org-wide rule\n", "org/repo/CLAUDE.md": "- repo\n"})
    (base / "org" / "repo" / ".git").mkdir()
    res = resolve_claude_code(
        base / "org" / "repo", base / "org" / "repo", user_home=tmp_path / "u", ceiling=tmp_path
    )
    assert [(d.label, d.scope.value) for d in res.documents] == [
        ("above/2/CLAUDE.md", "above"),
        ("workspace/CLAUDE.md", "project"),
    ]
    assert str(tmp_path) not in res.text


def test_claude_each_file_once_and_cycles_end(tmp_path: Path) -> None:
    repo = write_tree(
        tmp_path / "r",
        {"CLAUDE.md": "@a.md @a.md\n", "a.md": "A\n@b.md\n", "b.md": "B\n@a.md @CLAUDE.md\n"},
    )
    res = resolve_claude_code(repo, repo, user_home=tmp_path / "u", ceiling=tmp_path)
    assert res.text.count("\nA\n") == 1 and res.text.count("\nB\n") == 1
    statuses = [(i.target, i.status.value, i.loaded_as) for i in res.documents[0].imports]
    assert statuses == [
        ("workspace/a.md", "loaded", None),
        ("workspace/b.md", "loaded", None),
        ("workspace/a.md", "already_loaded", "workspace/a.md"),
        ("workspace/CLAUDE.md", "already_loaded", "workspace/CLAUDE.md"),
        ("workspace/a.md", "already_loaded", "workspace/a.md"),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("see @docs/a.md now", [(0, "docs/a.md", False)]),
        ("- item @x/y.md", [(0, "x/y.md", False)]),
        ("> quoted @q.md", [(0, "q.md", False)]),
        ("@alone.md", [(0, "alone.md", True)]),
        ("mail a@b.com", []),
        ("`@code.md`", []),
        ("```\n@fence.md\n```", []),
        ("para\n\n    @indented.md", []),
        ("<!-- @c.md -->", []),
        ("text <!-- @c.md\nmore --> after @d.md", [(1, "d.md", False)]),
        ("@my\\ file.md#part", [(0, "my\\ file.md#part", True)]),
        ("- list\n\n  @in-list.md", [(2, "in-list.md", True)]),
    ],
)
def test_mentions(text: str, expected: list[tuple[int, str, bool]]) -> None:
    assert [(m.line, m.raw, m.alone) for m in find_mentions(text)] == expected


def test_escaped_space_and_anchor_make_the_path() -> None:
    (mention,) = find_mentions("@docs/style\\ guide.md#naming")
    assert mention.path == "docs/style guide.md"


@pytest.mark.parametrize(
    ("pattern", "rel", "expected"),
    [
        ("src/api/**/*.ts", "src/api", True),
        ("src/api/**/*.ts", "src/api/handlers", True),
        ("src/api/**/*.ts", "src", False),
        ("src/api/**/*.ts", "", False),
        ("**/*.ts", "", True),
        ("packages/{api,web}/**", "packages/web", True),
        ("packages/{api,web}/**", "packages/cli", False),
        ("docs/guide.md", "docs", True),
        ("./apps/*", "apps/web", True),
        ("src/*.ts", "src", True),
        ("src/*.ts", "src/api", False),
    ],
)
def test_rule_paths_reach_the_target(pattern: str, rel: str, expected: bool) -> None:
    assert reaches(pattern, rel) is expected


def test_rule_frontmatter_forms() -> None:
    assert parse_rule("---\npaths:\n  - 'a/**'\n  - b\n---\nbody\n").paths == ("a/**", "b")
    assert parse_rule("---\npaths: a/**, b/**\n---\nx").paths == ("a/**", "b/**")
    assert parse_rule("no frontmatter").paths is None
    broken = parse_rule("---\npaths:\n  - **/*.ts\n---\nx")
    assert broken.paths is None and "YAML" in broken.problem
    assert parse_rule("---\ntitle: x\n---\nbody").body == "body"


def test_claude_code_strips_block_level_html_comments(tmp_path: Path) -> None:
    """Claude Code (since 2.1.72) strips the HTML comments that stand as blocks before a
    memory file reaches the model; a comment in a sentence or in code stays (an outside
    review found maintainer notes shown as if the model saw them)."""
    from context_center.engine.instructions.markdown import without_block_comments
    from context_center.engine.instructions.profiles.claude_code import resolve_claude_code

    text = (
        "# Team\n\n<!-- maintainer note: secret plan -->\n\n- Rule one\n<!--\nmany\nlines\n-->\n"
        "- Rule two <!-- inline stays -->\n\n```\n<!-- in code stays -->\n```\n"
    )
    assert without_block_comments(text) == (
        "# Team\n\n\n- Rule one\n- Rule two <!-- inline stays -->\n\n```\n<!-- in code stays -->\n```\n"
    )
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "CLAUDE.md").write_text(text + "@notes.md\n")
    (repo / "notes.md").write_text("<!-- hidden in the import too -->\n- Imported rule\n")
    res = resolve_claude_code(repo, repo, user_home=tmp_path / "user", ceiling=tmp_path)
    assert "secret plan" not in res.text and "many" not in res.text
    assert "hidden in the import" not in res.text and "- Imported rule" in res.text
    assert "inline stays" in res.text and "in code stays" in res.text


def test_claude_md_excludes_skip_files_from_every_settings_layer(tmp_path: Path) -> None:
    """``claudeMdExcludes`` globs, matched against absolute paths, merge across the user's,
    the project's and the local settings; a matching memory file is not loaded (an outside
    review found the setting ignored). The status names the settings file, not the path."""
    from context_center.engine.instructions.profiles.claude_code import resolve_claude_code

    repo, user = tmp_path / "repo", tmp_path / "user"
    (repo / ".git").mkdir(parents=True)
    files = {
        "CLAUDE.md": "- root rule\n",
        "packages/web/CLAUDE.md": "- web rule\n",
        "packages/api/CLAUDE.md": "- api rule\n",
        "packages/api/CLAUDE.local.md": "- my api notes\n",
        "packages/api/.claude/rules/style.md": "- api style\n",
        ".claude/settings.json": '{"claudeMdExcludes": ["**/packages/api/.claude/rules/**"]}',
        ".claude/settings.local.json": '{"claudeMdExcludes": ["**/packages/*/CLAUDE.local.md"]}',
    }
    for name, text in files.items():
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        (repo / name).write_text(text)
    (user / ".claude").mkdir(parents=True)
    (user / ".claude" / "settings.json").write_text(
        json.dumps({"claudeMdExcludes": [f"{repo}/CLAUDE.md", 7, "["]})
    )
    res = resolve_claude_code(repo, repo / "packages" / "api", user_home=user, ceiling=tmp_path)
    assert "- api rule" in res.text
    for hidden in ("- root rule", "- my api notes", "- api style"):
        assert hidden not in res.text, hidden
    why = {f.label: f.detail for f in res.files if f.state.value == "not_loaded"}
    assert why == {
        "workspace/CLAUDE.md": "claudeMdExcludes in ~/.claude/settings.json",
        "workspace/packages/api/CLAUDE.local.md": (
            "claudeMdExcludes in workspace/.claude/settings.local.json"
        ),
        "workspace/packages/api/.claude/rules/style.md": (
            "claudeMdExcludes in workspace/.claude/settings.json"
        ),
    }
    assert str(tmp_path) not in json.dumps([f.detail for f in res.files])


def test_claude_rules_follow_linked_folders_once(tmp_path: Path) -> None:
    """Claude Code's rules folder supports links (a shared set of rules linked into several
    projects) and survives link cycles: a linked folder is walked, each real folder once."""
    from context_center.engine.instructions.profiles.claude_code import resolve_claude_code

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    shared = tmp_path / "shared-rules"
    shared.mkdir()
    (shared / "security.md").write_text("- Never log tokens.\n")
    rules = repo / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "local.md").write_text("- Local rule.\n")
    (rules / "shared").symlink_to(shared, target_is_directory=True)
    (rules / "again").symlink_to(shared, target_is_directory=True)  # the same folder twice
    (shared / "loop").symlink_to(rules, target_is_directory=True)  # a cycle
    res = resolve_claude_code(repo, repo, user_home=tmp_path / "user", ceiling=tmp_path)
    assert res.text.count("- Never log tokens.") == 1 and "- Local rule." in res.text
    loaded = [f.label for f in res.files if f.state.value == "loaded"]
    assert loaded.count("workspace/.claude/rules/local.md") == 1


def test_claude_code_reads_agents_md_where_no_claude_md_is(tmp_path: Path) -> None:
    """Claude Code 2.1.277+: in a project with no CLAUDE.md in the working directory or
    above it, AGENTS.md is read in its place, folder by folder (an outside review found it
    reported as unseen); one CLAUDE.md anywhere up the chain turns that off."""
    from context_center.engine.instructions.profiles.claude_code import resolve_claude_code

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "AGENTS.md").write_text("- root agents rule\n")
    (repo / "svc").mkdir()
    (repo / "svc" / "AGENTS.md").write_text("- service agents rule\n")
    user = tmp_path / "user"
    res = resolve_claude_code(repo, repo / "svc", user_home=user, ceiling=tmp_path)
    assert [d.label for d in res.documents] == ["workspace/AGENTS.md", "workspace/svc/AGENTS.md"]
    assert "Contents of workspace/AGENTS.md (project instructions" in res.text
    (repo / "svc" / "CLAUDE.local.md").write_text("- my notes\n")
    res = resolve_claude_code(repo, repo / "svc", user_home=user, ceiling=tmp_path)
    assert [d.label for d in res.documents] == ["workspace/svc/CLAUDE.local.md"]
    assert "agents rule" not in res.text


@pytest.mark.parametrize("agent", ["claude-code", "codex", "reasonix"])
def test_no_profile_shows_this_programs_home_or_a_home_in_a_diagnostic(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, agent: str
) -> None:
    """An instruction file naming the Context Center home, and an import of a missing file in
    the user's home: neither path reaches the text or any field of the JSON."""
    from context_center.engine.instructions.render import render_instructions_json

    user = tmp_path / "users" / "zed"
    monkeypatch.setenv("HOME", str(user))
    cc_home = tmp_path / "cc-home-alpha"
    ws = write_tree(
        tmp_path / "ws",
        {
            "AGENTS.md": f"- store is {cc_home}/projects\n@{user}/private/missing.md\n",
            "CLAUDE.md": f"- store is {cc_home}/projects\n@{user}/private/missing.md\n",
            "REASONIX.md": f"- store is {cc_home}/projects\n@{user}/private/missing.md\n",
        },
    )
    (ws / ".git").mkdir()
    places = Places(home=cc_home, workspace=ws, user_home=user, ceiling=tmp_path)
    res = resolve_for(agent, places, ws)
    shown = json.dumps(render_instructions_json(res), ensure_ascii=False) + res.text
    assert "cc-home-alpha" not in shown and str(user) not in shown


def test_claude_user_memory_is_read_where_claude_config_dir_puts_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    user = tmp_path / "u"
    write_tree(user, {".claude/CLAUDE.md": "- from ~/.claude\n"})
    config = write_tree(
        tmp_path / "cfg", {"CLAUDE.md": "- from the config dir\n", "rules/r.md": "- a rule\n"}
    )
    ws = write_tree(tmp_path / "ws", {"CLAUDE.md": "- project\n"})
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(config))
    res = resolve_claude_code(ws, ws, user_home=user, ceiling=tmp_path)
    assert "from the config dir" in res.text and "a rule" in res.text
    assert "from ~/.claude" not in res.text and str(config) not in res.text
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")
    res = resolve_claude_code(ws, ws, user_home=user, ceiling=tmp_path)
    assert "from ~/.claude" in res.text and "from the config dir" not in res.text
