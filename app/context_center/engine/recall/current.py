"""The stores as recall sees them when it must answer for the disk as it is *now*.

``StoreSource`` gives ``Recaller.recall_current`` three things about a workspace's two stores:

* ``stamps()``: their generation stamps (``store/stamp.py``), O(1);
* ``load()``: a full load through ``Memory`` (with its parsed-facts cache), the conflicts,
  and where each fact's file is and how the scan saw it;
* ``roots``: the store folders, from which a cached fact's file is read on demand.

``DiskState`` is what a recall index (and its cache file) says it describes: the stamps it
was built at, and whether they were racy (``stamp.is_racy``): a racy state is never trusted
without looking again.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from context_center.engine.model import Conflict, Fact, Scope
from context_center.engine.store import stamp as stamps_mod
from context_center.engine.store.paths import Layout

if TYPE_CHECKING:
    from context_center.engine.store.memory import Memory

DocKey = tuple[str, str]
FileRow = tuple[str, int, int, int]


@dataclass(frozen=True, slots=True)
class DiskState:
    """The store stamps an index describes; ``racy``: taken too close to a change to trust."""

    stamps: dict[str, tuple[int, int, int]]
    racy: bool = False

    def matches(self, now: dict[str, tuple[int, int, int]]) -> bool:
        return not self.racy and self.stamps == now

    def to_meta(self) -> dict[str, Any]:
        return {"stamps": {k: list(v) for k, v in self.stamps.items()}, "racy": self.racy}

    @staticmethod
    def from_meta(meta: dict[str, Any] | None) -> DiskState | None:
        if not meta or not isinstance(meta.get("stamps"), dict):
            return None
        try:
            st = {str(k): (int(v[0]), int(v[1]), int(v[2])) for k, v in meta["stamps"].items()}
        except (TypeError, ValueError, IndexError):
            return None
        if set(st) != {s.value for s in Scope}:
            return None
        return DiskState(st, bool(meta.get("racy", True)))


@dataclass(slots=True)
class Loaded:
    """A full load of both stores: the active facts, their conflicts and their files."""

    facts: tuple[Fact, ...]
    conflicts: Sequence[Conflict]
    files: dict[DocKey, FileRow] = field(default_factory=dict)


class StoreSource:
    """Both stores of one layout, loaded through ``memory()`` only when asked to."""

    def __init__(self, layout: Layout, memory: Callable[[], Memory]) -> None:
        self.layout = layout
        self._memory = memory
        self.roots: dict[str, Path] = {
            Scope.PROJECT.value: layout.project_store,
            Scope.GLOBAL.value: layout.global_store,
        }

    def stamps(self) -> dict[str, tuple[int, int, int]]:
        return {scope: stamps_mod.store_stamp(root) for scope, root in self.roots.items()}

    def state(self) -> DiskState:
        """The stamps now, racy if a folder changed within ``stamp.RACY_NS``."""
        seen = stamps_mod.now_ns()
        st = self.stamps()
        return DiskState(st, any(stamps_mod.is_racy(s, seen) for s in st.values()))

    def load(self) -> Loaded:
        memory = self._memory()
        view = memory.load()
        files: dict[DocKey, FileRow] = {}
        for store in (memory.project, memory.global_):
            snap = store.snapshot()
            scope = store.scope.value
            for entry in snap.entries.values():
                stem = os.path.basename(entry.location)[:-3]
                stat = snap.files.get(stem)
                if stat is not None:
                    files[(scope, entry.fact.id)] = (stem, *stat)
        return Loaded(tuple(view.facts), view.conflicts, files)
