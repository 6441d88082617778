"""`memory instructions`, `prefix` and `instructions add` through the real argument parser."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from context_center.cli import main
from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    data = json.loads(out.out) if "--json" in argv and out.out.strip() else out.out
    return code, data, out.err


@pytest.fixture
def tree(home: Path, workspace: Path, tmp_path: Path) -> Path:
    (home / "AGENTS.md").write_text("user rule", encoding="utf-8")
    (workspace / "AGENTS.md").write_text("root rule\n@docs/t.md\n@../secret.md", encoding="utf-8")
    (workspace / "docs").mkdir()
    (workspace / "docs" / "t.md").write_text("imported rule", encoding="utf-8")
    (tmp_path / "secret.md").write_text("SECRET", encoding="utf-8")
    api = workspace / "services" / "api"
    api.mkdir(parents=True)
    (api / "AGENTS.md").write_text("api rule", encoding="utf-8")
    (workspace / "services" / "web").mkdir()
    (workspace / "services" / "web" / "AGENTS.md").write_text("web rule", encoding="utf-8")
    return workspace


def test_memory_instructions_json(
    capsys: pytest.CaptureFixture[str], home: Path, tree: Path, tmp_path: Path
) -> None:
    code, data, _ = run(
        capsys,
        "--home",
        str(home),
        "--workspace",
        str(tree),
        "memory",
        "instructions",
        "--target",
        str(tree / "services" / "api"),
        "--json",
    )
    assert code == 0
    assert data["target"] == "workspace/services/api"
    assert [(d["label"], d["scope"], d["precedence"], d["order"]) for d in data["documents"]] == [
        ("user/AGENTS.md", "user", 0, 0),
        ("workspace/AGENTS.md", "project", 10, 1),
        ("workspace/services/api/AGENTS.md", "ancestor", 14, 2),
    ]
    root = data["documents"][1]
    assert root["directory"] == "workspace"
    assert [(i["source"], i["target"], i["status"]) for i in root["imports"]] == [
        ("workspace/AGENTS.md", "workspace/docs/t.md", "loaded"),
        ("workspace/AGENTS.md", "../secret.md", "rejected"),
    ]
    assert "imported rule" in root["body"] and "SECRET" not in root["body"]
    assert [(d["code"], d["path"], d["source_path"], d["line"]) for d in data["diagnostics"]] == [
        ("import_outside_source", "../secret.md", "workspace/AGENTS.md", 3)
    ]
    assert str(tmp_path) not in json.dumps(data)


def test_memory_instructions_local_paths_and_git_discovery(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    tree: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tree / "services" / "api")
    code, data, _ = run(
        capsys, "--home", str(home), "memory", "instructions", "--local-paths", "--json"
    )
    assert code == 0
    assert data["local_workspace"] == str(tree)  # found through .git, not the cwd
    assert data["documents"][2]["local_path"] == str(tree / "services" / "api" / "AGENTS.md")


def test_memory_instructions_text(
    capsys: pytest.CaptureFixture[str], home: Path, tree: Path
) -> None:
    code, text, _ = run(
        capsys, "--home", str(home), "--workspace", str(tree), "memory", "instructions"
    )
    assert code == 0
    assert "[1] workspace/AGENTS.md  scope=project  precedence=10" in text
    assert "import workspace/AGENTS.md:3 -> ../secret.md  rejected (import_outside_source)" in text
    assert "import_outside_source  workspace/AGENTS.md:3:" in text


def test_prefix_uses_facts_and_conflicts_from_the_stores(
    capsys: pytest.CaptureFixture[str], home: Path, tree: Path
) -> None:
    engine = Engine(home=home, workspace=tree)
    engine.open(migrate=True)
    engine.memory.create(
        name="indent",
        title="Indent",
        description="tabs",
        type=FactType.USER,
        scope=Scope.GLOBAL,
        body="GLOBAL: use tabs.",
    )
    engine.memory.create(
        name="indent",
        title="Indent",
        description="two spaces in this repo",
        type=FactType.USER,
        scope=Scope.PROJECT,
        body="PROJECT: two spaces.",
    )
    engine.memory.create(
        name="tone",
        title="Tone",
        description="short",
        type=FactType.FEEDBACK,
        scope=Scope.GLOBAL,
        body="GLOBAL: be brief.",
    )
    code, data, _ = run(capsys, "--home", str(home), "--workspace", str(tree), "prefix", "--json")
    assert code == 0
    text = data["text"]
    assert data["length"] == len(text)
    assert "GLOBAL: be brief." in text
    assert "GLOBAL: use tabs." not in text  # masked by the project fact
    assert "PROJECT: two spaces." not in text  # bodies of project facts never enter the prefix
    assert "- project/indent.md — Indent: two spaces in this repo" in text
    assert "global/indent.md" not in text
    assert "## workspace/AGENTS.md (project, applies to workspace)" in text
    assert str(home) not in text and str(tree) not in text

    code, plain, _ = run(capsys, "--home", str(home), "--workspace", str(tree), "prefix")
    assert code == 0
    assert f"\n\n({data['length']} characters)\n" in plain
    assert "  index: " in plain and "characters of 8,000" in plain  # each part against its budget


def test_instructions_add(capsys: pytest.CaptureFixture[str], home: Path, workspace: Path) -> None:
    base = ["--home", str(home), "--workspace", str(workspace)]
    code, data, _ = run(capsys, *base, "instructions", "add", "Run  the tests", "--json")
    assert code == 0
    assert data == {
        "action": "added",
        "scope": "project",
        "label": "workspace/AGENTS.md",
        "path": str(workspace / "AGENTS.md"),
        "rule": "- Run the tests",
    }
    code, data, _ = run(capsys, *base, "instructions", "add", "mine", "--scope", "local", "--json")
    assert (code, data["label"]) == (0, "workspace/AGENTS.local.md")
    code, text, _ = run(capsys, *base, "instructions", "add", "everywhere", "--scope", "user")
    assert (code, text.strip()) == (0, "added to user/AGENTS.md: - everywhere")
    assert (workspace / "AGENTS.md").read_text(encoding="utf-8") == "- Run the tests\n"
    assert (workspace / "AGENTS.local.md").read_text(encoding="utf-8") == "- mine\n"
    assert (home / "AGENTS.md").read_text(encoding="utf-8") == "- everywhere\n"


def test_instructions_add_refusals(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    base = ["--home", str(home), "--workspace", str(workspace)]
    code, data, err = run(capsys, *base, "instructions", "add", "  ", "--json")
    assert code == 1
    assert data == {"error": {"code": "empty_note", "message": "the note is empty"}}
    assert "the note is empty" in err
    with pytest.raises(SystemExit) as info:
        main([*base, "instructions", "add", "x", "--scope", "team"])
    assert info.value.code == 2
    assert not (workspace / "AGENTS.md").exists()


def test_instructions_add_in_a_subdirectory_goes_to_the_git_root(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    sub = workspace / "pkg"
    sub.mkdir()
    monkeypatch.chdir(sub)
    code, data, _ = run(capsys, "--home", str(home), "instructions", "add", "root rule", "--json")
    assert code == 0
    assert data["path"] == str(workspace / "AGENTS.md")


def test_entry_point_subprocess(home: Path, tree: Path, cli_env: dict[str, str]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "context_center", "--workspace", str(tree), "prefix", "--json"],
        env=cli_env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert "user rule" in data["text"] and "api rule" not in data["text"]


# --------------------------------------------------------------------------- agents, compare


@pytest.fixture
def agent_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A user home for Claude Code and Codex (never the real one)."""
    user = tmp_path / "user-home"
    (user / ".claude").mkdir(parents=True)
    (user / ".claude" / "CLAUDE.md").write_text("- claude user rule\n", encoding="utf-8")
    (user / ".codex").mkdir()
    (user / ".codex" / "AGENTS.md").write_text("- codex user rule\n", encoding="utf-8")
    monkeypatch.setenv("HOME", str(user))
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return user


