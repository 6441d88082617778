"""The base of every tab: reacts to ``sig_changed`` by scheduling one coalesced ``refresh()``.

A subclass sets ``title`` and ``flags`` (the engine ``Area`` values it shows) and implements
``async def refresh(self)``: load plain data with ``await self.ctx.run(...)``, then fill its
widgets. The base guarantees:

* at most one refresh runs at a time; changes that arrive meanwhile trigger exactly one more;
* a hidden tab only marks itself stale and refreshes when it is shown (cheap for 50k facts);
* an exception in ``refresh`` goes to ``ctx.report`` -- unless the tab was deleted while the
  refresh awaited the engine (the window closed): that refresh just ends;
* ``refresh_now()`` returns the task, so tests can await or wait for ``is_refreshing``.

Nothing typed is lost: before the window closes or switches workspace it asks every tab
``has_unsaved_changes()``; for each that says yes it awaits ``discard_or_keep()``, which asks
the person and returns True to go on (the text was saved or may be discarded) or False to
stay. A tab with an editor overrides both (the defaults: nothing unsaved, go on).
"""

from __future__ import annotations

import asyncio

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QWidget

from context_center.engine import Area, Changes
from context_center.ui.context import AppContext, alive


class Tab(QWidget):
    """A main-window tab. Subclasses override ``title``, ``flags`` and ``refresh``."""

    title: str = ""
    flags: frozenset[Area] = frozenset()
    skip_own_changes: bool = False  # set True when a tab updates itself after its own mutations

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._stale = True
        self._task: asyncio.Task[None] | None = None
        self._again = False
        self.refresh_count = 0  # how many refreshes completed (tests watch this)
        ctx.sig_changed.connect(self._on_changed)

    # -- change handling ------------------------------------------------------------------

    def _on_changed(self, changes: Changes[object], source: object | None) -> None:
        if self.skip_own_changes and source is self:
            return
        if not (changes.areas & self.flags):
            return
        self._stale = True
        if self.isVisible():
            self.refresh_now()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh_now()

    @property
    def is_refreshing(self) -> bool:
        return self._task is not None and not self._task.done()

    def refresh_now(self) -> asyncio.Task[None] | None:
        """Start a refresh (or queue one more if one is running)."""
        self._stale = False
        if self.is_refreshing:
            self._again = True
            return self._task
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self._stale = True  # no loop yet (constructed before qasync started); retry on show
            return None
        self._task = loop.create_task(self._refresh_loop())
        return self._task

    async def _refresh_loop(self) -> None:
        self.ctx._handler_started()
        try:
            while True:
                self._again = False
                try:
                    await self.refresh()
                except Exception as exc:  # a bug or a refused read: one dialog, never silent
                    if not alive(self):
                        # the window closed (the tab deleted) while the engine worked: what
                        # the refresh read has nowhere to go, and that is no error
                        return
                    self.ctx.report(exc, self)
                if not alive(self):
                    return
                self.refresh_count += 1
                if not self._again:
                    return
        finally:
            self.ctx._handler_finished()

    async def refresh(self) -> None:  # pragma: no cover - every tab overrides it
        raise NotImplementedError

    # -- unsaved text -----------------------------------------------------------------------

    def has_unsaved_changes(self) -> bool:
        """True when the person typed something this tab has not saved yet."""
        return False

    async def discard_or_keep(self) -> bool:
        """Ask about the unsaved text; True: go on (discarded or saved), False: stay here.

        Called only when ``has_unsaved_changes()`` is True, with this tab shown."""
        return True
