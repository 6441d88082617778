"""How one concept of a message matches the index: postings, BM25F with one idf per concept,
literal checks of compound identifiers and commands, and a fact's head fields.

``TermCache`` fetches each index term's postings once per turn. ``TermCache.concept`` returns
every alternative of a concept that some fact matches, each scored with the *concept's*
document frequency (the facts matching any of its forms), so a translation that few facts use
-- the Chinese form in a mostly English store -- is not rarer than the idea it stands for
(as Lucene's synonym queries blend the statistics of their terms).

Head fields: a term whose weighted frequency is at least ``HEAD_TF`` is taken to be in the
fact's name, title or description (``in_head`` says so exactly, from the fact's text; recall
checks it exactly only where a decision depends on it, see ``scoring``).
"""

from __future__ import annotations

import weakref
from functools import lru_cache

import numpy as np

from context_center.engine.model import Fact
from context_center.engine.recall.compounds import code_docs, literal_docs
from context_center.engine.recall.index import RecallIndex, bm25
from context_center.engine.recall.policy import HEAD_TF
from context_center.engine.recall.stem import stem
from context_center.engine.recall.terms import Concept
from context_center.engine.recall.tokenize import tokens

Part = tuple[int, tuple[np.ndarray, np.ndarray, np.ndarray]]  # (alt, (ordinals, score, head))
# Postings this many times shorter than the index are merged by sorting, not in dense arrays.
SPARSE_SHARE = 8


# Facts holding each multi-term form (a vocabulary phrase, the pairs of a Chinese word, a
# compound found literally), kept per index state: the same forms come back turn after turn.
_FORMS: weakref.WeakKeyDictionary[RecallIndex, tuple[int, dict[object, object]]] = (
    weakref.WeakKeyDictionary()
)
FORM_CACHE = 4096


def _form_cache(index: RecallIndex) -> dict[object, object]:
    entry = _FORMS.get(index)
    if entry is None or entry[0] != index.generation:
        entry = (index.generation, {})
        _FORMS[index] = entry
    elif len(entry[1]) > FORM_CACHE:
        entry[1].clear()
    return entry[1]


@lru_cache(maxsize=1 << 16)
def _head_terms(name: str, title: str, description: str) -> frozenset[str]:
    return frozenset(stem(t) for t in tokens(f"{name}\n{title}\n{description}"))


def head_terms(fact: Fact) -> frozenset[str]:
    """The index terms of a fact's name, title and description."""
    return _head_terms(fact.name, fact.title, fact.description)


class TermCache:
    """Postings of each index term, fetched once per turn."""

    def __init__(self, index: RecallIndex) -> None:
        self.index = index
        self.n, self.avgdl, self.dl = index.bm25_state()
        self.memo: dict[str, tuple[np.ndarray, np.ndarray] | None] = {}
        self._mark: np.ndarray | None = None
        self.forms = _form_cache(index)

    def term(self, t: str) -> tuple[np.ndarray, np.ndarray] | None:
        if t not in self.memo:
            self.memo[t] = self.index.live_postings(t)
        return self.memo[t]

    def holders(self, terms: tuple[str, ...]) -> tuple[np.ndarray, list[np.ndarray]] | None:
        """(ordinals, weighted frequency of each term) of the facts holding all ``terms``."""
        if len(terms) == 1:
            return self._holders(terms)
        if terms not in self.forms:
            self.forms[terms] = self._holders(terms)
        return self.forms[terms]  # type: ignore[return-value]

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
        self, docs: np.ndarray, tfs: list[np.ndarray], df: int, weight: float
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """BM25F of each term with document frequency ``df``, the mean over the terms, times
        ``weight``; and whether every term is (by its frequency) in the head fields."""
        dl = self.dl[docs]
        total = bm25(tfs[0], dl, df, self.n, self.avgdl)
        head = tfs[0] >= HEAD_TF
        for tf in tfs[1:]:
            total = total + bm25(tf, dl, df, self.n, self.avgdl)
            head = head & (tf >= HEAD_TF)
        if len(tfs) > 1:
            total = total / len(tfs)
        return docs, total * weight, head

    def _union_size(self, arrays: list[np.ndarray]) -> int:
        total = sum(len(a) for a in arrays)
        if total * SPARSE_SHARE < self.index.size:
            c = np.concatenate(arrays)
            c.sort()
            return 1 + int(np.count_nonzero(c[1:] != c[:-1]))
        if self._mark is None:
            self._mark = np.zeros(self.index.size, dtype=np.bool_)
        mark = self._mark
        for a in arrays:
            mark[a] = True
        size = int(np.count_nonzero(mark))
        for a in arrays:
            mark[a] = False
        return size

    def concept(self, c: Concept) -> list[Part]:
        """Every alternative of ``c`` that some fact matches, scored with one idf for the
        concept."""
        found = []
        for ai, alt in enumerate(c.alts):
            h = self.holders(alt.terms)
            if h is not None and c.literal:
                key = ("literal", alt.label)
                if key not in self.forms:
                    self.forms[key] = self._literal(h, alt.label)
                h = self.forms[key]  # type: ignore[assignment]
            if h is not None:
                found.append((ai, alt.weight, h))
        if not found:
            return []
        if len(found) == 1:
            df = len(found[0][2][0])
        else:
            df = self._union_size([h[0] for _, _, h in found])
        return [(ai, self._weigh(h[0], h[1], df, w)) for ai, w, h in found]

    def code_docs(self, docs: np.ndarray, order: np.ndarray, text: str) -> np.ndarray:
        return code_docs(docs, order, text, self.index.fact_at)


def best_per_doc(parts: list[Part], size: int) -> tuple[np.ndarray, ...]:
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
        better = vals > best[docs]
        d = docs[better]
        best[d] = vals[better]
        which[d] = ai
        named[docs[head]] = True
    docs = np.flatnonzero(best > 0)
    return docs, best[docs], which[docs], named[docs]


def _best_sparse(parts: list[Part]) -> tuple[np.ndarray, ...]:
    """``best_per_doc`` for postings much shorter than the index: one sort, no dense arrays."""
    d = np.concatenate([docs for _, (docs, _, _) in parts])
    v = np.concatenate([vals for _, (_, vals, _) in parts])
    h = np.concatenate([head for _, (_, _, head) in parts])
    a = np.concatenate([np.full(len(docs), ai, dtype=np.int16) for ai, (docs, _, _) in parts])
    order = np.lexsort((-v, d))  # by ordinal, best score first
    d, v, h, a = d[order], v[order], h[order], a[order]
    first = np.ones(len(d), dtype=np.bool_)
    first[1:] = d[1:] != d[:-1]
    starts = np.flatnonzero(first)
    named = np.logical_or.reduceat(h, starts)
    return d[starts], v[starts], a[starts], named


def in_head(c: Concept, fact: Fact) -> bool:
    """Exactly: some form of ``c`` is in the fact's name, title or description."""
    ht = head_terms(fact)
    return any(ht.issuperset(a.terms) for a in c.alts)
