"""Desktop notification when a new write waits for approval: never offscreen unless forced."""

from __future__ import annotations

from PySide6.QtCore import QObject
from PySide6.QtGui import QIcon, QPixmap

from context_center.ui.main_window import MainWindow
from context_center.ui.widgets.tray_notifier import ApprovalNotifier, tray_usable


def test_offscreen_runs_never_notify(qtbot, ctx) -> None:  # type: ignore[no-untyped-def]
    assert not tray_usable()
    owner = QObject()
    notifier = ApprovalNotifier(owner, QIcon(), lambda: None)
    assert not notifier.enabled and notifier.tray is None
    notifier.on_pending_count(0)
    notifier.on_pending_count(2)
    assert notifier.messages == []


def test_forced_notifier_speaks_only_when_the_count_grows(qtbot, ctx, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    shown: list[str] = []
    monkeypatch.setattr(
        "context_center.ui.widgets.tray_notifier.QSystemTrayIcon.showMessage",
        lambda self, title, text, *a: shown.append(text),
    )
    monkeypatch.setattr(
        "context_center.ui.widgets.tray_notifier.QSystemTrayIcon.setVisible",
        lambda self, visible: None,
    )
    clicks: list[int] = []
    owner = QObject()
    pixmap = QPixmap(16, 16)
    pixmap.fill()
    notifier = ApprovalNotifier(owner, QIcon(pixmap), lambda: clicks.append(1), force=True)
    notifier.on_pending_count(3)  # the first load: not news
    notifier.on_pending_count(4)
    notifier.on_pending_count(2)  # decided: quiet
    notifier.on_pending_count(3)
    notifier.on_pending_count(1)
    notifier.on_pending_count(1)
    assert shown == [
        "4 memory writes wait for your approval",
        "3 memory writes wait for your approval",
    ]
    notifier.on_pending_count(0)
    notifier.on_pending_count(1)
    assert shown[-1] == "1 memory write waits for your approval"
    assert notifier.tray is not None
    notifier.tray.messageClicked.emit()
    assert clicks == [1]


def test_the_window_has_a_quiet_notifier(qtbot, ctx, settings, engine, wait_idle) -> None:  # type: ignore[no-untyped-def]
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    qtbot.waitUntil(lambda: win.approvals_tab.pending_count >= 0)
    wait_idle()
    assert not win.notifier.enabled
    assert win.notifier.last_count == win.approvals_tab.pending_count
    win.close()
