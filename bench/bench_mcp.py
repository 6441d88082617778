"""Agent front ends benchmark: MCP round trips over stdio next to the in-process call, and the
Claude Code UserPromptSubmit hook process.

Run: .venv/bin/python bench/bench_mcp.py [--sizes 10000,50000] [--hook-sizes 100,50000]
                                         [--repeat 3] [--hook-runs 5]

Not a test. For each size a temporary home gets the synthetic corpus of bench/corpus.py
(English, Chinese and mixed facts; 20% global), written as fact files; the stores and the
recall index are opened once so their on-disk caches exist, as on a machine in use.

* in-process: ``Engine.agent_recall(q)`` and ``Engine.agent_search(q, limit=20)`` with a caller
  (so the access log is written, by the background writer, as in the server) — exactly what
  the ``recall`` and ``memory_search`` tools run, including the per-call freshness check and,
  for recall, persisting the trace.
* mcp: a ``context-center mcp`` process on the same home, driven by the SDK's client over
  stdio (``mode="legacy"``: the 2025 protocol the agents speak); the time of ``call_tool``
  from the client's side (JSON-RPC both ways, validation, the tool, the JSON result).
  Each query runs in-process and then over stdio, alternately, so both see the same machine
  load; the fixed query set (``bench.corpus.QUERIES``) ``--repeat`` times after a warm-up
  round. Target: mcp p50 <= 2 x in-process p50 + 1 ms.
* hook: ``python -m context_center hook claude-code UserPromptSubmit`` with the documented
  JSON on stdin, a new process per run: wall time, CPU time (user+sys of the child) and peak
  RSS, next to ``python -c pass`` and the ``context-center recall --json`` process of the same
  size (the per-turn-cost targets are set for that one).
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
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

PROMPT = "why does the release branch deploy fail after the cache token migration?"


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def _summary(values: list[float]) -> dict[str, float]:
    return {"p50": statistics.median(values), "p95": _pct(values, 0.95), "n": len(values)}


def build_home(base: Path, n: int) -> tuple[Path, Path]:
    from bench.corpus import generate

    from context_center.engine import Engine, Scope
    from context_center.engine.store.factfile import render_fact

    home, workspace = base / f"home-{n}", base / f"ws-{n}"
    (workspace / ".git").mkdir(parents=True)
    engine = Engine(home=home, workspace=workspace)
    for store in (engine.memory.project.root, engine.memory.global_.root):
        store.mkdir(parents=True, exist_ok=True)
    for fact in generate(n):
        store = engine.memory.project if fact.scope is Scope.PROJECT else engine.memory.global_
        (store.root / f"{fact.name}.md").write_bytes(render_fact(fact))
    engine.open()  # writes the parsed-facts caches
    engine.agent_search("warm up", limit=1)
    engine.recaller.save_cache()
    return home, workspace


async def _side_by_side(home: Path, workspace: Path, repeat: int) -> dict[str, dict[str, Any]]:
    """Each query in-process, then the same query over stdio, alternately (so both see the
    same machine load at the same moment)."""
    from bench.corpus import QUERIES

    from context_center.engine import AgentCaller, Engine
    from mcp import Client, StdioServerParameters

    engine = Engine(home=home, workspace=workspace)
    engine.start_agent_session()
    caller = AgentCaller(agent="bench", client="bench")
    local_calls = {
        "recall": lambda q: engine.agent_recall(q, caller=caller),
        "memory_search": lambda q: engine.agent_search(q, limit=20, caller=caller),
    }
    remote_args = {
        "recall": lambda q: {"message": q},
        "memory_search": lambda q: {"query": q, "limit": 20},
    }
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "context_center", "--home", str(home), "--workspace", str(workspace), "mcp"],
        env=dict(os.environ),
        cwd=str(workspace),
    )
    local: dict[str, list[float]] = {"recall": [], "memory_search": []}
    remote: dict[str, list[float]] = {"recall": [], "memory_search": []}
    async with Client(params, read_timeout_seconds=600, mode="legacy") as client:
        for round_ in range(repeat + 1):  # round 0 warms both up
            for q in QUERIES:
                for tool in ("recall", "memory_search"):
                    start = time.perf_counter()
                    local_calls[tool](q)
                    mid = time.perf_counter()
                    result = await client.call_tool(tool, remote_args[tool](q))
                    end = time.perf_counter()
                    assert not result.is_error, result
                    if round_:
                        local[tool].append((mid - start) * 1000)
                        remote[tool].append((end - mid) * 1000)
    engine.close_agent_session()
    return {tool: {"local": _summary(local[tool]), "mcp": _summary(remote[tool])} for tool in local}


def side_by_side(home: Path, workspace: Path, repeat: int) -> dict[str, dict[str, Any]]:
    import anyio

    return anyio.run(_side_by_side, home, workspace, repeat)


# A child forked from this (large) process inherits its peak RSS in ru_maxrss, so children
# are started by a small launcher process, which reports the child's own rusage.
_LAUNCHER = """
import json, os, subprocess, sys, time
argv, cwd = json.loads(sys.argv[1]), sys.argv[2]
data = sys.stdin.buffer.read()
start = time.perf_counter()
proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                        stderr=subprocess.DEVNULL, cwd=cwd)
out, _ = proc.communicate(data)
_, status, use = os.wait4(proc.pid, 0) if proc.returncode is None else (0, 0, None)
wall = time.perf_counter() - start
use = use or __import__("resource").getrusage(__import__("resource").RUSAGE_CHILDREN)
print(json.dumps({"wall": wall, "cpu": use.ru_utime + use.ru_stime,
                  "rss": use.ru_maxrss, "code": proc.returncode, "out": out.decode()}))
