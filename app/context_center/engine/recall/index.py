"""An incremental BM25F inverted index over facts (numpy postings, per-fact updates).

Layout (all numpy, no per-posting Python objects):

* a *base* in CSR form (``csr.py``): ``offsets[t] : offsets[t+1]`` slices ``docs`` (uint32
  ordinals) and ``tfs`` (uint16 weighted term frequencies) for term id ``t``; built in bulk,
  loaded from the cache (``cache.py``), or produced by compaction;
* a *delta*: per term, ``array('I')`` ordinals and ``array('H')`` frequencies for facts added
  since (``upsert``);
* per ordinal columns: weighted length, alive flag, scope, type, updated_at, subject key, plus
  the Fact itself.

Terms are stemmed (``stem.py``) and field-weighted, BM25F-style: a term counts 2x in the name,
3x in the title, 2x in the description and 1x in the body (``weighted_text``), and a fact's
length is its weighted term count, so one word in a title outweighs the same word deep in a
long body.

``upsert`` appends the new version under a fresh ordinal and marks the old one dead;
``remove`` only marks dead. Queries skip dead ordinals and count document frequency over live
postings only, so scores equal those of a full rebuild exactly. When dead and delta ordinals
grow past a share of the index, ``compact`` folds everything back into a fresh base.

Scoring is BM25 with k1 = 1.2, b = 0.75 and idf = ln(1 + (N - df + 0.5) / (df + 0.5)),
which is positive for every df. rank-bm25's ``BM25Okapi`` uses ln((N - df + 0.5) /
(df + 0.5)) instead: zero when df = N/2 (so every score in a two-fact store where the term is
in one fact is 0), negative when a term is in more than half of the facts. Conservative recall
must still work on a store of two facts, so it is not used for ranking.
"""

from __future__ import annotations

import hashlib
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np

from context_center.engine.model import Fact, Scope
from context_center.engine.recall import cache
from context_center.engine.recall.policy import K1, B
from context_center.engine.recall.postings import (
    CHUNK,
    SCOPE_CODES,
    TYPE_CODES,
    DocKey,
    PostingsStore,
    doc_key,
    time_ms,
    time_s,
)
from context_center.engine.recall.stem import stem
from context_center.engine.recall.tokenize import tokens
from context_center.engine.store import atomic
from context_center.engine.store.private import FILE_MODE, ensure_private_dir

__all__ = ["CHUNK", "SCOPE_CODES", "TYPE_CODES", "DocKey", "RecallIndex", "doc_key"]

CACHE_MAGIC = cache.CACHE_MAGIC
# Masks of matched query terms are kept for the first 64 terms of a query.
MASK_TERMS = 64
# BM25F field weights (see the module docstring).
NAME_WEIGHT, TITLE_WEIGHT, DESCRIPTION_WEIGHT = 2, 3, 2


def index_text(fact: Fact) -> str:
    """What is searched: name, title, description and body."""
    return f"{fact.name}\n{fact.title}\n{fact.description}\n{fact.body}"


def weighted_text(fact: Fact) -> str:
    """``index_text`` with the head fields repeated by their weight (one tokenising pass)."""
    head = (
        f"{fact.name}\n" * NAME_WEIGHT
        + f"{fact.title}\n" * TITLE_WEIGHT
        + f"{fact.description}\n" * DESCRIPTION_WEIGHT
    )
    return head + fact.body


def fact_counts(fact: Fact) -> dict[str, int]:
    """Weighted frequency of every stemmed term of a fact."""
    out: dict[str, int] = {}
    for term, n in Counter(tokens(weighted_text(fact))).items():
        s = stem(term)
        out[s] = out.get(s, 0) + n
    return out


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


