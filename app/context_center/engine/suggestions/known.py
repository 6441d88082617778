"""What the facts and instructions already say, and whether a candidate's statement repeats it.

Texts are cut into phrases (lines and sentences), and a statement is compared phrase by phrase
with ``gate.overlap.phrases_overlap`` (Chinese and English alike). That rule is meant for short
texts (it never matches texts of very different lengths), so whole bodies are not compared with
it; they only count when they contain the statement outright.

Duplicates are judged on the statement, not on shared URL tokens. Before two texts are
compared, each URL in them becomes one token of its own (a hash of the URL with its scheme, a
leading ``www.``, a trailing ``/`` and letter case set aside), so ``https://ci.example.com`` and
"the staging URL is https://staging.example.com" share no token at all (they used to share
``https``, ``example`` and ``com``, which was enough to call them the same), while the same URL
said twice still matches.

Every phrase remembers where it came from (``Origin``: a fact's ref and title, an instruction
file's label, an earlier candidate of the same scan), so a candidate that is left out can say
what it repeats.

Cost (issue 19): what the *facts* say is asked only when a candidate needs it, so a scan that
finds no turns does no work on the facts at all. It is then kept per process and read from
the workspace's phrase index where that describes a fact unchanged (``facttexts.py``,
``phraseindex.py``), and a candidate is compared only with the phrases that share a token
with it, so its cost follows the candidates, not the store.

A statement is covered only by a phrase that says it *the same way round* (``agrees``): the
comparison counts shared words, so "Don't use npm, we use pnpm" and a fact saying "We use
npm" look alike, yet the person is correcting the fact, and the correction must not be left
out as said already. Once a known text is found to cover a statement, one of its phrases must
say the statement and be negated (or contrasted: "instead", 改用) exactly when the statement
is. The markers are words, not a parse: a negation elsewhere in the sentence counts too. A
wrong call costs one candidate too many, which the person dismisses.

Why an index of our own and not the recall index: recall's terms are stemmed, cut at 80
characters and split CJK slightly differently, so a lookup through it could miss a phrase this
rule matches (and every fact shares some common word with a candidate anyway).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Protocol

from context_center.engine.model import Fact
from context_center.engine.suggestions.phrases import (
    cut_at_least,
    distinct_tokens,
    fast_normalise,
    key_of,
    overlap,
)
from context_center.engine.suggestions.textual import hash32

_PIECE_SPLIT_RE = re.compile(r"[\n。！？!?；;]+|\.(?:\s+|$)")
_BULLET_RE = re.compile(r"^\s*(?:[-*+>#]+|\d+[.)、])\s*")
_URL_RE = re.compile(
    r"(?:https?://|www\.|github\.com/)[^\s<>\"'()（）\[\]{}，。！？；、]+", re.IGNORECASE
)
_URL_TRAIL = ".,;:!?'\""
MIN_PIECE_CHARS = 6
# Bump when how a text is cut into phrases changes (splitting, bullets, URLs, tokens, the
# minimum length): phrase index files written by other rules are then not read.
CUT_RULES = 1


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a known phrase came from: ``kind`` is fact, instruction or candidate."""

    kind: str
    label: str  # project/<name>.md, an instruction file's label, a candidate's name
    title: str = ""

    @classmethod
    def of_fact(cls, fact: Fact) -> Origin:
        return cls("fact", fact.ref, fact.display_title)

    def describe(self) -> str:
        if self.kind == "fact":
            return f"the fact {self.label} (“{self.title}”)" if self.title else self.label
        if self.kind == "instruction":
            return f"the instruction file {self.label}"
        return f"the candidate {self.label} above"


def _url_token(url: str) -> str:
    bare = url.rstrip(_URL_TRAIL).lower()
    bare = re.sub(r"^https?://", "", bare)
    bare = bare.removeprefix("www.").rstrip("/")
    return f" url{hash32(bare)} "


def comparable(text: str) -> str:
    """``text`` with each URL replaced by a token of its own (see the module docstring)."""
    if "://" not in text and "www." not in text and "github.com/" not in text:
        return text
    return _URL_RE.sub(lambda m: _url_token(m.group(0)), text)


Piece = tuple[str, tuple[str, ...]]  # a phrase's normalised form and its distinct tokens


def pieces_of(text: str) -> list[Piece]:
    """The phrases of ``text`` worth comparing (at least ``MIN_PIECE_CHARS`` letters)."""
    out: list[Piece] = []
    for raw in _PIECE_SPLIT_RE.split(comparable(text)):
        piece = cut_at_least(_BULLET_RE.sub("", raw).strip(), MIN_PIECE_CHARS)
        if piece is not None:
            out.append(piece)
    return out