"""


def _child(argv: list[str], stdin: str, cwd: Path) -> tuple[float, float, float, str]:
    """(wall ms, CPU ms, peak RSS MiB, stdout) of one child process."""
    done = subprocess.run(
        [sys.executable, "-c", _LAUNCHER, json.dumps(argv), str(cwd)],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
    )
    r = json.loads(done.stdout)
    assert r["code"] == 0, argv
    return r["wall"] * 1000, r["cpu"] * 1000, r["rss"] / 1024, r["out"]


def hook_runs(home: Path, workspace: Path, runs: int) -> dict[str, Any]:
    payload = json.dumps(
        {
            "session_id": "bench",
            "transcript_path": str(workspace / "t.jsonl"),
            "cwd": str(workspace),
            "permission_mode": "default",
            "hook_event_name": "UserPromptSubmit",
            "prompt": PROMPT,
        }
    )
    argv = [
        sys.executable,
        "-m",
        "context_center",
        "--home",
        str(home),
        "hook",
        "claude-code",
        "UserPromptSubmit",
    ]
    walls, cpus, rss = [], [], 0.0
    out = ""
    for _ in range(runs):
        wall, cpu, peak, out = _child(argv, payload, workspace)
        walls.append(wall)
        cpus.append(cpu)
        rss = max(rss, peak)
    return {"wall": _summary(walls), "cpu": _summary(cpus), "rss_mb": rss, "printed": bool(out)}


def cli_recall_runs(home: Path, workspace: Path, runs: int) -> dict[str, Any]:
    """``context-center recall PROMPT --json`` processes, for scale next to the hook."""
    argv = [
        sys.executable,
        "-m",
        "context_center",
        "--home",
        str(home),
        "--workspace",
        str(workspace),
        "recall",
        PROMPT,
        "--json",
    ]
    walls, cpus, rss = [], [], 0.0
    for _ in range(runs):
        wall, cpu, peak, _out = _child(argv, "", workspace)
        walls.append(wall)
        cpus.append(cpu)
        rss = max(rss, peak)
    return {"wall": _summary(walls), "cpu": _summary(cpus), "rss_mb": rss}


def python_pass(runs: int) -> dict[str, float]:
    walls = [_child([sys.executable, "-c", "pass"], "", ROOT)[0] for _ in range(runs)]
    return _summary(walls)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="10000,50000")
    parser.add_argument("--hook-sizes", default="100,50000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--hook-runs", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s]
    hook_sizes = [int(s) for s in args.hook_sizes.split(",") if s]
    base = Path(tempfile.mkdtemp(prefix="bench-mcp-", dir=os.environ.get("BENCH_TMP")))
    os.environ.setdefault("XDG_CACHE_HOME", str(base / "cache"))
    try:
        homes: dict[int, tuple[Path, Path]] = {}
        for n in sorted(set(sizes) | set(hook_sizes)):
            start = time.perf_counter()
            homes[n] = build_home(base, n)
            print(
                f"corpus {n:>6} facts written and opened in {time.perf_counter() - start:.1f} s",
                flush=True,
            )
        print()
        print(
            f"{'facts':>6} {'tool':<14} {'in-process p50/p95 ms':>22} {'mcp stdio p50/p95 ms':>21} "
            f"{'ratio p50':>9} {'target':>9}"
        )
        for n in sizes:
            home, workspace = homes[n]
            both = side_by_side(home, workspace, args.repeat)
            for tool in ("recall", "memory_search"):
                a, b = both[tool]["local"], both[tool]["mcp"]
                target = 2 * a["p50"] + 1.0
                ok = "ok" if b["p50"] <= target else "MISSED"
                print(
                    f"{n:>6} {tool:<14} {a['p50']:>10.2f} / {a['p95']:<9.2f} {b['p50']:>9.2f} / "
                    f"{b['p95']:<9.2f} {b['p50'] / a['p50']:>8.2f}x {ok:>4} <={target:.1f}",
                    flush=True,
                )
        print()
        base_pass = python_pass(args.hook_runs)
        print(f"python -c pass: wall p50 {base_pass['p50']:.0f} ms")
        results = {}
        for n in hook_sizes:
            home, workspace = homes[n]
            r = hook_runs(home, workspace, args.hook_runs)
            results[n] = r
            print(
                f"hook UserPromptSubmit at {n:>6} facts: wall p50 {r['wall']['p50']:.0f} ms "
                f"p95 {r['wall']['p95']:.0f} ms, CPU p50 {r['cpu']['p50']:.0f} ms, "
                f"peak RSS {r['rss_mb']:.0f} MiB, block printed: {r['printed']}",
                flush=True,
            )
            c = cli_recall_runs(home, workspace, args.hook_runs)
            print(
                f"  (`context-center recall --json` at {n:>6}: wall p50 {c['wall']['p50']:.0f} ms, "
                f"CPU p50 {c['cpu']['p50']:.0f} ms, peak RSS {c['rss_mb']:.0f} MiB)",
                flush=True,
            )
        if len(hook_sizes) >= 2:
            lo, hi = results[min(hook_sizes)], results[max(hook_sizes)]
            print(
                f"hook {max(hook_sizes)}/{min(hook_sizes)} CPU ratio: "
                f"{hi['cpu']['p50'] / lo['cpu']['p50']:.2f}"
            )
    finally:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
