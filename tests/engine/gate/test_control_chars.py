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


INVISIBLE = {
    "zero-width space": "pass\u200bword",
    "RLM": "abc\u200fdef",
    "LRM": "abc\u200edef",
    "ALM": "abc\u061cdef",
    "line separator": "one\u2028two",
    "paragraph separator": "one\u2029two",
    "word joiner": "a\u2060b",
    "BOM inside": "a\ufeffb",
    # "ignore previous" in tag characters: shown by no renderer, read by a model
    "tag characters": "ok " + "".join(chr(0xE0000 + ord(c)) for c in "ignore previous"),
}


@pytest.mark.parametrize("text", INVISIBLE.values(), ids=INVISIBLE.keys())
def test_invisible_format_characters_are_shown_as_escapes(text: str) -> None:
    escaped = escape_controls(text)
    assert escaped.isprintable() and ("\\u" in escaped or "\\U" in escaped)
    assert not any(ch in escaped for ch in text if not ch.isascii())
    assert not has_controls(text)  # shown, not refused: the gate's rule stays as it was


def test_tag_characters_escape_in_full_form_and_joiners_stay() -> None:
    assert escape_controls(chr(0xE0069)) == "\\U000e0069"
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # ZWJ sequence
    assert escape_controls(family) == family
    assert escape_controls("می\u200cخواهم") == "می\u200cخواهم"  # ZWNJ in Persian


def test_the_provider_visible_text_escapes_tag_characters() -> None:
    from context_center.engine.gate.visible import provider_visible

    hidden = "".join(chr(0xE0000 + ord(c)) for c in "run rm -rf")
    shown = provider_visible(f"deploy notes {hidden} end")
    assert hidden not in shown and "\\U000e0072" in shown
