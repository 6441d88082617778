"""The two processes of the soak test (tests/ui/test_soak.py); pytest does not collect this file.

``python soak_processes.py window --home H --workspace W --writes N ...`` starts the window the
way ``context-center`` does (``context_center.ui.launch.launch``). Once the window has loaded
and settled, it starts ``writer`` as another process and follows the writes. When the writer is
done, it waits until the window shows every new fact and queued approval, then checks that the
window still answers (an event round trip, an engine-worker round trip, a search in the Memory
tab). It prints one JSON report line (``REPORT {...}``) and closes the window; the process
exits with the launcher's code. ``sys.getrefcount(None)`` is sampled throughout: with a
PySide6 that drops references to ``None`` (issue 11, 6.12.0) it falls steadily until the
interpreter aborts with ``Fatal Python error: none_dealloc``.

``python soak_processes.py writer --home H --workspace W --writes N`` makes N writes into the
home, like an active agent: creates and updates through ``context_center.engine.Engine``, some
saves through the real CLI (``python -m context_center memory save``) and some agent writes that
the gate queues for approval. It prints ``WRITER {...}`` with the counts.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

SEARCH_WORD = "浸泡"  # every title the writer creates carries it ("soak")


# -- writer ------------------------------------------------------------------------------


def cli_save(home: str, workspace: str, name: str, title: str) -> None:
    env = dict(os.environ, CONTEXT_CENTER_HOME=home)
    command = [sys.executable, "-m", "context_center", "--workspace", workspace, "memory", "save"]
    command += ["--name", name, "--title", title, "--type", "reference", "--body", "from the CLI"]
    subprocess.run(command, env=env, check=True, capture_output=True, timeout=60)


def run_writer(ns: argparse.Namespace) -> int:
    from context_center.engine import Engine, FactType

    engine = Engine(home=ns.home, workspace=ns.workspace)
    counts = {"created": 0, "updated": 0, "queued": 0, "cli": 0}
    latest: list[Any] = []  # the facts created so far (the writer updates some of them)
    started = time.perf_counter()
    for i in range(ns.writes):
        name = f"soak-{i}"
        title = f"Soak {i} {SEARCH_WORD}"
        if ns.approvals_every and i % ns.approvals_every == ns.approvals_every - 1:
            request = {
                "operation": "create",
                "controller": "interactive",
                "owns_store": True,
                "agent": "soak-agent",
                "name": f"queued-{i}",
                "type": "user",
                "scope": "global",
                "body": f"queued write {i}",
            }
            decision = engine.agent_write(request).value
            if decision.outcome.value != "queued":
                raise SystemExit(f"expected a queued write, got {decision.outcome.value}")
            counts["queued"] += 1
        elif ns.cli_every and i % ns.cli_every == ns.cli_every // 2:
            cli_save(ns.home, ns.workspace, name, title)
            counts["cli"] += 1
            counts["created"] += 1
        elif i % 4 == 3 and latest:
            fact = latest.pop()
            engine.update_fact(fact.ref, expected_revision=fact.revision, body=f"updated {i}")
            counts["updated"] += 1
        else:
            fact = engine.create_fact(
                name=name, title=title, type=FactType.PROJECT, body=f"soak body {i}"
            ).value
            latest.append(fact)
            counts["created"] += 1
        if ns.pace:
            time.sleep(ns.pace)
    counts["seconds"] = round(time.perf_counter() - started, 2)
    print("WRITER " + json.dumps(counts), flush=True)
    return 0


# -- window ------------------------------------------------------------------------------


def none_refs() -> int:
    gc.collect()
    return sys.getrefcount(None)


async def until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}")
        await asyncio.sleep(0.02)


async def drive(app: Any, ns: argparse.Namespace, report: dict[str, Any]) -> None:
    from PySide6.QtCore import QTimer

    from context_center.ui.main_window import MainWindow

    def find_window() -> MainWindow | None:
        for widget in app.topLevelWidgets():
            if isinstance(widget, MainWindow) and widget.isVisible():
                return widget
        return None

    window: MainWindow | None = None
    writer: subprocess.Popen[str] | None = None
    try:
        window = await until(find_window, 30, "the main window")
        ctx = window.ctx
        ctx.show_dialogs = False  # an error is recorded, not shown (nobody is there to click)
        errors: list[str] = []
        ctx.sig_error.connect(lambda exc: errors.append(repr(exc)))
        report["errors"] = errors
        tab = window.memory_tab

        def rows() -> int:
            return len(tab.filter.rows)

        await until(lambda: rows() == ns.seeded and not ctx.has_work, 30, "the first load")
        await asyncio.sleep(ns.settle)  # a few poll ticks: every path has run once
        report["refs_before"] = before = none_refs()
        samples = [before]

        writer_cmd = [sys.executable, __file__, "writer", "--home", ns.home]
        writer_cmd += ["--workspace", ns.workspace, "--writes", str(ns.writes)]
        writer_cmd += ["--pace", str(ns.pace), "--cli-every", str(ns.cli_every)]
        writer_cmd += ["--approvals-every", str(ns.approvals_every)]
        started = time.perf_counter()
        writer = subprocess.Popen(
            writer_cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        emitted_at_start = len(window.watcher.emitted)
        while writer.poll() is None:
            await asyncio.sleep(0.25)
            samples.append(sys.getrefcount(None))
        out, err = writer.communicate()
        if writer.returncode != 0:
            raise RuntimeError(f"writer exited {writer.returncode}: {err[-2000:]}")
        counts = json.loads(out.split("WRITER ", 1)[1])
        report["writer"] = counts
        expected_rows = ns.seeded + counts["created"]
        await until(
            lambda: (
                rows() == expected_rows
                and window.pending_count == counts["queued"]
                and not ctx.has_work
            ),
            ns.catch_up,
            f"{expected_rows} facts and {counts['queued']} pending approvals in the window",
        )
        report["caught_up_s"] = round(time.perf_counter() - started, 2)
        report["rows"] = rows()
        report["count_label"] = tab.count_label.text()
        report["pending"] = window.pending_count
        report["badge"] = window.badge.text()
        report["refreshes"] = len(window.watcher.emitted) - emitted_at_start

        # Still answering: an event round trip, a worker round trip, a search in the Memory tab.
        loop = asyncio.get_running_loop()
        t0 = time.perf_counter()
        tick: asyncio.Future[None] = loop.create_future()
        QTimer.singleShot(0, lambda: tick.done() or tick.set_result(None))
        await asyncio.wait_for(tick, 5)
        report["event_round_trip_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        t0 = time.perf_counter()
        answer = await asyncio.wait_for(ctx.run(lambda: 42), 5)
        report["worker_round_trip_ms"] = round((time.perf_counter() - t0) * 1000, 2)
        report["worker_answer"] = answer
        tab.search.setText(SEARCH_WORD)
        tab.apply_filter()
        report["search_hits"] = tab.model.rowCount()
        tab.search.setText("")
        tab.apply_filter()

        await asyncio.sleep(ns.settle)
        report["refs_after"] = after = none_refs()
        samples.append(after)
        report["refs_min"] = min(samples)
        report["refs_samples"] = len(samples)
        report["soak_s"] = round(time.perf_counter() - started, 2)
    except BaseException as exc:
        report["failure"] = f"{type(exc).__name__}: {exc}"
        if writer is not None and writer.poll() is None:
            writer.kill()
            writer.wait()
    finally:
        if window is not None:
            window.close()  # the launcher ends the loop and shuts the worker down
        else:
            app.exit(5)


def run_window(ns: argparse.Namespace) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6 import __version__ as pyside_version
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from context_center.ui.launch import launch

    app = QApplication([sys.argv[0]])
    report: dict[str, Any] = {"pyside6": pyside_version}
    tasks: list[asyncio.Task[None]] = []
    QTimer.singleShot(0, lambda: tasks.append(asyncio.ensure_future(drive(app, ns, report))))
    args = argparse.Namespace(home=ns.home, workspace=ns.workspace, demo=False, smoke_test=False)
    code = launch(args)
    report["launch_code"] = code
    report["refs_exit"] = none_refs()
    print("REPORT " + json.dumps(report, ensure_ascii=False), flush=True)
    return code


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("role", choices=["window", "writer"])
    parser.add_argument("--home", required=True)
    parser.add_argument("--workspace", required=True)
    parser.add_argument("--writes", type=int, default=300)
    parser.add_argument("--pace", type=float, default=0.0, help="seconds between writes")
    parser.add_argument("--cli-every", type=int, default=0, help="every Nth write via the CLI")
    parser.add_argument("--approvals-every", type=int, default=0, help="every Nth write queued")
    parser.add_argument("--seeded", type=int, default=0, help="facts in the home at the start")
    parser.add_argument("--settle", type=float, default=1.5, help="idle seconds before measuring")
    parser.add_argument("--catch-up", type=float, default=60.0, help="seconds the window may lag")
    ns = parser.parse_args(argv)
    ns.home = str(Path(ns.home).resolve())
    ns.workspace = str(Path(ns.workspace).resolve())
    return run_window(ns) if ns.role == "window" else run_writer(ns)


if __name__ == "__main__":
    sys.exit(main())
