"""Auto-recall for one workspace: policy over index scores, the block, the trace, the cache.

``Recaller(layout).recall(message, facts, conflicts)`` is called before each real user turn;
``Recaller.search`` is the read-only memory tool's search (same ranking, no distinctive-match
gate, no relative cut, no budget, no stable-guidance suppression).
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import numpy as np
from pydantic import BaseModel, ConfigDict

from context_center.engine.model import (
    FRESHNESS_DAYS,
    Conflict,
    Fact,
    FactType,
    Freshness,
    Scope,
    utc_now,
)
from context_center.engine.recall import block as blk
from context_center.engine.recall.index import SCOPE_CODES, TYPE_CODES, RecallIndex, SyncStats
from context_center.engine.recall.policy import (
    DEFAULT_MAX_CHARS,
    DEFAULT_MAX_FACTS,
    PROJECT_BOOST,
    RELATIVE_CUT,
    STALE_FACTOR,
    Reason,
    clamp_max_chars,
    clamp_max_facts,
    is_generic_turn,
    reason_text,
    single_term_strong,
)
from context_center.engine.recall.tokenize import query_terms, searchable
from context_center.engine.recall.trace import (
    RecallTrace,
    SelectedFact,
    Suppression,
    load_trace,
    save_trace,
)
from context_center.engine.store.paths import Layout

CACHE_FILE = "recall-index.cache"
# Per-fact suppressions listed in a trace (the rest are counted in ``suppressed_more``).
LIST_CAP = 10
# Save the cache once this many changes (or this share of the facts) are not yet saved.
SAVE_AFTER_CHANGES = 64
SAVE_AFTER_SHARE = 0.01

_GLOBAL = SCOPE_CODES[Scope.GLOBAL]
_PROJECT = SCOPE_CODES[Scope.PROJECT]
_GUIDANCE_TYPES = (TYPE_CODES[FactType.USER], TYPE_CODES[FactType.FEEDBACK])
# Seconds after which a fact of each type code is stale.
_STALE_AFTER = np.zeros(len(TYPE_CODES), dtype=np.float64)
for _t, _code in TYPE_CODES.items():
    _STALE_AFTER[_code] = FRESHNESS_DAYS[_t][1] * 86400.0


@dataclass(frozen=True, slots=True)
class RecallResult:
    """The block to append to the user turn ("" when nothing is recalled) and its trace."""

    block: str
    trace: RecallTrace


class Hit(BaseModel):
    """One result of the memory tool's search."""

    model_config = ConfigDict(frozen=True)

    fact: Fact
    score: float
    matched: tuple[str, ...]
    freshness: Freshness
    snippet: str

    def public_dict(self) -> dict[str, object]:
        """The CLI/JSON form: the fact's public fields without the body, plus the match."""
        d = self.fact.public_dict()
        d.pop("body", None)
        d["freshness"] = self.freshness.value
        d["score"] = self.score
        d["matched"] = list(self.matched)
        d["snippet"] = self.snippet
        return d


@dataclass(slots=True)
class _Ranked:
    ordinal: int
    fact: Fact
    score: float


