"""How one concept of a message matches the index: postings, BM25F with one idf per concept,
literal checks of compound identifiers and commands, and a fact's head fields.

``TermCache`` fetches each index term's postings once per turn. ``TermCache.concept`` returns
every alternative of a concept that some fact matches, each scored with the *concept's*
document frequency (the facts matching any of its forms), so a translation that few facts use
-- the Chinese form in a mostly English store -- is not rarer than the idea it stands for
(as Lucene's synonym queries blend the statistics of their terms).

Head fields: a term whose weighted frequency is at least ``HEAD_TF`` is taken to be in the
fact's name, title or description (the row's head terms say so exactly, ``rowtext``; recall
checks it exactly only where a decision depends on it, see ``scoring``).
"""

from __future__ import annotations

import math
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from context_center.engine.recall import masks
from context_center.engine.recall.compounds import code_docs, literal_docs
from context_center.engine.recall.index import RecallIndex
from context_center.engine.recall.policy import HEAD_TF, K1, B
from context_center.engine.recall.rowtext import head_terms_once
from context_center.engine.recall.tally import Dense
from context_center.engine.recall.terms import Concept

if TYPE_CHECKING:
    from context_center.engine.model import Fact

Part = tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray]]  # (alt, (ordinals, score, head))
# Postings this many times shorter than the index are merged by sorting, not in dense arrays.
SPARSE_SHARE = 8


class StateCache:
    """What one index state (``RecallIndex.generation``) gives every turn alike: the facts
    holding each multi-term form (a vocabulary phrase, the pairs of a Chinese word, a compound
    found literally) and each concept's merged match over all its forms -- the same words and
    their translations come back turn after turn. Least recently used entries go first once
    the arrays held pass ``STATE_CACHE_BYTES``."""

    def __init__(self, generation: int) -> None:
        self.generation = generation
        self._items: OrderedDict[object, tuple[object, int]] = OrderedDict()
        self._bytes = 0

    def get(self, key: object) -> tuple[bool, object]:
        hit = self._items.get(key)
        if hit is None:
            return False, None
        self._items.move_to_end(key)
        return True, hit[0]

    def put(self, key: object, value: object, size: int) -> None:
        self._items[key] = (value, size)
        self._bytes += size
        while self._bytes > STATE_CACHE_BYTES and len(self._items) > 1:
            _, (_, old) = self._items.popitem(last=False)
            self._bytes -= old


STATE_CACHE_BYTES = 32 << 20


def state_cache(index: RecallIndex) -> StateCache:
    """The index's cache for its current state (kept on the index as ``turn_state``, which
    a rebuild or compaction drops before it allocates the new postings)."""
    entry = index.turn_state
    if not isinstance(entry, StateCache) or entry.generation != index.generation:
        entry = StateCache(index.generation)
        index.turn_state = entry
    return entry


def _nbytes(*arrays: np.ndarray) -> int:
    return 64 + sum(int(a.nbytes) for a in arrays)


def head_terms(fact: Fact) -> frozenset[str]:
    """The index terms of a fact's name, title and description."""
    return head_terms_once(fact.name, fact.title, fact.description)


