"""Recall stage 2: the concepts of a plan scored over the index -- candidates and their scores.

Per concept and fact, the best alternative counts (direct 1.0, through the vocabulary
``EXPANSION_WEIGHT``; a form of several terms scores the mean of their BM25F contributions and
needs all of them; every form of a concept uses the concept's idf, ``matching.py``). A fact's
raw score is the sum over concepts; it *matched* as many concepts as it has (bare numbers add
score but never count; a phrase and its own words, or consecutive Chinese character pairs,
count once). A concept is *strong alone* for a fact when:

* it was written like an identifier (``#6928``, ``AuthHandler``, ``release_v2``, a compound
  such as ``tracking-plan.yaml`` found literally, or two plain words such as ``uv add`` that
  the fact writes as code);
* it is a word rare in the store (``policy.RARE_IDF``/``RARE_SHARE``, counted over all of its
  forms) and not a common English word (or the Chinese word for one), and some form of it is
  in the fact's name, title or description; an all-capitals word (``API``) is strong only this
  way;
* the message has at most two terms and this one, not a common English word, has at least six
  letters (a Chinese word: three characters), or the message is one Chinese two-character
  word -- where it matched directly, or through the vocabulary in the head fields.

Candidates matched at least two concepts, or one strong one, and are *about* the message: a
matched term in the fact's name, title or description, an identifier, two matched words that
are not frequent in the store, or three matched terms (else ``body_only``). Head fields are
judged from term frequencies, then checked exactly on the facts whose candidacy depends on it.

Adjusted scores: project facts x1.08, stale facts x0.92, and a fact matched only on words
frequent in the store, none of them in its head fields, x``BROAD_FACTOR``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime

import numpy as np

from context_center.engine.kinds import FRESHNESS_DAYS
from context_center.engine.recall import masks
from context_center.engine.recall.compounds import LITERAL_CHECK, CodePair
from context_center.engine.recall.filters import kth_largest
from context_center.engine.recall.index import SCOPE_CODES, TYPE_CODES, RecallIndex
from context_center.engine.recall.matching import (
    HeadForms,
    Matched,
    TermCache,
    state_cache,
)
from context_center.engine.recall.policy import (
    ABOUT_COUNT,
    ABOUT_SPECIFIC,
    BROAD_FACTOR,
    FREQUENT_MIN_DF,
    FREQUENT_SHARE,
    HEAD_CHECK,
    LONG_CJK_CHARS,
    LONG_TERM_CHARS,
    PROJECT_BOOST,
    RARE_IDF,
    RARE_MIN_CHARS,
    RARE_MIN_DF,
    RARE_SHARE,
    SHORT_QUERY_TERMS,
    STALE_FACTOR,
)
from context_center.engine.recall.stem import stem
from context_center.engine.recall.tally import Tally
from context_center.engine.recall.terms import Concept, Plan

_PROJECT = SCOPE_CODES[next(iter(SCOPE_CODES))]
# Seconds after which a fact of each type code is stale.
_STALE_AFTER = np.zeros(len(TYPE_CODES), dtype=np.float64)
for _t, _code in TYPE_CODES.items():
    _STALE_AFTER[_code] = FRESHNESS_DAYS[_t][1] * 86400.0


@dataclass(frozen=True, slots=True)
class Match:
    """What matched in a fact: ``label`` as the fact has it, ``via`` the message word it was
    reached from through the vocabulary (None for a direct match), ``find`` a lowercase
    string to locate it in the fact's text."""

    label: str
    via: str | None
    find: str

    def text(self) -> str:
        return f"{self.label} via {self.via}" if self.via else self.label


@dataclass(slots=True)
class ConceptHits:
    docs: np.ndarray  # ordinals, ascending
    alt: np.ndarray  # which alternative scored best, per doc
    df: int
    strong: bool  # strong alone where matched directly (or in the head fields)
    frequent: bool
    grants: bool = False  # strong alone for the facts whose head fields hold it