def test_missing_target_is_an_error(
    capsys: pytest.CaptureFixture[str], home: Path, tree: Path
) -> None:
    base = ["--home", str(home), "--workspace", str(tree)]
    code, data, err = run(
        capsys, *base, "memory", "instructions", "--target", str(tree / "nope"), "--json"
    )
    assert code == 1
    assert data["error"]["code"] == "target_not_found"
    assert "workspace/nope does not exist" in data["error"]["message"]
    code, _, err = run(capsys, *base, "prefix", "--target", str(tree / "nope"))
    assert code == 1 and "does not exist" in err


def test_target_outside_the_workspace_is_named_by_a_label(
    capsys: pytest.CaptureFixture[str], home: Path, tree: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    code, text, _ = run(
        capsys,
        "--home",
        str(home),
        "--workspace",
        str(tree),
        "memory",
        "instructions",
        "--target",
        str(elsewhere),
    )
    assert code == 0
    assert "target_outside_workspace  above/1/elsewhere:" in text
    line = next(ln for ln in text.splitlines() if "target_outside_workspace" in ln)
    assert "../" not in line


def test_agent_option_for_claude_code_and_codex(
    capsys: pytest.CaptureFixture[str], home: Path, tree: Path, agent_homes: Path
) -> None:
    (tree / "CLAUDE.md").write_text("@AGENTS.md\n- claude project\n", encoding="utf-8")
    base = ["--home", str(home), "--workspace", str(tree), "memory", "instructions"]
    code, data, _ = run(capsys, *base, "--agent", "claude-code", "--json")
    assert code == 0 and data["agent"] == "claude-code"
    assert [d["label"] for d in data["documents"]] == ["~/.claude/CLAUDE.md", "workspace/CLAUDE.md"]
    assert "Contents of workspace/AGENTS.md (imported by workspace/CLAUDE.md)" in data["text"]
    code, data, _ = run(capsys, *base, "--agent", "codex", "--json")
    assert [d["label"] for d in data["documents"]] == ["~/.codex/AGENTS.md", "workspace/AGENTS.md"]
    assert data["limits"]["project_doc_max_bytes"] == 32768 and data["cut"] is None
    code, text, _ = run(capsys, *base, "--agent", "codex")
    assert "agent: codex" in text and "files:" in text
    assert str(agent_homes) not in text


def test_compare_and_diff(
    capsys: pytest.CaptureFixture[str], home: Path, tree: Path, agent_homes: Path, tmp_path: Path
) -> None:
    base = ["--home", str(home), "--workspace", str(tree), "memory", "instructions", "--compare"]
    code, data, _ = run(capsys, *base, "--json")
    assert code == 0
    assert [a["agent"] for a in data["agents"]] == ["reasonix", "claude-code", "codex"]
    row = next(r for r in data["files"] if r["label"] == "workspace/AGENTS.md")
    assert {a: c["state"] for a, c in row["agents"].items()} == {
        "reasonix": "loaded",
        "claude-code": "loaded",  # no CLAUDE.md anywhere: Claude Code reads AGENTS.md instead
        "codex": "loaded",
    }
    assert str(tmp_path) not in json.dumps(data)
    code, text, _ = run(capsys, *base)
    assert "file" in text.splitlines()[2] and "=== codex ===" in text
    code, text, _ = run(capsys, *base, "--diff", "reasonix,codex")
    assert "--- a/reasonix" in text and "+++ b/codex" in text
    code, data, _ = run(capsys, *base, "--diff", "reasonix,nobody", "--json")
    assert code == 1 and data["error"]["code"] == "invalid_diff"


def test_prefix_for_another_agent_is_its_own_text(
    capsys: pytest.CaptureFixture[str], home: Path, tree: Path, agent_homes: Path
) -> None:
    code, data, _ = run(
        capsys,
        "--home",
        str(home),
        "--workspace",
        str(tree),
        "prefix",
        "--agent",
        "codex",
        "--json",
    )
    assert code == 0 and data["agent"] == "codex"
    assert data["text"].startswith("- codex user rule\n\n--- project-doc ---\n\nroot rule")
    assert [p["name"] for p in data["parts"]] == ["~/.codex/AGENTS.md", "workspace/AGENTS.md"]


def test_json_bodies_show_local_paths_as_markers(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    (workspace / "AGENTS.md").write_text(f"- Data lives in {workspace}/data and {home}/x\n")
    code, data, _ = run(
        capsys,
        "--home",
        str(home),
        "--workspace",
        str(workspace),
        "--json",
        "memory",
        "instructions",
    )
    assert code == 0
    body = data["documents"][0]["body"]
    assert str(workspace) not in body and str(home) not in body
    assert "<workspace>/data" in body and "<local-home>/x" in body
    code, data, _ = run(
        capsys,
        "--home",
        str(home),
        "--workspace",
        str(workspace),
        "--json",
        "memory",
        "instructions",
        "--local-paths",
    )
    assert str(workspace) in data["documents"][0]["body"]  # asked for: the file as written
