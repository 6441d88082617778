"""The AppContext every tab receives: engine access, async work, one error sink, change signals.

Contract (every widget under ``ui/`` follows it):

* ``ctx.engine`` is the :class:`~context_center.engine.facade.Engine` of the current workspace.
  Read it at the moment you need it (the workspace picker may swap it; ``sig_engine_changed``
  says so, followed by ``sig_changed`` with every flag).
* Blocking engine work never runs on the GUI thread: ``result = await ctx.run(fn, *args, **kw)``
  runs ``fn`` in a single worker thread (engine calls are serialised, so two handlers never race
  on the same store objects) and resumes on the GUI thread. ``fn`` must not touch widgets; it
  returns plain data and the awaiting coroutine updates the widgets.
* Long read-only work (the Suggestions scan) must not hold that worker up:
  ``await ctx.run_background(fn, ctx.reader_engine(), ...)`` runs it on a thread of its own,
  with an ``Engine`` of its own for the same home and workspace (no store object is shared
  with the worker, so a save made meanwhile is neither delayed nor raced).
* Every mutation is an ``Engine`` method that returns a ``Changes``; the view that ran it passes
  it on with ``ctx.apply(changes, source=self)``. The one signal
  ``sig_changed(changes: Changes, source: object | None)`` carries it to every view; the file
  watcher emits it too (``Changes.seen_on_disk(areas)``, ``source`` None) when another process
  changed the home. A view refreshes only when ``changes.areas`` touches what it shows and may
  skip ``source is self`` if it already updated itself.
* ``ctx.report(exc)`` is the one place exceptions become dialogs: an ``EngineError`` is a known
  problem and gets a short warning with its message; anything else is a bug and gets a critical
  dialog with the traceback under "Show Details…". Dialogs are opened window-modal without a
  nested event loop (``open()``), so async code keeps running and tests can inspect them via
  ``ctx.last_dialog``.
* Async handlers use ``@asyncSlot()`` over ``@busy("btn_a", "btn_b")``: the named controls are
  disabled while the handler runs and restored in ``finally`` (then ``self.update_actions()``
  runs, if the widget has one, to recompute what should be enabled); an exception goes to
  ``ctx.report`` instead of disappearing; ``ctx.is_idle`` is False while any such handler runs
  (tests wait on it).
* Questions to the person are awaited, not exec()'d: ``await ctx.confirm(parent, title, text)``
  and ``await ctx.exec_dialog(dialog)`` open the dialog and await its ``finished`` signal.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import threading
import traceback
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QDialog, QMessageBox, QWidget

from context_center.engine import Area, Changes, Engine, EngineError
from context_center.ui.error_text import BUG, error_explanation, error_title
from context_center.ui.index_child import IndexChildren
from context_center.ui.refusal_text import refusal_message

log = logging.getLogger(__name__)

T = TypeVar("T")

# The areas a change-set touches (engine ``Area`` values; views name the ones they show).
FACTS = Area.FACTS
ARCHIVE = Area.ARCHIVE
INSTRUCTIONS = Area.INSTRUCTIONS
APPROVALS = Area.APPROVALS
TRACE = Area.TRACE
SUGGESTIONS = Area.SUGGESTIONS
WORKSPACE = Area.WORKSPACE
ALL_FLAGS: frozenset[Area] = frozenset(Area)


def _resolve(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def _settle(future: asyncio.Future[Any], outcome: tuple[bool, Any]) -> None:
    if future.done():
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def detached_engine(engine: Engine) -> Engine:
    """A new ``Engine`` on the same home and workspace with the same settings, sharing no
    in-memory state with ``engine`` (for reads on another thread)."""
    clone = Engine(home=engine.home, workspace=engine.workspace)
    clone.explicit_workspace = engine.explicit_workspace
    clone.cwd = engine.cwd
    for name in ("user_home", "codex_home", "instruction_ceiling"):
        value = getattr(engine, name, None)
        if value is not None:
            setattr(clone, name, value)
    return clone


def alive(widget: QObject) -> bool:
    """Whether ``widget``'s C++ object still exists (a closed window deletes its widgets)."""
    try:
        from shiboken6 import isValid
    except ImportError:  # pragma: no cover - shiboken ships with PySide6
        return True
    return bool(isValid(widget))


