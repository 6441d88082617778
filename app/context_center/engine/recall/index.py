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
3x in the title, 2x in the description and 1x in the body (``fact_terms``), and a fact's
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

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from context_center.engine import memtrim
from context_center.engine.kinds import Scope
from context_center.engine.recall import cache, secretmatch
from context_center.engine.recall.lazyfact import LazyFact, PackedFacts, StaleIndex
from context_center.engine.recall.ordinals import (
    UNMADE_FACT,
    content_digest,
    index_text,
    time_us,
)
from context_center.engine.recall.policy import K1, B
from context_center.engine.recall.postings import (
    CHUNK,
    SCOPE_CODES,
    TYPE_CODES,
    DocKey,
    PostingsStore,
    doc_key,
    time_ms,
)
from context_center.engine.recall.stem import stem
from context_center.engine.recall.termtable import TermTable, pack_strings
from context_center.engine.recall.tokenize import tokens

if TYPE_CHECKING:
    from context_center.engine.model import Fact

__all__ = [
    "CHUNK",
    "SCOPE_CODES",
    "TYPE_CODES",
    "DocKey",
    "LazyFact",
    "RecallIndex",
    "StaleIndex",
    "content_digest",
    "doc_key",
    "index_text",
    "time_ms",
]

CACHE_MAGIC = cache.CACHE_MAGIC
# Masks of matched query terms are kept for the first 64 terms of a query.
MASK_TERMS = 64
# BM25F field weights (see the module docstring).
NAME_WEIGHT, TITLE_WEIGHT, DESCRIPTION_WEIGHT = 2, 3, 2


