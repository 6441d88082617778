"""Control characters: which count, how they are named and how they are escaped."""

from __future__ import annotations

import pytest

from context_center.engine.gate.control import (
    describe_controls,
    escape_controls,
    find_controls,
    has_controls,
    is_control,
)

HOSTILE = {
    "ANSI colour": "\x1b[31mred\x1b[0m",
    "OSC title": "\x1b]0;owned\x07",
    "OSC 8 hyperlink": "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\",
    "hidden text (SGR 8)": "\x1b[8mhidden\x1b[28m",
    "screen clear": "\x1b[2J\x1b[H",
    "BEL": "ding\x07",
    "backspace overwrite": "safe\x08\x08\x08\x08evil",
    "lone carriage return": "rm -rf /tmp/x\rls",
    "C1 CSI": "\x9b31m",
    "DEL": "a\x7fb",
    "NUL": "a\x00b",
    "RLO": "abc\u202edcba",
    "LRI/PDI": "\u2066x\u2069",
    "LRE/PDF": "\u202ax\u202c",
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_sequences_are_controls_and_escape_to_plain_text(text: str) -> None:
    assert has_controls(text)
    escaped = escape_controls(text)
    assert not has_controls(escaped)
    assert escaped.isprintable()
    assert "\\" in escaped


def test_escape_forms() -> None:
    assert escape_controls("\x1b[31m") == "\\x1b[31m"
    assert escape_controls("a\u202eb") == "a\\u202eb"
    assert escape_controls("x\ry") == "x\\ry"
    assert escape_controls("\x9b") == "\\x9b"
    assert escape_controls("\x07") == "\\x07"


@pytest.mark.parametrize(
    "text",
    ["plain", "tab\there", "line\nbreak", "windows\r\nline", "中文，全角：没问题", "emoji 🎉", ""],
)
def test_ordinary_text_is_unchanged(text: str) -> None:
    assert not has_controls(text)
    assert escape_controls(text) == text


def test_find_and_describe() -> None:
    text = "ok\x1b[2J then \u202e and \x07"
    assert [f.offset for f in find_controls(text)] == [2, 12, 18]
    assert describe_controls(text) == (
        "ESC (terminal escape sequence), U+202E RIGHT-TO-LEFT OVERRIDE, BEL"
    )
    assert is_control("\r") and is_control("\x1b") and not is_control("\n")
    assert "owned" not in describe_controls(HOSTILE["OSC title"])
