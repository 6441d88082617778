"""Compound identifiers in a message: names that the tokenizer would split into plain words.

``tracking-plan.yaml``, ``src/api/client.ts``, ``X-Pay-Signature``, ``refunds-dlq``,
``test:ci``, ``@acme/tokens``, ``DATA-ONCALL`` and ``go.mod`` are each written as one name, but
their pieces (``tracking``, ``plan``, ``yaml``) are ordinary words that many facts contain. A
compound is identifier-like when it is joined by ``.``, ``/``, ``:`` or ``@``, or, joined by
hyphens only, when a piece has a digit, a capital after the first piece, or a piece that is
not a common English word. Hyphenated prose (``one-line``, ``year-end``, ``table-driven``) and
numbers, dates, times and versions (``2026-11-03``, ``02:14:55``, ``1.22.5``) are not.

A compound matches a fact only when the fact contains it *literally* (case and width folded),
which ``literal_docs`` checks on the few facts that hold all of its pieces.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from context_center.engine.recall.stem import stem
from context_center.engine.recall.tokenize import CJK_CLASS, normalize, tokens
from context_center.engine.rxcache import compile_all

if TYPE_CHECKING:
    from context_center.engine.model import Fact

_W = f"[^\\W{CJK_CLASS}]"
# A line and column after a file name (``checkout.spec.ts:57:16``), a version after a package
# name (``web@2.14.0``): not part of the name.
_TAIL = re.compile(r"(?::\d+)+$|@[\d.]+$")
# A number-like piece: digits with at most one letter (``03t02``, ``55z`` in a timestamp).
_NUMERIC = re.compile(r"^\d*[a-z]?\d*$", re.IGNORECASE)
# both compiled once per Python build (``rxcache.py``): each holds the CJK class
_COMPOUND, _PIECE = compile_all(
    "compounds", [(f"(?<![\\w@/.:-])[@/]?{_W}+(?:[-./:@]+{_W}+)+", 0), (f"{_W}+", 0)]
)
# Facts checked for the literal text of one compound (best scoring first).
LITERAL_CHECK = 64


@dataclass(frozen=True, slots=True)
class Compound:
    text: str  # lowercased, without a leading "/" or "@" ("v1/charges", "acme/tokens")
    parts: tuple[str, ...]  # its index terms (stemmed), all of which a matching fact holds


def _identifier_like(raw: str, pieces: list[str], common: frozenset[str]) -> bool:
    if all(_NUMERIC.match(p) for p in pieces):
        return False  # a number, date, time or version
    if not any(len(p) >= 2 and not p.isdigit() for p in pieces):
        return False  # "e.g", "a.m"
    joiners = set(_PIECE.sub(" ", raw).split())
    if joiners - {"-"}:
        return True
    if any(p.isdigit() or (not p.isalpha() and any(ch.isdigit() for ch in p)) for p in pieces):
        return True
    if any(ch.isupper() for p in pieces[1:] for ch in p):
        return True
    return any(p.lower() not in common for p in pieces if p.isalpha())


def compounds(message: str, common: frozenset[str]) -> list[Compound]:
    """The identifier-like compounds of a message, in order, without repeats."""
    out: dict[str, Compound] = {}
    text = unicodedata.normalize("NFKC", message)
    for m in _COMPOUND.finditer(text):
        raw = _TAIL.sub("", m.group(0).lstrip("@/"))
        pieces = _PIECE.findall(raw)
        if len(pieces) < 2 or not _identifier_like(raw, pieces, common):
            continue
        low = normalize(raw)
        if low not in out:
            parts = tuple(dict.fromkeys(stem(t) for t in tokens(low)))
            out[low] = Compound(low, parts)
    return list(out.values())


def _fact_text(fact: Fact) -> str:
    return normalize(f"{fact.name}\n{fact.title}\n{fact.description}\n{fact.body}")


def literal_docs(
    docs: np.ndarray, order: np.ndarray, text: str, fact_at: Callable[[int], Fact | None]
) -> np.ndarray:
    """The ordinals among ``docs`` (checked in ``order``, at most LITERAL_CHECK of them)
    whose fact contains ``text`` literally, ascending."""
    found = []
    for o in docs[order[:LITERAL_CHECK]].tolist():
        f = fact_at(int(o))
        if f is not None and text in _fact_text(f):
            found.append(o)
    return np.array(sorted(found), dtype=docs.dtype)


# -- commands written as plain words ("uv add", "make itest") ---------------------------------

_CODE_SPAN = re.compile(r"`([^`\n]+)`")
_EDGE = "\"'`()[]{}<>,;!?。，；！？：“”‘’"
# Word pairs of one message looked up in the facts' code spans.
MAX_PAIRS = 16


@dataclass(frozen=True, slots=True)
class CodePair:
    text: str  # "uv add"
    words: tuple[str, str]  # as searched (lowercase, unstemmed)


def code_pairs(message: str, common: frozenset[str]) -> list[CodePair]:
    """Adjacent plain words of a message that may be a command (``uv add``, ``make itest``):
    two ASCII words, at least one of them not a common English word."""
    words = [w.strip(_EDGE) for w in unicodedata.normalize("NFKC", message).lower().split()]
    out: dict[str, CodePair] = {}
    for a, b in itertools.pairwise(words):
        if not (a and b and a.isascii() and b.isascii()):
            continue
        if not (_PIECE.fullmatch(a) and _PIECE.fullmatch(b)) or a.isdigit() or b.isdigit():
            continue
        if a in common and b in common:
            continue
        out.setdefault(f"{a} {b}", CodePair(f"{a} {b}", (a, b)))
        if len(out) >= MAX_PAIRS:
            break
    return list(out.values())


def code_text(fact: Fact) -> str:
    """What a fact writes as code (between backticks), lowercased, one span per line."""
    return _code_text(fact.title, fact.description, fact.body)


@lru_cache(maxsize=1 << 12)
def _code_text(title: str, description: str, body: str) -> str:
    text = f"{title}\n{description}\n{body}"
    if "`" not in text:
        return ""
    return "\n".join(normalize(m) for m in _CODE_SPAN.findall(text))


def code_docs(
    docs: np.ndarray, order: np.ndarray, text: str, fact_at: Callable[[int], Fact | None]
) -> np.ndarray:
    """The ordinals among ``docs`` (checked in ``order``, at most LITERAL_CHECK of them)
    whose fact writes ``text`` inside a code span."""
    pattern = re.compile(rf"(?<![\w-]){re.escape(text)}(?![\w-])")
    found = []
    for o in docs[order[:LITERAL_CHECK]].tolist():
        f = fact_at(int(o))
        if f is not None and pattern.search(code_text(f)):
            found.append(o)
    return np.array(sorted(found), dtype=docs.dtype)
