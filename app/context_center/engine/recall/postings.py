"""Storage of the recall index: CSR base + delta postings, per-ordinal columns, facts.

See ``index.py`` for the whole picture; this module holds the data and its bulk operations
(the counting-sort build and compaction, through ``csr.py``), not the update policy.
"""

from __future__ import annotations

import threading
from array import array
from collections.abc import Iterable
from typing import TYPE_CHECKING

import numpy as np

from context_center.engine import memtrim
from context_center.engine.kinds import Scope
from context_center.engine.recall import csr, masks
from context_center.engine.recall.digest import index_text
from context_center.engine.recall.ordinals import (
    NO_TIME_MS,
    SCOPE_CODES,
    TYPE_CODES,
    DocKey,
    Ordinals,
    doc_key,
    time_ms,
    time_s,
    time_us,
)
from context_center.engine.recall.secretmatch import withheld
from context_center.engine.recall.subjects import LINK_TERMS, SUPERSEDES_RE, subject_key
from context_center.engine.recall.termtable import TermTable

if TYPE_CHECKING:
    from context_center.engine.model import Fact

CHUNK = 1 << 16  # postings per chunk in bulk builds and compaction (about 3 MB of temporaries)
TF_MAX = 65535

__all__ = [
    "CHUNK",
    "NO_TIME_MS",
    "SCOPE_CODES",
    "TF_MAX",
    "TYPE_CODES",
    "DocKey",
    "PostingsStore",
    "Scope",
    "doc_key",
    "time_ms",
    "time_s",
    "time_us",
]


def has_link(fact: Fact, counts: dict[str, int]) -> bool:
    """Does the body hold a ``Supersedes:`` line (only checked when a link term is there)?"""
    return any(t in counts for t in LINK_TERMS) and SUPERSEDES_RE.search(fact.body) is not None


