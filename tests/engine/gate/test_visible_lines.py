"""Withholding a secret never swallows the next line or a sentence's punctuation."""

from __future__ import annotations

from context_center.engine import withhold_secrets


def test_a_withheld_key_keeps_the_next_rule() -> None:
    text = (
        "- API_KEY=sk-abcdefghijklmnop123456\n"
        "- password is hunter2\n"
        "- token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789ab.\n"
        "- keep this rule\n"
    )
    out = withhold_secrets(text)
    lines = out.split("\n")
    assert len(lines) == len(text.split("\n"))
    assert all(line.startswith("- ") for line in lines if line)
    assert "sk-abc" not in out and "hunter2" not in out and "ghp_" not in out
    assert lines[2].endswith("].") and lines[3] == "- keep this rule"
