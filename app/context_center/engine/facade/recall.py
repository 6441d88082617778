"""Recall for one turn, the memory tool's search, and the last recorded trace."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from context_center.engine.facade.core import EngineCore

if TYPE_CHECKING:
    from context_center.engine.kinds import FactType, Scope
    from context_center.engine.model import Fact
    from context_center.engine.recall import Recaller, RecallResult, RecallTrace
    from context_center.engine.recall.current import StoreSource
    from context_center.engine.recall.hits import Hit
    from context_center.engine.recall.subjects import SubjectGroup
    from context_center.engine.store.memory import MemoryView


class RecallAPI(EngineCore):
    _recaller: Recaller | None = None

    @property
    def recaller(self) -> Recaller:
        """One incremental recall index per engine, backed by its on-disk cache."""
        if self._recaller is None:
            from context_center.engine.recall import Recaller

            self._recaller = Recaller(self.layout)
        return self._recaller

    def write_recall_cache_elsewhere(self) -> None:
        """For a cold per-turn process: when a turn finds the recall cache due for a rewrite,
        a detached child writes it (``recall/rewrite.py``) and the turn is answered at once."""
        from functools import partial

        from context_center.engine.recall import rewrite

        self.recaller.save_elsewhere = partial(rewrite.spawn, self.home, self.workspace)

    def refresh_recall_cache(self) -> bool:
        """Bring the recall index up to date with both stores and write its cache if that
        does not describe them yet (what the detached child runs); True when written."""
        return self.recaller.refresh_current(self._store_source())

    def recall(
        self,
        message: str,
        *,
        view: MemoryView | None = None,
        persist: bool | None = None,
        **options: Any,
    ) -> RecallResult:
        """Auto-recall for one user turn over the active facts of both stores; the trace is
        recorded as this workspace's last recall (unless ``persist`` is False).

        Without a ``view`` the stores are read as they are now, but only as far as needed:
        when their generation stamps show that the recall index (or its cache file) still
        describes them, no store is loaded and only the facts the turn shows are read
        (``Recaller.recall_current``); the block and the trace are the same as with a view."""
        if view is None:
            return self.recaller.recall_current(
                message, self._store_source(), persist=persist, **options
            )
        return self.recaller.recall(
            message, self._facts_of(view), view.conflicts, persist=persist, **options
        )

    def _facts_of(self, view: MemoryView) -> tuple[Fact, ...]:
        """The view's facts as one tuple, the same tuple while the view is the same object
        (``Engine.view()`` returns the same view until something changes), so the recall
        index sees the very same facts again at no cost."""
        last = self.__dict__.get("_last_view_facts")
        if last is not None and last[0] is view:
            return last[1]  # type: ignore[no-any-return]
        facts = tuple(view.facts)
        self.__dict__["_last_view_facts"] = (view, facts)
        return facts

    def _store_source(self) -> StoreSource:
        from context_center.engine.recall.current import StoreSource

        source = self.__dict__.get("_source")
        if source is None:
            source = self.__dict__["_source"] = StoreSource(self.layout, lambda: self.memory)
        return source

    def search(
        self,
        query: str,
        *,
        scope: Scope | str | None = None,
        type: FactType | str | None = None,
        limit: int = 20,
        view: MemoryView | None = None,
    ) -> list[Hit]:
        """The read-only memory tool: every active fact matching a searchable term, best first."""
        view = view if view is not None else self.memory.load()
        return self.recaller.search(
            query, self._facts_of(view), scope=scope, type=type, limit=limit
        )

    def subject_groups(self, *, view: MemoryView | None = None) -> list[SubjectGroup]:
        """Facts on the same subject (near-duplicate titles or a ``Supersedes:`` link): each
        group's current fact and the older ones recall leaves out as ``superseded``. The
        window shows them beside the project-over-global conflicts."""
        view = view if view is not None else self.memory.load()
        return self.recaller.subject_groups(self._facts_of(view))

    def last_trace(self) -> RecallTrace | None:
        """The trace of this workspace's last recorded recall, if any."""
        from context_center.engine.recall import load_trace

        return load_trace(self.layout)
