"""Auto-recall for one workspace: the index kept in sync, its cache, the trace, and search.

``Recaller(layout).recall(message, facts, conflicts)`` is called before each real user turn
and runs the stages of ``pipeline.py``; ``Recaller.search`` is the read-only memory tool's
search (same terms, vocabulary and ranking -- a match through a translation is marked
"X via Y" -- but no distinctive-match gate, no relative cut, no budget, no suppressions). ``Recaller.subject_groups`` lists facts on the same subject (current over
superseded) for the window.

What a turn needs from the whole store -- which global facts a project twin overrides, the
same-subject groups, which facts are broad -- is computed once per index state (every change
bumps ``RecallIndex.generation``), never per turn.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from context_center.engine.gate.visible import (
    Visibility,
    os_home_key,
    visibility,
    visible_scope,
)
from context_center.engine.kinds import FactType, Scope, utc_now
from context_center.engine.recall import block as blk
from context_center.engine.recall import pipeline, scoring
from context_center.engine.recall.current import CurrentRecall, DiskState, StoreSource
from context_center.engine.recall.filters import ranked
from context_center.engine.recall.index import (
    SCOPE_CODES,
    TYPE_CODES,
    RecallIndex,
    SyncStats,
)
from context_center.engine.recall.lazyfact import CACHE_DAMAGE
from context_center.engine.recall.ordinals import real_fact
from context_center.engine.recall.pipeline import RecallResult, Turn
from context_center.engine.recall.policy import (
    DEFAULT_MAX_CHARS,
    DEFAULT_MAX_FACTS,
    clamp_max_chars,
    clamp_max_facts,
)
from context_center.engine.recall.secretmatch import secret_only
from context_center.engine.recall.subjects import SubjectGroup, SubjectMap, subject_map
from context_center.engine.recall.terms import plan
from context_center.engine.recall.trace import RecallTrace, load_trace, save_trace
from context_center.engine.store.paths import Layout

if TYPE_CHECKING:
    from context_center.engine.model import Conflict, Fact
    from context_center.engine.recall.hits import Hit

__all__ = ["CACHE_FILE", "RecallResult", "Recaller", "search"]

_T = TypeVar("_T")

SECRET_SLACK = 8  # extra hits read so that dropping secret-only matches still fills the page

CACHE_FILE = "recall-index.cache"
# Save the cache once this many changes (or this share of the facts) are not yet saved.
SAVE_AFTER_CHANGES = 64
SAVE_AFTER_SHARE = 0.01
_GLOBAL = Scope.GLOBAL.value


class _PerState:
    """Values derived from the whole index, valid for one ``generation``."""

    def __init__(self) -> None:
        self.generation = -1
        self.subjects: SubjectMap | None = None
        self.conflicts: object = None
        self.overridden = np.zeros(0, dtype=np.int64)

    def reset_if(self, generation: int) -> None:
        if generation != self.generation:
            self.__init__()  # type: ignore[misc]
            self.generation = generation


class Recaller(CurrentRecall):
    """Recall and search over one workspace's facts (both stores), kept indexed in memory.

    ``layout`` decides where the trace (its ``state_dir``) and the index cache (its
    ``cache_dir``, outside the home) live; with ``layout=None`` nothing is written. Facts passed to ``recall``/``search`` are synced into
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
        self._store_paths: tuple[Path, Path, Path] | None = None  # visibility's, once
        self._visibility: tuple[Layout, tuple[str | None, ...], Visibility] | None = None
        self.use_cache = use_cache and layout is not None
        self.persist_trace = persist_trace and layout is not None
        self.index = index if index is not None else RecallIndex()
        self.last_sync: SyncStats | None = None
        self.last_persist_error: OSError | None = None
        self._cache_tried = False
        self._lock = threading.RLock()
        self._state = _PerState()
        self._last_subjects: SubjectMap | None = None  # updated, not rebuilt, after a write
        # the store state the index is known to describe (None: unknown, e.g. facts passed
        # in by a caller), and the one the cache file on disk says it describes
        self._disk: DiskState | None = None
        self._saved_disk: DiskState | None = None
        # where the last recall_current found its facts: "index" (already in memory and
        # current), "cache" (the cache file, current) or "stores" (loaded)
        self.last_source = ""
        self._unsaved_files = 0

    # -- index maintenance -----------------------------------------------------------------

    @property
    def cache_path(self) -> Path | None:
        return self.layout.cache_dir / CACHE_FILE if self.layout is not None else None

    def sync(self, facts: Sequence[Fact], *, save: bool = True) -> SyncStats:
        """Make the index hold exactly ``facts`` (active facts of both stores); ``save``:
        write the cache when enough changed (the caller saves otherwise)."""
        with self._lock:
            if facts is not self.index._last_synced:
                self._disk = None  # what the caller passed, not necessarily the disk now
            # the cache file's path costs a realpath and a hash: only when it is read
            if (
                self.use_cache
                and not self._cache_tried
                and self.index.size == 0
                and (path := self.cache_path)
            ):
                self._cache_tried = True
                stats = self.index.load(path, facts)
                if stats is not None:
                    self.last_sync = stats
                    if save:
                        self._maybe_save()
                    return stats
            self._cache_tried = True
            stats = self.index.sync(facts)
            self.last_sync = stats
            if not save:
                return stats
            if stats.rebuilt and len(self.index):
                self.save_cache()
            else:
                self._maybe_save()
            return stats

    def upsert(self, fact: Fact) -> str:
        """A fact was saved, updated or recovered: index it now (no rebuild)."""
        with self._lock:
            self._disk = None
            change = self.index.upsert(fact)
            self.index.maybe_compact()
            self._maybe_save()
            return change

    def remove(self, fact_id: str, scope: Scope | str | None = None) -> bool:
        """A fact was forgotten (archived): drop it from the index now (no rebuild)."""
        with self._lock:
            self._disk = None
            found = self.index.remove(fact_id, scope)
            self.index.maybe_compact()
            self._maybe_save()
            return found

    def save_cache(self) -> bool:
        """Write the on-disk cache now if anything changed since the last save."""
        with self._lock:
            if not self.use_cache or not self.index.dirty():
                return False
            path = self.cache_path
            if path is None:
                return False
            return self._save(path, self._disk)

    def _save(self, path: Path, disk: DiskState | None) -> bool:
        try:
            self.index.save(path, disk.to_meta() if disk is not None else None)
        except OSError:
            return False  # derived data: the next process rebuilds it
        self._saved_disk = disk
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

    # -- per index state -------------------------------------------------------------------

    def _overridden(self, conflicts: Sequence[Conflict]) -> np.ndarray:
        """Ordinals of the global facts that project twins override; once per conflicts list
        and index state (a dict lookup per conflict, no enum built per turn)."""
        st = self._state
        st.reset_if(self.index.generation)
        if conflicts is not st.conflicts:
            seen = {
                o
                for c in conflicts
                if (o := self.index.ordinal_of((_GLOBAL, c.global_id))) is not None
            }
            st.overridden = np.array(sorted(seen), dtype=np.int64)
            st.conflicts = conflicts
        return st.overridden

    def _subjects(self) -> SubjectMap:
        st = self._state
        st.reset_if(self.index.generation)
        if st.subjects is None:
            # the last state's map, updated for the rows changed since (few, after a write)
            st.subjects = self._last_subjects = subject_map(self.index, self._last_subjects)
        return st.subjects

    def subject_groups(self, facts: Sequence[Fact] | None = None) -> list[SubjectGroup]:
        """Facts on the same subject: each group's current fact and the older ones."""
        with self._lock:
            if facts is not None:
                self.sync(facts)
            return [
                SubjectGroup(real_fact(g.current), tuple(real_fact(f) for f in g.older), g.how)
                for g in self._subjects().groups()
            ]

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
        with self._lock, visible_scope(self.visibility()):

            def turn() -> RecallResult:
                if facts is not None:
                    self.sync(facts)
                return self._turn(message, self._overridden(conflicts), now, limit, budget, started)

            result = self._undamaged(facts, turn)
        if persist if persist is not None else self.persist_trace:
            self._persist(result.trace)
        return result

    def _turn(
        self,
        message: str,
        overridden: np.ndarray,
        now: datetime,
        limit: int,
        budget: int,
        started: float,
    ) -> RecallResult:
        turn = Turn(
            index=self.index,
            now=now,
            limit=limit,
            budget=budget,
            overridden=overridden,
            subjects=self._subjects,
            started=started,
        )
        return pipeline.run(message, turn)

    # -- recall over the stores as they are now ---------------------------------------------

    def recall_current(
        self,
        message: str,
        source: StoreSource,
        *,
        max_facts: int | None = DEFAULT_MAX_FACTS,
        max_chars: int | None = DEFAULT_MAX_CHARS,
        now: datetime | None = None,
        persist: bool | None = None,
    ) -> RecallResult:
        """``recall`` over both stores as they are on disk now, loading them only when the
        index cannot be shown to describe them.

        The index (or, in a new process, its cache file, opened without reading any fact)
        is used as it is when the stores' generation stamps equal the ones it was built at;
        only the files of the facts a turn reads are then read, and each must still be the
        file the index describes. Otherwise -- a stamp moved, a read file changed in place --
        the stores are loaded (through their own cache), the index synced, the cache saved
        with the new stamps, and the turn answered from that: the block and the trace are
        the same either way."""
        started = time.perf_counter()
        now = now or utc_now()
        limit = clamp_max_facts(max_facts)
        budget = clamp_max_chars(max_chars)
        with self._lock, visible_scope(self.visibility()):
            result = self._answer_current(message, source, now, limit, budget, started)
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

    def visibility(self) -> Visibility:
        """What the block, the search snippets and the trace may show of a fact: secrets
        withheld, the layout's home, workspace and stores as markers (``gate.visible``)."""
        lay = self.layout
        if lay is None:
            return visibility()
        # The same layout gives the same Visibility while the OS home does not move (it is
        # read from these variables): one dict lookup a turn instead of building its key.
        homes = os_home_key()
        known = self._visibility
        if known is not None and known[0] is lay and known[1] == homes:
            return known[2]
        if self._store_paths is None:  # the cache folder's name costs a realpath and a hash
            self._store_paths = (lay.project_store, lay.global_store, lay.cache_dir)
        vis = visibility(workspace=lay.workspace, cc_home=lay.home, store_paths=self._store_paths)
        self._visibility = (lay, homes, vis)
        return vis

    def last_trace(self) -> RecallTrace | None:
        return load_trace(self.layout) if self.layout is not None else None

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
        with self._lock, visible_scope(self.visibility()):
            return self._undamaged(
                facts, lambda: self._search(query, facts, scope, type, limit, now)
            )

    def _undamaged(self, facts: Sequence[Fact] | None, step: Callable[[], _T]) -> _T:
        """``step()``; once more over the facts alone when it trips over a damaged cache file
        (``lazyfact.CACHE_DAMAGE``): everything the cache gave is dropped first, and the next
        save replaces the file."""
        try:
            return step()
        except CACHE_DAMAGE:
            if facts is None or not self.index.holds_cache():
                raise
            self.drop_cached()
            return step()

    def _search(
        self,
        query: str,
        facts: Sequence[Fact] | None,
        scope: Scope | str | None,
        type: FactType | str | None,
        limit: int,
        now: datetime,
    ) -> list[Hit]:
        if facts is not None:
            self.sync(facts)
        p = plan(query)  # with the vocabulary: a translation ranks lower, matched "via"
        if not p.concepts or len(self.index) == 0 or limit <= 0:
            return []
        sc = scoring.score(self.index, p)
        _, scope_col, type_col, _ = self.index.columns()
        ok = sc.raw > 0
        if scope is not None:
            ok &= scope_col == SCOPE_CODES[Scope(scope)]
        if type is not None:
            ok &= type_col == TYPE_CODES[FactType(type)]
        cand = np.flatnonzero(ok)
        s, _ = scoring.adjusted(self.index, sc, cand, now)
        from context_center.engine.recall.hits import Hit

        hits: list[Hit] = []
        for r in ranked(self.index, cand, s, limit + SECRET_SLACK):
            digest = self.index.digest_of(r.ordinal)
            found = [m for m in sc.matched(r.ordinal) if not secret_only(r.fact, m.find, digest)]
            if not found:  # matched only inside a withheld secret: no hit (no oracle)
                continue
            if len(hits) == limit:
                break
            hits.append(
                Hit(
                    fact=real_fact(r.fact),
                    score=round(r.score, 4),
                    matched=tuple(dict.fromkeys(m.text() for m in found)),
                    freshness=r.fact.freshness(now),
                    snippet=blk.snippet(
                        r.fact,
                        [m.find for m in found],
                        spans=self.index.withheld_of(r.ordinal),
                    ),
                )
            )
        return hits


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
