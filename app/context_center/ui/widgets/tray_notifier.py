"""A desktop notification when a new agent write waits for approval (with the count).

It uses ``QSystemTrayIcon`` and is active only where a system tray exists
(``QSystemTrayIcon.isSystemTrayAvailable()``) and the platform is not ``offscreen`` — so the
tests' offscreen runs never show one — unless ``force`` is given. It speaks only when the
pending count grows after the first load (the count the window starts with is not news).
Clicking the notification calls ``on_click`` (the window shows the Approvals tab).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QGuiApplication, QIcon
from PySide6.QtWidgets import QSystemTrayIcon

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts

TEXT = Texts(
    "TrayNotifier",
    {
        "title": QT_TRANSLATE_NOOP("TrayNotifier", "Context Center"),
        "one": QT_TRANSLATE_NOOP("TrayNotifier", "1 memory write waits for your approval"),
        "many": QT_TRANSLATE_NOOP("TrayNotifier", "{n} memory writes wait for your approval"),
        "tip": QT_TRANSLATE_NOOP("TrayNotifier", "Context Center — {n} waiting for approval"),
    },
)

SHOW_MS = 8000


def tray_usable() -> bool:
    return QGuiApplication.platformName() != "offscreen" and QSystemTrayIcon.isSystemTrayAvailable()


class ApprovalNotifier(QObject):
    def __init__(
        self,
        parent: QObject,
        icon: QIcon,
        on_click: Callable[[], None],
        *,
        force: bool = False,
    ) -> None:
        super().__init__(parent)
        self.enabled = force or tray_usable()
        self.last_count = -1  # not loaded yet
        self.messages: list[str] = []  # what was shown (tests and diagnostics read it)
        self.tray: QSystemTrayIcon | None = None
        if self.enabled:
            self.tray = QSystemTrayIcon(icon, self)
            self.tray.messageClicked.connect(on_click)
            self.tray.activated.connect(lambda _reason: on_click())

    def on_pending_count(self, n: int) -> None:
        previous, self.last_count = self.last_count, n
        if self.tray is None:
            return
        self.tray.setToolTip(TEXT["tip"].format(n=n))
        self.tray.setVisible(n > 0)
        if previous >= 0 and n > previous:
            message = TEXT["one"] if n == 1 else TEXT["many"].format(n=n)
            self.messages.append(message)
            self.tray.showMessage(TEXT["title"], message, self.tray.icon(), SHOW_MS)