class TermCache:
    """Postings of each index term, fetched once per turn."""

    def __init__(self, index: RecallIndex) -> None:
        self.index = index
        self.n, self.avgdl, self.dl = index.bm25_state()
        self.memo: dict[str, tuple[np.ndarray, np.ndarray] | None] = {}
        self.state = state_cache(index)

    def term(self, t: str) -> tuple[np.ndarray, np.ndarray] | None:
        if t not in self.memo:
            self.memo[t] = self.index.live_postings(t)
        return self.memo[t]

    def holders(self, terms: tuple[str, ...]) -> tuple[np.ndarray, list[np.ndarray]] | None:
        """(ordinals, weighted frequency of each term) of the facts holding all ``terms``."""
        if len(terms) == 1:
            return self._holders(terms)
        found, held = self.state.get(terms)
        if not found:
            held = self._holders(terms)
            size = _nbytes(held[0], *held[1]) if held is not None else 64
            self.state.put(terms, held, size)
        return held  # type: ignore[return-value]

    def _holders(self, terms: tuple[str, ...]) -> tuple[np.ndarray, list[np.ndarray]] | None:
        first = self.term(terms[0])
        if first is None:
            return None
        docs, tfs = first[0], [first[1]]
        for t in terms[1:]:
            h = self.term(t)
            if h is None:
                return None
            docs, ia, ib = np.intersect1d(docs, h[0], assume_unique=True, return_indices=True)
            if not len(docs):
                return None
            tfs = [x[ia] for x in tfs]
            tfs.append(h[1][ib])
        return docs, tfs

    def _literal(
        self, held: tuple[np.ndarray, list[np.ndarray]], text: str
    ) -> tuple[np.ndarray, list[np.ndarray]] | None:
        """Only the facts that contain ``text`` as written (a compound identifier)."""
        docs, tfs = held
        order = np.argsort(-np.sum(tfs, axis=0, dtype=np.int64), kind="stable")
        keep = literal_docs(docs, order, text, self.index.fact_at)
        if not len(keep):
            return None
        at = np.searchsorted(docs, keep)
        return keep, [tf[at] for tf in tfs]

    def _weigh(
        self, docs: np.ndarray, tfs: list[np.ndarray], weight: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """BM25F of each term *without its idf* (the concept's idf multiplies the best form
        later), the mean over the terms, times ``weight``; and whether every term is (by its
        frequency) in the head fields."""
        norm = K1 * (1.0 - B) + (K1 * B / self.avgdl if self.avgdl > 0 else 0.0) * self.dl[docs]
        tf = tfs[0].astype(np.float64)
        total = tf / (tf + norm)
        head = tfs[0] >= HEAD_TF
        for raw in tfs[1:]:
            tf = raw.astype(np.float64)
            total = total + tf / (tf + norm)
            head = head & (raw >= HEAD_TF)
        return docs, total * ((K1 + 1.0) * weight / len(tfs)), head

    def concept(self, c: Concept) -> Matched | None:
        """The facts matching ``c`` by any alternative, each with its best alternative,
        scored with one idf for the concept (over the facts matching any of its forms); the
        same for every turn of one index state."""
        key = _key(c)
        found, m = self.state.get(key)
        if not found:
            m = self._concept(c)
            size = (
                _nbytes(m.docs, m.best, m.which, m.named, m.head_docs)
                + (m.first.nbytes if m.first is not m.docs else 0)
                if m is not None
                else 64
            )
            self.state.put(key, m, size)
        return m  # type: ignore[return-value]

    def dense(self, c: Concept, m: Matched) -> Dense | None:
        """``m`` (the match of ``c``) as columns over every ordinal, kept for the index
        state, when at least one ordinal in SPARSE_SHARE matched; else None."""
        size = self.index.size
        if len(m.docs) * SPARSE_SHARE < size:
            return None
        key = ("dense", _key(c))
        found, d = self.state.get(key)
        if not found or not isinstance(d, Dense) or len(d.best) != size:
            d = Dense.of(m, size)
            self.state.put(key, d, d.nbytes)
        return d

    def _concept(self, c: Concept) -> Matched | None:
        parts: list[Part] = []
        for ai, alt in enumerate(c.alts):
            h = self.holders(alt.terms)
            if h is not None and c.literal:
                h = self._literal(h, alt.label)
            if h is not None:
                parts.append((ai, self._weigh(h[0], h[1], alt.weight)))
        if not parts:
            return None
        docs, best, which, named = _best_per_doc(parts, self.index.size)
        df = len(docs)
        best = best * math.log(1.0 + (self.n - df + 0.5) / (df + 0.5))
        first = parts[0][1][0] if parts[0][0] == 0 else docs[:0]
        head_docs = masks.one(named, docs)
        for a in (docs, best, which, named, first, head_docs):
            a.flags.writeable = False  # shared by every turn of this index state
        return Matched(docs, best, which, named, first, head_docs)

    def code_docs(self, docs: np.ndarray, order: np.ndarray, text: str) -> np.ndarray:
        return code_docs(docs, order, text, self.index.fact_at)


def _key(c: Concept) -> tuple[object, ...]:
    """What a concept's match depends on (the same for every turn of one index state)."""
    return (c.literal, tuple((a.terms, a.weight, a.label if c.literal else "") for a in c.alts))


@dataclass(frozen=True, slots=True)
class Matched:
    """How one concept matched: ordinals ascending, best score, which alternative, whether in
    the head fields (estimated), the ordinals its first alternative matched, and the ordinals
    in the head fields (estimated)."""

    docs: np.ndarray
    best: np.ndarray
    which: np.ndarray
    named: np.ndarray
    first: np.ndarray
    head_docs: np.ndarray  # docs[named]


def _best_per_doc(parts: list[Part], size: int) -> tuple[np.ndarray, ...]:
    """(ordinals ascending, best weighted score, which alternative, head) over a concept's
    parts; head is True where any alternative is in the fact's head fields."""
    if len(parts) == 1:
        ai, (docs, vals, head) = parts[0]
        return docs, vals, np.full(len(docs), ai, dtype=np.int16), head
    total = sum(len(d) for _, (d, _, _) in parts)
    if total * SPARSE_SHARE < size:
        return _best_sparse(parts)
    best = np.zeros(size, dtype=np.float64)
    which = np.zeros(size, dtype=np.int16)
    named = np.zeros(size, dtype=np.bool_)
    for ai, (docs, vals, head) in parts:
        d, v = masks.where(vals > best[docs], docs, vals)
        best[d] = v
        which[d] = ai
        named[masks.one(head, docs)] = True
    docs = (best != 0).nonzero()[0]  # a boolean nonzero costs an eighth of a float one
    return docs, best[docs], which[docs], named[docs]


def _best_sparse(parts: list[Part]) -> tuple[np.ndarray, ...]:
    """``_best_per_doc`` for postings much shorter than the index: no dense arrays. The parts
    are put in ordinal order by a stable sort (each part is already ascending, so it merges
    runs), keeping one ordinal's parts in their order; per ordinal the best score, the first
    part that has it (as ``_best_per_doc`` keeps the first on a tie), and whether any part
    is in the head fields."""
    d = np.concatenate([docs for _, (docs, _, _) in parts])
    v = np.concatenate([vals for _, (_, vals, _) in parts])
    h = np.concatenate([head for _, (_, _, head) in parts])
    a = np.concatenate([np.full(len(docs), ai, dtype=np.int16) for ai, (docs, _, _) in parts])
    order = np.argsort(d, kind="stable")
    d, v, h, a = d[order], v[order], h[order], a[order]
    first = np.ones(len(d), dtype=np.bool_)
    first[1:] = d[1:] != d[:-1]
    starts = np.flatnonzero(first)
    best = np.maximum.reduceat(v, starts)
    counts = np.diff(np.append(starts, len(d)))
    at = np.minimum.reduceat(
        np.where(v == np.repeat(best, counts), np.arange(len(d)), len(d)), starts
    )
    named = np.logical_or.reduceat(h, starts)
    return d[starts], best, a[at], named


class HeadForms:
    """The forms of one concept, to check a fact's head terms against."""

    __slots__ = ("multi", "single")

    def __init__(self, c: Concept) -> None:
        self.single = frozenset(a.terms[0] for a in c.alts if len(a.terms) == 1)
        self.multi = [a.terms for a in c.alts if len(a.terms) > 1]

    def named(self, head: frozenset[str]) -> bool:
        """Some form is among ``head`` (a fact's name, title and description terms)."""
        return not head.isdisjoint(self.single) or any(head.issuperset(m) for m in self.multi)