@dataclass(slots=True)
class Scored:
    plan: Plan
    raw: np.ndarray  # float64 per ordinal
    count: np.ndarray  # matched concepts per ordinal (bare numbers excluded)
    strong: np.ndarray  # matched a concept that is strong alone
    frequent_only: np.ndarray  # every matched concept is frequent in the store
    hits: list[ConceptHits | None]
    head: np.ndarray  # a matched concept is in the fact's head fields
    sure: np.ndarray  # strong without the head fields (an identifier, a direct short match)
    about: np.ndarray  # about the message without the head fields (see the docstring)
    unknown: tuple[str, ...] = ()  # specific words of the message that no fact has
    # ordinal -> its matches; the hits do not change once scored, so each is looked up once
    found: dict[int, list[Match]] = field(default_factory=dict, repr=False, compare=False)

    def matched(self, ordinal: int) -> list[Match]:
        return self.matched_many([ordinal])[0]

    def matched_many(self, ordinals: list[int]) -> list[list[Match]]:
        """What matched in each of ``ordinals`` (one sorted lookup per concept for those not
        looked up before). The lists are shared: callers must not change them."""
        known = self.found
        todo = [o for o in dict.fromkeys(ordinals) if o not in known]
        if todo:
            for o, matches in zip(todo, self._lookup(todo), strict=True):
                known[o] = matches
        return [known[o] for o in ordinals]

    def _lookup(self, ordinals: list[int]) -> list[list[Match]]:
        out: list[list[Match]] = [[] for _ in ordinals]
        want = np.asarray(ordinals)
        for concept, h in zip(self.plan.concepts, self.hits, strict=True):
            if h is None or not len(h.docs):
                continue
            pos = np.minimum(np.searchsorted(h.docs, want), len(h.docs) - 1)
            which = h.alt[pos].tolist()
            for i in (h.docs[pos] == want).nonzero()[0].tolist():
                alt = concept.alts[which[i]]
                if alt.via is None:
                    out[i].append(Match(concept.text, None, alt.terms[0]))
                else:
                    out[i].append(Match(alt.label, alt.via, alt.label))
        return out


def rare(df: int, n: int) -> bool:
    idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
    return idf >= RARE_IDF and df <= max(RARE_MIN_DF, RARE_SHARE * n)


def frequent(df: int, n: int) -> bool:
    return df >= max(FREQUENT_MIN_DF, FREQUENT_SHARE * n)


def _short_strong(c: Concept, direct: int) -> bool:
    """Strong alone by the identifier or short-message rules (see the module docstring);
    ``direct``: the plan's ``direct_count``."""
    if c.number:
        return False
    if c.distinctive:
        return c.direct
    if c.caps or c.common:
        return False
    long = len(c.text) >= (LONG_CJK_CHARS if c.cjk else LONG_TERM_CHARS)
    if direct <= SHORT_QUERY_TERMS and long:
        return True
    return direct == 1 and c.cjk and len(c.text) == 2


def _rare_eligible(c: Concept) -> bool:
    """May be strong alone by the rare-word rule: an all-capitals word, an English word of at
    least RARE_MIN_CHARS letters or a Chinese vocabulary word, and not a common word."""
    if c.number or c.distinctive or c.common:
        return False
    return c.caps or (c.word and (c.cjk or len(c.text) >= RARE_MIN_CHARS))


def _specific(c: Concept) -> bool:
    """A word of the message that says what it is about: an English word of at least four
    letters that is not a common English word, or a Chinese vocabulary word that is not the
    word for one (identifiers, numbers and unknown character pairs aside)."""
    return c.direct and c.word and not (c.common or c.number or c.distinctive or c.literal)


# Above this many postings, "which of these ordinals are in that list" is answered by marking
# the list in a per-ordinal array (two linear passes), not by a binary search per ordinal.
_MARK_FROM = 512


def _counted(c: Concept, docs: np.ndarray, hits: list[ConceptHits | None], size: int) -> np.ndarray:
    """The facts for which this concept adds a matched term: not those already matched by
    the previous character pair of the same Chinese run, nor by one of the phrase's own
    words (``size``: the index's ordinals)."""
    for j in (c.follows, *c.covers):
        prev = hits[j] if 0 <= j < len(hits) else None
        if prev is not None and len(docs) and len(prev.docs):
            docs = masks.one(~_member(docs, prev.docs, size), docs)
    return docs