# English words (as ``distinct_tokens`` cuts them: "don't" is "don" and "t") that turn a rule
# round or set it against another, and Chinese ones, looked for in the normalised text.
_NEGATING_WORDS = frozenset(
    (
        "not", "no", "never", "don", "doesn", "didn", "isn", "aren", "wasn", "won", "shouldn",
        "mustn", "cannot", "avoid", "stop", "stopped", "instead", "rather", "without", "nor",
        "neither", "unless",
    )
)  # fmt: skip
_NEGATING_CJK = (
    "不要", "不用", "不再", "不能", "不得", "不许", "不准", "不必", "不使用", "别", "勿",
    "禁止", "避免", "停止", "改用", "换成", "改成", "而不是", "而非", "不是",
)  # fmt: skip


def negated(norm: str, tokens: Collection[str]) -> bool:
    """Whether a text (its normalised form and distinct tokens) is negated or contrasted."""
    return not _NEGATING_WORDS.isdisjoint(tokens) or any(m in norm for m in _NEGATING_CJK)


# The same words as they end a key (letters and digits only), for ``held``.
_NEGATING_ENDS = (
    "not", "never", "dont", "doesnt", "didnt", "shouldnt", "mustnt", "cannot", "avoid", "stop",
    "instead", "without", *_NEGATING_CJK,
)  # fmt: skip


def held(key: str, text_key: str) -> bool:
    """Whether ``text_key`` contains ``key`` somewhere not right after a negation."""
    at = text_key.find(key)
    while at >= 0:
        if not text_key[max(0, at - 8) : at].endswith(_NEGATING_ENDS):
            return True
        at = text_key.find(key, at + 1)
    return False


@dataclass(frozen=True, slots=True)
class Probe:
    """A statement ready to be compared: its key, normalised form and distinct tokens."""

    key: str
    norm: str
    tokens: frozenset[str]

    @classmethod
    def of(cls, statement: str, key: str) -> Probe:
        probe = comparable(statement)
        return cls(key, fast_normalise(probe), frozenset(distinct_tokens(probe)))

    def says(self, piece: Piece) -> bool:
        """Whether ``piece`` shares a token with the statement and overlaps it."""
        return not self.tokens.isdisjoint(piece[1]) and overlap(
            self.norm, self.tokens, piece[0], piece[1]
        )

    def agrees(self, texts: Iterable[str]) -> bool:
        """Whether ``texts`` hold the statement (its key) not right after a negation, or a
        phrase of theirs says it negated exactly when the statement is (see the module
        docstring)."""
        texts = list(texts)
        if self.key and any(held(self.key, key_of(text)) for text in texts):
            return True
        want = negated(self.norm, self.tokens)
        return any(
            self.says(piece)
            for text in texts
            for piece in pieces_of(text)
            if negated(piece[0], piece[1]) == want
        )


class Covering(Protocol):
    def covering(self, statement: str, key: str) -> Origin | None: ...


class KnownTexts:
    """Phrases of known texts with their origins, indexed by token for quick comparison."""

    def __init__(self) -> None:
        self.pieces: list[tuple[Piece, Origin]] = []
        self.keys: list[tuple[str, Origin]] = []
        self.texts: dict[Origin, list[str]] = {}
        self._index: dict[str, list[int]] = {}

    def add(self, text: str, origin: Origin, *, whole: bool = True) -> None:
        if not text or not text.strip():
            return
        self.texts.setdefault(origin, []).append(text)
        if whole:
            self.keys.append((key_of(text), origin))
        for piece in pieces_of(text):
            slot = len(self.pieces)
            self.pieces.append((piece, origin))
            for token in piece[1]:
                self._index.setdefault(token, []).append(slot)

    def by_key(self, key: str) -> Origin | None:
        if key:
            for text_key, origin in self.keys:
                if key in text_key:
                    return origin
        return None

    def by_phrase(self, probe: Probe) -> Origin | None:
        slots = {slot for token in probe.tokens for slot in self._index.get(token, ())}
        for slot in sorted(slots):
            piece, origin = self.pieces[slot]
            if probe.says(piece):
                return origin
        return None

    def covering(self, statement: str, key: str) -> Origin | None:
        """The origin of a known text that already says ``statement`` (the same way round),
        or None."""
        probe = Probe.of(statement, key)
        found = self.by_key(key) or self.by_phrase(probe)
        if found is None or not probe.agrees(self.texts.get(found, ())):
            return None
        return found

    def covers(self, statement: str, key: str) -> bool:
        return self.covering(statement, key) is not None


FactKey = tuple[str, str, str, str, str]  # scope, name, title, description, body


@dataclass(frozen=True, slots=True)
class _FactEntry:
    origin: Origin
    keys: tuple[str, ...]
    pieces: tuple[Piece, ...]

    def tokens(self) -> set[str]:
        return set().union(*(piece[1] for piece in self.pieces))


def _entry(fact: Fact) -> _FactEntry:
    texts = [t for t in (fact.title, fact.description, fact.body) if t and t.strip()]
    pieces = tuple(p for text in texts for p in pieces_of(text))
    return _FactEntry(Origin.of_fact(fact), tuple(key_of(t) for t in texts), pieces)


def _fact_key(fact: Fact) -> FactKey:
    # The scope member itself (a str): ``fact.ref`` would cost an enum lookup per fact.
    return (fact.scope, fact.name, fact.title, fact.description, fact.body)
