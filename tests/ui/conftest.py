"""Fixtures for widget tests: offscreen Qt, a qasync loop that is closed explicitly, an AppContext.

``QT_QPA_PLATFORM`` is set before anything creates a QApplication. The ``qloop`` fixture makes
a qasync loop that counts as running while pytest-qt's ``qtbot.wait*`` helpers spin Qt events,
so ``@asyncSlot`` handlers and ``ctx.run`` work inside ordinary synchronous tests; the loop is
stopped and closed at teardown (an unclosed loop ends the run with "Signal source has been
deleted").
"""

from __future__ import annotations

import asyncio
import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("QT_API", "pyside6")

from collections.abc import Iterator
from pathlib import Path

import pytest
import qasync
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

# The offscreen platform cannot resize native windows to their size hints and says so once per
# dialog; it is a property of the test platform, not of the window (xcb does not print it).
OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/ui/" in str(item.path).replace("\\", "/"):
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture(autouse=True)
def _error_sink_guard(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[list[BaseException]]:
    """Every error any AppContext reports fails the test, unless the test is marked
    ``expect_ui_errors`` (it provokes one on purpose and checks it)."""
    from context_center.ui.context import AppContext

    reported: list[BaseException] = []
    original = AppContext.report

    def report(self: AppContext, exc: BaseException, parent: object = None) -> None:
        reported.append(exc)
        original(self, exc, parent)  # type: ignore[arg-type]

    monkeypatch.setattr(AppContext, "report", report)
    yield reported
    if reported and request.node.get_closest_marker("expect_ui_errors") is None:
        listing = "; ".join(f"{type(e).__name__}: {e}" for e in reported)
        pytest.fail(f"the window reported {len(reported)} unexpected error(s): {listing}")


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    try:
        yield loop
    finally:
        # Let finished work deliver its callbacks, then cancel whatever is still pending.
        for _ in range(20):
            qapp.processEvents()
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        for _ in range(20):
            qapp.processEvents()
        # Not loop.stop(): it calls QApplication.exit(), which leaves Qt's "quit now" flag set
        # and starves the timers of the next test's loop. Mark the loop stopped directly.
        setattr(loop, "_QEventLoop__is_running", False)  # noqa: B010
        asyncio.events._set_running_loop(None)
        loop._after_run_forever()  # type: ignore[attr-defined]
        loop.close()
        asyncio.set_event_loop(None)


@pytest.fixture
def ctx(qloop: asyncio.AbstractEventLoop, engine):  # type: ignore[no-untyped-def]
    from context_center.ui.context import AppContext

    context = AppContext(engine)
    context.show_dialogs = False
    errors: list[BaseException] = []
    context.sig_error.connect(errors.append)
    context.errors = errors  # type: ignore[attr-defined]
    yield context
    context.shutdown()


@pytest.fixture
def settings(tmp_path: Path) -> QSettings:
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def open_window(qtbot, ctx, settings, wait_idle):  # type: ignore[no-untyped-def]
    """``open_window(**kw)``: the MainWindow at 1280×800, shown, active and idle (closed
    without asking at the end of the test)."""
    from context_center.ui.main_window import MainWindow

    opened: list[MainWindow] = []

    def open_(**kw: object) -> MainWindow:
        win = MainWindow(ctx, settings, **kw)
        qtbot.addWidget(win)
        win.resize(1280, 800)
        win.show()
        win.activateWindow()
        qtbot.waitUntil(lambda: QApplication.activeWindow() is win, timeout=3000)
        wait_idle()
        opened.append(win)
        return win

    yield open_
    for win in opened:
        win._close_confirmed = True
        win.close()


@pytest.fixture
def wait_idle(qtbot, ctx):  # type: ignore[no-untyped-def]
    """``wait_idle()`` waits until no engine call and no @busy handler or tab refresh runs."""

    def wait(timeout: int = 5000) -> None:
        qtbot.waitUntil(lambda: ctx.is_idle, timeout=timeout)

    return wait


@pytest.fixture
def app_style(qapp: QApplication) -> Iterator[None]:
    """The window's real look (Fusion, palette, stylesheet) for this test; the application is
    put back as the other tests found it afterwards."""
    from context_center.ui import style

    font, sheet, palette = qapp.font(), qapp.styleSheet(), qapp.palette()
    style_name = qapp.style().name()
    style.apply_style(qapp, dark=False)  # type: ignore[arg-type]
    yield
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)
    qapp.setStyle(style_name)
    qapp.setFont(font)
    style._state["tones"] = style.LIGHT
