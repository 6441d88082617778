"""Phrase-level overlap between two short texts (fact names, titles, descriptions).

The write gate uses this to spot a possible duplicate: an agent's new fact whose title or
description overlaps an existing fact's goes to a person instead of being written at once.
Chinese and English are treated alike; the rule is the reference implementation's:

1. equal after normalisation (NFKC, lowercase, letters and digits only) → overlap;
2. one contains the other, and both normalised forms have at least 4 characters → overlap;
3. one is more than 6 times longer than the other (normalised) → no overlap;
4. otherwise both need at least 2 distinct tokens, and they overlap when they share at least 2
   distinct tokens and ``shared * 3 >= smaller * 2`` (two thirds of the smaller set).

Tokens are lowercased runs of letters, digits and ``_``; a run of CJK characters (Han, kana,
Hangul) becomes its overlapping character bigrams, a lone CJK character a unigram. So "包管理"
overlaps "包管理器" (shares 包管, 管理) but not "依赖管理" (shares only 管理).

Rule 2 is deliberately loose ("test" is contained in "latest"): a false overlap only sends a
write to a person, a missed one could let a duplicate in unseen.
"""

from __future__ import annotations

import unicodedata

__all__ = ["is_cjk", "normalise", "phrases_overlap", "tokens"]

MIN_CONTAINMENT_CHARS = 4
MAX_LENGTH_RATIO = 6
MIN_TOKENS = 2
MIN_SHARED = 2

# Han (CJK unified ideographs and extensions, compatibility ideographs, 々 〇), kana, Hangul.
_CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x3005, 0x3005),  # 々
    (0x3007, 0x3007),  # 〇
    (0x3040, 0x309F),  # Hiragana
    (0x30A0, 0x30FF),  # Katakana
    (0x3130, 0x318F),  # Hangul compatibility Jamo
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA960, 0xA97F),  # Hangul Jamo extended A
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xD7B0, 0xD7FF),  # Hangul Jamo extended B
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0x20000, 0x323AF),  # CJK extensions B-H
)


def is_cjk(ch: str) -> bool:
    """Whether ``ch`` is a Han, kana or Hangul letter (punctuation such as ・ is not)."""
    code = ord(ch)
    if code < 0x1100 or not ch.isalnum():
        return False
    return any(lo <= code <= hi for lo, hi in _CJK_RANGES)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def normalise(text: str) -> str:
    """NFKC, lowercase, and only letters and digits kept: ``"Prefer-Tabs!"`` → ``"prefertabs"``."""
    return "".join(ch for ch in _fold(text) if ch.isalnum())


def tokens(text: str) -> list[str]:
    """Word tokens in order: letter/digit/``_`` runs lowercased; CJK runs as bigrams.

    ``tokens("用 pnpm 管理依赖")`` → ``["用", "pnpm", "管理", "理依", "依赖"]``.
    """
    out: list[str] = []
    word: list[str] = []
    cjk: list[str] = []

    def flush_word() -> None:
        if word:
            out.append("".join(word))
            word.clear()

    def flush_cjk() -> None:
        if len(cjk) == 1:
            out.append(cjk[0])
        else:
            out.extend(cjk[i] + cjk[i + 1] for i in range(len(cjk) - 1))
        cjk.clear()

    for ch in _fold(text):
        if is_cjk(ch):
            flush_word()
            cjk.append(ch)
        elif ch.isalnum() or ch == "_":
            flush_cjk()
            word.append(ch)
        else:
            flush_word()
            flush_cjk()
    flush_word()
    flush_cjk()
    return out


def phrases_overlap(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` say the same thing closely enough to be a possible duplicate."""
    na, nb = normalise(a), normalise(b)
    if not na or not nb:
        return False
    if na == nb:
        return True
    short, long = sorted((na, nb), key=len)
    if len(short) >= MIN_CONTAINMENT_CHARS and short in long:
        return True
    if len(long) > MAX_LENGTH_RATIO * len(short):
        return False
    ta, tb = set(tokens(a)), set(tokens(b))
    if len(ta) < MIN_TOKENS or len(tb) < MIN_TOKENS:
        return False
    shared = len(ta & tb)
    return shared >= MIN_SHARED and shared * 3 >= min(len(ta), len(tb)) * 2
