"""Start the window: display check, QApplication identity and style, qasync loop, smoke test.

``launch(args)`` is what ``context-center`` without a subcommand calls. ``args`` carries
``home``, ``workspace``, ``demo``, ``smoke_test`` and ``language``. Exit codes: 0 normal (and after SIGTERM
or SIGHUP), 1 no display, 3 smoke test timed out, 130 after Ctrl+C in the terminal
(``ui/signals.py``).

``--demo`` writes the sample into a temporary folder that is removed on every exit — the
window closed, a signal, an exception — and whose workspace never enters the recent list.

``--smoke-test`` follows ``.notes/packaging-requests.md``: the same start-up as a normal launch,
then on the first paint of the main window one JSON line on stdout and exit 0. The line
names the language shown (``language``: ``en`` or ``zh_CN``) and the tab titles as shown
(``tabs``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import shutil
import sys
import tempfile
import time
import traceback
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from context_center.ui.signals import GracefulExit

log = logging.getLogger(__name__)

SMOKE_TIMEOUT_ENV = "CONTEXT_CENTER_SMOKE_TIMEOUT"
NO_DISPLAY_MESSAGE = (
    "context-center: no display found (neither DISPLAY nor WAYLAND_DISPLAY is set).\n"
    "Start it from a desktop session, or set QT_QPA_PLATFORM=offscreen for a headless run.\n"
    "The commands (context-center memory ..., --help) work without a display.\n"
)

_T0 = time.perf_counter()  # fallback start mark: when the launcher module was imported


def has_display(environ: Any = os.environ, platform: str = sys.platform) -> bool:
    """False on Linux/BSD when Qt would abort for lack of a display (QT-ON-DEBIAN.md)."""
    if not (platform.startswith("linux") or "bsd" in platform):
        return True
    return any(environ.get(name) for name in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"))


def configure_application(app: Any) -> None:
    from context_center import APP_DISPLAY_NAME, APP_NAME, ORGANIZATION, __version__
    from context_center.ui.icons import APP_ID, app_icon
    from context_center.ui.style import apply_style

    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationDisplayName(APP_DISPLAY_NAME)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName(APP_ID)
    app.setWindowIcon(app_icon())
    apply_style(app)


def launch(args: argparse.Namespace, *, started_at: float | None = None) -> int:
    """Open the window. ``started_at`` is ``perf_counter()`` at the start of ``cli.main()``
    (for ``--smoke-test``'s launch-to-paint figure); else this module's import time."""
    main_started = started_at if started_at is not None else _T0
    if not has_display():
        sys.stderr.write(NO_DISPLAY_MESSAGE)
        return 1
    from context_center.ui.signals import GracefulExit

    exit_on_signal = GracefulExit()
    exit_on_signal.install()  # first: a signal during start-up still cleans up
    try:
        return _launch(args, main_started, exit_on_signal)
    finally:
        exit_on_signal.restore()


def _launch(args: argparse.Namespace, main_started: float, exit_on_signal: GracefulExit) -> int:
    os.environ.setdefault("QT_API", "pyside6")
    import qasync
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication([sys.argv[0] if sys.argv else "context-center"])
    configure_application(app)
    from PySide6.QtCore import QSettings

    from context_center.ui.i18n import install_language

    install_language(QSettings(), getattr(args, "language", None))  # before any widget
    # The loop ends when the main coroutine returns (window closed), not when Qt decides the
    # last window is gone; otherwise Qt stops the loop under a still-running coroutine.
    app.setQuitOnLastWindowClosed(False)  # type: ignore[attr-defined]  # a QGuiApplication

    demo_dir: Path | None = None
    home = getattr(args, "home", None)
    workspace = getattr(args, "workspace", None)
    result = {"code": 0}
    try:
        if getattr(args, "demo", False):
            demo_dir = Path(tempfile.mkdtemp(prefix="context-center-demo-"))
            # the demo's derived data (store and recall caches) goes with it, not to ~/.cache
            os.environ["CONTEXT_CENTER_CACHE"] = str(demo_dir / "cache")
            home, workspace = _demo(demo_dir)
        smoke = bool(getattr(args, "smoke_test", False))
        transient = (demo_dir,) if demo_dir is not None else ()
        qasync.run(
            _run(app, home, workspace, smoke, result, main_started, exit_on_signal, transient)
        )
    finally:
        if demo_dir is not None:
            shutil.rmtree(demo_dir, ignore_errors=True)
    return exit_on_signal.code if exit_on_signal.code is not None else result["code"]


def _demo(folder: Path) -> tuple[str, str]:
    from context_center.demo import generate

    sample = generate(folder)
    sys.stderr.write(
        f"context-center: demo home {sample.home}\n"
        f"context-center: demo workspace {sample.workspace}\n"
        "context-center: (both are deleted when the window closes)\n"
    )
    return str(sample.home), str(sample.workspace)


async def _run(
    app: Any,
    home: str | None,
    workspace: str | None,
    smoke: bool,
    result: dict[str, int],
    main_started: float,
    exit_on_signal: GracefulExit,
    transient: tuple[Path, ...],
) -> None:
    from PySide6.QtCore import QSettings

    from context_center.engine import Engine
    from context_center.ui.context import AppContext
    from context_center.ui.main_window import MainWindow

    loop = asyncio.get_running_loop()
    done: asyncio.Future[None] = loop.create_future()
    engine = Engine(home=home, workspace=workspace)
    ctx = AppContext(engine)
    if smoke:
        ctx.show_dialogs = False  # nothing may block a smoke test
    previous_hook = sys.excepthook

    def excepthook(
        exc_type: type[BaseException], exc: BaseException, tb: TracebackType | None
    ) -> None:
        traceback.print_exception(exc_type, exc, tb)
        if isinstance(exc, Exception):
            ctx.report(exc)

    sys.excepthook = excepthook
    settings = QSettings()
    window = MainWindow(ctx, settings, transient_roots=transient)
    window.sig_closed.connect(lambda: None if done.done() else done.set_result(None))
    exit_on_signal.close = window.force_close
    exit_on_signal.start_ticking()
    if exit_on_signal.code is not None:  # a signal came while the window was being built
        window.force_close()
    if smoke:
        _watch_first_paint(window, result, main_started)

    window.show()
    warm = _WarmServer(home, start_after_ms=None if smoke else WARM_SERVER_DELAY_MS)
    if not smoke:  # the Suggestions scan's phrase index, by a child (``ui/index_child.py``)
        ctx.phrase_index.prewarm(ctx.reader_engine, PHRASE_INDEX_DELAY_S)
    try:
        await done
    finally:
        warm.stop()
        sys.excepthook = previous_hook
        window.watcher.stop()
        # let running engine calls finish before the loop closes
        for _ in range(200):
            if not ctx.has_work:
                break
            await asyncio.sleep(0.01)
        ctx.shutdown()
        window.deleteLater()
        app.processEvents()


WARM_SERVER_DELAY_MS = 3000
PHRASE_INDEX_DELAY_S = 5.0  # after the warm server, once the window has settled


class _WarmServer:
    """The ``serve`` child that answers this home's per-turn CLI and hook processes while the
    window is open (``cli/serve.py``), started once the window has settled: its warm-up
    would otherwise compete with the first paint for the CPU."""

    def __init__(self, home: str | None, start_after_ms: int | None) -> None:
        from PySide6.QtCore import QTimer

        self.home = home
        self.child: Any = None
        self.stopped = False
        if start_after_ms is not None:
            QTimer.singleShot(start_after_ms, self.start)

    def start(self) -> None:
        from context_center.warmchild import start_child

        if not self.stopped and self.child is None:
            self.child = start_child(self.home)

    def stop(self) -> None:
        from context_center.warmchild import stop_child

        self.stopped = True
        stop_child(self.child, self.home)


def _watch_first_paint(window: Any, result: dict[str, int], main_started: float) -> None:
    """``--smoke-test``: one JSON line on the first paint, then close (or time out)."""
    from PySide6.QtCore import QEvent, QObject, QTimer

    from context_center import __version__

    timeout_s = float(os.environ.get(SMOKE_TIMEOUT_ENV) or 30)
    started = time.perf_counter()

    def report() -> None:
        from PySide6.QtGui import QGuiApplication

        from context_center.ui.i18n import current_language

        line = {
            "smoke_test": "ok",
            "version": __version__,
            "painted_at": time.time(),
            "since_main_ms": round((time.perf_counter() - main_started) * 1000, 1),
            "qt_platform": QGuiApplication.platformName(),
            "application_name": QGuiApplication.applicationName(),
            "organization_name": QGuiApplication.organizationName(),
            "desktop_file_name": QGuiApplication.desktopFileName(),
            "window_title": window.windowTitle(),
            "window_icon": not QGuiApplication.windowIcon().isNull(),
            "language": current_language(),
            "tabs": [window.tabs.tabText(i) for i in range(window.tabs.count())],
        }
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()
        window.close()

    class PaintFilter(QObject):
        seen = False

        def eventFilter(self, obj: QObject, event: QEvent) -> bool:
            if not self.seen and event.type() == QEvent.Type.Paint:
                self.seen = True
                QTimer.singleShot(0, report)
            return False

    def on_timeout() -> None:
        if painter.seen:
            return
        waited = round(time.perf_counter() - started, 1)
        line = {"smoke_test": "timeout", "version": __version__, "waited_s": waited}
        sys.stdout.write(json.dumps(line) + "\n")
        sys.stdout.flush()
        result["code"] = 3
        window.close()

    painter = PaintFilter(window)
    window.installEventFilter(painter)
    QTimer.singleShot(int(timeout_s * 1000), on_timeout)
