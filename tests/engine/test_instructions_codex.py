"""The Codex profile: global override/fallback, one file per directory from the project root,
fallback names and root markers from config.toml, the project_doc_max_bytes cut."""

from __future__ import annotations

from pathlib import Path

import pytest
from instruction_trees import check_golden, snapshot, write_tree

from context_center.engine.instructions.model import FileState
from context_center.engine.instructions.profiles.codex import (
    SEPARATOR,
    codex_home_for,
    resolve_codex,
)


def codex(repo: Path, target: Path, codex_home: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    return resolve_codex(repo, target, codex_home=codex_home, user_home=tmp_path / "user")


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    return root


def test_one_file_per_directory_override_first(repo: Path, tmp_path: Path) -> None:
    write_tree(
        repo,
        {
            "AGENTS.md": "- root\n",
            "CLAUDE.md": "- claude only\n",
            "svc/AGENTS.override.md": "- override wins\n",
            "svc/AGENTS.md": "- shadowed\n",
            "svc/api/README.md": "not an instruction file\n",
        },
    )
    res = codex(repo, repo / "svc" / "api", tmp_path / "ch", tmp_path)
    assert [d.label for d in res.documents] == [
        "workspace/AGENTS.md",
        "workspace/svc/AGENTS.override.md",
    ]
    assert res.text == "- root\n\n\n- override wins\n"
    assert "claude only" not in res.text and "shadowed" not in res.text


def test_global_first_non_empty_and_separator(repo: Path, tmp_path: Path) -> None:
    home = write_tree(
        tmp_path / "ch", {"AGENTS.override.md": "\n  \n", "AGENTS.md": "  global  \n"}
    )
    write_tree(repo, {"AGENTS.md": "- project\n"})
    res = codex(repo, repo, home, tmp_path)
    assert res.text == "global" + SEPARATOR + "- project\n"
    assert [f.state for f in res.files][:2] == [FileState.NOT_LOADED, FileState.LOADED]


def test_codex_home_from_the_environment(tmp_path: Path) -> None:
    assert (
        codex_home_for(tmp_path, {"CODEX_HOME": str(tmp_path / "elsewhere")})
        == tmp_path / "elsewhere"
    )
    assert codex_home_for(tmp_path, {"CODEX_HOME": ""}) == tmp_path / ".codex"
    assert codex_home_for(tmp_path, {}) == tmp_path / ".codex"


def test_fallback_names_and_root_markers(tmp_path: Path) -> None:
    home = write_tree(
        tmp_path / "ch",
        {
            "config.toml": (
                'project_doc_fallback_filenames = ["TEAM_GUIDE.md", ".agents.md"]\n'
                'project_root_markers = [".hg", "pnpm-workspace.yaml"]\n'
            )
        },
    )
    mono = write_tree(
        tmp_path / "mono",
        {
            "pnpm-workspace.yaml": "packages: ['*']\n",
            "TEAM_GUIDE.md": "- team guide at the root\n",
            "web/.agents.md": "- dot agents\n",
            "web/TEAM_GUIDE.md": "- not taken: .agents.md is later in the list but TEAM_GUIDE wins\n",
        },
    )
    res = codex(mono, mono / "web", home, tmp_path)
    assert [d.label for d in res.documents] == [
        "workspace/TEAM_GUIDE.md",
        "workspace/web/TEAM_GUIDE.md",
    ]


def test_no_root_marker_means_the_target_only(tmp_path: Path) -> None:
    plain = write_tree(tmp_path / "plain", {"AGENTS.md": "- top\n", "sub/AGENTS.md": "- sub\n"})
    res = codex(plain, plain / "sub", tmp_path / "ch", tmp_path)
    assert [d.label for d in res.documents] == ["workspace/sub/AGENTS.md"]


def test_byte_cut_shows_the_exact_point_and_what_never_arrives(repo: Path, tmp_path: Path) -> None:
    home = write_tree(tmp_path / "ch", {"config.toml": "project_doc_max_bytes = 64\n"})
    write_tree(
        repo,
        {
            "AGENTS.md": "- first rule is short\n",  # 22 bytes
            "a/AGENTS.md": "- second file\n" + "- rule past the cut one\n- rule past the cut two\n",
            "a/b/AGENTS.md": "- never reached\n",
            "a/b/c/AGENTS.md": "   \n",
        },
    )
    res = codex(repo, repo / "a" / "b" / "c", home, tmp_path)
    assert res.cut is not None
    assert (res.cut.label, res.cut.byte_offset, res.cut.line, res.cut.limit) == (
        "workspace/a/AGENTS.md",
        42,
        3,
        64,
    )
    states = {f.label: f.state for f in res.files}
    assert states["workspace/a/AGENTS.md"] is FileState.CUT_OFF
    assert states["workspace/a/b/AGENTS.md"] is FileState.NOT_REACHED
    assert states["workspace/a/b/c/AGENTS.md"] is FileState.NOT_REACHED
    assert len(res.text.encode()) == 64 + len("\n\n")
    assert "never reached" not in res.text and "cut two" not in res.text
    codes = [d.code for d in res.diagnostics]
    assert codes.count("document_cut_off") == 1 and codes.count("document_not_reached") == 2
    cut_note = next(d for d in res.diagnostics if d.code == "document_cut_off")
    assert "from: …le past the cut two" in cut_note.message  # the rest of the line it cuts
    check_golden("codex-byte-cut.txt", snapshot(res, tmp_path))


def test_whitespace_only_file_costs_nothing_and_zero_turns_docs_off(
    repo: Path, tmp_path: Path
) -> None:
    write_tree(repo, {"AGENTS.md": "  \n\n", "x/AGENTS.md": "- x\n"})
    res = codex(repo, repo / "x", tmp_path / "ch", tmp_path)
    assert res.text == "- x\n" and res.limits["project_bytes_used"] == 4
    off = write_tree(tmp_path / "off", {"config.toml": "project_doc_max_bytes = 0\n"})
    assert codex(repo, repo / "x", off, tmp_path).documents == ()


def test_invalid_config_falls_back_to_defaults_with_a_warning(repo: Path, tmp_path: Path) -> None:
    home = write_tree(tmp_path / "ch", {"config.toml": 'project_doc_max_bytes = "lots"\n'})
    write_tree(repo, {"AGENTS.md": "- r\n"})
    res = codex(repo, repo, home, tmp_path)
    assert res.limits["project_doc_max_bytes"] == 32 * 1024
    assert [d.code for d in res.diagnostics] == ["codex_config_invalid"]
    broken = write_tree(tmp_path / "broken", {"config.toml": "this is [not toml\n"})
    assert [d.code for d in codex(repo, repo, broken, tmp_path).diagnostics] == [
        "codex_config_invalid"
    ]


def test_gb18030_arrives_as_replacement_characters(repo: Path, tmp_path: Path) -> None:
    write_tree(repo, {"AGENTS.md": "- 提交前运行测试。\n".encode("gb18030")})
    res = codex(repo, repo, tmp_path / "ch", tmp_path)
    assert "\ufffd" in res.text
    assert [d.code for d in res.diagnostics] == ["document_not_utf8"]


def test_no_imports_and_links_are_followed_with_a_warning(repo: Path, tmp_path: Path) -> None:
    outside = write_tree(tmp_path / "shared", {"AGENTS.md": "- shared outside\n"})
    (repo / "AGENTS.md").symlink_to(outside / "AGENTS.md")
    write_tree(repo, {"docs/x.md": "IMPORTED", "sub/AGENTS.md": "@../docs/x.md\n"})
    res = codex(repo, repo / "sub", tmp_path / "ch", tmp_path)
    assert "- shared outside" in res.text and "IMPORTED" not in res.text
    assert "@../docs/x.md" in res.text
    assert [d.code for d in res.diagnostics] == ["document_symlink_escape"]
    assert res.diagnostics[0].severity.value == "warning"


def test_a_plain_file_above_the_workspace_is_no_link(repo: Path, tmp_path: Path) -> None:
    """The workspace is a folder inside the git root: the root's AGENTS.md is a plain file
    Codex reads, and no link warning is given for it (an outside review found one)."""
    write_tree(repo, {"AGENTS.md": "- root\n", "a/b/AGENTS.md": "- deep\n"})
    res = codex(repo / "a", repo / "a" / "b", tmp_path / "ch", tmp_path)
    assert "- root" in res.text and "- deep" in res.text
    assert [d.code for d in res.diagnostics] == []


def test_a_file_over_the_read_cap_is_not_called_cut_by_codex(repo: Path, tmp_path: Path) -> None:
    """Codex reads a file up to the budget left; only our own read cap (MAX_READ_BYTES)
    shortens what is shown. That is a note, and the budget counts what Codex reads."""
    from context_center.engine.instructions.profiles import codex as profile

    home = write_tree(tmp_path / "ch", {"config.toml": "project_doc_max_bytes = 100000\n"})
    write_tree(repo, {"AGENTS.md": "- big\n" + "x" * 5000 + "\n", "sub/AGENTS.md": "- sub\n"})
    old = profile.MAX_READ_BYTES
    profile.MAX_READ_BYTES = 1000
    try:
        res = codex(repo, repo / "sub", home, tmp_path)
    finally:
        profile.MAX_READ_BYTES = old
    assert [(f.label, f.state) for f in res.files] == [
        ("workspace/AGENTS.md", FileState.LOADED),
        ("workspace/sub/AGENTS.md", FileState.LOADED),
    ]
    assert [(d.code, d.severity.value) for d in res.diagnostics] == [("document_too_large", "note")]
    assert res.limits["project_bytes_used"] == 5007 + len("- sub\n")
    assert "- sub" in res.text


def test_a_budget_that_ends_in_leading_whitespace_is_not_called_empty(
    repo: Path, tmp_path: Path
) -> None:
    """Codex truncates the file to the budget left and skips it when what is left is only
    whitespace: the file is not empty, its text never arrives (an outside review found it
    reported as "empty")."""
    home = write_tree(tmp_path / "ch", {"config.toml": "project_doc_max_bytes = 12\n"})
    write_tree(repo, {"AGENTS.md": "- rooted\n", "sub/AGENTS.md": "\n\n\n\n- tail\n"})
    res = codex(repo, repo / "sub", home, tmp_path)
    assert res.text == "- rooted\n"
    last = res.files[-1]
    assert (last.label, last.state) == ("workspace/sub/AGENTS.md", FileState.NOT_REACHED)
    assert "only whitespace" in last.detail
    assert [d.code for d in res.diagnostics] == ["document_not_reached"]
