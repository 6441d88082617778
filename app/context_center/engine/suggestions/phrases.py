"""``gate.overlap``'s tokens, normalisation and overlap rule, at the speed of ``re``.

The suggestions scan compares each candidate with every phrase of the facts that shares a
token with it, so it cuts tens of thousands of phrases into tokens. ``gate.overlap`` walks the
text one character at a time in Python; these functions give exactly the same results with
regular expressions (``\\w`` in ``re`` is ``str.isalnum()`` or ``_``, as ``overlap`` tests
each character), and ``overlap`` takes what was already computed for a phrase (its normalised
form and its distinct tokens) instead of recomputing both at every comparison.
``tests/engine/suggestions/test_suggestions_known_index.py`` checks the equality on every code
point.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Collection
from functools import cache
from operator import add

from context_center.engine.gate.overlap import (
    _CJK_RANGES,
    MAX_LENGTH_RATIO,
    MIN_CONTAINMENT_CHARS,
    MIN_SHARED,
    MIN_TOKENS,
)

__all__ = ["cut", "cut_at_least", "distinct_tokens", "fast_normalise", "key_of", "overlap"]

_NOT_ALNUM_RE = re.compile(r"[\W_]+")


@cache
def _cjk_class() -> str:
    """A ``re`` class of the letters ``overlap.is_cjk`` calls CJK (alphanumeric ones only)."""
    runs: list[str] = []
    for lo, hi in _CJK_RANGES:
        start = None
        for code in range(lo, hi + 2):
            inside = code <= hi and chr(code).isalnum()
            if inside and start is None:
                start = code
            elif not inside and start is not None:
                end = code - 1
                first, last = re.escape(chr(start)), re.escape(chr(end))
                runs.append(first + ("-" + last if end > start else ""))
                start = None
    return "".join(runs)


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    cjk = _cjk_class()
    return re.compile(f"[^\\W{cjk}]+"), re.compile(f"[{cjk}]+")


def _fold(text: str) -> str:
    if text.isascii():  # NFKC leaves ASCII as it is
        return text.lower()
    return unicodedata.normalize("NFKC", text).lower()


def fast_normalise(text: str) -> str:
    """``overlap.normalise(text)``."""
    return _NOT_ALNUM_RE.sub("", _fold(text))


def distinct_tokens(text: str) -> tuple[str, ...]:
    """The distinct tokens of ``overlap.tokens(text)`` (word runs; CJK runs as bigrams, a lone
    CJK letter alone), in no particular order, each interned."""
    return _distinct(_fold(text))


def cut(text: str) -> tuple[str, tuple[str, ...]]:
    """``(fast_normalise(text), distinct_tokens(text))``, folding ``text`` once."""
    folded = _fold(text)
    return _NOT_ALNUM_RE.sub("", folded), _distinct(folded)


_ASCII_WORD_RE = re.compile(r"[a-z0-9_]+")  # ``\\w`` on lowercased ASCII, a simpler class
_ASCII_NOT_ALNUM_RE = re.compile(r"[^a-z0-9]+")  # ``[\\W_]`` on lowercased ASCII


def cut_at_least(text: str, min_chars: int) -> tuple[str, tuple[str, ...]] | None:
    """``cut(text)`` when its normalised form has at least ``min_chars`` characters, else
    None (without cutting the tokens). The suggestions scan cuts every phrase of every fact
    once, half of them plain ASCII: those take simpler patterns with the same matches."""
    if text.isascii():
        folded = text.lower()
        norm = _ASCII_NOT_ALNUM_RE.sub("", folded)
        if len(norm) < min_chars:
            return None
        return norm, tuple(map(sys.intern, set(_ASCII_WORD_RE.findall(folded))))
    folded = unicodedata.normalize("NFKC", text).lower()
    norm = _NOT_ALNUM_RE.sub("", folded)
    if len(norm) < min_chars:
        return None
    return norm, _distinct(folded)


def _distinct(folded: str) -> tuple[str, ...]:
    word_re, cjk_re = _patterns()
    found = set(word_re.findall(folded))
    if not folded.isascii():  # no CJK letter otherwise
        for run in cjk_re.findall(folded):
            if len(run) == 1:
                found.add(run)
            else:
                found.update(map(add, run, run[1:]))
    return tuple(map(sys.intern, found))


def key_of(text: str) -> str:
    """``textual.normalize_key(text)``: lowercased, letters and digits only."""
    return _NOT_ALNUM_RE.sub("", text.lower())


def overlap(na: str, ta: frozenset[str], nb: str, tb: Collection[str]) -> bool:
    """``overlap.phrases_overlap(a, b)`` given ``normalise`` of both, the token set of ``a``
    and the distinct tokens of ``b``."""
    if not na or not nb:
        return False
    if na == nb:
        return True
    short, long = (na, nb) if len(na) <= len(nb) else (nb, na)
    if len(short) >= MIN_CONTAINMENT_CHARS and short in long:
        return True
    if len(long) > MAX_LENGTH_RATIO * len(short):
        return False
    if len(ta) < MIN_TOKENS or len(tb) < MIN_TOKENS:
        return False
    shared = len(ta.intersection(tb))
    return shared >= MIN_SHARED and shared * 3 >= min(len(ta), len(tb)) * 2
