"""An incremental BM25 inverted index over facts, with a derived on-disk cache.

Layout (all numpy, no per-posting Python objects):

* a *base* in CSR form: ``offsets[t] : offsets[t+1]`` slices ``docs`` (uint32 ordinals) and
  ``tfs`` (uint16 term frequencies) for term id ``t``; built in bulk, loaded from the cache,
  or produced by compaction;
* a *delta*: per term, ``array('I')`` ordinals and ``array('H')`` frequencies for facts added
  since (``upsert``);
* per ordinal columns: token count, alive flag, scope, type, updated_at, plus the Fact itself.

``upsert`` appends the new version under a fresh ordinal and marks the old one dead;
``remove`` only marks dead. Queries skip dead ordinals and count document frequency over live
postings only, so scores equal those of a full rebuild exactly. When dead and delta ordinals
grow past a share of the index, ``compact`` folds everything back into a fresh base with
vectorised numpy (no re-tokenising).

Scoring is BM25 with k1 = 1.2, b = 0.75 and idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
which is positive for every df. rank-bm25's ``BM25Okapi`` uses ln((N - df + 0.5) /
(df + 0.5)) instead: zero when df = N/2 (so every score in a two-fact store where the term is
in one fact is 0), negative when a term is in more than half of the facts (it then replaces
such idfs with ``epsilon * average idf``, which is itself ~0 or negative in small stores).
Conservative recall must still work on a store of two facts, so it is not used for ranking.

The on-disk cache (``recall-index.cache``: a magic, a JSON header and 64-byte aligned raw
little-endian arrays; no pickle, no object dtypes; read back with one ``numpy.fromfile`` and
zero-copy views) stores the base plus, per fact, its (scope, id), revision, updated_at and a blake2b digest of
the indexed text. A restarted process reuses the postings of every fact whose key and digest
still match and tokenises only the rest. The cache is derived data: a missing, unreadable or
mismatched file is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import math
import threading
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import cast

import numpy as np

from context_center.engine.model import Fact, FactType, Scope
from context_center.engine.recall.policy import K1, B
from context_center.engine.recall.tokenize import TOKENIZER_VERSION, tokens
from context_center.engine.store import atomic
from context_center.engine.store.private import FILE_MODE, ensure_private_dir

CACHE_FORMAT = 1
TF_MAX = 65535
NO_TIME_MS = np.iinfo(np.int64).min
# Masks of matched query terms are kept for the first 64 terms of a query.
MASK_TERMS = 64

SCOPE_CODES = {Scope.PROJECT: 0, Scope.GLOBAL: 1}
TYPE_CODES = {FactType.USER: 0, FactType.FEEDBACK: 1, FactType.PROJECT: 2, FactType.REFERENCE: 3}

DocKey = tuple[str, str]  # (scope, id): the same id may exist once in each store


def doc_key(fact: Fact) -> DocKey:
    return (fact.scope.value, fact.id)


def index_text(fact: Fact) -> str:
    """What is searched: name, title, description and body."""
    return f"{fact.name}\n{fact.title}\n{fact.description}\n{fact.body}"


def content_digest(fact: Fact) -> bytes:
    data = index_text(fact).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()


def _same_text(a: Fact, b: Fact) -> bool:
    return (
        a.body == b.body
        and a.name == b.name
        and a.title == b.title
        and (a.description == b.description)
    )


def _time_ms(value: datetime | None) -> int:
    return NO_TIME_MS if value is None else round(value.timestamp() * 1000)


def _time_s(value: datetime | None) -> float:
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


@dataclass(frozen=True, slots=True)
class SyncStats:
    """What ``sync`` did: facts tokenised (added or changed), metadata-only updates, removals."""

    added: int = 0
    changed: int = 0
    metadata: int = 0
    removed: int = 0
    unchanged: int = 0
    rebuilt: bool = False
    from_cache: bool = False


@dataclass(slots=True)
class Scores:
    """Raw BM25 of one query over all ordinals (dead ones are 0 with count 0)."""

    terms: list[str]
    scores: np.ndarray  # float64 per ordinal
    count: np.ndarray  # matched distinct query terms per ordinal
    mask: np.ndarray  # uint64 bit i = query term i matched (i < 64)
    single_ok: np.ndarray  # a matched term that is enough alone (see policy.single_term_strong)
    extra: dict[int, np.ndarray]  # postings of query terms 64+ (rare: very long messages)

    def matched(self, ordinal: int) -> list[str]:
        bits = int(self.mask[ordinal])
        out = [t for i, t in enumerate(self.terms[:MASK_TERMS]) if bits >> i & 1]
        for i, docs in self.extra.items():
            if np.any(docs == ordinal):
                out.append(self.terms[i])
        return out


class RecallIndex:
    """BM25 postings for a set of facts, updated in place. Thread-safe (one lock)."""

    def __init__(self, *, compact_min: int = 2048, compact_ratio: float = 0.25) -> None:
        self.compact_min = compact_min
        self.compact_ratio = compact_ratio
        self._lock = threading.RLock()
        self._reset()

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
        self._n_alive = 0
        self._total_len = 0
        self._dead = 0
        self._last_synced: object = None
        self._synced_generation = -1
        self.generation = 0  # bumped on every change
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

    def ordinal(self, scope: Scope | str, fact_id: str) -> int | None:
        return self._ord.get((Scope(scope).value, fact_id))

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(alive, scope code, type code, updated_at seconds or NaN), one entry per ordinal."""
        return self._alive.view(), self._scope.view(), self._type.view(), self._upd.view()

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
                counts = Counter(tokens(index_text(f)))
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
            self._set_columns(flat, dl, alive=None)
            self._b_off, self._b_docs, self._b_tf = _counting_csr(
                np.frombuffer(tids, dtype=np.uint32),
                np.frombuffer(tfs, dtype=np.uint16),
                np.frombuffer(lens, dtype=np.uint32),
                len(self._terms),
            )
            self._d_docs, self._d_tf = {}, {}
            self._n_alive = len(flat)
            self._total_len = int(dl.sum(dtype=np.int64))
            self._base_limit = len(flat)
            self.generation += 1

    def _set_columns(
        self, facts: Sequence[Fact | None], dl: np.ndarray, alive: np.ndarray | None
    ) -> None:
        n = len(facts)
        scope = np.zeros(n, dtype=np.uint8)
        type_ = np.zeros(n, dtype=np.uint8)
        upd = np.full(n, math.nan, dtype=np.float64)
        for i, f in enumerate(facts):
            if f is not None:
                scope[i] = SCOPE_CODES[f.scope]
                type_[i] = TYPE_CODES[f.type]
                upd[i] = _time_s(f.updated_at)
        self._dl = _Column(np.uint32, dl)
        self._alive = _Column(np.bool_, np.ones(n, dtype=np.bool_) if alive is None else alive)
        self._scope = _Column(np.uint8, scope)
        self._type = _Column(np.uint8, type_)
        self._upd = _Column(np.float64, upd)

    # -- incremental updates ---------------------------------------------------------------

    def upsert(self, fact: Fact) -> str:
        """Add or replace one fact. Returns "added", "changed", "metadata" or "unchanged"."""
        with self._lock:
            key = doc_key(fact)
            o = self._ord.get(key)
            if o is not None:
                old = self._facts[o]
                assert old is not None
                if old is fact:
                    return "unchanged"
                if _same_text(old, fact):
                    self._objects.discard(id(old))
                    self._objects.add(id(fact))
                    if old == fact:
                        self._facts[o] = fact
                        return "unchanged"
                    self._facts[o] = fact
                    self._type.data[o] = TYPE_CODES[fact.type]
                    self._upd.data[o] = _time_s(fact.updated_at)
                    self.generation += 1
                    return "metadata"
                self._kill(o)
                self._add(fact)
                self.generation += 1
                return "changed"
            self._add(fact)
            self.generation += 1
            return "added"

    def remove(self, fact_id: str, scope: Scope | str | None = None) -> bool:
        """Remove the fact with this id (from one scope, or from both). True if it was there."""
        with self._lock:
            scopes = [Scope(scope).value] if scope is not None else [s.value for s in Scope]
            found = False
            for s in scopes:
                o = self._ord.get((s, fact_id))
                if o is not None:
                    self._kill(o)
                    found = True
            if found:
                self.generation += 1
            return found

    def _add(self, fact: Fact) -> None:
        counts = Counter(tokens(index_text(fact)))
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
        self._upd.append(_time_s(fact.updated_at))
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

    def _synced(self, facts: Sequence[Fact]) -> None:
        self._last_synced = facts
        self._synced_generation = self.generation

    def sync(self, facts: Sequence[Fact]) -> SyncStats:
        """Make the index hold exactly ``facts`` (archived facts must not be passed).

        Only added or changed facts are tokenised. A fact is unchanged when it is the same
        object as before, or has the same (scope, id) and equal name, title, description and
        body; revision, updated_at or type changes alone only update metadata. Passing the
        very same tuple as the previous call returns at once. Ids are unique per scope.
        """
        with self._lock:
            if (
                facts is self._last_synced
                and isinstance(facts, tuple)
                and self.generation == self._synced_generation
            ):
                return SyncStats(unchanged=self._n_alive)
            if self._n_alive == 0 and self.size == 0:
                self.build(facts)
                self._synced(facts)
                return SyncStats(added=self._n_alive, rebuilt=True)
            counts = {"added": 0, "changed": 0, "metadata": 0, "unchanged": 0}
            # Facts held as the very same objects are unchanged (Facts are immutable and the
            # index keeps a reference, so an id() cannot be reused while it is in the set).
            known = self._objects
            if len(facts) == self._n_alive and known.issuperset(map(id, facts)):
                self._synced(facts)
                return SyncStats(unchanged=len(facts))
            stale = [f for f in facts if id(f) not in known]
            for f in stale:
                counts[self.upsert(f)] += 1
            removed = 0
            if len(facts) != self._n_alive:
                keep = {doc_key(f) for f in facts}
                for key in [k for k in self._ord if k not in keep]:
                    self._kill(self._ord[key])
                    removed += 1
                if removed:
                    self.generation += 1
            self.maybe_compact()
            self._synced(facts)
            return SyncStats(
                added=counts["added"],
                changed=counts["changed"],
                metadata=counts["metadata"],
                removed=removed,
                unchanged=len(facts) - len(stale) + counts["unchanged"],
            )

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
        terms). No re-tokenising; peak extra memory is about one new base (6 bytes/posting)."""
        with self._lock:
            n = self.size
            if self._dead == 0 and n == self._base_limit:
                return
            alive = self._alive.view().copy()
            newpos = (np.cumsum(alive, dtype=np.int64) - 1).astype(np.uint32)
            v = len(self._terms)
            off, b_docs, b_tf = self._b_off, self._b_docs, self._b_tf
            # Delta postings, flat and grouped by term (ascending ordinals within a term).
            d_tids = sorted(self._d_docs)
            d_lens = np.array([len(self._d_docs[t]) for t in d_tids], dtype=np.int64)
            d_t = np.repeat(np.array(d_tids, dtype=np.int64), d_lens)
            d_d = np.frombuffer(
                b"".join(self._d_docs[t].tobytes() for t in d_tids), dtype=np.uint32
            )
            d_f = np.frombuffer(b"".join(self._d_tf[t].tobytes() for t in d_tids), dtype=np.uint16)
            d_keep = alive[d_d] if len(d_d) else np.zeros(0, dtype=np.bool_)
            d_t, d_d, d_f = d_t[d_keep], d_d[d_keep], d_f[d_keep]
            d_counts = np.bincount(d_t, minlength=v) if len(d_t) else np.zeros(v, np.int64)
            # Live base postings per term, chunk by chunk.
            kept = np.zeros(v, dtype=np.int64)
            for s, e in _chunks(len(b_docs)):
                t_c = np.searchsorted(off, np.arange(s, e), side="right") - 1
                kept += np.bincount(t_c[alive[b_docs[s:e]]], minlength=v)
            counts = kept + d_counts
            used = counts > 0
            new_off_full = np.zeros(v + 1, dtype=np.int64)
            np.cumsum(counts, out=new_off_full[1:])  # unused terms take no room
            total = int(new_off_full[-1])
            new_docs = np.empty(total, dtype=np.uint32)
            new_tf = np.empty(total, dtype=np.uint16)
            # A live base posting goes to (its rank among live base postings) + shift[term].
            kept_before = np.zeros(v, dtype=np.int64)
            np.cumsum(kept[:-1], out=kept_before[1:])
            shift = new_off_full[:-1] - kept_before
            g = 0
            for s, e in _chunks(len(b_docs)):
                keep_c = alive[b_docs[s:e]]
                t_c = (np.searchsorted(off, np.arange(s, e), side="right") - 1)[keep_c]
                pos = np.arange(g, g + len(t_c), dtype=np.int64) + shift[t_c]
                new_docs[pos] = newpos[b_docs[s:e][keep_c]]
                new_tf[pos] = b_tf[s:e][keep_c]
                g += len(t_c)
            if len(d_t):
                starts = np.zeros(v + 1, dtype=np.int64)
                np.cumsum(d_counts, out=starts[1:])
                rank = np.arange(len(d_t), dtype=np.int64) - starts[d_t]
                pos = new_off_full[d_t] + kept[d_t] + rank
                new_docs[pos] = newpos[d_d]
                new_tf[pos] = d_f
            keep_terms = np.flatnonzero(used)
            self._terms = [self._terms[i] for i in keep_terms.tolist()]
            self._vocab = {term: i for i, term in enumerate(self._terms)}
            b_off = np.zeros(len(keep_terms) + 1, dtype=np.int64)
            np.cumsum(counts[keep_terms], out=b_off[1:])
            self._b_off, self._b_docs, self._b_tf = b_off, new_docs, new_tf
            self._d_docs, self._d_tf = {}, {}
            facts: list[Fact | None] = [x for x in self._facts if x is not None]
            digests = [g_ for x, g_ in zip(self._facts, self._digest, strict=True) if x is not None]
            dl = self._dl.view()[alive]
            cols = (self._scope.view()[alive], self._type.view()[alive], self._upd.view()[alive])
            self._facts = facts
            self._digest = digests
            self._ord = {doc_key(x): i for i, x in enumerate(facts) if x is not None}
            self._dl = _Column(np.uint32, dl)
            self._alive = _Column(np.bool_, np.ones(len(facts), dtype=np.bool_))
            self._scope = _Column(np.uint8, cols[0])
            self._type = _Column(np.uint8, cols[1])
            self._upd = _Column(np.float64, cols[2])
            self._base_limit = len(facts)
            self._dead = 0

    # -- scoring -----------------------------------------------------------------------------

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

    def score(self, terms: Sequence[str], single_ok: Sequence[bool] | None = None) -> Scores:
        """BM25 of every live fact for the given (distinct) query terms.

        ``single_ok[i]`` marks terms whose match alone is distinctive; the result's
        ``single_ok`` array is True for facts matched by at least one such term.
        """
        with self._lock:
            n = self.size
            scores = np.zeros(n, dtype=np.float64)
            count = np.zeros(n, dtype=np.int32)
            mask = np.zeros(n, dtype=np.uint64)
            ok = np.zeros(n, dtype=np.bool_)
            extra: dict[int, np.ndarray] = {}
            result = Scores(list(terms), scores, count, mask, ok, extra)
            big_n = self._n_alive
            if big_n == 0:
                return result
            avgdl = self._total_len / big_n
            base_norm = K1 * (1.0 - B)
            len_norm = K1 * B / avgdl if avgdl > 0 else 0.0
            dl = self._dl.data
            for i, term in enumerate(terms):
                tid = self._vocab.get(term)
                if tid is None:
                    continue
                parts = self._postings(tid)
                df = sum(len(d) for d, _ in parts)
                if df == 0:
                    continue
                idf = math.log(1.0 + (big_n - df + 0.5) / (df + 0.5))
                for docs, tf16 in parts:
                    tf = tf16.astype(np.float64)
                    denom = tf + (base_norm + len_norm * dl[docs])
                    scores[docs] += (idf * (K1 + 1.0)) * tf / denom
                    count[docs] += 1
                    if i < MASK_TERMS:
                        mask[docs] |= np.uint64(1 << i)
                    else:
                        extra[i] = docs if i not in extra else np.concatenate((extra[i], docs))
                    if single_ok is not None and single_ok[i]:
                        ok[docs] = True
            return result

    # -- cache -------------------------------------------------------------------------------

    def dirty(self) -> bool:
        return self.generation != self.saved_generation

    def save(self, path: Path) -> None:
        """Write the derived cache atomically (compacts first)."""
        with self._lock:
            self.compact()
            facts = [f for f in self._facts if f is not None]
            digests = []
            for i, f in enumerate(facts):
                g = self._digest[i]
                if g is None:
                    g = self._digest[i] = content_digest(f)
                digests.append(g)
            keys = "\n".join(f"{f.scope.value}:{f.id}" for f in facts)
            arrays: dict[str, np.ndarray] = {
                "vocab": np.frombuffer(
                    "\n".join(self._terms).encode("utf-8", "surrogatepass"), dtype=np.uint8
                ),
                "keys": np.frombuffer(keys.encode("utf-8"), dtype=np.uint8),
                "revision": np.array([f.revision for f in facts], dtype=np.int64),
                "updated": np.array([_time_ms(f.updated_at) for f in facts], dtype=np.int64),
                "digest": np.frombuffer(b"".join(digests), dtype=np.uint8).reshape(-1, 16),
                "dl": self._dl.view(),
                "offsets": self._b_off,
                "docs": self._b_docs,
                "tfs": self._b_tf,
            }
            data = _pack_cache(arrays)
            del arrays
            # atomic.write_bytes only needs a buffer it can memoryview and slice; passing the
            # view avoids another copy of a cache that can be tens of megabytes.
            ensure_private_dir(path.parent)  # derived from private facts: 0700 / 0600
            atomic.write_bytes(path, cast(bytes, memoryview(data)), mode=FILE_MODE)
            self.saved_generation = self.generation

    def load(
        self, path: Path, facts: Sequence[Fact], *, min_reuse: float = 0.5
    ) -> SyncStats | None:
        """Adopt the cache at ``path`` for ``facts``; None if it is absent, invalid or mostly
        stale (less than ``min_reuse`` of the facts reusable), leaving the index untouched."""
        with self._lock:
            try:
                loaded = _read_cache(path)
            except (OSError, ValueError, KeyError, UnicodeDecodeError, json.JSONDecodeError):
                return None
            if loaded is None:
                return None
            terms, keys, rev, upd, dig, dl, off, docs, tfs = loaded
            wanted: dict[DocKey, Fact] = {}
            for f in facts:
                wanted[doc_key(f)] = f
            n = len(keys)
            kept: list[Fact | None] = [None] * n
            digests: list[bytes | None] = [None] * n
            alive = np.zeros(n, dtype=np.bool_)
            reused: set[DocKey] = set()
            for o, key in enumerate(keys):
                hit = wanted.get(key)
                if (
                    hit is None
                    or hit.revision != int(rev[o])
                    or _time_ms(hit.updated_at) != int(upd[o])
                ):
                    continue
                g = content_digest(hit)
                if g != dig[o].tobytes():
                    continue
                kept[o] = hit
                digests[o] = g
                alive[o] = True
                reused.add(key)
            if len(reused) < min_reuse * len(wanted):
                return None
            self._reset()
            self._terms = terms
            self._vocab = {t: i for i, t in enumerate(terms)}
            self._facts = kept
            self._objects = {id(f) for f in kept if f is not None}
            self._digest = digests
            self._ord = {doc_key(f): o for o, f in enumerate(kept) if f is not None}
            self._set_columns(kept, dl, alive)
            self._b_off, self._b_docs, self._b_tf = off, docs, tfs
            self._base_limit = n
            self._n_alive = len(reused)
            self._total_len = int(dl[alive].sum(dtype=np.int64))
            self._dead = n - len(reused)
            self.saved_generation = self.generation  # the file matches what we hold now
            added = 0
            for key, f in wanted.items():
                if key not in reused:
                    self._add(f)
                    added += 1
            if added or self._dead:
                self.generation += 1
            self.maybe_compact()
            self._synced(facts)
            return SyncStats(
                added=added, removed=self._dead, unchanged=len(reused), from_cache=True
            )


CHUNK = 1 << 18


def _chunks(total: int) -> Iterable[tuple[int, int]]:
    size = CHUNK
    for s in range(0, total, size):
        yield s, min(total, s + size)


def _counting_csr(
    tids: np.ndarray, tfs: np.ndarray, lens: np.ndarray, v: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR (offsets, ordinals, tfs) from doc-major flat postings: document ``d`` owns the
    next ``lens[d]`` entries of ``tids``/``tfs``. A counting sort, one chunk of documents
    at a time, so temporaries stay small; ordinals come out ascending within each term."""
    total = len(tids)
    df = np.bincount(tids, minlength=v) if total else np.zeros(v, dtype=np.int64)
    off = np.zeros(v + 1, dtype=np.int64)
    np.cumsum(df, out=off[1:])
    docs = np.empty(total, dtype=np.uint32)
    out_tf = np.empty(total, dtype=np.uint16)
    fill = off[:-1].copy()
    doc_end = np.cumsum(lens, dtype=np.int64)
    d0 = 0
    n = len(lens)
    while d0 < n:
        p0 = int(doc_end[d0 - 1]) if d0 else 0
        d1 = int(np.searchsorted(doc_end, p0 + CHUNK, side="right"))
        d1 = max(d1, d0 + 1)
        p1 = int(doc_end[d1 - 1])
        t_c = tids[p0:p1]
        order = np.argsort(t_c, kind="stable")
        ts = t_c[order]
        idx = np.arange(len(ts), dtype=np.int64)
        first = np.ones(len(ts), dtype=np.bool_)
        first[1:] = ts[1:] != ts[:-1]
        run_start = np.maximum.accumulate(np.where(first, idx, 0))
        pos = fill[ts] + (idx - run_start)
        d_c = np.repeat(np.arange(d0, d1, dtype=np.uint32), lens[d0:d1])
        docs[pos] = d_c[order]
        out_tf[pos] = tfs[p0:p1][order]
        fill += np.bincount(t_c, minlength=v)
        d0 = d1
    return off, docs, out_tf


