"""The status bar's "Undo" button: shown right after a forget or a dismissal, for ~10 s.

``AppContext.offer_undo(message, undo)`` puts the message in the status bar and this shows the
button; pressing it runs ``undo`` once (errors go to ``ctx.report``). A newer offer replaces
an older one; the button hides when its time is up.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QPushButton, QWidget
from qasync import asyncSlot

from context_center.ui.context import AppContext, busy
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts

TEXT = Texts(
    "UndoOffer",
    {
        "undo": QT_TRANSLATE_NOOP("UndoOffer", "Undo"),
        "undo_tip": QT_TRANSLATE_NOOP("UndoOffer", "Undo: {message}"),
    },
)

OFFER_MS = 10_000


class UndoOffer(QPushButton):
    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(TEXT["undo"], parent)
        self.setObjectName("undoButton")
        self.ctx = ctx
        self._undo: Callable[[], Awaitable[None]] | None = None
        self.timer = QTimer(self)
        self.timer.setSingleShot(True)
        self.timer.setInterval(OFFER_MS)
        self.timer.timeout.connect(self.withdraw)
        self.clicked.connect(self.on_undo)
        ctx.sig_undo_offer.connect(self.offer)
        ctx.sig_engine_changed.connect(self.withdraw)
        self.hide()

    def offer(self, message: str, undo: Callable[[], Awaitable[None]]) -> None:
        self._undo = undo
        self.setToolTip(TEXT["undo_tip"].format(message=message))
        self.show()
        self.timer.start()

    def withdraw(self, *_args: object) -> None:
        self._undo = None
        self.timer.stop()
        self.hide()

    @property
    def offered(self) -> bool:
        return self._undo is not None

    @asyncSlot()
    @busy()
    async def on_undo(self) -> None:
        undo, self._undo = self._undo, None
        self.withdraw()
        if undo is not None:
            await undo()
