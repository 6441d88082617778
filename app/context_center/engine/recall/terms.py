"""Recall stage 1: a message becomes *concepts*, each with the ways it may match a fact.

* Every searchable query term (``tokenize.query_terms``; English words stemmed) is a concept
  whose first alternative is the term itself (a direct match, weight 1).
* A message word or phrase found in the bilingual vocabulary (``vocab.py``) adds the other
  forms of its group as further alternatives, each at ``EXPANSION_WEIGHT``: ``deploy`` may
  match a fact that says 部署 or 上线, and 值班 a fact that says on-call. A single word or a
  two-character Chinese word adds them to its own concept (a fact saying both "deploy" and
  "部署" still matched one concept); a longer phrase (``unit test``, 单元测试) is a concept of
  its own that matches through its translations only, so direct matching counts as before.
* A form that needs several index terms (``unit test``, the bigrams of 单元测试) matches a fact
  that contains all of them, and scores the mean of their BM25 contributions.

The plan also says whether the turn is generic or has nothing to search (the whole-turn
suppressions come from here, before any index work).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from context_center.engine.recall.policy import EXPANSION_WEIGHT, Reason, is_generic_turn
from context_center.engine.recall.stem import stem
from context_center.engine.recall.tokenize import (
    CJK_CLASS,
    QueryTerm,
    cjk_pieces,
    query_terms,
    searchable,
)
from context_center.engine.recall.vocab import MAX_CJK_FORM, MIN_CJK_FORM, vocabulary

_WORD_SEQ = re.compile(f"[^\\W{CJK_CLASS}]+|[{CJK_CLASS}]+")
_CJK = re.compile(f"[{CJK_CLASS}]+")


@dataclass(frozen=True, slots=True)
class Alt:
    """One way a concept matches: all ``terms`` present in a fact."""

    terms: tuple[str, ...]
    weight: float
    label: str  # what matched, as the fact writes it ("部署")
    via: str | None  # the message word it came from ("deploy"); None for a direct match


@dataclass(frozen=True, slots=True)
class Concept:
    text: str  # as in the message, lowercased ("deploy", "单元测试", "unit test")
    alts: tuple[Alt, ...]
    distinctive: bool = False  # identifier-like as written
    caps: bool = False  # all capitals: identifier-like when rare in the store
    number: bool = False  # a bare number: scores, never counts as a match
    cjk: bool = False
    word: bool = False  # a real word (English, a vocabulary word): may be rare enough alone
    direct: bool = True  # has a direct alternative (is one of the message's own terms)


@dataclass(frozen=True, slots=True)
class Plan:
    message: str
    terms: tuple[str, ...]  # the searchable terms of the message, in order (for the trace)
    concepts: tuple[Concept, ...]
    whole: Reason | None = None  # set when the turn is suppressed before searching

    @property
    def direct_count(self) -> int:
        return sum(1 for c in self.concepts if c.direct)

    def direct_only(self) -> Plan:
        """The same plan without vocabulary expansions (the memory tool's search)."""
        kept = tuple(
            Concept(c.text, c.alts[:1], c.distinctive, c.caps, c.number, c.cjk, c.word, True)
            for c in self.concepts
            if c.direct
        )
        return Plan(self.message, self.terms, kept, self.whole)


def _word_phrases(message: str) -> list[tuple[str, tuple[int, ...], set[str], bool]]:
    """English vocabulary phrases in the message: (surface, groups, own stems, one word?)."""
    vocab = vocabulary()
    raw = [m.group(0).lower() for m in _WORD_SEQ.finditer(unicodedata.normalize("NFKC", message))]
    words = [stem(w) if w.isascii() else "" for w in raw]
    found = []
    for i, w in enumerate(words):
        if not w or w not in vocab.first_words:
            continue
        for size in (4, 3, 2, 1):
            key = tuple(words[i : i + size])
            if len(key) == size and "" not in key and key in vocab.by_words:
                found.append(
                    (" ".join(raw[i : i + size]), vocab.by_words[key], set(key), size == 1)
                )
    return found


def _cjk_words(message: str) -> list[tuple[str, tuple[int, ...], set[str], bool]]:
    """Chinese vocabulary words in the message (a shorter word inside a longer one found at
    the same place is left out): (word, groups, own bigrams, two characters?)."""
    vocab = vocabulary()
    out = []
    low = unicodedata.normalize("NFKC", message).lower()
    for run in _CJK.findall(low):
        spans: list[tuple[int, int]] = []
        for size in range(min(MAX_CJK_FORM, len(run)), MIN_CJK_FORM - 1, -1):
            for i in range(len(run) - size + 1):
                piece = run[i : i + size]
                if piece in vocab.by_cjk and not any(s <= i and i + size <= e for s, e in spans):
                    spans.append((i, i + size))
                    out.append((piece, vocab.by_cjk[piece], set(cjk_pieces(piece)), size == 2))
    return out


def _direct(t: QueryTerm) -> Concept:
    term = t.text if t.cjk else stem(t.text)
    return Concept(
        text=t.text,
        alts=(Alt((term,), 1.0, t.text, None),),
        distinctive=t.distinctive,
        caps=t.caps,
        number=t.number,
        cjk=t.cjk,
        word=not t.cjk and not t.number and len(t.text) >= 4,
    )


def plan(message: str) -> Plan:
    """Stage 1 for one message."""
    if is_generic_turn(message):
        return Plan(message, (), (), Reason.GENERIC_TURN)
    terms = searchable(query_terms(message))
    texts = tuple(t.text for t in terms)
    if not terms:
        return Plan(message, texts, (), Reason.NO_SEARCHABLE_TERMS)
    concepts = [_direct(t) for t in terms]
    position = {c.alts[0].terms[0]: i for i, c in enumerate(concepts)}
    vocab = vocabulary()
    extra: list[Concept] = []
    seen: set[tuple[str, ...]] = set()
    for text, groups, own, single in [*_word_phrases(message), *_cjk_words(message)]:
        alts = [
            Alt(f.terms, EXPANSION_WEIGHT, f.text, text)
            for f in vocab.forms(groups)
            if not set(f.terms) <= own
        ]
        if single:
            i = position.get(next(iter(own)))
            if i is None:  # a common word: never searched, never expanded
                continue
            c = concepts[i]
            known = {a.terms for a in c.alts}
            fresh = tuple(a for a in alts if a.terms not in known)
            seen.update(a.terms for a in fresh)
            concepts[i] = Concept(
                c.text, c.alts + fresh, c.distinctive, c.caps, c.number, c.cjk, True, True
            )
        else:
            extra.append(
                Concept(text, tuple(alts), cjk=not text.isascii(), word=True, direct=False)
            )
    # A phrase adds only what its words did not already bring.
    phrases = []
    for c in extra:
        alts = tuple(a for a in c.alts if a.terms not in seen)
        if alts:
            seen.update(a.terms for a in alts)
            phrases.append(Concept(c.text, alts, cjk=c.cjk, word=True, direct=False))
    return Plan(message, texts, tuple(concepts + phrases))
