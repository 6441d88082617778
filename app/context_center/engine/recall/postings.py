"""Storage of the recall index: CSR base + delta postings, per-ordinal columns, facts.

See ``index.py`` for the whole picture; this module holds the data and its bulk operations
(the counting-sort build and compaction, through ``csr.py``), not the update policy.
"""

from __future__ import annotations

import math
import threading
from array import array
from collections.abc import Iterable, Sequence
from datetime import datetime

import numpy as np

from context_center.engine.model import Fact, FactType, Scope
from context_center.engine.recall import csr
from context_center.engine.recall.subjects import subject_key

CHUNK = 1 << 18  # postings per chunk in bulk builds and compaction
TF_MAX = 65535
NO_TIME_MS = np.iinfo(np.int64).min

SCOPE_CODES = {Scope.PROJECT: 0, Scope.GLOBAL: 1}
TYPE_CODES = {FactType.USER: 0, FactType.FEEDBACK: 1, FactType.PROJECT: 2, FactType.REFERENCE: 3}

DocKey = tuple[str, str]  # (scope, id): the same id may exist once in each store


def doc_key(fact: Fact) -> DocKey:
    return (fact.scope.value, fact.id)


def time_ms(value: datetime | None) -> int:
    return NO_TIME_MS if value is None else round(value.timestamp() * 1000)


def time_s(value: datetime | None) -> float:
    return math.nan if value is None else value.timestamp()


class _Column:
    """A growable 1-D numpy array."""

    __slots__ = ("data", "size")

    def __init__(self, dtype: type | np.dtype, initial: np.ndarray | None = None) -> None:
        if initial is None:
            self.data = np.zeros(64, dtype=dtype)
            self.size = 0
        else:
            self.data = np.array(initial, dtype=dtype)
            self.size = len(initial)
            if len(self.data) == 0:
                self.data = np.zeros(64, dtype=dtype)

    def append(self, value: float | int | bool) -> None:
        if self.size == len(self.data):
            grown = np.zeros(max(64, len(self.data) * 2), dtype=self.data.dtype)
            grown[: self.size] = self.data[: self.size]
            self.data = grown
        self.data[self.size] = value
        self.size += 1

    def view(self) -> np.ndarray:
        return self.data[: self.size]


