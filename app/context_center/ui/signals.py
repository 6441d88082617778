"""Ctrl+C in the terminal and SIGTERM (and SIGHUP) close the window cleanly.

Qt's event loop runs in C, so Python would only notice a signal at the next Python call: a
``QTimer`` ticks every 200 ms to give it that chance. The handler asks the window to close
without questions (``MainWindow.force_close``; unsaved text in an open editor is discarded,
since nobody may be at the screen to answer), the normal shutdown runs (settings saved,
engine work finished, the ``--demo`` home removed) and the process exits with 130 after
SIGINT (the shell's convention for Ctrl+C) or 0 after SIGTERM/SIGHUP (a requested, clean
shutdown). A signal that arrives before the event loop runs ends start-up through
``SystemExit`` with the same code, so ``finally`` blocks still clean up; one that arrives
while the window is being built closes it as soon as it exists.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from types import FrameType
from typing import Any

TICK_MS = 200
EXIT_CODES = {signal.SIGINT: 130, signal.SIGTERM: 0}
if hasattr(signal, "SIGHUP"):
    EXIT_CODES[signal.SIGHUP] = 0


class GracefulExit:
    """Installed by the launcher; ``close`` is called (on the GUI thread) once a signal came."""

    def __init__(self) -> None:
        self.code: int | None = None
        self.signal_name = ""
        self.close: Callable[[], None] | None = None
        self._previous: dict[int, Any] = {}
        self._timer: Any = None

    def install(self) -> None:
        for signum in EXIT_CODES:
            try:
                self._previous[signum] = signal.signal(signum, self._handle)
            except (ValueError, OSError):  # not the main thread, or not supported here
                continue

    def start_ticking(self) -> None:
        """Let Python run every ``TICK_MS`` while Qt's loop waits (so it sees signals)."""
        from PySide6.QtCore import QTimer

        self._timer = QTimer()
        self._timer.setInterval(TICK_MS)
        self._timer.timeout.connect(lambda: None)
        self._timer.start()

    def restore(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        for signum, previous in self._previous.items():
            try:
                signal.signal(signum, previous)
            except (ValueError, OSError, TypeError):
                continue
        self._previous.clear()

    def _handle(self, signum: int, _frame: FrameType | None) -> None:
        first = self.code is None
        self.code = EXIT_CODES.get(signal.Signals(signum), 0)
        self.signal_name = signal.Signals(signum).name
        if self.close is None:
            try:
                asyncio.get_running_loop()
            except RuntimeError:  # start-up, before the event loop: unwind through finally
                raise SystemExit(self.code) from None
            return  # the loop runs but the window is not built yet: it checks ``code``
        if first:
            from PySide6.QtCore import QTimer

            QTimer.singleShot(0, self.close)
