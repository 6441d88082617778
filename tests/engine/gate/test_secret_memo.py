"""The secret scan's shortcuts and memos give exactly what the plain scan gives (issue 13)."""

from __future__ import annotations

import pytest

from context_center.engine.gate.secrets import find_sensitive
from context_center.engine.gate.secrets.normalise import (
    View,
    _char_replacement,
    _replacements,
    base_view,
    normalise_for_matching,
)

TEXTS = [
    "plain ascii token ghp_" + "a" * 36,
    "中文已规范，部署：完成。",
    "全角 ｇｈｐ＿" + "Ａ" * 36 + " 结束",
    "a\u200bb\u3164c\u00add",  # dropped characters: the offsets move
    "ﬁle ligature ㎏ expands",  # one character becomes several
    "key：ѕk_livе_" + "x" * 24,  # look-alike letters inside an ASCII run
    "password=hunter2secret  口令：Zx9!kQ2#mP",
]


def _mapped_view(text: str) -> View:
    norm, mapping = normalise_for_matching(text)
    if mapping is None:
        return View(norm)
    return View(norm, mapping, [m + 1 for m in mapping])


@pytest.mark.parametrize("text", TEXTS)
def test_base_view_is_the_mapped_view(text: str) -> None:
    fast, mapped = base_view(text), _mapped_view(text)
    assert fast.text == mapped.text
    for start in range(len(fast.text)):
        for end in range(start + 1, min(len(fast.text), start + 6) + 1):
            assert fast.span(start, end) == mapped.span(start, end)


def test_char_replacement_memo_is_the_function() -> None:
    for ch in "ｇＡ：\u200b\u3164ﬁ㎏ѕ中a":
        assert _char_replacement(ch) == _char_replacement.__wrapped__(ch)


def test_full_width_token_still_found_at_original_offsets() -> None:
    text = "令牌 ｇｈｐ＿" + "Ａ" * 36 + " 结束"
    spans = find_sensitive(text)
    assert spans, "a full-width GitHub token is still a secret"
    assert text[spans[0].start : spans[0].end].startswith("ｇｈｐ＿")


def test_replacements_with_known_characters_are_the_plain_ones() -> None:
    def plain(text: str) -> dict[str, str]:
        return {
            ch: rep
            for ch in set(text)
            if not ch.isascii() and (rep := _char_replacement.__wrapped__(ch)) != ch
        }

    for _ in range(2):  # the second time every character is known
        for text in TEXTS:
            assert _replacements(text) == plain(text)