CACHE_MAGIC = b"CCRECALL"
_ALIGN = 64
_DTYPES = {"<u1", "<u2", "<u4", "<i8", "|u1", "|b1"}


def _pack_cache(arrays: dict[str, np.ndarray]) -> bytearray:
    """``CCRECALL`` + header length (uint64 LE) + JSON header + 64-byte aligned raw arrays.

    Plain numbers only (no pickle, no object dtypes); one buffer, filled in place."""
    sections: dict[str, dict[str, object]] = {}
    pos = 0
    for name, arr in arrays.items():
        sections[name] = {
            "dtype": arr.dtype.str,
            "shape": list(arr.shape),
            "offset": pos,
            "nbytes": int(arr.nbytes),
        }
        pos += -(-int(arr.nbytes) // _ALIGN) * _ALIGN
    header = json.dumps(
        {
            "format": CACHE_FORMAT,
            "tokenizer": TOKENIZER_VERSION,
            "sections": sections,
        }
    ).encode()
    header += b" " * (-(len(CACHE_MAGIC) + 8 + len(header)) % _ALIGN)
    start = len(CACHE_MAGIC) + 8 + len(header)
    out = bytearray(start + pos)
    out[: len(CACHE_MAGIC)] = CACHE_MAGIC
    out[len(CACHE_MAGIC) : len(CACHE_MAGIC) + 8] = len(header).to_bytes(8, "little")
    out[len(CACHE_MAGIC) + 8 : start] = header
    view = memoryview(out)
    for name, arr in arrays.items():
        off = start + int(sections[name]["offset"])  # type: ignore[call-overload]
        flat = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
        view[off : off + len(flat)] = flat.data
    return out


def _unpack_cache(path: Path) -> dict[str, np.ndarray] | None:
    data = np.fromfile(path, dtype=np.uint8)
    head = len(CACHE_MAGIC) + 8
    if len(data) < head or data[: len(CACHE_MAGIC)].tobytes() != CACHE_MAGIC:
        return None
    hlen = int.from_bytes(data[len(CACHE_MAGIC) : head].tobytes(), "little")
    if head + hlen > len(data):
        return None
    header = json.loads(data[head : head + hlen].tobytes().decode())
    if header.get("format") != CACHE_FORMAT or header.get("tokenizer") != TOKENIZER_VERSION:
        return None
    start = head + hlen
    out: dict[str, np.ndarray] = {}
    for name, sec in header["sections"].items():
        dtype, shape = str(sec["dtype"]), [int(x) for x in sec["shape"]]
        off, nbytes = start + int(sec["offset"]), int(sec["nbytes"])
        dt = np.dtype(dtype)
        if (
            dtype not in _DTYPES
            or off + nbytes > len(data)
            or nbytes != dt.itemsize * int(np.prod(shape, dtype=np.int64))
        ):
            return None
        out[name] = data[off : off + nbytes].view(dt).reshape(shape)
    return out


def _read_cache(
    path: Path,
) -> (
    tuple[
        list[str],
        list[DocKey],
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
        np.ndarray,
    ]
    | None
):
    z = _unpack_cache(path)
    if z is None:
        return None
    vocab_blob = z["vocab"].tobytes().decode("utf-8", "surrogatepass")
    terms = vocab_blob.split("\n") if len(z["offsets"]) > 1 else []
    key_blob = z["keys"].tobytes().decode("utf-8")
    n = len(z["dl"])
    keys: list[DocKey] = []
    for line in key_blob.split("\n") if n else []:
        scope, _, fact_id = line.partition(":")
        keys.append((scope, fact_id))
    rev, upd, dig, dl = z["revision"], z["updated"], z["digest"], z["dl"]
    off, docs, tfs = z["offsets"], z["docs"], z["tfs"]
    v = len(off) - 1
    ok = (
        len(terms) == v
        and len(keys) == n
        and len(rev) == len(upd) == len(dl) == n
        and dig.shape == (n, 16)
        and off.dtype == np.int64
        and (v < 0 or (off[0] == 0 and bool(np.all(np.diff(off) >= 0))))
        and int(off[-1]) == len(docs) == len(tfs)
        and docs.dtype == np.uint32
        and tfs.dtype == np.uint16
        and dl.dtype == np.uint32
        and rev.dtype == upd.dtype == np.int64
        and (len(docs) == 0 or int(docs.max()) < n)
    )
    if not ok:
        return None
    return terms, keys, rev, upd, dig, dl, off, docs, tfs