class PostingsStore(Ordinals):
    """Postings and terms over ``Ordinals``; bulk build and compaction. ``RecallIndex``
    adds per-fact updates, sync, scoring and the cache."""

    def __init__(self, *, compact_min: int = 2048, compact_ratio: float = 0.25) -> None:
        self.compact_min = compact_min
        self.compact_ratio = compact_ratio
        self._lock = threading.RLock()
        self._reset()

    def _count_terms(self, fact: Fact) -> tuple[dict[str, int], str]:
        """Weighted term frequencies of one fact and its head terms (``RecallIndex``
        tokenises)."""
        raise NotImplementedError

    # -- state -------------------------------------------------------------------------------

    def _reset(self) -> None:
        # what turns derive from one state of the index (``matching.StateCache``): tens of
        # megabytes at 50k facts, useless once the postings are rebuilt or renumbered
        self.turn_state: object = None
        self._reset_rows()
        self._vocab = TermTable()
        self._b_off = np.zeros(1, dtype=np.int64)
        self._b_docs = np.zeros(0, dtype=np.uint32)
        self._b_tf = np.zeros(0, dtype=np.uint16)
        self._check_base = False  # postings read from a cache: bounds checked per term
        self._d_docs: dict[int, array[int]] = {}
        self._d_tf: dict[int, array[int]] = {}
        self._base_limit = 0  # ordinals below this are in the base
        self._total_len = 0
        self._last_synced: object = None
        self._synced_generation = -1
        # bumped on every change (once per changed fact), and never back: what is derived per
        # state (a turn's term matches, the subjects map) must not outlive a rebuild that
        # happens to reach the generation it was made at
        self.generation = getattr(self, "generation", -1) + 1
        self.saved_generation = -1

    def __len__(self) -> int:
        return self._n_alive

    @property
    def lock(self) -> threading.RLock:
        return self._lock

    @property
    def _terms(self) -> TermTable:
        return self._vocab

    def bm25_state(self) -> tuple[int, float, np.ndarray]:
        """(live facts N, average weighted length, weighted length per ordinal)."""
        n = self._n_alive
        return n, (self._total_len / n if n else 0.0), self.c["dl"].data

    def stats(self) -> dict[str, int]:
        with self._lock:
            delta = sum(len(a) for a in self._d_docs.values())
            return {
                "facts": self._n_alive,
                "ordinals": self.size,
                "dead": self._dead,
                "terms": len(self._vocab),
                "base_postings": len(self._b_docs),
                "delta_postings": delta,
            }

    # -- building ----------------------------------------------------------------------------

    def build(self, facts: Iterable[Fact]) -> None:
        """Replace everything with a fresh base built in bulk from ``facts`` (each one's text
        scanned for the spans the sanitizer withholds, as ``_add`` does).

        Peak memory is about 12 bytes per posting: the flat term ids and frequencies
        (6 bytes) and the CSR they are counting-sorted into (6 bytes), chunk by chunk.
        """
        with self._lock:
            self._reset()
            unique: dict[DocKey, Fact] = {}
            for f in facts:
                unique[doc_key(f)] = f
            vocab: dict[str, int] = {}
            setdefault = vocab.setdefault
            tids: array[int] = array("I")
            tfs: array[int] = array("H")
            lens: array[int] = array("I")
            for f in unique.values():
                counts, head = self._count_terms(f)
                tids.fromlist([setdefault(t, len(vocab)) for t in counts])
                values = list(counts.values())
                try:
                    tfs.fromlist(values)
                except OverflowError:
                    tfs.fromlist([min(v, TF_MAX) for v in values])
                lens.append(len(values))
                o = self._append_row(f, sum(values), subject_key(f), has_link(f, counts))
                self._withheld[o] = withheld(index_text(f))
                self._heads[o] = head
            self._vocab = TermTable(list(vocab))
            self._b_off, self._b_docs, self._b_tf = csr.counting_csr(
                np.frombuffer(tids, dtype=np.uint32),
                np.frombuffer(tfs, dtype=np.uint16),
                np.frombuffer(lens, dtype=np.uint32),
                len(vocab),
                CHUNK,
            )
            self._d_docs, self._d_tf = {}, {}
            self._total_len = int(self.c["dl"].view().sum(dtype=np.int64))
            self._base_limit = self.size
            self.generation += 1
        memtrim.release()  # the flat postings and the term dict are gone

    def _add(self, fact: Fact) -> None:
        counts, head = self._count_terms(fact)
        dl = sum(counts.values())
        o = self._append_row(fact, dl, subject_key(fact), has_link(fact, counts))
        # once per change: the spans a turn's matches are checked against (``secretmatch``)
        self._withheld[o] = withheld(index_text(fact))
        self._heads[o] = head
        vocab = self._vocab
        for term, tf in counts.items():
            tid = vocab.add(term)
            docs = self._d_docs.get(tid)
            if docs is None:
                docs = self._d_docs[tid] = array("I")
                self._d_tf[tid] = array("H")
            docs.append(o)
            self._d_tf[tid].append(min(tf, TF_MAX))
        self._total_len += dl

    def _kill(self, o: int) -> None:
        super()._kill(o)
        self._total_len -= int(self.c["dl"].data[o])

    # -- compaction --------------------------------------------------------------------------

    def maybe_compact(self) -> bool:
        with self._lock:
            churn = self._dead + (self.size - self._base_limit)
            if churn > max(self.compact_min, self.compact_ratio * self._n_alive):
                self.compact()
                return True
            return False

    def compact(self) -> None:
        """Fold delta and dead ordinals into a fresh base (renumbers ordinals, drops unused
        terms). No re-tokenising."""
        with self._lock:
            if self._dead == 0 and self.size == self._base_limit:
                return
            if self.turn_state is not None:  # before the new base is allocated beside the old
                self.turn_state = None
                memtrim.release()
            alive = self.c["alive"].view().copy()
            c = csr.compact(
                self._b_off,
                self._b_docs,
                self._b_tf,
                self._d_docs,
                self._d_tf,
                alive,
                len(self._vocab),
                CHUNK,
            )
            terms = self._vocab.terms()
            self._vocab = TermTable([terms[i] for i in c.keep_terms.tolist()])
            self._b_off, self._b_docs, self._b_tf = c.offsets, c.docs, c.tfs
            self._check_base = False
            self._d_docs, self._d_tf = {}, {}
            self._keep_rows(alive)
            self._base_limit = self.size
            # Ordinals were renumbered: anything derived from them must be rebuilt.
            self.generation += 1
        memtrim.release()  # the old base and the chunks' temporaries

    # -- postings and scoring ----------------------------------------------------------------

    def _postings(self, tid: int) -> list[tuple[np.ndarray, np.ndarray]]:
        parts: list[tuple[np.ndarray, np.ndarray]] = []
        if tid < len(self._b_off) - 1:
            s, e = int(self._b_off[tid]), int(self._b_off[tid + 1])
            if e > s:
                docs = self._b_docs[s:e]
                if self._check_base and int(docs.max()) >= self._base_limit:
                    from context_center.engine.recall.lazyfact import DamagedCache

                    raise DamagedCache("the cached postings are damaged")
                parts.append((docs, self._b_tf[s:e]))
        delta = self._d_docs.get(tid)
        if delta:
            parts.append(
                (
                    np.frombuffer(delta, dtype=np.uint32).copy(),
                    np.frombuffer(self._d_tf[tid], dtype=np.uint16).copy(),
                )
            )
        if self._dead and parts:
            alive = self.c["alive"].data
            filtered = []
            for d, f in parts:
                kept = masks.where(alive[d], d, f)
                filtered.append((kept[0], kept[1]))
            parts = filtered
        return parts

    def live_postings(self, term: str) -> tuple[np.ndarray, np.ndarray] | None:
        """(ordinals ascending, weighted tf) of the live facts containing ``term``."""
        tid = self._vocab.get(term)
        if tid is None:
            return None
        parts = self._postings(tid)
        if not parts:
            return None
        if len(parts) == 1:
            return parts[0]
        docs = np.concatenate([d for d, _ in parts])
        if not len(docs):
            return None
        return docs, np.concatenate([f for _, f in parts])