def _member(docs: np.ndarray, of: np.ndarray, size: int) -> np.ndarray:
    """Per element of ``docs``: is it in ``of`` (both ascending and unique, under ``size``)."""
    if len(docs) + len(of) < _MARK_FROM:
        pos = np.minimum(np.searchsorted(of, docs), len(of) - 1)
        same: np.ndarray = of[pos] == docs
        return same
    return masks.member(docs, of, size)


def _code_pair_docs(
    tc: TermCache, plan: Plan, hits: list[ConceptHits | None], pair: CodePair
) -> np.ndarray:
    """Facts that write the two adjacent message words as code (``uv add``): checked on the
    facts of its rarer searched word."""
    words = {stem(w) for w in pair.words}
    best: ConceptHits | None = None
    for c, h in zip(plan.concepts, hits, strict=True):
        if h is None or not c.direct or c.cjk or c.alts[0].terms[0] not in words:
            continue
        if best is None or h.df < best.df:
            best = h
    if best is None or best.df > LITERAL_CHECK:
        return np.zeros(0, dtype=np.int64)  # a word that common says nothing as a command
    return tc.code_docs(best.docs, np.arange(len(best.docs)), pair.text)


def _mark(t: Tally, c: Concept, m: Matched, h: ConceptHits, direct_docs: np.ndarray) -> None:
    """The strong and sure marks of concept ``c`` (none for a bare number)."""
    if c.number:
        return
    if h.strong:
        t.mark_strong(direct_docs, sure=True, ident=c.distinctive)
        if c.distinctive:
            return
    if h.grants:
        t.strong[m.head_docs] = True


def score(index: RecallIndex, plan: Plan) -> Scored:
    """Stage 2: raw scores, match counts and strength for every ordinal."""
    n_ord = index.size
    t = Tally(n_ord)
    tc = TermCache(index)
    hits: list[ConceptHits | None] = []
    direct_count = plan.direct_count  # once: it counts every concept
    for c in plan.concepts:
        m = tc.concept(c) if tc.n else None
        if m is None:
            hits.append(None)
            continue
        docs = m.docs
        df = len(docs)
        direct_docs = m.first if c.direct else docs[:0]
        strong = _short_strong(c, direct_count)
        grants = not strong and _rare_eligible(c) and rare(df, tc.n)
        h = ConceptHits(docs, m.which, df, strong, frequent(df, tc.n), grants or strong)
        t.add(c, m, h.frequent, _counted(c, docs, hits, n_ord), tc.dense(c, m))
        _mark(t, c, m, h, direct_docs)
        hits.append(h)
    for pair in plan.pairs:
        cmd = _code_pair_docs(tc, plan, hits, pair)
        t.mark_strong(cmd, sure=True, ident=True)
    raw, count, specific = t.raw, t.count, t.specific
    about = t.ident | (specific >= ABOUT_SPECIFIC) | (count >= ABOUT_COUNT)
    unknown = tuple(
        c.text for c, h in zip(plan.concepts, hits, strict=True) if h is None and _specific(c)
    )
    frequent_only = (count > 0) & (specific == 0)
    return Scored(plan, raw, count, t.strong, frequent_only, hits, t.head, t.sure, about, unknown)


def _best_few(ords: np.ndarray, raw: np.ndarray, k: int) -> np.ndarray:
    """The ``k`` of ``ords`` (more than ``k``) with the highest ``raw``, as the first ``k``
    of ``np.argpartition(-raw, k)`` pick them (their order does not matter to the caller).
    When no tie straddles the k-th value those are exactly the ones at or above it, found
    from a sample in a fraction of a full partition's time; otherwise argpartition decides."""
    kth = kth_largest(raw, k)
    above = raw >= kth
    if int(np.count_nonzero(above)) == k:
        return masks.one(above, ords)
    picked: np.ndarray = ords[np.argpartition(-raw, k)[:k]]
    return picked


