"""References to ``None`` the window loses on its long-running paths (issue 11).

Run (headless), once per PySide6 build to compare:

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_none_refs.py [--idle 60] [--writes 50]

PySide6-Essentials 6.12.0 drops a reference to ``None`` on every call of a wrapped method that
returns nothing (``QObject.killTimer``, ``QTimer.start``/``stop``, ``processEvents``, setters
...), and one to ``True`` on every ``Signal.emit``. Python 3.11's ``None`` is not immortal, so a
window that keeps working aborts with ``Fatal Python error: none_dealloc``. This starts the real
window (``context_center.ui.launch.launch``) on a temporary home and measures the change in
``sys.getrefcount(None)`` (and of ``True``) across each path:

* idle with the watcher's 1 s poll running (per minute);
* the watcher's check (what each poll tick runs) with nothing changed;
* the engine worker (``AppContext.run`` round trips);
* the approvals badge refresh and the Approvals and Memory tab reloads;
* outside writes: another process saves a fact, the window follows it (per write).

To keep a leaking build alive long enough to measure, the process first takes 1,000,000 extra
references to ``None``, ``True`` and ``False`` (never given back). Prints one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import gc
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

CUSHION = 1_000_000

WRITER = """
import sys
from context_center.engine import Engine, FactType
engine = Engine(home=sys.argv[1], workspace=sys.argv[2])
for i, _line in enumerate(sys.stdin):
    engine.create_fact(name=f"outside-{i}", title=f"Outside {i}", type=FactType.PROJECT, body="x")
    print("done", flush=True)
"""


def counts() -> tuple[int, int]:
    gc.collect()
    return sys.getrefcount(None), sys.getrefcount(True)


async def measure(name: str, n: int, step: Callable[[], Awaitable[Any]], out: dict) -> None:
    await step()  # warm-up: first calls fill caches
    n0, t0 = counts()
    started = time.perf_counter()
    for _ in range(n):
        await step()
    n1, t1 = counts()
    out[name] = {
        "calls": n,
        "none_delta": n1 - n0,
        "none_per_call": round((n1 - n0) / n, 2),
        "true_delta": t1 - t0,
        "seconds": round(time.perf_counter() - started, 2),
    }


async def until(check: Callable[[], Any], timeout: float = 30, what: Any = None) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise TimeoutError(f"the window did not catch up {what() if what else ''}")
        await asyncio.sleep(0.01)


async def drive(app: Any, ns: argparse.Namespace, home: Path, ws: Path, out: dict) -> None:
    from context_center.ui.main_window import MainWindow

    window: MainWindow | None = None
    try:
        await until(
            lambda: any(isinstance(w, MainWindow) and w.isVisible() for w in app.topLevelWidgets())
        )
        window = next(w for w in app.topLevelWidgets() if isinstance(w, MainWindow))
        ctx = window.ctx
        ctx.show_dialogs = False
        rows = lambda: len(window.memory_tab.filter.rows)  # noqa: E731
        await until(lambda: rows() == 1 and not ctx.has_work)
        await asyncio.sleep(2)  # the first poll ticks

        # idle, poll running
        n0, t0 = counts()
        ticks0 = time.perf_counter()
        await asyncio.sleep(ns.idle)
        n1, t1 = counts()
        minutes = (time.perf_counter() - ticks0) / 60
        out["idle_poll_running"] = {
            "seconds": ns.idle,
            "none_delta": n1 - n0,
            "none_per_minute": round((n1 - n0) / minutes, 1),
            "true_delta": t1 - t0,
        }

        async def check() -> None:
            window.watcher.check()

        await measure("watcher_check_no_change", 1000, check, out)

        async def worker() -> None:
            await ctx.run(int)

        await measure("engine_worker_round_trip", 1000, worker, out)

        async def badge() -> None:
            await window._refresh_badge()  # the asyncSlot returns its task

        await measure("approvals_badge_refresh", 100, badge, out)

        async def approvals() -> None:
            await window.approvals_tab.refresh()

        await measure("approvals_tab_reload", 50, approvals, out)

        async def memory() -> None:
            await window.memory_tab.refresh()

        await measure("memory_tab_reload", 50, memory, out)

        writer = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(home), str(ws)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert writer.stdin is not None and writer.stdout is not None
        written = [0]

        async def outside_write() -> None:
            writer.stdin.write("go\n")
            writer.stdin.flush()
            writer.stdout.readline()
            written[0] += 1
            target = 1 + written[0]
            await until(
                lambda: rows() == target and not ctx.has_work,
                what=lambda: (rows(), target, ctx.has_work, ctx._running, ctx._active_handlers),
            )
            await asyncio.sleep(0.2)  # let the debounce and poll settle

        await measure("outside_write_followed", ns.writes, outside_write, out)
        writer.stdin.close()
        writer.wait()
        out["emitted_changes"] = len(window.watcher.emitted)
    except BaseException as exc:
        out["failure"] = f"{type(exc).__name__}: {exc}"
    finally:
        if window is not None:
            window.close()
        else:
            app.exit(5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--idle", type=float, default=60.0, help="idle seconds (poll running)")
    parser.add_argument("--writes", type=int, default=50, help="outside writes")
    ns = parser.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ.setdefault("QT_API", "pyside6")
    for singleton in (None, True, False):
        for _ in range(CUSHION):
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(singleton))

    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from context_center.engine import Engine, FactType
    from context_center.ui.launch import launch

    base = Path(tempfile.mkdtemp(prefix="cc-none-refs-"))
    home, ws = base / "home", base / "ws"
    (ws / ".git").mkdir(parents=True)
    home.mkdir()
    os.environ["XDG_CONFIG_HOME"] = str(base / "config")
    Engine(home=home, workspace=ws).create_fact(
        name="seed", title="Seed", type=FactType.PROJECT, body="x"
    )
    app = QApplication([sys.argv[0]])
    out: dict[str, Any] = {"pyside6": pyside_version, "python": sys.version.split()[0]}
    tasks: list[asyncio.Future[None]] = []
    QTimer.singleShot(0, lambda: tasks.append(asyncio.ensure_future(drive(app, ns, home, ws, out))))
    code = launch(
        argparse.Namespace(home=str(home), workspace=str(ws), demo=False, smoke_test=False)
    )
    out["launch_code"] = code
    print(json.dumps(out, indent=1))
    return code


if __name__ == "__main__":
    sys.exit(main())
