"""Recall stage 1: a message becomes *concepts*, each with the ways it may match a fact.

* Every searchable query term (``tokenize.query_terms``; English words stemmed) is a concept
  whose first alternative is the term itself (a direct match, weight 1).
* A message word or phrase found in the bilingual vocabulary (``vocab.py``) adds the other
  forms of its group as further alternatives, each at ``EXPANSION_WEIGHT``: ``deploy`` may
  match a fact that says 部署 or 上线, and 值班 a fact that says on-call. A single word or a
  two-character Chinese word adds them to its own concept (a fact saying both "deploy" and
  "部署" still matched one concept).
* A Chinese vocabulary word of three or more characters (生产环境, 浏览器) is *one* concept:
  its direct alternative is all of its character pairs (生产, 产环, 环境) and it replaces them,
  so a Chinese fact that has the word counts one matched term, as an English fact matched
  through ``production`` does, not three.
* An English phrase (``unit test``, ``local development``) is a concept of its own that
  matches through its translations only; it *covers* the concepts of its own words, so a fact
  matched by both the phrase and one of its words counts once.
* Consecutive character pairs of one Chinese run that the vocabulary does not know are chained
  (``follows``): a fact that has two or more of them in a row counts one matched term.
* A form that needs several index terms (``unit test``, the pairs of 单元测试) matches a fact
  that contains all of them, and scores the mean of their BM25 contributions.
* A compound identifier (``tracking-plan.yaml``, ``X-Pay-Signature``, ``test:ci``; see
  ``compounds.py``) is an identifier-like concept that covers its pieces and matches only the
  facts that contain it literally.
* A concept is *common* when its word is a common word of general English (``data/
  common_en.tsv``), or a Chinese word whose English head word is: such a word is never
  distinctive on its own (``scoring``).

The plan also says whether the turn is generic or has nothing to search (the whole-turn
suppressions come from here, before any index work).
"""

from __future__ import annotations

import unicodedata
from collections import OrderedDict
from dataclasses import dataclass, replace
from functools import lru_cache
from threading import Lock

from context_center.engine.recall.compounds import CodePair, code_pairs, compounds
from context_center.engine.recall.policy import EXPANSION_WEIGHT, Reason, is_generic_turn
from context_center.engine.recall.stem import stem
from context_center.engine.recall.tokenize import (
    CJK_RUN,
    WORD_OR_CJK_RUN,
    QueryTerm,
    cjk_pieces,
    query_terms,
    searchable,
)
from context_center.engine.recall.vocab import MAX_CJK_FORM, MIN_CJK_FORM, package_text, vocabulary

# ``[^\W<CJK>]+|[<CJK>]+``: the two classes are disjoint, so the shared run pattern (CJK
# first) finds the same runs
_WORD_SEQ = WORD_OR_CJK_RUN
_CJK = CJK_RUN
COMMON_FILE = "common_en.tsv"


@lru_cache(maxsize=1)
def common_english() -> frozenset[str]:
    """Common words of general English (package data ``recall/data/common_en.tsv``)."""
    lines = package_text(COMMON_FILE).splitlines()
    return frozenset(w for w in (x.strip() for x in lines) if w and not w.startswith("#"))


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
    common: bool = False  # a common word of general English (or its Chinese equivalent)
    follows: int = -1  # the concept of the previous character pair of the same Chinese run
    covers: tuple[int, ...] = ()  # the concepts of this phrase's own words
    literal: bool = False  # a compound identifier: matches only where written as is


@dataclass(frozen=True, slots=True)
class Plan:
    message: str
    terms: tuple[str, ...]  # the searchable terms of the message, in order (for the trace)
    concepts: tuple[Concept, ...]
    whole: Reason | None = None  # set when the turn is suppressed before searching
    pairs: tuple[CodePair, ...] = ()  # adjacent words that may be a command ("uv add")

    @property
    def direct_count(self) -> int:
        return sum(1 for c in self.concepts if c.direct and not c.literal)


@dataclass(frozen=True, slots=True)
class _Found:
    """A vocabulary word or phrase found in the message."""

    text: str
    groups: tuple[int, ...]
    own: frozenset[str]  # its own index terms (stems, or character pairs)
    single: bool  # one English word, or a two-character Chinese word
    span: tuple[int, int, int] = (-1, 0, 0)  # Chinese: (run, start, end) in the message


def _word_phrases(message: str) -> list[_Found]:
    """English vocabulary phrases in the message."""
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
                text = " ".join(raw[i : i + size])
                found.append(_Found(text, vocab.by_words[key], frozenset(key), size == 1))
    return found