class Recaller:
    """Recall and search over one workspace's facts (both stores), kept indexed in memory.

    ``layout`` decides where the trace (its ``state_dir``) and the index cache (its
    ``cache_dir``, outside the home) live; with
    ``layout=None`` nothing is written. Facts passed to ``recall``/``search`` are synced into
    the index first (only changed facts are re-tokenised; the same tuple as last time costs
    nothing); pass ``facts=None`` to use what was synced before.
    """

    def __init__(
        self,
        layout: Layout | None = None,
        *,
        use_cache: bool = True,
        persist_trace: bool = True,
        index: RecallIndex | None = None,
    ) -> None:
        self.layout = layout
        self.use_cache = use_cache and layout is not None
        self.persist_trace = persist_trace and layout is not None
        self.index = index if index is not None else RecallIndex()
        self.last_sync: SyncStats | None = None
        self.last_persist_error: OSError | None = None
        self._cache_tried = False
        self._lock = threading.RLock()

    # -- index maintenance -----------------------------------------------------------------

    @property
    def cache_path(self) -> Path | None:
        return self.layout.cache_dir / CACHE_FILE if self.layout is not None else None

    def sync(self, facts: Sequence[Fact]) -> SyncStats:
        """Make the index hold exactly ``facts`` (active facts of both stores)."""
        with self._lock:
            path = self.cache_path
            if self.use_cache and not self._cache_tried and self.index.size == 0 and path:
                self._cache_tried = True
                stats = self.index.load(path, facts)
                if stats is not None:
                    self.last_sync = stats
                    self._maybe_save()
                    return stats
            self._cache_tried = True
            stats = self.index.sync(facts)
            self.last_sync = stats
            if stats.rebuilt and len(self.index):
                self.save_cache()
            else:
                self._maybe_save()
            return stats

    def upsert(self, fact: Fact) -> str:
        """A fact was saved, updated or recovered: index it now (no rebuild)."""
        with self._lock:
            change = self.index.upsert(fact)
            self.index.maybe_compact()
            self._maybe_save()
            return change

    def remove(self, fact_id: str, scope: Scope | str | None = None) -> bool:
        """A fact was forgotten (archived): drop it from the index now (no rebuild)."""
        with self._lock:
            found = self.index.remove(fact_id, scope)
            self.index.maybe_compact()
            self._maybe_save()
            return found

    def save_cache(self) -> bool:
        """Write the on-disk cache now if anything changed since the last save."""
        with self._lock:
            path = self.cache_path
            if path is None or not self.use_cache or not self.index.dirty():
                return False
            try:
                self.index.save(path)
            except OSError:
                return False  # derived data: the next process rebuilds it
            return True

    def _maybe_save(self) -> None:
        idx = self.index
        if not self.use_cache or not idx.dirty():
            return
        pending = idx.generation - max(idx.saved_generation, 0)
        if idx.saved_generation < 0 or pending >= max(
            SAVE_AFTER_CHANGES, SAVE_AFTER_SHARE * len(idx)
        ):
            self.save_cache()

    # -- recall ----------------------------------------------------------------------------

    def recall(
        self,
        message: str,
        facts: Sequence[Fact] | None = None,
        conflicts: Sequence[Conflict] = (),
        *,
        max_facts: int | None = DEFAULT_MAX_FACTS,
        max_chars: int | None = DEFAULT_MAX_CHARS,
        now: datetime | None = None,
        persist: bool | None = None,
    ) -> RecallResult:
        """Decide what to recall for one user turn; persist the trace (unless told not to).

        ``max_facts`` above 8 counts as 8 and ``max_chars`` under 480 as 480; None is the
        default; 0 or less raises InvalidRequest (never silently the default).
        """
        started = time.perf_counter()
        now = now or utc_now()
        limit = clamp_max_facts(max_facts)
        budget = clamp_max_chars(max_chars)
        with self._lock:
            if facts is not None:
                self.sync(facts)
            result = self._recall(message, conflicts, limit, budget, now, started)
        if persist if persist is not None else self.persist_trace:
            self._persist(result.trace)
        return result

    def _persist(self, trace: RecallTrace) -> None:
        if self.layout is None:
            return
        try:
            save_trace(self.layout, trace)
            self.last_persist_error = None
        except OSError as exc:  # the turn goes on; the window shows the previous trace
            self.last_persist_error = exc

    def last_trace(self) -> RecallTrace | None:
        return load_trace(self.layout) if self.layout is not None else None

    def _recall(
        self,
        message: str,
        conflicts: Sequence[Conflict],
        limit: int,
        budget: int,
        now: datetime,
        started: float,
    ) -> RecallResult:
        def finish(
            terms: Sequence[str],
            *,
            whole: Reason | None = None,
            suppressed: Sequence[Suppression] = (),
            more: int = 0,
            candidates: int = 0,
            packed: blk.Packed | None = None,
            matched: dict[int, list[str]] | None = None,
        ) -> RecallResult:
            selected: list[SelectedFact] = []
            block = ""
            omitted = 0
            if packed is not None:
                block = packed.block
                omitted = packed.omitted
                for entry, shortened in packed.placed:
                    f = entry.fact
                    selected.append(
                        SelectedFact(
                            id=f.id,
                            revision=f.revision,
                            ref=f.ref,
                            scope=f.scope,
                            type=f.type,
                            title=f.display_title,
                            score=round(entry.score, 4),
                            matched=tuple((matched or {}).get(id(f), [])),
                            reason=entry.reason,
                            freshness=entry.freshness,
                            shortened=shortened,
                        )
                    )
            sup = list(suppressed)
            if not selected and whole is None:
                over = [s for s in sup if s.reason is Reason.OVER_BUDGET]
                whole = (
                    Reason.OVER_BUDGET
                    if over
                    else (sup[0].reason if sup else Reason.NO_DISTINCTIVE_MATCH)
                )
            if whole is not None:
                sup.insert(0, Suppression(reason=whole, message=whole.text))
            trace = RecallTrace(
                at=now,
                query=message,
                terms=tuple(terms),
                selected=tuple(selected),
                suppressed=tuple(sup),
                suppressed_more=more,
                candidates=candidates,
                omitted=omitted,
                chars_used=len(block),
                char_budget=budget,
                max_facts=limit,
                elapsed_ms=round((time.perf_counter() - started) * 1000, 3),
                block=block,
            )
            return RecallResult(block, trace)

        if is_generic_turn(message):
            return finish((), whole=Reason.GENERIC_TURN)
        terms = searchable(query_terms(message))
        texts = [t.text for t in terms]
        if not terms:
            return finish(texts, whole=Reason.NO_SEARCHABLE_TERMS)
        idx = self.index
        if len(idx) == 0:
            return finish(texts, whole=Reason.STORE_EMPTY)

        sc = idx.score(texts, single_term_strong(terms))
        count = sc.count
        one = count == 1
        cand = np.flatnonzero((count >= 2) | (one & sc.single_ok))
        _, scope, type_, upd = idx.columns()
        # Facts that matched, but only on one weak term: listed last (they never compete).
        loose = np.flatnonzero(one & ~sc.single_ok)
        not_distinct: list[Suppression] = []
        more = 0
        if len(loose):
            l_raw = sc.scores[loose]
            top = loose[_may_rank_in_top(l_raw, LIST_CAP)]
            l_s = _adjusted(sc.scores[top], scope[top], type_[top], upd[top], now)
            listed = self._ranked(top, l_s, LIST_CAP)
            more += len(loose) - len(listed)
            for r in listed:
                word = ", ".join(sc.matched(r.ordinal))
                not_distinct.append(
                    self._suppression(
                        Reason.NO_DISTINCTIVE_MATCH,
                        r,
                        f"matched only {word}: one term alone must be identifier-like "
                        "(or long, in a message of at most two terms)",
                    )
                )
        if len(cand) == 0:
            return finish(
                texts, whole=Reason.NO_DISTINCTIVE_MATCH, suppressed=not_distinct, more=more
            )
        s = _adjusted(sc.scores[cand], scope[cand], type_[cand], upd[cand], now)

        c_scope, c_type = scope[cand], type_[cand]
        guidance = (c_scope == _GLOBAL) & (
            (c_type == _GUIDANCE_TYPES[0]) | (c_type == _GUIDANCE_TYPES[1])
        )
        override_ords = [
            o for c in conflicts if (o := idx.ordinal(Scope.GLOBAL, c.global_id)) is not None
        ]
        override = (
            np.isin(cand, np.array(override_ords, dtype=np.int64))
            if override_ords
            else np.zeros(len(cand), dtype=np.bool_)
        ) & (c_scope == _GLOBAL)
        blocked = guidance | override

        # Every candidate is accounted for by the first rule that removes it: policy (project
        # override, then stable guidance), the relative cut, the fact limit, the budget.
        suppressed: list[Suppression] = []
        if blocked.any():
            for reason, mask in (
                (Reason.PROJECT_OVERRIDE, override),
                (Reason.STABLE_GUIDANCE, guidance & ~override),
            ):
                listed = self._ranked(cand[mask], s[mask], LIST_CAP)
                more += int(mask.sum()) - len(listed)
                suppressed.extend(self._suppression(reason, r) for r in listed)

        elig = ~blocked
        if not elig.any():
            return finish(
                texts, suppressed=suppressed + not_distinct, more=more, candidates=len(cand)
            )
        e_ord, e_s = cand[elig], s[elig]
        keep = e_s >= RELATIVE_CUT * float(e_s.max())
        if not keep.all():
            cut = ~keep
            listed = self._ranked(e_ord[cut], e_s[cut], LIST_CAP)
            more += int(cut.sum()) - len(listed)
            suppressed.extend(self._suppression(Reason.WEAK_MATCH, r) for r in listed)
        k_ord, k_s = e_ord[keep], e_s[keep]
        ranked = self._ranked(k_ord, k_s, limit + LIST_CAP)
        chosen, over_limit = ranked[:limit], ranked[limit:]
        over_count = len(k_ord) - len(chosen)
        over = [self._suppression(Reason.OVER_BUDGET, r) for r in over_limit]
        more += over_count - len(over_limit)

        matched: dict[int, list[str]] = {}
        entries: list[blk.Entry] = []
        for r in chosen:
            words = sc.matched(r.ordinal)
            matched[id(r.fact)] = words
            entries.append(
                blk.Entry(
                    fact=r.fact,
                    score=r.score,
                    reason=reason_text(words, r.fact.scope.value),
                    freshness=r.fact.freshness(now),
                    text=blk.snippet(r.fact, words),
                )
            )
        packed = blk.pack(entries, budget, over_count)
        # Entries that did not fit rank above those over the fact limit; one list of at most
        # LIST_CAP for the kind.
        dropped = [
            Suppression(
                reason=Reason.OVER_BUDGET,
                message="did not fit in the character budget even when shortened",
                id=entry.fact.id,
                revision=entry.fact.revision,
                ref=entry.fact.ref,
                score=round(entry.score, 4),
            )
            for entry in packed.dropped
        ]
        over = dropped + over
        more += max(0, len(over) - LIST_CAP)
        suppressed.extend(over[:LIST_CAP])
        return finish(
            texts,
            suppressed=suppressed + not_distinct,
            more=more,
            candidates=len(cand),
            packed=packed,
            matched=matched,
        )

    @staticmethod
    def _suppression(reason: Reason, r: _Ranked, message: str | None = None) -> Suppression:
        return Suppression(
            reason=reason,
            message=message or reason.text,
            id=r.fact.id,
            revision=r.fact.revision,
            ref=r.fact.ref,
            score=round(r.score, 4),
        )

    def _ranked(self, ords: np.ndarray, scores: np.ndarray, k: int) -> list[_Ranked]:
        """The best ``k`` by score, then newer updated_at, then id (ties at the edge kept)."""
        if len(ords) == 0 or k <= 0:
            return []
        if len(ords) > k:
            kth = _kth_largest(scores, k)
            pick = scores >= kth
            ords, scores = ords[pick], scores[pick]
        items = [
            _Ranked(o, self.index.fact(o), float(v))
            for o, v in zip(ords.tolist(), scores.tolist(), strict=True)
        ]
        items.sort(key=_order_key)
        return items[:k]

    # -- search ----------------------------------------------------------------------------

    def search(
        self,
        query: str,
        facts: Sequence[Fact] | None = None,
        *,
        scope: Scope | str | None = None,
        type: FactType | str | None = None,
        limit: int = 20,
        now: datetime | None = None,
    ) -> list[Hit]:
        """The memory tool's search: every fact matching a searchable term, best first."""
        now = now or utc_now()
        with self._lock:
            if facts is not None:
                self.sync(facts)
            terms = searchable(query_terms(query))
            if not terms or len(self.index) == 0 or limit <= 0:
                return []
            texts = [t.text for t in terms]
            sc = self.index.score(texts)
            _, scope_col, type_col, upd = self.index.columns()
            ok = sc.count > 0
            if scope is not None:
                ok &= scope_col == SCOPE_CODES[Scope(scope)]
            if type is not None:
                ok &= type_col == TYPE_CODES[FactType(type)]
            cand = np.flatnonzero(ok)
            s = _adjusted(sc.scores[cand], scope_col[cand], type_col[cand], upd[cand], now)
            hits = []
            for r in self._ranked(cand, s, limit):
                words = sc.matched(r.ordinal)
                hits.append(
                    Hit(
                        fact=r.fact,
                        score=round(r.score, 4),
                        matched=tuple(words),
                        freshness=r.fact.freshness(now),
                        snippet=blk.snippet(r.fact, words),
                    )
                )
            return hits


