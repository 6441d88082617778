"""`context-center import claude-code`: JSON contract, dry run, scope, duplicates, read-only source."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from context_center.cli import main

MEMORIES = {
    "feedback_ruff.md": "---\nname: Run ruff first\ndescription: Run ruff before every commit\n"
    "type: feedback\n---\n\nRun `ruff check .` before every commit.\n"
    "**Why:** CI rejects lint errors.\n**How to apply:** run it, fix, then commit.\n",
    "reference_wiki.md": "---\nname: Team wiki\ndescription: Where the runbooks live\n"
    "type: reference\n---\n\nRunbooks are at https://wiki.example.com/shop.\n",
}
INDEX = "- [Run ruff first](feedback_ruff.md) — lint before commit\n- [Team wiki](reference_wiki.md) — runbooks\n"


@pytest.fixture
def claude(tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Claude Code's folder with this workspace's memory, in Claude Code's own format."""
    root = tmp_path / "dot-claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    folder = root / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(workspace)) / "memory"
    folder.mkdir(parents=True)
    for name, text in MEMORIES.items():
        (folder / name).write_text(text, encoding="utf-8")
    (folder / "MEMORY.md").write_text(INDEX, encoding="utf-8")
    return root


def cli(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, *args: str
) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["--home", str(home), "--workspace", str(workspace), *args, "--json"])
    return code, json.loads(capsys.readouterr().out)


def _tree(root: Path) -> dict[str, tuple[bytes | None, int]]:
    out: dict[str, tuple[bytes | None, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            out[str(path.relative_to(root))] = (
                None if path.is_dir() else path.read_bytes(),
                path.stat().st_mtime_ns,
            )
    return out


def test_import_writes_facts_and_reports_each_file(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, claude: Path
) -> None:
    before = _tree(claude)
    code, data = cli(capsys, home, workspace, "import", "claude-code")
    assert code == 0
    assert data["scope"] == "project" and data["dry_run"] is False and data["exists"] is True
    assert data["counts"] == {"imported": 2, "would_import": 0, "duplicate": 0, "skipped": 0}
    by_file = {i["file"]: i for i in data["items"]}
    assert by_file["feedback_ruff.md"] | {"reason": ""} == {
        "file": "feedback_ruff.md",
        "name": "run-ruff-first",
        "title": "Run ruff first",
        "type": "feedback",
        "action": "imported",
        "reason": "",
        "ref": "project/run-ruff-first.md",
    }
    assert {c["ref"] for c in data["changes"]["facts"]} == {
        "project/run-ruff-first.md",
        "project/team-wiki.md",
    }
    assert data["source"].endswith("/memory")
    code, listed = cli(capsys, home, workspace, "memory", "read", "project/team-wiki.md")
    assert code == 0 and listed["fact"]["type"] == "reference"
    assert _tree(claude) == before


def test_a_second_import_imports_nothing(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, claude: Path
) -> None:
    cli(capsys, home, workspace, "import", "claude-code")
    code, data = cli(capsys, home, workspace, "import", "claude-code")
    assert code == 0 and data["counts"]["imported"] == 0 and data["counts"]["duplicate"] == 2
    assert data["changes"]["facts"] == []
    assert all(i["ref"].startswith("project/") for i in data["items"])


def test_dry_run_writes_nothing(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, claude: Path
) -> None:
    before = _tree(home)
    code, data = cli(capsys, home, workspace, "import", "claude-code", "--dry-run")
    assert code == 0 and data["dry_run"] is True
    assert data["counts"]["would_import"] == 2 and data["counts"]["imported"] == 0
    assert _tree(home) == before


def test_scope_global(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, claude: Path
) -> None:
    code, data = cli(capsys, home, workspace, "import", "claude-code", "--scope", "global")
    assert code == 0 and {i["ref"] for i in data["items"]} == {
        "global/run-ruff-first.md",
        "global/team-wiki.md",
    }


def test_claude_root_option_and_text_output(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, claude: Path, tmp_path: Path
) -> None:
    code = main(
        ["--home", str(home), "--workspace", str(workspace), "import", "claude-code",
         "--dry-run", "--claude-root", str(tmp_path / "elsewhere")]
    )  # fmt: skip
    out = capsys.readouterr().out
    assert code == 0 and "no Claude Code memory for this workspace" in out
    code = main(["--home", str(home), "--workspace", str(workspace), "import", "claude-code"])
    out = capsys.readouterr().out
    assert code == 0
    assert "imported     feedback_ruff.md -> project/run-ruff-first.md" in out
    assert "2 imported" in out


def test_an_unknown_scope_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, claude: Path
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--home", str(home), "--workspace", str(workspace), "import", "claude-code",
              "--scope", "local"])  # fmt: skip
    assert exit_info.value.code == 2


def test_the_console_script_runs_it(
    home: Path, workspace: Path, claude: Path, cli_env: dict[str, str]
) -> None:
    env = cli_env | {"CLAUDE_CONFIG_DIR": str(claude)}
    proc = subprocess.run(
        [sys.executable, "-m", "context_center", "--workspace", str(workspace),
         "import", "claude-code", "--dry-run", "--json"],
        capture_output=True, text=True, timeout=60, env=env,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["counts"]["would_import"] == 2