def cjk_runs(message: str) -> list[str]:
    return _CJK.findall(unicodedata.normalize("NFKC", message).lower())


def _cjk_words(runs: list[str]) -> list[_Found]:
    """Chinese vocabulary words in the message (a shorter word inside a longer one found at
    the same place is left out)."""
    vocab = vocabulary()
    out = []
    for r, run in enumerate(runs):
        spans: list[tuple[int, int]] = []
        for size in range(min(MAX_CJK_FORM, len(run)), MIN_CJK_FORM - 1, -1):
            for i in range(len(run) - size + 1):
                piece = run[i : i + size]
                if piece in vocab.by_cjk and not any(s <= i and i + size <= e for s, e in spans):
                    spans.append((i, i + size))
                    own = frozenset(cjk_pieces(piece))
                    out.append(_Found(piece, vocab.by_cjk[piece], own, size == 2, (r, i, i + size)))
    return out


def _direct(t: QueryTerm, common: frozenset[str]) -> Concept:
    term = t.text if t.cjk else stem(t.text)
    return Concept(
        text=t.text,
        alts=(Alt((term,), 1.0, t.text, None),),
        distinctive=t.distinctive,
        caps=t.caps,
        number=t.number,
        cjk=t.cjk,
        word=not t.cjk and not t.number and len(t.text) >= 4,
        common=not t.cjk and not t.distinctive and t.text in common,
    )


def _group_common(groups: tuple[int, ...], common: frozenset[str]) -> bool:
    """Every group's English head word (its first one-word English form) is common."""
    vocab = vocabulary()
    heads = []
    for g in groups:
        head = next((f.text for f in vocab.groups[g] if not f.cjk and " " not in f.text), None)
        if head is None:
            return False
        heads.append(head)
    return bool(heads) and all(h in common for h in heads)


class _Builder:
    """Concepts of one message, with the indices the chaining rules refer to."""

    def __init__(self, message: str, terms: list[QueryTerm]) -> None:
        self.common = common_english()
        self.concepts: list[Concept | None] = [_direct(t, self.common) for t in terms]
        self.position = {c.alts[0].terms[0]: i for i, c in enumerate(self.concepts) if c}
        self.spans: dict[int, tuple[int, int, int]] = {}
        for r, run in enumerate(cjk_runs(message)):
            for i, piece in enumerate(cjk_pieces(run) if len(run) > 1 else ()):
                at = self.position.get(piece)
                if at is not None and at not in self.spans:
                    self.spans[at] = (r, i, i + 2)
        self.seen: set[tuple[str, ...]] = set()

    def expand_word(self, f: _Found, alts: list[Alt]) -> None:
        """A single word (or two-character Chinese word) adds its translations to itself."""
        i = self.position.get(next(iter(f.own)))
        c = self.concepts[i] if i is not None else None
        if i is None or c is None:  # a common word: never searched, never expanded
            return
        known = {a.terms for a in c.alts}
        fresh = tuple(a for a in alts if a.terms not in known)
        self.seen.update(a.terms for a in fresh)
        common = c.common or (c.cjk and _group_common(f.groups, self.common))
        self.concepts[i] = replace(c, alts=c.alts + fresh, word=True, common=common)

    def cjk_word(self, f: _Found, alts: list[Alt]) -> Concept:
        """A Chinese word of three or more characters replaces its character pairs."""
        r, start, end = f.span
        for at, (rr, s, e) in list(self.spans.items()):
            if rr == r and start <= s and e <= end:
                self.concepts[at] = None
                del self.spans[at]
        pieces = tuple(cjk_pieces(f.text))
        self.seen.add(pieces)
        own = Alt(pieces, 1.0, f.text, None)
        rest = tuple(a for a in alts if a.terms != pieces)
        common = _group_common(f.groups, self.common)
        return Concept(f.text, (own, *rest), cjk=True, word=True, common=common)

    def build(self, found: list[_Found]) -> list[Concept]:
        vocab = vocabulary()
        extra: list[tuple[Concept, _Found]] = []
        done: set[_Found] = set()
        for f in found:
            # an English word or phrase found again adds nothing (its alternatives are known,
            # ``_finish`` drops a phrase whose alternatives were all seen); a Chinese word has
            # a place of its own (its span) and is never equal to another occurrence
            if f in done:
                continue
            done.add(f)
            alts = [
                Alt(x.terms, EXPANSION_WEIGHT, x.text, f.text)
                for x in vocab.forms(f.groups)
                if not set(x.terms) <= f.own
            ]
            if f.single:
                self.expand_word(f, alts)
            elif f.span[0] >= 0:
                extra.append((self.cjk_word(f, alts), f))
            else:
                c = Concept(f.text, tuple(alts), word=True, direct=False)
                extra.append((c, f))
        return self._finish(extra)

    def _finish(self, extra: list[tuple[Concept, _Found]]) -> list[Concept]:
        """Drop replaced pairs, add phrases (only what their words did not already bring), and
        resolve the chaining indices."""
        keep = [i for i, c in enumerate(self.concepts) if c is not None]
        out: list[Concept] = [c for c in self.concepts if c is not None]
        new_index = {old: new for new, old in enumerate(keep)}
        spans = {new_index[i]: s for i, s in self.spans.items()}
        for c, f in extra:
            if c.direct:
                out.append(c)
                spans[len(out) - 1] = f.span
                continue
            alts = tuple(a for a in c.alts if a.terms not in self.seen)
            if not alts:
                continue
            self.seen.update(a.terms for a in alts)
            covers = tuple(i for i, d in enumerate(out) if d.direct and d.alts[0].terms[0] in f.own)
            out.append(replace(c, alts=alts, covers=covers))
        ending: dict[tuple[int, int], list[int]] = {}  # (run, end) -> concepts, in order
        for j, (rr, _, e) in spans.items():
            ending.setdefault((rr, e), []).append(j)
        return [_chained(c, i, spans, ending) for i, c in enumerate(out)]