def fact_terms(fact: Fact) -> tuple[dict[str, int], str]:
    """(weighted frequency of every stemmed term of a fact, the terms of its head fields --
    name, title, description -- joined by spaces, as ``matching.head_terms`` finds them).

    The frequencies are those of the fact's text with the head fields repeated by their
    weight (name x2, title x3, description x2, body x1): a line break ends every term, so the
    terms of the joined fields are the terms of each field, and each field is tokenised once.
    """
    out: dict[str, int] = {}
    head: dict[str, None] = {}
    get = out.get
    for text, weight in (
        (fact.name, NAME_WEIGHT),
        (fact.title, TITLE_WEIGHT),
        (fact.description, DESCRIPTION_WEIGHT),
    ):
        for term in tokens(text):
            s = stem(term)
            out[s] = get(s, 0) + weight
            head[s] = None
    for term, n in Counter(tokens(fact.body)).items():
        s = stem(term)
        out[s] = get(s, 0) + n
    return out, " ".join(head)


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

    def _count_terms(self, fact: Fact) -> tuple[dict[str, int], str]:
        return fact_terms(fact)

    # -- incremental updates ---------------------------------------------------------------

    def _text_unchanged(self, o: int, old: object, fact: Fact) -> bool:
        if old is UNMADE_FACT or (isinstance(old, LazyFact) and not old.loaded):
            return self.digest_of(o) == content_digest(fact)  # never reads the old file
        return _same_text(cast("Fact", old), fact)

    def upsert(self, fact: Fact) -> str:
        """Add or replace one fact. Returns "added", "changed", "metadata" or "unchanged"."""
        with self._lock:
            o = self.ordinal_of(doc_key(fact))
            if o is not None:
                old = self._facts[o]
                if old is fact:
                    return "unchanged"
                if self._text_unchanged(o, old, fact):
                    same = self.same_metadata(o, fact)
                    self._set_metadata(o, fact)
                    if same:
                        return "unchanged"
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
                o = self.ordinal_of((s, fact_id))
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
        body (for a fact not read from its file yet: the same digest of them); revision,
        updated_at or type changes alone only update metadata. Passing the very same tuple as
        the previous call returns at once. Ids are unique per scope.
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
                ords = self._ords()
                for key in [k for k in ords if k not in keep]:
                    self._kill(ords[key])
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

    def withheld_of(self, o: int) -> secretmatch.Spans:
        """The spans of row ``o``'s text the sanitizer withholds: kept since the row was
        added (or in the cache), else found now and kept."""
        with self._lock:
            w = self.known_withheld(o)
            if w is None:
                w = secretmatch.spans_of(self.fact(o), self.digest_of(o))
                self._withheld[o] = w
            return w

    def fill_withheld(self) -> int:
        """Find the withheld spans of every live row that does not know them (reading the
        files of cached rows); the number found. A row whose file changed since it was
        indexed is left as it is (a turn that needs it finds that out)."""
        found = 0
        with self._lock:
            alive = self.c["alive"].view()
            for o in np.flatnonzero(alive).tolist():
                if self.known_withheld(o) is not None:
                    continue
                try:
                    self.withheld_of(o)
                except StaleIndex:
                    continue
                found += 1
        return found

    # -- cache -------------------------------------------------------------------------------

    def dirty(self) -> bool:
        return self.generation != self.saved_generation

    def holds_cache(self) -> bool:
        """Whether anything this index holds was read from a cache file (rows, postings or
        terms): what ``discard`` drops when a turn finds it damaged."""
        return self._packed is not None or self._check_base or self._vocab.packed

    def discard(self) -> None:
        """Forget everything (the next ``sync`` builds afresh; the generation moves on)."""
        with self._lock:
            self._reset()

    def _row_strings(self) -> dict[str, list[str]]:
        """Per live row (after compaction: every row) its id, name, title, description, file
        stem and head terms; rows still described by the cache are copied from it unread."""
        p = self._packed
        packed = {k: getattr(p, k).all() for k in cache.STRING_FIELDS} if p is not None else {}
        src = self.c["src"].view().tolist()
        out: dict[str, list[str]] = {k: [] for k in cache.STRING_FIELDS}
        out["heads"] = heads = []
        for o, f in enumerate(self._facts):
            heads.append(self.head_string(o))
            if f is UNMADE_FACT or isinstance(f, LazyFact):
                row = src[o]
                for k in cache.STRING_FIELDS:
                    out[k].append(packed[k][row])
                continue
            fact = cast("Fact", f)
            out["ids"].append(fact.id)
            out["names"].append(fact.name)
            out["titles"].append(fact.title)
            out["descriptions"].append(fact.description)
            out["stems"].append(self._stems[o] or fact.name)
        return out

    def _digests(self, n: int) -> np.ndarray:
        """Every row's text digest, (n, 16): rows still described by the cache copy theirs."""
        out = np.empty((n, 16), dtype=np.uint8)
        src = self.c["src"].view()
        cached = np.flatnonzero(src >= 0)
        if len(cached):
            assert self._packed is not None
            out[cached] = self._packed.digest[src[cached]]
        for o in np.flatnonzero(src < 0).tolist():
            out[o] = np.frombuffer(self.digest_of(o), dtype=np.uint8)
        return out

    def save(self, path: Path, meta: dict[str, Any] | None = None) -> None:
        """Write the derived cache atomically (compacts first); ``meta`` goes in its header."""
        from context_center.engine.store import atomic
        from context_center.engine.store.cachedirs import private_levels
        from context_center.engine.store.private import FILE_MODE

        with self._lock:
            self.compact()
            n = self.size
            arrays: dict[str, np.ndarray] = {}
            blob, off = pack_strings(self._vocab.terms())
            arrays.update(cache.string_sections("vocab", blob, off))
            arrays["vocab_order"] = self._vocab.sorted_ids()
            arrays["offsets"], arrays["docs"], arrays["tfs"] = self._b_off, self._b_docs, self._b_tf
            for name in cache.CACHED_COLUMNS:
                arrays[name] = self.c[name].view()
            arrays["digest"] = self._digests(n)
            sig = secretmatch.signature()
            if sig is not None:
                arrays.update(secretmatch.Kept.arrays(self.kept_items(), sig))
            for name, items in self._row_strings().items():
                blob, off = pack_strings(items)
                arrays.update(cache.string_sections(name, blob, off))
            # written section by section: a cache of tens of megabytes is never one buffer
            private_levels(path.parent)  # derived from private facts: 0700 / 0600
            try:
                atomic.write_bytes(path, cache.parts(arrays, meta), mode=FILE_MODE)
            finally:
                del arrays
                memtrim.release()  # the packed strings, tens of megabytes at 50k facts
            self.saved_generation = self.generation

    def _adopt_cache(self, data: cache.CacheData, roots: dict[str, Path]) -> None:
        cols = data.cols
        packed = PackedFacts(
            roots,
            data.strings,
            data.digest,
            (cols["fsize"], cols["fmtime"], cols["fino"]),
            data.kept,
            data.heads,
        )
        self._reset()
        self.adopt(packed, cols)
        self._vocab = TermTable(packed=data.vocab, order=data.vocab_order)
        self._b_off, self._b_docs, self._b_tf = data.offsets, data.docs, data.tfs
        self._check_base = True
        self._base_limit = data.n
        self._total_len = int(cols["dl"].sum(dtype=np.int64))

    def open(self, path: Path, roots: dict[str, Path]) -> dict[str, Any] | None:
        """Adopt the cache at ``path`` as it is, without any Fact: rows become LazyFacts on
        demand, read from the store folders ``roots`` (scope value -> folder). Returns the
        cache's meta, or None (index untouched) when there is no usable cache."""
        with self._lock:
            try:
                data = cache.read(path)
            except cache.UNREADABLE:
                return None
            if data is None:
                return None
            self._adopt_cache(data, roots)
            self.saved_generation = self.generation
            return data.meta

    def load(
        self, path: Path, facts: Sequence[Fact], *, min_reuse: float = 0.5
    ) -> SyncStats | None:
        """Adopt the cache at ``path`` for ``facts``; None if it is absent, invalid or mostly
        stale (less than ``min_reuse`` of the facts reusable), leaving the index untouched.

        Every fact re-indexed or dropped here counts as one change, so a cache that many
        other-process writes made stale is saved again soon (``Recaller`` saves after enough
        changes) instead of being re-tokenised by every later process."""
        with self._lock:
            wanted: dict[DocKey, Fact] = {}
            for f in facts:
                wanted[doc_key(f)] = f
            try:
                loaded = cache.read(path)
                if loaded is None:
                    return None
                reuse = cache.match(loaded, wanted, lambda f: time_us(f.updated_at), content_digest)
            except cache.UNREADABLE:  # its ids or keys cannot be read: as good as absent
                return None
            if len(reuse.reused) < min_reuse * len(wanted):
                return None
            self._adopt_cache(loaded, {})
            src = self.c["src"].data
            # a reused row keeps the cache row of its text (``RowText._detach``; here row o
            # is cache row o and nothing is known yet); a text without spans, known so at once
            withheld, heads = self._withheld, self._heads
            spans = loaded.kept
            none = (
                spans.known.tolist()
                if spans is not None and spans.sig == secretmatch.signature()
                else [0] * len(reuse.kept)
            )
            for o, kept in enumerate(reuse.kept):
                if kept is None:
                    self._kill(o)
                    continue
                fact = cast("Fact", kept)
                stem = self._packed.stems[o] if self._packed is not None else fact.name
                self._facts[o] = fact
                self._objects.add(id(fact))
                self._digest[o] = loaded.digest[o].tobytes()
                withheld[o] = () if none[o] == 1 else o
                heads[o] = o
                self._stems[o] = stem if stem != fact.name else None
                src[o] = -1
            self._ordmap = None
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