class RecallIndex(PostingsStore):
    """BM25F postings for a set of facts, updated in place. Thread-safe (one lock)."""

    def _counts(self, fact: Fact) -> dict[str, int]:
        return fact_counts(fact)

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
                    self._upd.data[o] = time_s(fact.updated_at)
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
                self.generation += removed
            self.maybe_compact()
            self._synced(facts)
            return SyncStats(
                added=counts["added"],
                changed=counts["changed"],
                metadata=counts["metadata"],
                removed=removed,
                unchanged=len(facts) - len(stale) + counts["unchanged"],
            )

    def score(self, terms: Sequence[str], single_ok: Sequence[bool] | None = None) -> Scores:
        """Plain BM25 of every live fact for the given (distinct, already stemmed) terms.

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
            big_n, avgdl, dl = self.bm25_state()
            if big_n == 0:
                return result
            for i, term in enumerate(terms):
                hit = self.live_postings(term)
                if hit is None:
                    continue
                docs, tf16 = hit
                scores[docs] += bm25(tf16, dl[docs], len(docs), big_n, avgdl)
                count[docs] += 1
                if i < MASK_TERMS:
                    mask[docs] |= np.uint64(1 << i)
                else:
                    extra[i] = docs
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
            data = cache.pack(
                cache.arrays(
                    self._terms,
                    facts,
                    np.array([f.revision for f in facts], dtype=np.int64),
                    np.array([time_ms(f.updated_at) for f in facts], dtype=np.int64),
                    digests,
                    {
                        "dl": self._dl.view(),
                        "offsets": self._b_off,
                        "docs": self._b_docs,
                        "tfs": self._b_tf,
                        "subject": self._subject.view(),
                    },
                )
            )
            # atomic.write_bytes only needs a buffer it can memoryview and slice; passing the
            # view avoids another copy of a cache that can be tens of megabytes.
            ensure_private_dir(path.parent)  # derived from private facts: 0700 / 0600
            atomic.write_bytes(path, cast(bytes, memoryview(data)), mode=FILE_MODE)
            self.saved_generation = self.generation

    def load(
        self, path: Path, facts: Sequence[Fact], *, min_reuse: float = 0.5
    ) -> SyncStats | None:
        """Adopt the cache at ``path`` for ``facts``; None if it is absent, invalid or mostly
        stale (less than ``min_reuse`` of the facts reusable), leaving the index untouched.

        Every fact re-indexed or dropped here counts as one change, so a cache that many
        other-process writes made stale is saved again soon (``Recaller`` saves after enough
        changes) instead of being re-tokenised by every later process."""
        with self._lock:
            try:
                loaded = cache.read(path)
            except (OSError, ValueError, KeyError, UnicodeDecodeError):
                return None
            if loaded is None:
                return None
            wanted: dict[DocKey, Fact] = {}
            for f in facts:
                wanted[doc_key(f)] = f
            reuse = cache.match(loaded, wanted, lambda f: time_ms(f.updated_at), content_digest)
            if len(reuse.reused) < min_reuse * len(wanted):
                return None
            n = len(loaded.keys)
            self._reset()
            self._terms = loaded.terms
            self._vocab = {t: i for i, t in enumerate(loaded.terms)}
            self._facts = reuse.kept
            self._objects = {id(f) for f in reuse.kept if f is not None}
            self._digest = reuse.digests
            self._ord = {doc_key(f): o for o, f in enumerate(reuse.kept) if f is not None}
            self._set_columns(reuse.kept, loaded.dl, reuse.alive, loaded.subject)
            self._b_off, self._b_docs, self._b_tf = loaded.offsets, loaded.docs, loaded.tfs
            self._base_limit = n
            self._n_alive = len(reuse.reused)
            self._total_len = int(loaded.dl[reuse.alive].sum(dtype=np.int64))
            self._dead = n - len(reuse.reused)
            self.saved_generation = self.generation  # the file matches what we hold now
            added = 0
            for key, f in wanted.items():
                if key not in reuse.reused:
                    self._add(f)
                    added += 1
            self.generation += added + self._dead
            self.maybe_compact()
            self._synced(facts)
            return SyncStats(
                added=added, removed=self._dead, unchanged=len(reuse.reused), from_cache=True
            )


def bm25(tf16: np.ndarray, dl: np.ndarray, df: int, n: int, avgdl: float) -> np.ndarray:
    """BM25 contribution of one term for each posting (k1 1.2, b 0.75, positive idf)."""
    idf = math.log(1.0 + (n - df + 0.5) / (df + 0.5))
    len_norm = K1 * B / avgdl if avgdl > 0 else 0.0
    tf = tf16.astype(np.float64)
    return (idf * (K1 + 1.0)) * tf / (tf + (K1 * (1.0 - B) + len_norm * dl))
