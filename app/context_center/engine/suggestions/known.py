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
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from context_center.engine.gate.overlap import normalise, phrases_overlap, tokens
from context_center.engine.model import Fact
from context_center.engine.suggestions.textual import hash32, normalize_key

_PIECE_SPLIT_RE = re.compile(r"[\n。！？!?；;]+|\.(?:\s+|$)")
_BULLET_RE = re.compile(r"^\s*(?:[-*+>#]+|\d+[.)、])\s*")
_URL_RE = re.compile(
    r"(?:https?://|www\.|github\.com/)[^\s<>\"'()（）\[\]{}，。！？；、]+", re.IGNORECASE
)
_URL_TRAIL = ".,;:!?'\""
MIN_PIECE_CHARS = 6


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a known phrase came from: ``kind`` is fact, instruction or candidate."""

    kind: str
    label: str  # project/<name>.md, an instruction file's label, a candidate's name
    title: str = ""

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


class KnownTexts:
    """Phrases of known texts with their origins, indexed by token for quick comparison."""

    def __init__(self) -> None:
        self.pieces: list[tuple[str, Origin]] = []
        self.keys: list[tuple[str, Origin]] = []
        self._index: dict[str, list[int]] = {}

    def add(self, text: str, origin: Origin, *, whole: bool = True) -> None:
        if not text or not text.strip():
            return
        if whole:
            self.keys.append((normalize_key(text), origin))
        for raw in _PIECE_SPLIT_RE.split(comparable(text)):
            piece = _BULLET_RE.sub("", raw).strip()
            if len(normalise(piece)) < MIN_PIECE_CHARS:
                continue
            slot = len(self.pieces)
            self.pieces.append((piece, origin))
            for token in set(tokens(piece)):
                self._index.setdefault(token, []).append(slot)

    def covering(self, statement: str, key: str) -> Origin | None:
        """The origin of a known text that already says ``statement``, or None."""
        if key:
            for text_key, origin in self.keys:
                if key in text_key:
                    return origin
        probe = comparable(statement)
        seen: set[int] = set()
        for token in set(tokens(probe)):
            for slot in self._index.get(token, ()):
                if slot in seen:
                    continue
                seen.add(slot)
                piece, origin = self.pieces[slot]
                if phrases_overlap(probe, piece):
                    return origin
        return None

    def covers(self, statement: str, key: str) -> bool:
        return self.covering(statement, key) is not None


def known_texts(facts: Sequence[Fact], instructions: Sequence[str | tuple[str, str]]) -> KnownTexts:
    """The known texts of ``facts`` (title, description, body) and of the loaded instruction
    files, given as bodies or as (label, body) pairs."""
    known = KnownTexts()
    for fact in facts:
        origin = Origin("fact", fact.ref, fact.display_title)
        known.add(fact.title, origin)
        known.add(fact.description, origin)
        known.add(fact.body, origin)
    for item in instructions:
        label, body = item if isinstance(item, tuple) else ("", item)
        known.add(body, Origin("instruction", label or "loaded instructions"))
    return known
