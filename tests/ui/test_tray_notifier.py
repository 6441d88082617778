"""Desktop notification when a new write waits for approval: never offscreen unless forced."""

from __future__ import annotations

import pytest
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


@pytest.mark.qt_log_ignore(
    "This plugin does not support (raise|propagateSizeHints)"
)  # offscreen: no window manager
def test_a_write_queued_elsewhere_notifies_through_the_window(  # type: ignore[no-untyped-def]
    qtbot, ctx, settings, engine, wait_idle, monkeypatch
) -> None:
    """Inside the real window (a tray forced on): an agent's write queued by another process
    shows one notification with the count; clicking it brings up the Approvals tab."""
    from context_center.engine.facade import Engine

    shown: list[str] = []
    monkeypatch.setattr("context_center.ui.widgets.tray_notifier.tray_usable", lambda: True)
    monkeypatch.setattr(
        "context_center.ui.widgets.tray_notifier.QSystemTrayIcon.showMessage",
        lambda self, title, text, *a: shown.append(text),
    )
    monkeypatch.setattr(
        "context_center.ui.widgets.tray_notifier.QSystemTrayIcon.setVisible",
        lambda self, visible: None,
    )
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    win.show()
    wait_idle()
    assert win.notifier.enabled and win.notifier.last_count == 0 and shown == []
    other = Engine(home=engine.home, workspace=engine.workspace)  # another process's engine
    queued = other.agent_write(
        {
            "operation": "create",
            "controller": "interactive",
            "owns_store": True,
            "agent": "claude-code",
            "name": "tabs",
            "title": "Tabs",
            "description": "indentation",
            "type": "user",
            "body": "prefers tabs",
        }
    )
    assert queued.value.pending_id is not None
    qtbot.waitUntil(lambda: shown == ["1 memory write waits for your approval"], timeout=5000)
    assert win.current_tab() is win.memory_tab
    assert win.notifier.tray is not None
    win.notifier.tray.messageClicked.emit()
    assert win.current_tab() is win.approvals_tab
    win.close()