def _adjusted(
    raw: np.ndarray, scope: np.ndarray, type_: np.ndarray, upd: np.ndarray, now: datetime
) -> np.ndarray:
    """Project facts x1.08, stale facts x0.92 (a missing or future time is never stale)."""
    s = raw * np.where(scope == _PROJECT, PROJECT_BOOST, 1.0)
    with np.errstate(invalid="ignore"):
        stale = (now.timestamp() - upd) > _STALE_AFTER[type_]
    return s * np.where(stale, STALE_FACTOR, 1.0)


# Adjusted score / raw score lies within these bounds (see _adjusted).
_MIN_FACTOR = STALE_FACTOR
_MAX_FACTOR = PROJECT_BOOST


def _may_rank_in_top(raw: np.ndarray, k: int) -> np.ndarray:
    """Positions of the raw scores that can still be among the best ``k`` once adjusted.

    An adjusted score is the raw one times a factor in [0.92, 1.08], so a fact whose raw
    score is below the k-th best raw score x 0.92/1.08 can never reach the top k. This keeps
    the per-turn work on a few dozen facts when tens of thousands matched loosely.
    """
    if len(raw) <= k:
        return np.arange(len(raw))
    floor = _kth_largest(raw, k) * (_MIN_FACTOR / _MAX_FACTOR) * (1.0 - 1e-9)
    return np.flatnonzero(raw >= floor)


