"""A secret split by a terminal escape or a control character is still one secret: the scan
reads the text with them taken out, and the span covers them in the original."""

from __future__ import annotations

import pytest

from context_center.engine.gate.secrets import find_sensitive
from context_center.engine.gate.visible import provider_visible, withhold_secrets

GHP = "gh" + "p_" + "u8jzPde0IgxLd6GncfBAepfJBd0Kh8oOOL8d"


@pytest.mark.parametrize("cut", ["\x1b[0m", "\x1b[1;31m", "\x00", "\x7f", "\x9b", "\x1b]0;t\x07"])
def test_a_token_split_by_a_control_is_withheld_whole(cut: str) -> None:
    text = f"token {GHP[:10]}{cut}{GHP[10:]} end"
    spans = find_sensitive(text)
    assert any(s.start <= 6 and s.end >= len(text) - 4 for s in spans), spans
    shown = provider_visible(text)
    assert GHP[:10] not in shown and GHP[10:] not in shown, shown
    assert shown.startswith("token [withheld") and shown.endswith(" end")


def test_a_key_split_by_a_colour_code_still_names_its_value() -> None:
    text = "pass\x1b[1mword: Hunter2xyz! ok"
    assert "Hunter2xyz" not in withhold_secrets(text)


def test_coloured_prose_is_no_secret() -> None:
    assert find_sensitive("plain \x1b[31mred\x1b[0m text, and a\x00b") == []
