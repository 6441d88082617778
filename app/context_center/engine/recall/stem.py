"""A light, deterministic English stemmer for recall terms (documents and queries alike).

Only plain lowercase ASCII words of four or more letters change; identifiers (digits, ``_``),
CJK text and short words are left alone. The rules, in order:

1. plurals: ``-ies`` -> ``-y`` (dependencies -> dependency), ``-sses`` -> ``-ss``, and a final
   ``-s`` unless the word ends in ``ss``, ``us`` or ``is`` (tests -> test, redis, status);
2. ``-ing`` and ``-ed`` when at least three letters with a vowel remain (deploying, deployed ->
   deploy); a doubled final consonant other than l, s, z is undoubled (running -> run);
3. ``-ment`` when at least four letters remain (deployment -> deploy), ``-ation`` -> ``-at``
   (migration -> migrat);
4. a final ``-e`` of a word of four or more letters (release, released, releasing -> releas).

It is not a linguistic stemmer: it only has to send the usual forms of one developer word to one
term, so "deploy", "deploys", "deployed", "deploying" and "deployment" match each other.
"""

from __future__ import annotations

from functools import lru_cache

_VOWELS = frozenset("aeiouy")
_UNDOUBLE_KEEP = frozenset("lsz")


def _has_vowel(word: str) -> bool:
    return any(ch in _VOWELS for ch in word)


def _strip_suffix(word: str, suffix: str) -> str | None:
    if not word.endswith(suffix):
        return None
    base = word[: -len(suffix)]
    if len(base) < 3 or not _has_vowel(base):
        return None
    last = base[-1]
    if last == base[-2] and last not in _UNDOUBLE_KEEP and last not in _VOWELS:
        base = base[:-1]
    return base


@lru_cache(maxsize=1 << 17)
def stem(word: str) -> str:
    """The recall term for one lowercase word (see the module docstring)."""
    if len(word) < 4 or not word.isascii() or not word.isalpha():
        return word
    w = word
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is")):
        w = w[:-1]
    for suffix in ("ing", "ed"):
        base = _strip_suffix(w, suffix)
        if base is not None:
            w = base
            break
    if w.endswith("ment") and len(w) >= 8:
        w = w[:-4]
    elif w.endswith("ation") and len(w) >= 8:
        w = w[:-3]
    if w.endswith("e") and len(w) >= 4:
        w = w[:-1]
    return w
