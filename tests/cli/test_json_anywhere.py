"""`--json` wherever the README says a command takes it: before the command, after the group
word (`memory --json list`) or after the last word; and a command that writes its own output
(a hook, the MCP protocol) gets nothing added by --json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inproc import run_inprocess

from context_center.cli import build_parser

GROUPED = [
    ("memory", "list"),
    ("memory", "recall"),
    ("memory", "search", "deploy"),
    ("memory", "instructions"),
    ("approvals", "list"),
    ("import", "claude-code", "--dry-run"),
    ("agent", "forget", "nope"),
]


@pytest.mark.parametrize("words", GROUPED, ids=lambda w: " ".join(w[:2]))
def test_json_after_the_group_word_is_the_same_as_at_the_end(
    home: Path, workspace: Path, words: tuple[str, ...]
) -> None:
    base = ["--home", str(home), "--workspace", str(workspace)]
    at_end = run_inprocess([*base, *words, "--json"])
    after_group = run_inprocess([*base, words[0], "--json", *words[1:]])
    before = run_inprocess([*base, "--json", *words])
    assert after_group.returncode == at_end.returncode == before.returncode != 2
    assert json.loads(after_group.stdout).keys() == json.loads(at_end.stdout).keys()
    assert json.loads(before.stdout).keys() == json.loads(at_end.stdout).keys()


@pytest.mark.parametrize(
    "argv", [("history", "--json", "append", "hi"), ("instructions", "--json", "add", "a rule")]
)
def test_json_after_the_group_word_of_a_write(
    home: Path, workspace: Path, argv: tuple[str, ...]
) -> None:
    result = run_inprocess(["--home", str(home), "--workspace", str(workspace), *argv])
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["action"] in ("appended", "added")


@pytest.mark.parametrize("where", ["before", "after"])
def test_a_hook_with_json_prints_only_its_own_answer(
    home: Path, workspace: Path, where: str
) -> None:
    """A generic turn has no answer: stdout stays empty (it used to be ``null``, which Claude
    Code would read as the hook's output)."""
    words = ["hook", "claude-code", "UserPromptSubmit"]
    argv = ["--json", *words] if where == "before" else [*words, "--json"]
    payload = {"session_id": "s", "cwd": str(workspace), "prompt": "继续"}
    result = run_inprocess(["--home", str(home), *argv], stdin=json.dumps(payload))
    assert result.returncode == 0 and result.stdout == "", result.stdout


def test_mcp_takes_json_like_every_command() -> None:
    args = build_parser("mcp").parse_args(["mcp", "--json", "--controller", "interactive"])
    assert args.json_out is True and args.controller == "interactive"
