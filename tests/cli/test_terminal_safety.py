"""Every command's output is safe for a terminal: text escaped in one place, JSON too."""

from __future__ import annotations

import json
from pathlib import Path

from inproc import run_inprocess


def _base(home: Path, workspace: Path) -> list[str]:
    return ["--home", str(home), "--workspace", str(workspace)]


def test_instruction_text_cannot_drive_the_terminal(home: Path, workspace: Path) -> None:
    (workspace / "AGENTS.md").write_text("- rule \x1b[31mred\x1b[0m and \u202eevil\n")
    out = run_inprocess([*_base(home, workspace), "memory", "instructions"]).stdout
    assert "\x1b" not in out and "\u202e" not in out
    assert "\\x1b[31mred" in out and "\\u202e" in out


def test_json_never_carries_raw_c1_or_bidi_controls(home: Path, workspace: Path) -> None:
    (workspace / "AGENTS.md").write_text("- rule \u202eevil \x9b2J\n")
    proc = run_inprocess([*_base(home, workspace), "--json", "memory", "instructions"])
    assert proc.returncode == 0, proc.stderr
    assert "\u202e" not in proc.stdout and "\x9b" not in proc.stdout
    data = json.loads(proc.stdout)
    # the body itself is shown as the prefix shows it: each control as its visible escape
    assert "\\u202eevil" in data["documents"][0]["body"]


def test_a_rule_with_control_characters_is_refused(home: Path, workspace: Path) -> None:
    before = sorted(p.name for p in workspace.iterdir())
    proc = run_inprocess(
        [
            *_base(home, workspace),
            "--json",
            "instructions",
            "add",
            "bell \a here",
            "--scope",
            "project",
        ]
    )
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "control_characters"
    assert sorted(p.name for p in workspace.iterdir()) == before


def test_history_turns_shown_by_suggestions_are_escaped(home: Path, workspace: Path) -> None:
    base = _base(home, workspace)
    for session in ("a", "b"):
        proc = run_inprocess(
            [
                *base,
                "history",
                "append",
                "Always use \x1b[31mred\x1b[0m tabs in Makefiles.",
                "--session",
                session,
            ]
        )
        assert proc.returncode == 0, proc.stderr
    out = run_inprocess(
        [
            *base,
            "suggestions",
            "--claude-root",
            str(home / "none"),
            "--codex-root",
            str(home / "none"),
        ]
    ).stdout
    assert "\x1b" not in out


def test_json_text_escapes_raw_controls_but_keeps_the_value() -> None:
    from context_center.cli.common import json_text

    value = {"t": "a\u202eb\x9bc 中文"}
    text = json_text(value)
    assert "\u202e" not in text and "\x9b" not in text and "中文" in text
    assert json.loads(text) == value
