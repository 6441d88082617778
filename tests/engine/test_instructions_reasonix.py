"""Reasonix fixes: each file once across the chain (the CLAUDE.md-holding-@AGENTS.md layout),
no imports in indented code or HTML comments, package-like imports reported, secrets withheld."""

from __future__ import annotations

from pathlib import Path

import pytest
from instruction_trees import write_tree

from context_center.engine.instructions.model import ImportStatus
from context_center.engine.instructions.prefix import build_prefix
from context_center.engine.instructions.resolve import resolve_instructions
from context_center.engine.instructions.service import Places, resolve_for


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


def resolve(tmp_path: Path, repo: Path, target: Path | None = None):  # type: ignore[no-untyped-def]
    return resolve_instructions(tmp_path / "home", None, target or repo)


def test_claude_md_holding_agents_md_carries_each_rule_once(tmp_path: Path, repo: Path) -> None:
    write_tree(repo, {"AGENTS.md": "- Use pnpm.\n", "CLAUDE.md": "@AGENTS.md\n\n- Claude extra.\n"})
    res = resolve(tmp_path, repo)
    assert [d.label for d in res.documents] == ["workspace/AGENTS.md", "workspace/CLAUDE.md"]
    claude = res.documents[1]
    assert claude.imports[0].status is ImportStatus.ALREADY_LOADED
    assert claude.imports[0].loaded_as == "workspace/AGENTS.md"
    assert "already loaded as workspace/AGENTS.md" in claude.body
    assert build_prefix(res, [], []).text.count("- Use pnpm.") == 1
    assert res.diagnostics == ()


def test_the_reverse_layout_agents_md_holding_claude_md(tmp_path: Path, repo: Path) -> None:
    write_tree(repo, {"AGENTS.md": "@CLAUDE.md\n", "CLAUDE.md": "- The only rule.\n"})
    res = resolve(tmp_path, repo)
    assert build_prefix(res, [], []).text.count("- The only rule.") == 1
    assert res.documents[0].imports[0].loaded_as == "workspace/CLAUDE.md"


def test_a_file_imported_by_two_documents_is_included_by_the_first(
    tmp_path: Path, repo: Path
) -> None:
    write_tree(
        repo,
        {
            "docs/testing.md": "- Run the tests.\n",
            "REASONIX.md": "@docs/testing.md\n- reasonix\n",
            "CLAUDE.md": "@docs/testing.md\n- claude\n",
        },
    )
    res = resolve(tmp_path, repo)
    text = build_prefix(res, [], []).text
    assert text.count("- Run the tests.") == 1
    second = res.documents[1].imports[0]
    assert (second.status, second.loaded_as) == (
        ImportStatus.ALREADY_LOADED,
        "workspace/REASONIX.md",
    )
    assert "already loaded in workspace/REASONIX.md" in res.documents[1].body


def test_monorepo_of_25_agents_files_prefix_carries_unique_rules_only(
    tmp_path: Path, repo: Path
) -> None:
    files = {"AGENTS.md": "- root rule 0\n", "CLAUDE.md": "@AGENTS.md\n"}
    rel = ""
    for level in range(1, 25):
        rel = f"{rel}p{level}/"
        files[f"{rel}AGENTS.md"] = f"- rule of package {level} with some words to make it longer\n"
        files[f"{rel}CLAUDE.md"] = "@AGENTS.md\n"
    write_tree(repo, files)
    res = resolve(tmp_path, repo, repo / rel)
    unique = sum(len(text) for name, text in files.items() if name.endswith("AGENTS.md"))
    section = build_prefix(res, [], []).text
    for level in range(1, 25):
        assert section.count(f"rule of package {level} ") == 1
    rules_chars = sum(len(d.body) for d in res.documents if d.label.endswith("AGENTS.md"))
    assert rules_chars <= unique


@pytest.mark.parametrize(
    "hidden",
    [
        "para\n\n    @docs/a.md\n",  # indented code block
        "<!-- @docs/a.md -->\n",
        "<!--\n@docs/a.md\n-->\n",
        "text <!-- a comment\n@docs/a.md\nends --> here\n",
        "\t@docs/a.md\n",
    ],
)
def test_indented_code_and_html_comments_hold_no_imports(
    tmp_path: Path, repo: Path, hidden: str
) -> None:
    write_tree(repo, {"docs/a.md": "EXPANDED", "AGENTS.md": hidden})
    res = resolve(tmp_path, repo)
    assert res.documents[0].imports == ()
    assert "EXPANDED" not in res.documents[0].body


def test_a_line_inside_a_list_item_is_still_an_import(tmp_path: Path, repo: Path) -> None:
    write_tree(repo, {"docs/a.md": "EXPANDED", "AGENTS.md": "- rules:\n\n  @docs/a.md\n"})
    assert "EXPANDED" in resolve(tmp_path, repo).documents[0].body


def test_a_missing_package_like_import_is_a_broken_import(tmp_path: Path, repo: Path) -> None:
    write_tree(repo, {"AGENTS.md": "# Stack\n\n@tanstack/react-query\n"})
    res = resolve(tmp_path, repo)
    (diag,) = res.diagnostics
    assert (diag.code, diag.reason, diag.line) == ("import_unreadable", "package", 3)
    assert "package" in diag.message


SECRET_ENV = "DB_PASSWORD=hunter2-very-secret\nAWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n"


@pytest.mark.parametrize("agent", ["reasonix", "claude-code"])
def test_an_imported_env_file_never_puts_its_secrets_in_the_text(
    tmp_path: Path, repo: Path, agent: str
) -> None:
    write_tree(repo, {".env": SECRET_ENV, "CLAUDE.md": "@.env\n", "AGENTS.md": "@.env\n"})
    places = Places(
        home=tmp_path / "home", workspace=None, user_home=tmp_path / "u", ceiling=tmp_path
    )
    res = resolve_for(agent, places, repo)
    for visible in (res.text, *(d.body for d in res.documents)):
        assert "hunter2" not in visible and "AKIAIOSFODNN7EXAMPLE" not in visible
    assert "[withheld:" in res.text
    withheld = [d for d in res.diagnostics if d.code == "instruction_secret_withheld"]
    assert {(d.path, d.line) for d in withheld} == {("workspace/.env", 1), ("workspace/.env", 2)}
    assert all(d.severity.value == "warning" and "hunter2" not in d.message for d in withheld)
    if agent == "reasonix":
        prefix = build_prefix(res, [], []).text
        assert "hunter2" not in prefix and "[withheld:" in prefix


def test_codex_text_is_scanned_too(tmp_path: Path, repo: Path) -> None:
    write_tree(repo, {"AGENTS.md": "- deploy with token ghp_" + "a" * 36 + "\n"})
    places = Places(home=tmp_path / "home", workspace=None, user_home=tmp_path / "u")
    res = resolve_for("codex", places, repo)
    assert "ghp_" not in res.text and "[withheld: GitHub token]" in res.text
    assert [d.code for d in res.diagnostics] == ["instruction_secret_withheld"]


def test_email_addresses_in_instructions_are_kept(tmp_path: Path, repo: Path) -> None:
    write_tree(repo, {"AGENTS.md": "- Co-Authored-By: Bot <noreply@example.com>\n"})
    res = resolve(tmp_path, repo)
    assert "noreply@example.com" in res.documents[0].body and res.diagnostics == ()