def _refine_head(index: RecallIndex, sc: Scored, ords: np.ndarray) -> None:
    """Check the head fields exactly for ``ords`` (the best HEAD_CHECK of them): update head
    and strong. A fact already about the message needs only the concepts that grant strength
    through the head fields."""
    if len(ords) > HEAD_CHECK:  # the rest rank too low to matter: the estimate stands
        ords = _best_few(ords, sc.raw[ords], HEAD_CHECK)
    if not len(ords):
        return
    named = np.zeros(len(ords), dtype=np.bool_)
    granted = np.zeros(len(ords), dtype=np.bool_)
    settled = sc.about[ords]
    at = ords.tolist()
    heads: dict[int, frozenset[str] | None] = {}  # a fact's head terms once it needs them

    def head(i: int) -> frozenset[str] | None:
        if i not in heads:
            o = at[i]
            heads[i] = index.head_terms(o) if 0 <= o < index.size else None
        return heads[i]

    for c, h in zip(sc.plan.concepts, sc.hits, strict=True):
        if h is None or c.number or not len(h.docs):
            continue
        forms = HeadForms(c)
        pos = np.minimum(np.searchsorted(h.docs, ords), len(h.docs) - 1)
        for i in (h.docs[pos] == ords).nonzero()[0].tolist():
            if (granted[i] or not h.grants) and (named[i] or settled[i]):
                continue
            ht = head(i)
            if ht is None:
                continue
            if forms.named(ht):
                named[i] = True
                granted[i] = granted[i] or h.grants
    sc.head[ords] = named | (sc.head[ords] & settled)
    sc.strong[ords] = sc.sure[ords] | granted


def candidates(index: RecallIndex, sc: Scored) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(candidate ordinals, facts that matched but not distinctively, facts that matched
    distinctively but only deep in their body)."""
    two = sc.count >= 2
    unsure = (two | sc.strong) & (sc.about | sc.head) & ~((two | sc.sure) & sc.about)
    if unsure.any():
        _refine_head(index, sc, unsure.nonzero()[0])
    enough = two | sc.strong
    about = sc.about | sc.head
    cand = (enough & about).nonzero()[0]
    body = (enough & ~about).nonzero()[0]
    loose = ((sc.raw > 0) & ~enough).nonzero()[0]
    return cand, loose, body


def _factor_columns(index: RecallIndex) -> tuple[np.ndarray, np.ndarray]:
    """(project factor, seconds after which the fact is stale) per ordinal: what ``adjusted``
    would gather per turn from the scope and type columns, once per index state (a fact's
    scope and type change only with the state)."""
    _, scope, type_, _ = index.columns()
    cache = state_cache(index)
    found, cols = cache.get(_FACTORS)
    if not found or len(cols[0]) != len(scope):  # type: ignore[index]
        boost = np.where(scope == _PROJECT, PROJECT_BOOST, 1.0)
        stale_after = _STALE_AFTER[type_]
        cols = (boost, stale_after)
        cache.put(_FACTORS, cols, boost.nbytes + stale_after.nbytes)
    return cols  # type: ignore[return-value]


_FACTORS = ("scoring.adjusted", "factor columns")
# With at least this share of the ordinals, adjusted scores are computed for every ordinal
# and then picked (whole columns, no gathers) -- the same products, element by element.
_WHOLE_SHARE = 0.5


def adjusted(
    index: RecallIndex,
    sc: Scored,
    ords: np.ndarray,
    now: datetime,
    broad: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(adjusted scores, broad-penalised?) for ``ords``: project x1.08, stale x0.92, broad
    facts matched only on frequent words x BROAD_FACTOR (a missing or future time is never
    stale)."""
    boost, stale_after = _factor_columns(index)
    upd = index.columns()[3]
    whole = len(ords) >= _WHOLE_SHARE * len(boost)
    at = slice(None) if whole else ords
    s = sc.raw[at] * boost[at]
    with np.errstate(invalid="ignore"):
        stale = (now.timestamp() - upd[at]) > stale_after[at]
    s = s * np.where(stale, STALE_FACTOR, 1.0)
    if broad is None:
        return (s[ords] if whole else s), np.zeros(len(ords), dtype=np.bool_)
    hit = broad[at] & sc.frequent_only[at]
    if whole:
        s, hit = s[ords], hit[ords]
    return s * np.where(hit, BROAD_FACTOR, 1.0), hit
