"""Recall stage 2: the concepts of a plan scored over the index -- candidates and their scores.

Per concept and fact, the best alternative counts (direct 1.0, through the vocabulary
``EXPANSION_WEIGHT``; a form of several terms scores the mean of their BM25F contributions and
needs all of them). A fact's raw score is the sum over concepts; it *matched* as many concepts
as it has (bare numbers add score but never count). A concept is *strong alone* when:

* it was written like an identifier (``#6928``, ``AuthHandler``, ``release_v2``, ``v2``);
* it is a word rare in the store (``policy.RARE_IDF``/``RARE_SHARE``, counted on direct
  matches), matched directly in the fact's name, title or description (not only deep in its
  body, and not only through the vocabulary); an all-capitals word (``API``) is strong only
  this way;
* the message has at most two terms and this one has at least six characters; or the message
  is exactly one Chinese two-character word.

Candidates matched at least two concepts, or one strong one. Adjusted scores: project facts
x1.08, stale facts x0.92, and a *broad* fact (one containing many of the store's frequent
words, like standup notes) matched only on frequent words x``BROAD_FACTOR``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from context_center.engine.model import FRESHNESS_DAYS
from context_center.engine.recall.index import SCOPE_CODES, TYPE_CODES, RecallIndex, bm25
from context_center.engine.recall.policy import (
    BROAD_FACTOR,
    BROAD_MIN_WORDS,
    BROAD_RATIO,
    FREQUENT_MIN_DF,
    FREQUENT_SHARE,
    HEAD_TF,
    LONG_TERM_CHARS,
    PROJECT_BOOST,
    RARE_IDF,
    RARE_MIN_CHARS,
    RARE_MIN_DF,
    RARE_SHARE,
    SHORT_QUERY_TERMS,
    STALE_FACTOR,
)
from context_center.engine.recall.terms import Concept, Plan
from context_center.engine.recall.tokenize import is_common

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
    strong: bool
    frequent: bool


@dataclass(slots=True)
class Scored:
    plan: Plan
    raw: np.ndarray  # float64 per ordinal
    count: np.ndarray  # matched concepts per ordinal (bare numbers excluded)
    strong: np.ndarray  # matched a concept that is strong alone
    frequent_only: np.ndarray  # every matched concept is frequent in the store
    hits: list[ConceptHits | None]

    def matched(self, ordinal: int) -> list[Match]:
        out: list[Match] = []
        for concept, h in zip(self.plan.concepts, self.hits, strict=True):
            if h is None:
                continue
            pos = int(np.searchsorted(h.docs, ordinal))
            if pos < len(h.docs) and int(h.docs[pos]) == ordinal:
                alt = concept.alts[int(h.alt[pos])]
                if alt.via is None:
                    out.append(Match(concept.text, None, alt.terms[0]))
                else:
                    out.append(Match(alt.label, alt.via, alt.label))
        return out


def rare(df: int, n: int) -> bool:
    idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
    return idf >= RARE_IDF and df <= max(RARE_MIN_DF, RARE_SHARE * n)


def frequent(df: int, n: int) -> bool:
    return df >= max(FREQUENT_MIN_DF, FREQUENT_SHARE * n)


def _strong(c: Concept, df: int, n: int, plan: Plan) -> bool:
    """Strong alone for every fact it matched (the rare-word rule is per fact, see score)."""
    if c.number:
        return False
    if c.distinctive:
        return True
    if c.caps or not c.direct:
        return False
    direct = plan.direct_count
    if direct <= SHORT_QUERY_TERMS and len(c.text) >= LONG_TERM_CHARS:
        return True
    return direct == 1 and c.cjk and len(c.text) == 2


class _TermCache:
    """BM25F contributions of each index term, computed once per turn."""

    def __init__(self, index: RecallIndex) -> None:
        self.index = index
        self.n, self.avgdl, self.dl = index.bm25_state()
        self.memo: dict[str, tuple[np.ndarray, np.ndarray] | None] = {}
        self.tfs: dict[str, np.ndarray] = {}

    def term(self, t: str) -> tuple[np.ndarray, np.ndarray] | None:
        if t not in self.memo:
            p = self.index.live_postings(t)
            if p is None:
                self.memo[t] = None
            else:
                self.tfs[t] = p[1]
                self.memo[t] = (p[0], bm25(p[1], self.dl[p[0]], len(p[0]), self.n, self.avgdl))
        return self.memo[t]

    def named_by(self, t: str) -> np.ndarray:
        """Ordinals whose head fields (name, title, description) hold ``t``: a weighted
        frequency of at least HEAD_TF (a body word alone counts 1)."""
        hit = self.term(t)
        if hit is None:
            return np.zeros(0, dtype=np.uint32)
        return hit[0][self.tfs[t] >= HEAD_TF]

    def alt(self, terms: tuple[str, ...], weight: float) -> tuple[np.ndarray, np.ndarray] | None:
        first = self.term(terms[0])
        if first is None:
            return None
        docs, total = first
        for t in terms[1:]:
            h = self.term(t)
            if h is None:
                return None
            docs, ia, ib = np.intersect1d(docs, h[0], assume_unique=True, return_indices=True)
            if not len(docs):
                return None
            total = total[ia] + h[1][ib]
        if len(terms) > 1:
            total = total / len(terms)
        return docs, total * weight


def _best_per_doc(
    parts: list[tuple[int, tuple[np.ndarray, np.ndarray]]], size: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ordinals ascending, best weighted score, which alternative) over a concept's parts."""
    if len(parts) == 1:
        ai, (docs, vals) = parts[0]
        return docs, vals, np.full(len(docs), ai, dtype=np.int16)
    best = np.zeros(size, dtype=np.float64)
    which = np.zeros(size, dtype=np.int16)
    for ai, (docs, vals) in parts:
        better = vals > best[docs]
        d = docs[better]
        best[d] = vals[better]
        which[d] = ai
    docs = np.flatnonzero(best > 0)
    return docs, best[docs], which[docs]