class PostingsStore:
    """Postings, columns and facts by ordinal; bulk build and compaction. ``RecallIndex``
    adds per-fact updates, sync, scoring and the cache."""

    def __init__(self, *, compact_min: int = 2048, compact_ratio: float = 0.25) -> None:
        self.compact_min = compact_min
        self.compact_ratio = compact_ratio
        self._lock = threading.RLock()
        self._reset()

    def _counts(self, fact: Fact) -> dict[str, int]:
        """Weighted term frequencies of one fact (``RecallIndex`` tokenises)."""
        raise NotImplementedError

    # -- state -------------------------------------------------------------------------------

    def _reset(self) -> None:
        self._vocab: dict[str, int] = {}
        self._terms: list[str] = []
        self._b_off = np.zeros(1, dtype=np.int64)
        self._b_docs = np.zeros(0, dtype=np.uint32)
        self._b_tf = np.zeros(0, dtype=np.uint16)
        self._d_docs: dict[int, array[int]] = {}
        self._d_tf: dict[int, array[int]] = {}
        self._base_limit = 0  # ordinals below this are in the base
        self._facts: list[Fact | None] = []
        self._objects: set[int] = set()  # id() of every live Fact object held (see sync)
        self._digest: list[bytes | None] = []
        self._ord: dict[DocKey, int] = {}
        self._dl = _Column(np.uint32)
        self._alive = _Column(np.bool_)
        self._scope = _Column(np.uint8)
        self._type = _Column(np.uint8)
        self._upd = _Column(np.float64)
        self._subject = _Column(np.uint64)
        self._n_alive = 0
        self._total_len = 0
        self._dead = 0
        self._last_synced: object = None
        self._synced_generation = -1
        self.generation = 0  # bumped on every change (once per changed fact)
        self.saved_generation = -1

    def __len__(self) -> int:
        return self._n_alive

    @property
    def lock(self) -> threading.RLock:
        return self._lock

    @property
    def size(self) -> int:
        """Ordinals in use (live and dead)."""
        return len(self._facts)

    def facts(self) -> list[Fact]:
        with self._lock:
            return [f for f in self._facts if f is not None]

    def fact(self, ordinal: int) -> Fact:
        f = self._facts[ordinal]
        assert f is not None
        return f

    def fact_at(self, ordinal: int) -> Fact | None:
        return self._facts[ordinal] if 0 <= ordinal < len(self._facts) else None

    def ordinal(self, scope: Scope | str, fact_id: str) -> int | None:
        return self._ord.get((Scope(scope).value, fact_id))

    def ordinal_of(self, key: DocKey) -> int | None:
        """``ordinal`` for a ``(scope value, id)`` key, without building an enum."""
        return self._ord.get(key)

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(alive, scope code, type code, updated_at seconds or NaN), one entry per ordinal."""
        return self._alive.view(), self._scope.view(), self._type.view(), self._upd.view()

    def subject_column(self) -> np.ndarray:
        """Subject keys per ordinal (``subjects.subject_key``; 0: none)."""
        return self._subject.view()

    def bm25_state(self) -> tuple[int, float, np.ndarray]:
        """(live facts N, average weighted length, weighted length per ordinal)."""
        n = self._n_alive
        return n, (self._total_len / n if n else 0.0), self._dl.data

    def stats(self) -> dict[str, int]:
        with self._lock:
            delta = sum(len(a) for a in self._d_docs.values())
            return {
                "facts": self._n_alive,
                "ordinals": self.size,
                "dead": self._dead,
                "terms": len(self._terms),
                "base_postings": len(self._b_docs),
                "delta_postings": delta,
            }

    # -- building ----------------------------------------------------------------------------

    def build(self, facts: Iterable[Fact]) -> None:
        """Replace everything with a fresh base built in bulk from ``facts``.

        Peak memory is about 12 bytes per posting: the flat term ids and frequencies
        (6 bytes) and the CSR they are counting-sorted into (6 bytes), chunk by chunk.
        """
        with self._lock:
            self._reset()
            unique: dict[DocKey, Fact] = {}
            for f in facts:
                unique[doc_key(f)] = f
            vocab = self._vocab
            setdefault = vocab.setdefault
            tids: array[int] = array("I")
            tfs: array[int] = array("H")
            lens: array[int] = array("I")
            dls: array[int] = array("I")
            for f in unique.values():
                counts = self._counts(f)
                tids.fromlist([setdefault(t, len(vocab)) for t in counts])
                values = list(counts.values())
                try:
                    tfs.fromlist(values)
                except OverflowError:
                    tfs.fromlist([min(v, TF_MAX) for v in values])
                lens.append(len(values))
                dls.append(sum(values))
            self._terms = list(vocab)
            flat = list(unique.values())
            self._facts = list(flat)
            self._objects = {id(f) for f in flat}
            self._digest = [None] * len(flat)
            self._ord = {k: i for i, k in enumerate(unique)}
            dl = np.frombuffer(dls, dtype=np.uint32)
            subj = np.array([subject_key(f) for f in flat], dtype=np.uint64)
            self._set_columns(flat, dl, None, subj)
            self._b_off, self._b_docs, self._b_tf = csr.counting_csr(
                np.frombuffer(tids, dtype=np.uint32),
                np.frombuffer(tfs, dtype=np.uint16),
                np.frombuffer(lens, dtype=np.uint32),
                len(self._terms),
                CHUNK,
            )
            self._d_docs, self._d_tf = {}, {}
            self._n_alive = len(flat)
            self._total_len = int(dl.sum(dtype=np.int64))
            self._base_limit = len(flat)
            self.generation += 1

    def _set_columns(
        self,
        facts: Sequence[Fact | None],
        dl: np.ndarray,
        alive: np.ndarray | None,
        subject: np.ndarray,
    ) -> None:
        n = len(facts)
        scope = np.zeros(n, dtype=np.uint8)
        type_ = np.zeros(n, dtype=np.uint8)
        upd = np.full(n, math.nan, dtype=np.float64)
        for i, f in enumerate(facts):
            if f is not None:
                scope[i] = SCOPE_CODES[f.scope]
                type_[i] = TYPE_CODES[f.type]
                upd[i] = time_s(f.updated_at)
        self._dl = _Column(np.uint32, dl)
        self._alive = _Column(np.bool_, np.ones(n, dtype=np.bool_) if alive is None else alive)
        self._scope = _Column(np.uint8, scope)
        self._type = _Column(np.uint8, type_)
        self._upd = _Column(np.float64, upd)
        self._subject = _Column(np.uint64, subject)

    def _add(self, fact: Fact) -> None:
        counts = self._counts(fact)
        o = len(self._facts)
        self._facts.append(fact)
        self._objects.add(id(fact))
        self._digest.append(None)
        self._ord[doc_key(fact)] = o
        dl = sum(counts.values())
        self._dl.append(dl)
        self._alive.append(True)
        self._scope.append(SCOPE_CODES[fact.scope])
        self._type.append(TYPE_CODES[fact.type])
        self._upd.append(time_s(fact.updated_at))
        self._subject.append(subject_key(fact))
        vocab = self._vocab
        for term, tf in counts.items():
            tid = vocab.get(term)
            if tid is None:
                tid = len(self._terms)
                vocab[term] = tid
                self._terms.append(term)
            docs = self._d_docs.get(tid)
            if docs is None:
                docs = self._d_docs[tid] = array("I")
                self._d_tf[tid] = array("H")
            docs.append(o)
            self._d_tf[tid].append(min(tf, TF_MAX))
        self._n_alive += 1
        self._total_len += dl

    def _kill(self, o: int) -> None:
        fact = self._facts[o]
        assert fact is not None
        del self._ord[doc_key(fact)]
        self._facts[o] = None
        self._objects.discard(id(fact))
        self._digest[o] = None
        self._alive.data[o] = False
        self._n_alive -= 1
        self._total_len -= int(self._dl.data[o])
        self._dead += 1

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
            alive = self._alive.view().copy()
            c = csr.compact(
                self._b_off,
                self._b_docs,
                self._b_tf,
                self._d_docs,
                self._d_tf,
                alive,
                len(self._terms),
                CHUNK,
            )
            self._terms = [self._terms[i] for i in c.keep_terms.tolist()]
            self._vocab = {term: i for i, term in enumerate(self._terms)}
            self._b_off, self._b_docs, self._b_tf = c.offsets, c.docs, c.tfs
            self._d_docs, self._d_tf = {}, {}
            facts: list[Fact | None] = [x for x in self._facts if x is not None]
            digests = [g_ for x, g_ in zip(self._facts, self._digest, strict=True) if x is not None]
            cols = [
                col.view()[alive]
                for col in (self._dl, self._scope, self._type, self._upd, self._subject)
            ]
            self._facts = facts
            self._digest = digests
            self._ord = {doc_key(x): i for i, x in enumerate(facts) if x is not None}
            self._dl = _Column(np.uint32, cols[0])
            self._alive = _Column(np.bool_, np.ones(len(facts), dtype=np.bool_))
            self._scope = _Column(np.uint8, cols[1])
            self._type = _Column(np.uint8, cols[2])
            self._upd = _Column(np.float64, cols[3])
            self._subject = _Column(np.uint64, cols[4])
            self._base_limit = len(facts)
            self._dead = 0
            # Ordinals were renumbered: anything derived from them must be rebuilt.
            self.generation += 1

    # -- postings and scoring ----------------------------------------------------------------

    def _postings(self, tid: int) -> list[tuple[np.ndarray, np.ndarray]]:
        parts: list[tuple[np.ndarray, np.ndarray]] = []
        if tid < len(self._b_off) - 1:
            s, e = int(self._b_off[tid]), int(self._b_off[tid + 1])
            if e > s:
                parts.append((self._b_docs[s:e], self._b_tf[s:e]))
        docs = self._d_docs.get(tid)
        if docs:
            parts.append(
                (
                    np.frombuffer(docs, dtype=np.uint32).copy(),
                    np.frombuffer(self._d_tf[tid], dtype=np.uint16).copy(),
                )
            )
        if self._dead and parts:
            alive = self._alive.data
            filtered = []
            for d, f in parts:
                m = alive[d]
                filtered.append((d[m], f[m]))
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

    def frequent_terms(self, floor: float) -> list[str]:
        """Terms in at least ``floor`` facts (counting postings of dead ordinals too: a close
        enough figure between compactions)."""
        df = np.zeros(len(self._terms), dtype=np.int64)
        base = np.diff(self._b_off)
        df[: len(base)] = base
        for tid, docs in self._d_docs.items():
            df[tid] += len(docs)
        return [self._terms[i] for i in np.flatnonzero(df >= floor).tolist()]