def _chained(
    c: Concept,
    i: int,
    spans: dict[int, tuple[int, int, int]],
    ending: dict[tuple[int, int], list[int]],
) -> Concept:
    """``c`` following the first other concept (in ``spans`` order) whose span ends one
    character after its own starts, in the same run."""
    span = spans.get(i)
    if span is None:
        return c
    r, start, _ = span
    for j in ending.get((r, start + 1), ()):
        if j != i:
            return replace(c, follows=j)
    return c


# Plans of recent messages: a plan is a pure function of the message and the shipped word
# lists, and the same message is often planned again (recall, then the memory tool's search;
# a hook and an agent server on one turn). Only messages up to PLAN_MEMO_CHARS are kept.
PLAN_MEMO_SIZE = 256
PLAN_MEMO_CHARS = 4096
_PLANS: OrderedDict[str, Plan] = OrderedDict()
_PLANS_LOCK = Lock()


def plan(message: str) -> Plan:
    """Stage 1 for one message (remembered for recent short messages)."""
    if len(message) > PLAN_MEMO_CHARS:
        return _plan(message)
    with _PLANS_LOCK:
        known = _PLANS.get(message)
        if known is not None:
            _PLANS.move_to_end(message)
            return known
    made = _plan(message)
    with _PLANS_LOCK:
        _PLANS[message] = made
        while len(_PLANS) > PLAN_MEMO_SIZE:
            _PLANS.popitem(last=False)
    return made


def without_secrets(message: str) -> str:
    """``message`` with every span the provider-visible sanitizer withholds blanked out (the
    same length, so offsets keep): a password or token a person pastes into a turn is no
    search term, so neither the trace's terms nor a match reason can repeat it to a model."""
    from context_center.engine.recall.secretmatch import withheld

    spans = withheld(message)
    if not spans:
        return message
    parts, at = [], 0
    for start, end in sorted(spans):
        start = max(start, at)
        if end > start:
            parts += [message[at:start], " " * (end - start)]
            at = end
    return "".join([*parts, message[at:]])


def _plan(message: str) -> Plan:
    if is_generic_turn(message):
        return Plan(message, (), (), Reason.GENERIC_TURN)
    searched = without_secrets(message)
    terms = searchable(query_terms(searched))
    texts = tuple(t.text for t in terms)
    if not terms:
        return Plan(message, texts, (), Reason.NO_SEARCHABLE_TERMS)
    b = _Builder(searched, terms)
    found = [*_word_phrases(searched), *_cjk_words(cjk_runs(searched))]
    concepts = b.build(found)
    for cmp in compounds(searched, b.common):
        covers = tuple(
            i for i, c in enumerate(concepts) if c.direct and c.alts[0].terms[0] in cmp.parts
        )
        alt = Alt(cmp.parts, 1.0, cmp.text, None)
        concepts.append(
            Concept(cmp.text, (alt,), distinctive=True, word=True, covers=covers, literal=True)
        )
    return Plan(message, texts, tuple(concepts), pairs=tuple(code_pairs(searched, b.common)))