class AppContext(QObject):
    """Shared by the main window and every tab. Holds no widgets of its own."""

    sig_changed = Signal(object, object)
    """(changes: Changes, source: object | None) after any mutation or outside change."""

    sig_engine_changed = Signal(object)
    """(engine: Engine) the workspace switched; followed by sig_changed(ALL_FLAGS, None)."""

    sig_status = Signal(str)
    """A short message for the status bar."""

    sig_undo_offer = Signal(str, object)
    """(message, undo) the last mutation can be undone: the window shows the message and an
    "Undo" button for a while; ``undo`` is an async callable without arguments."""

    sig_busy = Signal(bool)
    """True when engine work starts while none was running; False when all work is done."""

    sig_error = Signal(object)
    """(exc) emitted by report() before the dialog opens."""

    def __init__(self, engine: Engine, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._engine = engine
        self._executor = concurrent.futures.ThreadPoolExecutor(
            max_workers=1, thread_name_prefix="engine"
        )
        self._reader: Engine | None = None
        self._background_running = 0
        self._running = 0
        self._active_handlers = 0
        self._closed = False
        self.dialog_parent: QWidget | None = None
        self._last_dialog: QDialog | None = None
        self.show_dialogs = True  # tests may turn dialogs off and watch sig_error instead
        # the Suggestions scan's phrase index, written by child processes (``index_child.py``)
        self.phrase_index = IndexChildren()

    @property
    def last_dialog(self) -> QDialog | None:
        """The dialog most recently opened through this context (None once it is deleted)."""
        dialog = self._last_dialog
        return dialog if dialog is not None and alive(dialog) else None

    @last_dialog.setter
    def last_dialog(self, dialog: QDialog | None) -> None:
        self._last_dialog = dialog

    # -- engine ---------------------------------------------------------------------------

    @property
    def engine(self) -> Engine:
        return self._engine

    def set_engine(self, engine: Engine) -> None:
        """Switch workspace (or home). Every view reloads."""
        self._engine = engine
        self._reader = None
        self.sig_engine_changed.emit(engine)
        self.apply(Changes.seen_on_disk(ALL_FLAGS), None)

    async def run(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run blocking ``fn(*args, **kwargs)`` in the engine worker thread and await it.

        After ``shutdown()`` the awaiting task is cancelled instead (the window is closing)."""
        return await self.submit(fn, *args, **kwargs)

    def submit(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> asyncio.Future[T]:
        """Hand ``fn`` to the worker *now* and return a future to await later.

        ``run`` is ``await submit(...)``; call ``submit`` directly to start work before the
        current synchronous code finishes (the Memory tab starts reading the stores while the
        rest of the window is still being built)."""
        if self._closed:
            raise asyncio.CancelledError
        loop = asyncio.get_running_loop()
        self._running += 1
        if self._running == 1:
            self.sig_busy.emit(True)
        call = functools.partial(fn, *args, **kwargs)
        future: asyncio.Future[T] = loop.run_in_executor(self._executor, call)
        future.add_done_callback(self._work_done)
        return future

    async def run_background(self, fn: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run blocking, read-only ``fn`` on the background thread (never the engine worker).

        Give it ``reader_engine()``, not ``engine``: the worker may be writing through the
        main engine's store objects at the same moment. It counts as work for ``has_work``
        and ``is_idle`` but does not light the busy indicator (it may take seconds)."""
        if self._closed:
            raise asyncio.CancelledError
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        call = functools.partial(fn, *args, **kwargs)

        def work() -> None:
            try:
                outcome: tuple[bool, Any] = (True, call())
            except BaseException as exc:  # handed to the awaiting coroutine
                outcome = (False, exc)
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(_settle, future, outcome)

        self._background_running += 1
        # A daemon thread, not an executor: a closing window never waits for a long scan
        # (it only reads), and the process can exit while one still runs.
        threading.Thread(target=work, name="background", daemon=True).start()
        try:
            return await future
        finally:
            self._background_running -= 1

    def reader_engine(self) -> Engine:
        """A second ``Engine`` for the current home and workspace, for ``run_background``.

        It shares no store object with ``engine`` (it reads the disk itself); it is made again
        after a workspace switch."""
        if self._reader is None:
            self._reader = detached_engine(self._engine)
        return self._reader

    def _work_done(self, _future: asyncio.Future[Any]) -> None:
        self._running -= 1
        if self._running == 0 and alive(self):
            self.sig_busy.emit(False)

    @property
    def has_work(self) -> bool:
        """An engine call or a @busy handler / tab refresh is running."""
        return bool(self._running or self._active_handlers or self._background_running)

    @property
    def is_idle(self) -> bool:
        """No engine call, no @busy handler and no other asyncio task is pending."""
        if self._running or self._active_handlers or self._background_running:
            return False
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return True
        return all(task.done() for task in asyncio.all_tasks(loop))

    def shutdown(self) -> None:
        """Wait for the worker to finish; call once when the window closes."""
        self._closed = True
        self.phrase_index.stop()
        self._executor.shutdown(wait=True, cancel_futures=True)

    # -- change notification --------------------------------------------------------------

    def apply(self, changes: Changes[Any], source: object | None = None) -> None:
        """Tell every view what changed. ``source`` is the view that made the change."""
        if changes.areas:
            self.sig_changed.emit(changes, source)

    def status(self, message: str) -> None:
        self.sig_status.emit(message)

    def offer_undo(self, message: str, undo: Callable[[], Awaitable[None]]) -> None:
        """Show ``message`` with an "Undo" button that runs ``undo`` (the window decides how
        long it stays); the message goes to the status bar even where no button listens."""
        self.status(message)
        self.sig_undo_offer.emit(message, undo)

    # -- errors ---------------------------------------------------------------------------

    def report(self, exc: BaseException, parent: QWidget | None = None) -> None:
        """The one place an exception becomes a dialog (known problem vs bug)."""
        self.sig_error.emit(exc)
        if isinstance(exc, EngineError):
            log.info("engine refused: %s (%s)", exc, exc.code)
            title = error_title(exc.code)
            text = refusal_message(exc.code, " ".join(str(exc).split()))
            self.status(text if text.lower().startswith(title.lower()) else f"{title}: {text}")
        else:
            log.error("unexpected error", exc_info=(type(exc), exc, exc.__traceback__))
        if not self.show_dialogs:
            return
        box = QMessageBox(parent or self.dialog_parent)
        box.setObjectName("errorDialog")
        if isinstance(exc, EngineError):
            box.setIcon(QMessageBox.Icon.Warning)
            box.setWindowTitle(error_title(exc.code))
            box.setText(error_explanation(exc.code))
            box.setInformativeText(refusal_message(exc.code, " ".join(str(exc).split())))
        else:
            box.setIcon(QMessageBox.Icon.Critical)
            box.setWindowTitle(BUG["title"])
            box.setText(BUG["text"])
            box.setInformativeText(f"{type(exc).__name__}: {exc}")
            box.setDetailedText(
                "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
            )
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.last_dialog = box
        box.open()

    async def report_and_wait(self, exc: BaseException, parent: QWidget | None = None) -> None:
        """``report`` and wait until the person closed the dialog (to continue after it)."""
        self.report(exc, parent)
        box = self.last_dialog
        if not self.show_dialogs or box is None or not box.isVisible():
            return
        loop = asyncio.get_running_loop()
        closed: asyncio.Future[None] = loop.create_future()
        box.finished.connect(lambda _code: _resolve(closed))
        await closed

    # -- asking the person ----------------------------------------------------------------

    async def exec_dialog(self, dialog: QDialog) -> int:
        """Open ``dialog`` window-modal and await its result code without a nested loop."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[int] = loop.create_future()

        def finished(code: int) -> None:
            if not done.done():
                done.set_result(int(code))

        dialog.finished.connect(finished)
        self.last_dialog = dialog
        dialog.open()
        try:
            return await done
        finally:
            if alive(dialog):
                dialog.finished.disconnect(finished)

    async def confirm(
        self,
        parent: QWidget | None,
        title: str,
        text: str,
        *,
        informative: str = "",
        ok_text: str = "",
        destructive: bool = False,
    ) -> bool:
        """Ask a yes/no question; True when the person accepted."""
        box = QMessageBox(parent or self.dialog_parent)
        box.setObjectName("confirmDialog")
        box.setIcon(QMessageBox.Icon.Warning if destructive else QMessageBox.Icon.Question)
        box.setWindowTitle(title)
        box.setText(text)
        if informative:
            box.setInformativeText(informative)
        ok = box.addButton(ok_text or BUG["ok"], QMessageBox.ButtonRole.AcceptRole)
        ok.setObjectName("confirmOk")
        cancel = box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(cancel)
        await self.exec_dialog(box)
        accepted = box.clickedButton() is ok
        box.deleteLater()
        return accepted

    # -- handler bookkeeping (used by @busy) ----------------------------------------------

    def _handler_started(self) -> None:
        self._active_handlers += 1

    def _handler_finished(self) -> None:
        self._active_handlers -= 1


def busy(
    *controls: str,
) -> Callable[[Callable[..., Awaitable[Any]]], Callable[..., Awaitable[Any]]]:
    """Decorate an async handler of a widget that has ``self.ctx``.

    The attributes named in ``controls`` are disabled while it runs and restored in
    ``finally``; an exception is handed to ``ctx.report`` (never lost). Put it under
    ``@asyncSlot()``.
    """

    def decorate(fn: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        @functools.wraps(fn)
        async def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
            ctx: AppContext = self.ctx
            widgets = [getattr(self, name) for name in controls]
            states = [w.isEnabled() for w in widgets]
            for w in widgets:
                w.setEnabled(False)
            ctx._handler_started()
            try:
                return await fn(self, *args, **kwargs)
            except Exception as exc:
                ctx.report(exc, self if alive(self) else None)
                return None
            finally:
                for w, state in zip(widgets, states, strict=True):
                    if alive(w):
                        w.setEnabled(state)
                # The handler may have changed what should be enabled (a fact was forgotten,
                # a document saved); let the widget recompute it from its state.
                update = getattr(self, "update_actions", None)
                if callable(update) and alive(self):
                    update()
                ctx._handler_finished()

        return wrapper

    return decorate
