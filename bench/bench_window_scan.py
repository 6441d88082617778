"""Window benchmark: the Suggestions tab's first scan on a 20,000-fact home, and a save made
by another process meanwhile (issue 19, §4).

    QT_QPA_PLATFORM=offscreen .venv/bin/python bench/bench_window_scan.py [--facts 20000]
                                                                         [--keep DIR]

Writes the facts (``bench/corpus.py``, as ``bench_window.py`` does) and five sessions of
history into a temporary home, then runs the real ``MainWindow`` in fresh processes:

* ``first ever``: no phrase index for the workspace yet. The tab's first scan waits for the
  ``suggestions index`` child (which cuts every fact, on the other core) and then scans. One
  second after switching to the tab, another process saves a fact (``context-center memory
  save``); the figure is how long until the Memory tab shows it, next to the same save in a
  window that is not scanning (the documented ~1 s: the watcher's poll and a reload).
* ``index current``: a new window on the same home; its child finds the index current.

Times are wall seconds from switching to the Suggestions tab (after the window has loaded and
settled), medians of ``--runs``.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CHILD = r"""
import asyncio, json, os, subprocess, sys, time
from pathlib import Path
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
import qasync
from context_center.engine import Engine
from context_center.ui.context import AppContext
from context_center.ui.main_window import MainWindow

home, ws, mode, settings = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3], sys.argv[4]
app = QApplication([])
app.setQuitOnLastWindowClosed(False)
loop = qasync.QEventLoop(app)
asyncio.set_event_loop(loop)
ctx = AppContext(Engine(home=home, workspace=ws))
ctx.show_dialogs = False
out = {}
win = None

async def settled():
    win.show_tab(win.memory_tab)
    quiet = 0
    while quiet < 10:  # idle for 0.5 s in a row
        await asyncio.sleep(0.05)
        quiet = quiet + 1 if not ctx.has_work and win.memory_tab.model.rowCount() else 0

async def main():
    global win
    win = MainWindow(ctx, QSettings(settings, QSettings.Format.IniFormat))  # inside the loop,
    win.resize(1280, 800)  # as launch.py builds it
    win.show()
    await settled()
    tab = win.suggestions_tab
    t0 = time.perf_counter()
    if mode != "no-scan":
        win.show_tab(tab)
    if mode in ("save", "no-scan"):
        await asyncio.sleep(1.0)
        name = f"bench-late-{time.time_ns()}"
        proc = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "context_center", "--home", str(home), "--workspace", str(ws),
            "memory", "save", "--name", name, "--type", "project", "--body", "saved meanwhile",
            stdout=subprocess.DEVNULL)
        await proc.wait()
        t1 = time.perf_counter()
        win.show_tab(win.memory_tab)
        while not any(r.name == name for r in win.memory_tab.model.rows):
            await asyncio.sleep(0.02)
            if time.perf_counter() - t1 > 60:
                break
        out["save_shown_s"] = round(time.perf_counter() - t1, 3)
        subprocess.run([sys.executable, "-m", "context_center", "--home", str(home),
                        "--workspace", str(ws), "memory", "forget", name], capture_output=True)
    if mode != "no-scan":
        while tab.scan_count < 1:
            await asyncio.sleep(0.02)
        out["scan_shown_s"] = round(time.perf_counter() - t0, 3)
        out["memories"] = len(tab.result.memories)
        out["children"] = ctx.phrase_index.started
    while ctx.has_work:
        await asyncio.sleep(0.05)
    win.close()
    await asyncio.sleep(0.1)

with loop:
    loop.run_until_complete(main())
ctx.shutdown()
print(json.dumps(out))
"""


def build(root: Path, n: int) -> tuple[Path, Path]:
    from bench.bench_suggestions import FEW_SESSIONS
    from bench.bench_window import write_home

    from context_center.engine.facade import Engine

    home, workspace = root / "home", root / "work"
    (workspace / ".git").mkdir(parents=True)
    write_home(home, workspace, n)
    engine = Engine(home=home, workspace=workspace)
    engine.memory.load()  # the store cache, as any first open writes it
    for i, text in enumerate(FEW_SESSIONS):
        engine.append_history(text, session=f"few-{i}")
    return home, workspace


def window(root: Path, home: Path, workspace: Path, mode: str) -> dict[str, float]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env["CONTEXT_CENTER_NO_SERVER"] = "1"
    settings = root / f"settings-{time.time_ns()}.ini"
    argv = [sys.executable, "-c", CHILD, str(home), str(workspace), mode, str(settings)]
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(proc.stderr)
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--facts", type=int, default=20000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", metavar="DIR", help="build the home here and keep it")
    args = parser.parse_args()
    from bench.installed import byte_compile

    byte_compile()  # as installed: no process below compiles a module
    root = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-window-scan-"))
    os.environ["XDG_CACHE_HOME"] = str(root / "cache")
    os.environ.pop("CONTEXT_CENTER_CACHE", None)
    try:
        home, workspace = root / "home", root / "work"
        if not home.exists():
            t0 = time.perf_counter()
            build(root, args.facts)
            print(
                f"home: {args.facts:,} facts and 5 sessions written in {time.perf_counter() - t0:.1f} s"
            )
        firsts, saves, currents, quiet = [], [], [], []
        for _ in range(args.runs):
            for path in (root / "cache").rglob("phrases-v1.bin"):
                path.unlink()
            first = window(root, home, workspace, "save")
            firsts.append(first["scan_shown_s"])
            saves.append(first["save_shown_s"])
            currents.append(window(root, home, workspace, "scan")["scan_shown_s"])
            quiet.append(window(root, home, workspace, "no-scan")["save_shown_s"])
        med = statistics.median
        print(
            f"first scan ever (no phrase index; the child writes it first): {med(firsts):.2f} s "
            f"median of {args.runs} (max {max(firsts):.2f}); {first['memories']} memory candidates"
        )
        print(
            f"a save by another process during it shown after {med(saves):.2f} s "
            f"(max {max(saves):.2f}); with no scan running {med(quiet):.2f} s"
        )
        print(f"first scan of a new window with the index current: {med(currents):.2f} s")
        return 0
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
