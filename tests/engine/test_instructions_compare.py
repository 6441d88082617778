"""Comparing the three agents on one target: the table, cross-agent diagnostics, diffs, JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from instruction_trees import check_golden, monorepo, write_tree

from context_center.engine.instructions.compare import compare_json, diff_texts
from context_center.engine.instructions.model import FileState
from context_center.engine.instructions.service import Places, compare_for


@pytest.fixture
def shop(tmp_path: Path) -> tuple[Places, Path]:
    home, user_home, repo = monorepo(tmp_path)
    places = Places(home=home, workspace=None, user_home=user_home, ceiling=tmp_path)
    return places, repo


def state(cmp, label: str, agent: str) -> FileState:  # type: ignore[no-untyped-def]
    row = next(r for r in cmp.rows if r.label == label)
    return row.agents[agent].state


def test_table_says_what_each_agent_does_with_each_file(shop: tuple[Places, Path]) -> None:
    places, repo = shop
    cmp = compare_for(places, repo)
    assert state(cmp, "workspace/AGENTS.md", "reasonix") is FileState.LOADED
    assert state(cmp, "workspace/AGENTS.md", "claude-code") is FileState.IMPORTED
    assert state(cmp, "workspace/AGENTS.md", "codex") is FileState.LOADED
    assert state(cmp, "workspace/.claude/CLAUDE.md", "claude-code") is FileState.LOADED
    assert state(cmp, "workspace/.claude/CLAUDE.md", "reasonix") is FileState.NOT_LOADED
    assert state(cmp, "workspace/.claude/CLAUDE.md", "codex") is FileState.NOT_LOADED
    assert state(cmp, "above/1/outside.md", "claude-code") is FileState.NEEDS_APPROVAL
    row = next(r for r in cmp.rows if r.label == "workspace/.claude/CLAUDE.md")
    assert "Reasonix never reads .claude/CLAUDE.md" in row.agents["reasonix"].detail
    assert [s.agent.value for s in cmp.summaries] == ["reasonix", "claude-code", "codex"]
    assert cmp.summaries[2].limits["project_doc_max_bytes"] == 32768


def test_cross_agent_diagnostics(shop: tuple[Places, Path]) -> None:
    places, repo = shop
    cmp = compare_for(places, repo)
    messages = [(d.code, d.message) for d in cmp.diagnostics]
    assert any(
        code == "cross_import_ignored"
        and "docs/architecture.md" in m
        and "Reasonix reads only" in m
        for code, m in messages
    )
    assert any(
        code == "cross_import_ignored"
        and "above/1/outside.md" in m
        and "import_outside_source" in m
        for code, m in messages
    )
    assert any(
        code == "cross_file_unseen"
        and m.startswith("workspace/.claude/CLAUDE.md reaches Claude Code; never Reasonix")
        for code, m in messages
    )
    check_golden(
        "compare-monorepo-root.txt",
        "\n".join(f"{code}: {m}" for code, m in messages) + "\n",
    )


def test_codex_cut_imports_codex_ignores_and_duplicate_rules(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    (repo / ".git").mkdir(parents=True)
    write_tree(
        repo,
        {
            "AGENTS.md": "- Run the tests before committing.\n@docs/t.md\n"
            + "- filler line\n" * 10,
            "CLAUDE.md": "- Run the tests before committing.\n",
            "docs/t.md": "- imported testing notes\n",
        },
    )
    user = write_tree(tmp_path / "u", {".codex/config.toml": "project_doc_max_bytes = 60\n"})
    places = Places(home=tmp_path / "h", workspace=None, user_home=user, ceiling=tmp_path)
    cmp = compare_for(places, repo)
    codes = [d.code for d in cmp.diagnostics]
    assert "cross_codex_cut" in codes
    assert "cross_duplicate_rule" in codes
    ignored = [d.message for d in cmp.diagnostics if d.code == "cross_import_ignored"]
    assert any("Codex follows no imports" in m and "docs/t.md" in m for m in ignored)


def test_diff_and_json(shop: tuple[Places, Path], tmp_path: Path) -> None:
    places, repo = shop
    cmp = compare_for(places, repo)
    diff = diff_texts(cmp, "reasonix", "codex")
    assert diff.startswith("--- a/reasonix\n+++ b/codex\n")
    assert "+--- project-doc ---" in diff
    assert diff_texts(cmp, "codex", "codex") == ""
    data = compare_json(cmp)
    dumped = json.dumps(data, ensure_ascii=False)
    assert str(tmp_path) not in dumped
    assert set(data) == {"target", "agents", "files", "diagnostics", "profiles"}
    assert set(data["profiles"]) == {"reasonix", "claude-code", "codex"}
    assert data["files"][0]["agents"]["reasonix"]["state"] == "loaded"