def score(index: RecallIndex, plan: Plan) -> Scored:
    """Stage 2: raw scores, match counts and strength for every ordinal."""
    n_ord = index.size
    raw = np.zeros(n_ord, dtype=np.float64)
    count = np.zeros(n_ord, dtype=np.int32)
    strong = np.zeros(n_ord, dtype=np.bool_)
    rare_hits = np.zeros(n_ord, dtype=np.int32)
    tc = _TermCache(index)
    hits: list[ConceptHits | None] = []
    for c in plan.concepts:
        parts = []
        for ai, alt in enumerate(c.alts):
            h = tc.alt(alt.terms, alt.weight) if tc.n else None
            if h is not None:
                parts.append((ai, h))
        if not parts:
            hits.append(None)
            continue
        docs, best, alt_idx = _best_per_doc(parts, n_ord)
        raw[docs] += best
        df = len(docs)
        is_strong = _strong(c, df, tc.n, plan)
        is_frequent = frequent(df, tc.n)
        if not c.number:
            count[docs] += 1
            if not is_frequent:
                rare_hits[docs] += 1
        if is_strong:
            strong[docs] = True
        elif (c.caps or (c.word and len(c.text) >= RARE_MIN_CHARS)) and c.direct:
            term = c.alts[0].terms[0]
            direct = tc.term(term)
            if direct is not None and rare(len(direct[0]), tc.n):
                strong[tc.named_by(term)] = True
        hits.append(ConceptHits(docs, alt_idx, df, is_strong, is_frequent))
    return Scored(plan, raw, count, strong, (count > 0) & (rare_hits == 0), hits)


def candidates(sc: Scored) -> tuple[np.ndarray, np.ndarray]:
    """(candidate ordinals, facts that matched but not distinctively)."""
    cand_mask = (sc.count >= 2) | ((sc.count >= 1) & sc.strong)
    cand = np.flatnonzero(cand_mask)
    loose = np.flatnonzero((sc.raw > 0) & ~cand_mask)
    return cand, loose


def breadth(index: RecallIndex) -> np.ndarray:
    """Per ordinal: how many of the store's frequent words (not common words) a fact has."""
    n, _, _ = index.bm25_state()
    out = np.zeros(index.size, dtype=np.int32)
    if n == 0:
        return out
    floor = max(FREQUENT_MIN_DF, FREQUENT_SHARE * n)
    for term in index.frequent_terms(floor):
        if is_common(term):
            continue
        p = index.live_postings(term)
        if p is not None:
            out[p[0]] += 1
    return out


def broad_mask(width: np.ndarray, alive: np.ndarray) -> np.ndarray:
    live = width[alive]
    if not len(live):
        return np.zeros(len(width), dtype=np.bool_)
    floor = max(BROAD_MIN_WORDS, BROAD_RATIO * float(np.median(live)))
    return alive & (width >= floor)


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
    _, scope, type_, upd = index.columns()
    s = sc.raw[ords] * np.where(scope[ords] == _PROJECT, PROJECT_BOOST, 1.0)
    with np.errstate(invalid="ignore"):
        stale = (now.timestamp() - upd[ords]) > _STALE_AFTER[type_[ords]]
    s = s * np.where(stale, STALE_FACTOR, 1.0)
    if broad is None:
        return s, np.zeros(len(ords), dtype=np.bool_)
    hit = broad[ords] & sc.frequent_only[ords]
    return s * np.where(hit, BROAD_FACTOR, 1.0), hit