_SAMPLE_FROM = 4096
_SAMPLE_STRIDE = 16


def _kth_largest(a: np.ndarray, k: int) -> float:
    """The k-th largest value of ``a`` (1 <= k <= len(a)), exactly.

    A full partition of tens of thousands of scores costs a few hundred microseconds. A
    large array is first narrowed to the values at or above the k-th largest of every 16th
    value: at least k values of ``a`` are that large, so the k-th largest of ``a`` is among
    them, and there are usually only a few times k of them.
    """
    n = len(a)
    if n >= _SAMPLE_FROM and k * _SAMPLE_STRIDE * 4 <= n:
        sample = a[::_SAMPLE_STRIDE]
        m = len(sample)
        a = a[a >= np.partition(sample, m - k)[m - k]]
        n = len(a)
    return float(np.partition(a, n - k)[n - k])


def _order_key(r: _Ranked) -> tuple[float, float, str]:
    upd = r.fact.updated_at
    return (-r.score, -(upd.timestamp() if upd is not None else -math.inf), r.fact.id)


def search(
    query: str,
    facts: Sequence[Fact],
    scope: Scope | str | None = None,
    type: FactType | str | None = None,
    limit: int = 20,
    *,
    now: datetime | None = None,
) -> list[Hit]:
    """One-off search over ``facts`` with a throwaway index (nothing written)."""
    return Recaller(None).search(query, facts, scope=scope, type=type, limit=limit, now=now)
