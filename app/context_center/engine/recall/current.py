"""Recall over the stores as they are *now*, loading them only when nothing else can tell.

``StoreSource`` gives the recaller three things about a workspace's two stores: their
generation stamps (``store/stamp.py``, O(1)), a full load through ``Memory`` (with its
parsed-facts cache) with the conflicts and where each fact's file is, and the folders a cached
fact's file is read from on demand.

``DiskState`` is what an index (and its cache file) says it describes: the stamps it was
built at, whether they were racy, and per store whether it is *simple* (no legacy names, no
two files with one id), which is what lets a few changed files be applied alone.

``CurrentRecall`` (a part of ``Recaller``) answers a turn in the cheapest way that is still
exact, in this order:

1. the index in memory, when the stamps equal the ones it describes;
2. the cache file, opened without reading any fact, when its stamps are the current ones;
3. the index (or the cache) brought up to date from the store journal: when every write since
   its stamps is one of ours and lists its files (``stamp.journal_between``), only those
   files are read (``catchup.apply_stems``);
4. otherwise a full load of both stores, after which the cache is saved with the new stamps.

A turn answered from steps 1–3 whose block holds a fact whose file changed in place since it
was indexed (an edit in place changes no folder stamp) is answered again from step 4: a cached
fact's file is checked as it is read (``lazyfact.StaleIndex``), and every fact in the block by
a ``stat`` of its file (``catchup.selected_files_match``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from context_center.engine.kinds import Scope
from context_center.engine.recall import catchup
from context_center.engine.recall.lazyfact import STALE_OR_DAMAGED, DamagedCache, StaleIndex
from context_center.engine.recall.policy import DEFAULT_MAX_CHARS, DEFAULT_MAX_FACTS
from context_center.engine.store import stamp as stamps_mod
from context_center.engine.store.paths import Layout

if TYPE_CHECKING:
    from context_center.engine.model import Conflict, Fact
    from context_center.engine.recall.index import RecallIndex
    from context_center.engine.recall.pipeline import RecallResult
    from context_center.engine.store.memory import Memory

DocKey = tuple[str, str]
FileRow = tuple[str, int, int, int]
Stamps = dict[str, tuple[int, int, int]]
_DUPLICATES = frozenset({"duplicate_id", "duplicate_name"})


@dataclass(frozen=True, slots=True)
class DiskState:
    """The store stamps an index describes; ``racy_scopes``: the stores whose stamp was taken
    too close to a change to trust alone; ``simple``: per store, no legacy names and no id
    used twice."""

    stamps: Stamps
    racy_scopes: frozenset[str] = frozenset()
    simple: dict[str, bool] = field(default_factory=dict)

    @property
    def racy(self) -> bool:
        return bool(self.racy_scopes)

    def matches(self, now: Stamps) -> bool:
        return not self.racy_scopes and self.stamps == now

    def racy_in(self, scope: str) -> bool:
        """Whether the folder of ``scope`` must be listed before this state's stamps of it
        are trusted (a change within the same clock tick as the stamp moves no stamp)."""
        return scope in self.racy_scopes

    def to_meta(self) -> dict[str, Any]:
        return {
            "stamps": {k: list(v) for k, v in self.stamps.items()},
            "racy": self.racy,  # what a cache reader from before racy_scopes goes by
            "racy_scopes": sorted(self.racy_scopes),
            "simple": dict(self.simple),
        }

    @staticmethod
    def from_meta(meta: dict[str, Any] | None) -> DiskState | None:
        if not meta or not isinstance(meta.get("stamps"), dict):
            return None
        try:
            st = {str(k): (int(v[0]), int(v[1]), int(v[2])) for k, v in meta["stamps"].items()}
            simple = {str(k): bool(v) for k, v in dict(meta.get("simple") or {}).items()}
        except (TypeError, ValueError, IndexError, OverflowError, AttributeError):
            return None
        if set(st) != {s.value for s in Scope}:
            return None
        listed = meta.get("racy_scopes")
        if not bool(meta.get("racy", True)):
            racy: frozenset[str] = frozenset()
        elif (
            isinstance(listed, list)
            and listed
            and all(isinstance(x, str) and x in st for x in listed)
        ):
            racy = frozenset(listed)
        else:
            racy = frozenset(st)  # not kept (an older cache) or not readable: every store
        return DiskState(st, racy, simple)


@dataclass(slots=True)
class Loaded:
    """A full load of both stores: the active facts, their conflicts and their files."""

    facts: tuple[Fact, ...]
    conflicts: Sequence[Conflict]
    files: dict[DocKey, FileRow] = field(default_factory=dict)
    simple: dict[str, bool] = field(default_factory=dict)


class StoreSource:
    """Both stores of one layout, loaded through ``memory()`` only when asked to."""

    def __init__(self, layout: Layout, memory: Callable[[], Memory]) -> None:
        self.layout = layout
        self._memory = memory
        self.roots: dict[str, Path] = {
            Scope.PROJECT.value: layout.project_store,
            Scope.GLOBAL.value: layout.global_store,
        }

    def stamps(self) -> Stamps:
        return {scope: stamps_mod.store_stamp(root) for scope, root in self.roots.items()}

    def state(self, simple: dict[str, bool] | None = None) -> DiskState:
        """The stamps now, racy if a folder changed within ``stamp.RACY_NS``."""
        seen = stamps_mod.now_ns()
        st = self.stamps()
        racy = frozenset(k for k, s in st.items() if stamps_mod.is_racy(s, seen))
        return DiskState(st, racy, dict(simple or {}))

    def load(self) -> Loaded:
        memory = self._memory()
        view = memory.load()
        out = Loaded(tuple(view.facts), view.conflicts)
        for store in (memory.project, memory.global_):
            snap = store.snapshot()
            scope = store.scope.value
            simple = not snap.superseded and not any(
                d.code in _DUPLICATES for d in snap.diagnostics
            )
            for entry in snap.entries.values():
                stem = os.path.basename(entry.location)[:-3]
                simple = simple and stem == entry.fact.name
                stat = snap.files.get(stem)
                if stat is not None:
                    out.files[(scope, entry.fact.id)] = (stem, *stat)
            out.simple[scope] = simple
        return out


class CurrentRecall:
    """``Recaller.recall_current`` and the steps it takes (see the module docstring)."""

    index: RecallIndex
    use_cache: bool
    last_source: str
    _disk: DiskState | None
    _saved_disk: DiskState | None
    _cache_tried: bool
    _unsaved_files: int
    _lock: threading.RLock
    # set for a cold per-turn process: write the cache at ``path`` elsewhere (True: handed
    # off; False: write it here)
    save_elsewhere: Callable[[Path], bool] | None = None

    # provided by Recaller
    if TYPE_CHECKING:

        @property
        def cache_path(self) -> Path | None: ...

    _turn: Callable[..., RecallResult]
    _save: Callable[[Path, DiskState | None], bool]
    _overridden: Callable[[Sequence[Conflict]], np.ndarray]
    sync: Callable[..., object]
    _persist: Callable[..., None]
    persist_trace: bool

    def _answer_current(
        self, message: str, source: StoreSource, now: datetime, limit: int, budget: int, t: float
    ) -> RecallResult:
        try:
            result = self._turn(message, self._current(source), now, limit, budget, t)
            if self.last_source != "stores" and not catchup.selected_files_match(
                self.index,
                source.roots,
                ((s.scope.value, s.id) for s in result.trace.selected),
            ):
                raise StaleIndex("a fact in the block changed in place since it was indexed")
            return result
        except STALE_OR_DAMAGED as exc:
            if not isinstance(exc, StaleIndex) and not self.index.holds_cache():
                raise  # not the cache's doing
            self._disk = None
            if not isinstance(exc, StaleIndex) or isinstance(exc, DamagedCache):
                self.drop_cached()  # damaged: nothing of it may answer the retry
            return self._turn(message, self._reload(source), now, limit, budget, t)

    def drop_cached(self) -> None:
        """Forget the index and the cache it came from (damaged): the next sync builds from
        the facts, and the next save replaces the file."""
        self.index.discard()  # its generation moves on: what was derived from it goes too
        self._cache_tried = True
        self._disk = self._saved_disk = None

    def _masked(self) -> np.ndarray:
        alive = self.index.columns()[0]
        return np.flatnonzero(self.index.column("masked") & alive)

    def _current(self, source: StoreSource) -> np.ndarray:
        """Ordinals of the overridden global facts, with the index proven current (or made
        current by reading the changed files, or by a load)."""
        now = source.stamps()
        if self._disk is not None and self._disk.matches(now):
            self.last_source = "index"
            return self._masked()
        if (
            self.use_cache
            and not self._cache_tried
            and self.index.size == 0
            and (path := self.cache_path)
        ):
            self._cache_tried = True
            meta = self.index.open(path, source.roots)
            if (
                meta is not None
                and self.save_elsewhere is not None
                and not self.index.kept_current()
            ):
                # written before this scanner's spans were kept: a detached child finds them
                # all, once, and writes the cache (this turn scans only what it shows)
                self.save_elsewhere(path)
            if meta is not None:
                self._saved_disk = self._disk = DiskState.from_meta(meta)
                if self._disk is not None and self._disk.matches(now):
                    self.last_source = "cache"
                    return self._masked()
        if self._disk is not None and self._catch_up(source):
            self.last_source = "journal"
            return self._masked()
        return self._reload(source)

    def _catch_up(self, source: StoreSource) -> bool:
        """Apply our own writes since the index's stamps from the store journal; False when
        that cannot be shown exact (then the caller loads the stores)."""
        disk = self._disk
        assert disk is not None
        state = source.state(disk.simple)  # before reading: a later write moves it again
        changed: dict[str, set[str]] = {}
        for scope, root in source.roots.items():
            old, new = disk.stamps[scope], state.stamps[scope]
            if old == new:
                continue
            if not disk.simple.get(scope, False):
                return False
            entries = stamps_mod.journal_between(root, old, new)
            if entries is None or any(e.stems is None for e in entries):
                return False
            changed[scope] = {s for e in entries for s in e.stems or ()}
        if sum(len(v) for v in changed.values()) > catchup.MAX_FILES:
            return False
        self._disk = None  # until the files are applied
        before = self.index.mark()
        masked = self._masked() if changed else None  # the answer the changed rows update
        for scope, stems in changed.items():
            if stems and not catchup.apply_stems(
                self.index, Scope(scope), source.roots[scope], stems
            ):
                return False
        if not all(
            catchup.files_match(self.index, Scope(scope), root)
            for scope, root in source.roots.items()
            if disk.racy_in(scope)
        ):
            return False  # a rename within the same clock tick as the stamp: look properly
        if changed:  # updated for the rows the files changed (decided afresh if unknown)
            touched = self.index.touched_since(before)
            self.index.set_masked(
                catchup.masked_by_keys(self.index)
                if touched is None or masked is None
                else catchup.masked_after(self.index, masked, touched)
            )
        self._disk = state
        self._unsaved_files += sum(len(v) for v in changed.values())
        self._save_when_due(state)
        return True

    def _save_when_due(self, state: DiskState) -> None:
        """Write the cache once ``catchup.SAVE_AFTER`` files were applied since it was; a
        cold per-turn process hands that to a detached child (``rewrite.py``)."""
        path = self.cache_path
        if self.use_cache and path is not None and self._unsaved_files >= catchup.SAVE_AFTER:
            if self.save_elsewhere is None or not self.save_elsewhere(path):
                self._save(path, state)
            self._unsaved_files = 0

    def refresh_current(self, source: StoreSource) -> bool:
        """Make the index describe the stores as they are now (from its cache, the journal or
        a load), find the withheld spans of every fact that does not know them, and write the
        cache if it does not describe all that yet; True when written."""
        with self._lock:
            self._current(source)
            filled = 0
            if self.use_cache and not self.index.kept_current():
                if self.last_source != "stores":
                    self._reload(source, save=False)  # every fact in memory: no file per fact
                filled = self.index.fill_withheld()
            return self._save_if_stale(self._disk, force=filled > 0)

    def _save_if_stale(self, state: DiskState | None, *, force: bool = False) -> bool:
        """Write the cache when it does not describe ``state`` and this index yet (or when
        ``force``d: the index found what the cache did not know); True when written."""
        path = self.cache_path
        if not self.use_cache or path is None:
            return False
        if not force and not self.index.dirty() and self._saved_disk == state:
            return False
        return self._save(path, state)

    def _reload(self, source: StoreSource, *, save: bool = True) -> np.ndarray:
        """Load both stores, sync the index, remember (and save) the stamps it now describes."""
        state = source.state()  # before loading: a write during the load moves it again
        self.last_source = "stores"
        loaded = source.load()
        state = replace(state, simple=loaded.simple)
        self.sync(loaded.facts, save=False)
        self.index.set_files(loaded.files)
        self.index.set_masked(self._overridden(loaded.conflicts))
        self._disk = state
        self._unsaved_files = 0
        if save:
            self._save_if_stale(state)
        return self._masked()


__all__ = [
    "DEFAULT_MAX_CHARS",
    "DEFAULT_MAX_FACTS",
    "CurrentRecall",
    "DiskState",
    "Loaded",
    "StoreSource",
]
