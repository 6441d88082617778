"""Per-turn cost: recall and saves as agents make them, next to tantivy and SQLite FTS5.

Run: .venv/bin/python bench/bench_turn.py [--sizes 100,10000,50000] [--runs 9]

Not a test: it prints figures (CPU time and wall, medians and p95) and the issue-13 targets
beside them, all from one run, measured side by side and interleaved:

* **calls** (one process per size, each call timed with ``time.process_time`` and
  ``perf_counter``, the engines taking turns on every message of
  ``bench.corpus.TURN_QUERIES``): the core call (``Recaller.recall`` with the facts tuple and
  conflicts an agent server passes), the facade call (``Engine.recall(message)``: the stores
  as they are now), the window's call (``Engine.recall(message, view=engine.view())``),
  tantivy (``tantivy`` from PyPI; a term query per message term, top 20, with the ids read
  back), SQLite FTS5 (bm25, top 20) and rank-bm25's ``BM25Okapi`` (scores, top 20). tantivy
  and FTS5 index the same pre-tokenised text and search the same terms recall does (our
  terms, CJK pieces included: neither tokenizer can search two-character Chinese words);
* **processes** (each run with ``os.wait4``: CPU = user + system, peak RSS of that process):
  ``context-center recall "…" --json``, ``context-center memory save`` (a new fact) and the
  recall right after it, against ``sqlite3`` running one FTS5 query and a Python process
  that opens the tantivy index and searches it (``python -c pass`` for scale). Read-only
  runs come first, then the save / recall pairs; sizes and kinds alternate in every round;
* **served processes**: the same commands while a ``context-center serve`` process (the warm
  server the window and ``mcp`` keep for a home) runs for that home: the client process's CPU
  (``wait4``) plus the server's CPU for that request (``/proc/<pid>/schedstat``, ns), so the
  figure is everything the turn costs; also the Claude Code ``UserPromptSubmit`` hook process,
  cold and served;
* **writes**: ``Engine.create_fact`` and ``update_fact`` in an opened engine at 1,000 facts
  and at the largest size.

Homes are written with ``bench.corpus`` into a temporary folder (``--keep DIR`` reuses one).

The processes are measured as installed: an install byte-compiles the package, while an
editable checkout on a machine with ``PYTHONDONTWRITEBYTECODE`` set (or with sources newer than
their ``.pyc``) would make every cold process compile modules it imports. So before any timing
the driver byte-compiles the ``context_center`` package it imports (``compileall`` into its
``__pycache__`` folders, once; up-to-date files are left alone).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
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

PY = sys.executable
TIME = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
CALLS = ("core", "facade", "window", "tantivy", "fts5", "bm25okapi")
PROC_MESSAGES = 8  # messages the process runs rotate through
TV_QUERY = """import sys, tantivy
idx = tantivy.Index.open(sys.argv[1]); s = idx.searcher(); schema = idx.schema
q = tantivy.Query.boolean_query(
    [(tantivy.Occur.Should, tantivy.Query.term_query(schema, "text", t)) for t in sys.argv[2:]])
print([s.doc(a)["id"][0] for _, a in s.search(q, 20).hits])
"""


def pct(values: list[float], p: float) -> float:
    v = sorted(values)
    if not v:
        return float("nan")
    k = (len(v) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(v) - 1)
    return v[lo] + (v[hi] - v[lo]) * (k - lo)


def med(values: list[float]) -> float:
    return statistics.median(values) if values else float("nan")


# -- building the homes and the other engines' indexes ---------------------------------------


def terms_of(message: str) -> list[str]:
    from context_center.engine.recall import is_generic_turn, query_terms, searchable

    if is_generic_turn(message):
        return []
    return list(dict.fromkeys(t.text for t in searchable(query_terms(message))))


def build(n: int, work: Path) -> None:
    """A home with ``n`` facts (files, the stores' and the recall cache), an FTS5 database
    and a tantivy index of the same text."""
    import sqlite3

    import tantivy
    from bench.corpus import generate

    from context_center.engine.recall import tokens
    from context_center.engine.recall.index import index_text
    from context_center.engine.store.factfile import render_fact
    from context_center.engine.store.paths import Layout

    home, ws = work / "home", work / "ws"
    (ws / ".git").mkdir(parents=True, exist_ok=True)
    layout = Layout(home, ws)
    stores = {"project": layout.project_store, "global": layout.global_store}
    for s in stores.values():
        s.mkdir(parents=True, exist_ok=True)
    con = sqlite3.connect(work / "fts.db")
    con.execute("PRAGMA synchronous=OFF")
    con.execute(
        'CREATE VIRTUAL TABLE docs USING fts5(text, tokenize="unicode61 remove_diacritics 0 '
        "tokenchars '_'\")"
    )
    sb = tantivy.SchemaBuilder()
    sb.add_text_field("id", stored=True, tokenizer_name="raw")
    sb.add_text_field("text", stored=False, tokenizer_name="whitespace")
    (work / "tantivy").mkdir(exist_ok=True)
    tv = tantivy.Index(sb.build(), path=str(work / "tantivy"))
    writer = tv.writer()
    rows = []
    for i, f in enumerate(generate(n)):
        (stores[f.scope.value] / f"{f.name}.md").write_bytes(render_fact(f))
        text = " ".join(tokens(index_text(f)))
        rows.append((i, text))
        writer.add_document(tantivy.Document(id=f.id, text=text))
    con.executemany("INSERT INTO docs(rowid, text) VALUES (?, ?)", rows)
    con.commit()
    con.execute("INSERT INTO docs(docs) VALUES('optimize')")
    con.commit()
    con.close()
    writer.commit()
    writer.wait_merging_threads()
    (work / "tv_query.py").write_text(TV_QUERY)
    # the first recall loads the stores and writes their caches and the recall cache; one
    # write (and its undo) makes the home look used: the store's lock file and MEMORY.md
    # exist, as in any store something was ever saved to
    env = _env(work)
    _cli(work, env, "recall", "warm up the caches", check=True)
    _cli(work, env, "memory", "save", "--name", "bench warm-up", "--type", "project",
         "--body", "warm-up", check=True)  # fmt: skip
    _cli(work, env, "memory", "forget", "bench-warm-up", check=True)
    # let the stamps age past the racy window, then make the next recall load the stores
    # and save the cache at the current stamps (without the journal it cannot replay)
    time.sleep(stamp_racy_s() + 0.2)
    for journal in (work / "cache" / "stores").glob("*/journal"):
        journal.unlink()
    _cli(work, env, "recall", "warm up the caches", check=True)


SETTLE = """import sys
from pathlib import Path
from context_center.engine.facade import Engine
print(int(Engine(home=Path(sys.argv[1]), workspace=Path(sys.argv[2])).refresh_recall_cache()))
"""


def settle(work: Path) -> bool:
    """Bring a home's recall cache to the state every caller meets after its first turn:
    up to date with the stores and knowing each fact's withheld spans by the scanner of the
    code that runs now (a reused home's cache may have been written by older code; a cold
    process would then hand the rewrite to a detached child, which would run during the
    measurements). What the rewrite child does (``Engine.refresh_recall_cache``); True when
    the cache had to be written."""
    proc = subprocess.run(
        [PY, "-c", SETTLE, str(work / "home"), str(work / "ws")],
        env=_env(work),
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return proc.stdout.strip() == "1"


def stamp_racy_s() -> float:
    """The longest racy window (a folder whose times are whole seconds)."""
    from context_center.engine.store.stamp import RACY_NS

    return RACY_NS / 1e9


def _env(work: Path, served: bool = False) -> dict[str, str]:
    env = dict(os.environ)
    env["CONTEXT_CENTER_CACHE"] = str(work / "cache")
    env["CONTEXT_CENTER_HOME"] = str(work / "home")
    env.pop("CONTEXT_CENTER_NO_SERVER", None)
    if not served:  # a cold process: it does not look for a warm server
        env["CONTEXT_CENTER_NO_SERVER"] = "1"
    return env


def _cli(work: Path, env: dict[str, str], *argv: str, check: bool = False) -> None:
    cmd = [PY, "-m", "context_center", "--home", str(work / "home"), "--workspace"]
    subprocess.run(
        [*cmd, str(work / "ws"), *argv, "--json"], env=env, check=check, capture_output=True
    )


# -- calls, in one process per size ------------------------------------------------------------


def calls_worker(n: int, work: Path, limit: int) -> dict[str, Any]:
    os.environ["CONTEXT_CENTER_CACHE"] = str(work / "cache")
    import sqlite3

    import numpy as np
    import tantivy
    from bench.corpus import TURN_QUERIES
    from rank_bm25 import BM25Okapi

    from context_center.engine import Engine

    home, ws = work / "home", work / "ws"
    core, facade, window = (Engine(home=home, workspace=ws) for _ in range(3))
    view = core.open(persist_cache=False)
    facts, conflicts = tuple(view.facts), view.conflicts
    window.open(persist_cache=False)
    tv = tantivy.Index.open(str(work / "tantivy"))
    searcher, schema = tv.searcher(), tv.schema
    con = sqlite3.connect(work / "fts.db")
    rows = [r[0] for r in con.execute("SELECT text FROM docs ORDER BY rowid")]
    bm = BM25Okapi([r.split() for r in rows])
    ids = [f.id for f in sorted(facts, key=lambda f: int(f.name.split("-")[-1]))]
    messages = TURN_QUERIES[:limit] if limit else TURN_QUERIES
    plans = {m: terms_of(m) for m in messages}

    def run_tantivy(m: str) -> object:
        q = tantivy.Query.boolean_query(
            [(tantivy.Occur.Should, tantivy.Query.term_query(schema, "text", t)) for t in plans[m]]
        )
        return [searcher.doc(a)["id"][0] for _, a in searcher.search(q, 20).hits]

    def run_fts(m: str) -> object:
        if not plans[m]:
            return []
        match = " OR ".join('"' + t.replace('"', '""') + '"' for t in plans[m])
        sql = "SELECT rowid FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 20"
        return [ids[r[0]] for r in con.execute(sql, (match,))]

    def run_bm25(m: str) -> object:
        if not plans[m]:
            return []
        scores = bm.get_scores(plans[m])
        top = np.argpartition(-scores, 19)[:20]
        return [ids[i] for i in top[np.argsort(-scores[top])] if scores[i] > 0]

    fns = {
        "core": lambda m: core.recaller.recall(m, facts, conflicts, persist=False),
        "facade": lambda m: facade.recall(m, persist=False),
        "window": lambda m: window.recall(m, view=window.view(), persist=False),
        "tantivy": run_tantivy,
        "fts5": run_fts,
        "bm25okapi": run_bm25,
    }
    for name in CALLS:  # one untimed pass: every engine's first-call costs out of the way
        fns[name](messages[0])
    out: dict[str, dict[str, list[float]]] = {k: {"cpu": [], "wall": []} for k in CALLS}
    for i, m in enumerate(messages):
        order = CALLS[i % len(CALLS) :] + CALLS[: i % len(CALLS)]
        for name in order:
            c, t = time.process_time(), time.perf_counter()
            fns[name](m)
            out[name]["wall"].append((time.perf_counter() - t) * 1000)
            out[name]["cpu"].append((time.process_time() - c) * 1000)
    sources = facade.recaller.last_source
    return {"calls": out, "facade_source": sources, "messages": len(messages)}


def writes_worker(n: int, work: Path, ops: int) -> dict[str, Any]:
    os.environ["CONTEXT_CENTER_CACHE"] = str(work / "cache")
    from context_center.engine import Engine, FactType

    engine = Engine(home=work / "home", workspace=work / "ws")
    engine.open()
    out: dict[str, list[float]] = {"create": [], "update": [], "create_cpu": [], "update_cpu": []}
    made = []
    for i in range(ops):
        c, t = time.process_time(), time.perf_counter()
        made.append(
            engine.create_fact(
                name=f"write bench {n} {i} {os.getpid()}",
                type=FactType.PROJECT,
                body=f"A fact written by the bench, number {i}.",
            ).value
        )
        out["create"].append((time.perf_counter() - t) * 1000)
        out["create_cpu"].append((time.process_time() - c) * 1000)
    for i, f in enumerate(made):
        c, t = time.process_time(), time.perf_counter()
        engine.update_fact(f.id, expected_revision=1, body=f"Changed {i}.")
        out["update"].append((time.perf_counter() - t) * 1000)
        out["update_cpu"].append((time.process_time() - c) * 1000)
    for f in made:
        engine.forget_fact(f.id)
    return out


# -- processes -----------------------------------------------------------------------------


def run_process(
    argv: list[str], env: dict[str, str], stdin: bytes | None = None
) -> tuple[float, float, float, int]:
    """(CPU s, wall s, peak RSS MiB, exit code) of one process. It runs under GNU time,
    which forks it from a small process: a child forked from this driver would otherwise
    report the driver's own peak RSS (Linux keeps the high-water mark across exec). CPU and
    wall come from ``wait4`` (time's own share, well under a millisecond, included)."""
    t = time.perf_counter()
    cmd = [TIME, "-f", "%M", *argv] if TIME else argv
    proc = subprocess.Popen(
        cmd,
        env=env,
        stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    if stdin is not None:
        assert proc.stdin is not None
        proc.stdin.write(stdin)
        proc.stdin.close()
    err = proc.stderr.read()
    _, status, ru = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.stderr.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    try:
        rss = int(err.decode().strip().splitlines()[-1]) / 1024 if TIME else ru.ru_maxrss / 1024
    except (ValueError, IndexError):
        rss = float("nan")
    return ru.ru_utime + ru.ru_stime, wall, rss, proc.returncode


def process_kinds(n: int, work: Path, message: str, counter: int) -> dict[str, list[str]]:
    terms = terms_of(message) or ["continue"]
    match = " OR ".join('"' + t.replace('"', '""') + '"' for t in terms).replace("'", "''")
    sql = f"SELECT rowid FROM docs WHERE docs MATCH '{match}' ORDER BY bm25(docs) LIMIT 20;"
    cli = [
        PY,
        "-m",
        "context_center",
        "--home",
        str(work / "home"),
        "--workspace",
        str(work / "ws"),
    ]
    body = f"The bench saved this fact ({n} facts, run {counter}); zookeeper quorum of five."
    return {
        "recall": [*cli, "recall", message, "--json"],
        "save": [
            *cli,
            "memory",
            "save",
            "--name",
            f"bench save {os.getpid()} {counter}",
            "--type",
            "project",
            "--body",
            body,
            "--json",
        ],
        "recall after save": [*cli, "recall", message, "--json"],
        "sqlite3 FTS5 query": ["sqlite3", str(work / "fts.db"), sql],
        "python + tantivy": [PY, str(work / "tv_query.py"), str(work / "tantivy"), *terms],
        "python -c pass": [PY, "-c", "pass"],
    }


def processes(sizes: list[int], works: dict[int, Path], runs: int) -> dict[str, Any]:
    from bench.corpus import TURN_QUERIES

    picked = [m for m in TURN_QUERIES if terms_of(m)][:: max(1, len(TURN_QUERIES) // 40)]
    picked = picked[:PROC_MESSAGES]
    res: dict[str, dict[int, list[tuple[float, float, float]]]] = {}
    failures: list[str] = []
    counter = 0
    phases = (
        ("recall", "sqlite3 FTS5 query", "python + tantivy", "python -c pass"),
        ("save", "recall after save", "python + tantivy"),
    )
    for kinds in phases:
        for r in range(runs):
            order = sizes if r % 2 == 0 else sizes[::-1]
            for n in order:
                counter += 1
                argvs = process_kinds(n, works[n], picked[r % len(picked)], counter)
                for kind in kinds:
                    cpu, wall, rss, code = run_process(argvs[kind], _env(works[n]))
                    if code != 0:
                        failures.append(f"{kind} at {n}: exit {code}")
                    res.setdefault(kind, {}).setdefault(n, []).append((cpu, wall, rss))
    return {"procs": res, "failures": failures}


# A save first, so the recall and the hook after it catch up with one write (the case that
# costs a warm engine most); the second of each has no write since (most turns).
SERVED_KINDS = (
    "save",
    "recall",
    "recall, no write since",
    "hook UserPromptSubmit",
    "hook, no write since",
)


def _hook_input(work: Path, message: str) -> bytes:
    return json.dumps(
        {
            "session_id": "bench",
            "transcript_path": "",
            "cwd": str(work / "ws"),
            "hook_event_name": "UserPromptSubmit",
            "prompt": message,
        }
    ).encode()


def _server_ns(pid: int) -> int:
    with open(f"/proc/{pid}/schedstat") as handle:
        return int(handle.read().split()[0])


def _start_server(work: Path) -> subprocess.Popen[bytes]:
    from context_center import entry

    home = str(work / "home")
    proc = subprocess.Popen(
        [PY, "-m", "context_center", "--home", home, "serve", "--idle", "900"],
        env=_env(work, served=True),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    assert proc.stderr is not None
    proc.stderr.readline()  # "serving … (warm in … s)": bound and warmed up
    folder = Path(entry.socket_dir(home))
    assert list(folder.glob(f"{proc.pid}.sock")), "the warm server is not listening"
    return proc


def served_processes(sizes: list[int], works: dict[int, Path], runs: int) -> dict[str, Any]:
    """Client CPU + the server's CPU for the request, per kind and size; the hook cold too."""
    from bench.corpus import TURN_QUERIES

    picked = [m for m in TURN_QUERIES if terms_of(m)][:: max(1, len(TURN_QUERIES) // 40)]
    picked = picked[:PROC_MESSAGES]
    res: dict[str, dict[int, list[tuple[float, float, float, float]]]] = {}
    failures: list[str] = []
    servers = {n: _start_server(works[n]) for n in sizes}
    counter = 10_000
    try:
        for r in range(runs):
            for n in sizes if r % 2 == 0 else sizes[::-1]:
                work, message = works[n], picked[r % len(picked)]
                hook = [PY, "-m", "context_center", "hook", "claude-code", "UserPromptSubmit"]
                for kind in SERVED_KINDS:
                    for served in (False, True) if r % 2 == 0 else (True, False):
                        counter += 1  # every save a new name
                        argvs = process_kinds(n, work, message, counter)
                        argv, stdin = (
                            (hook, _hook_input(work, message))
                            if kind.startswith("hook")
                            else (argvs[kind.split(",")[0]], None)
                        )
                        pid = servers[n].pid
                        before = _server_ns(pid)
                        cpu, wall, rss, code = run_process(argv, _env(work, served), stdin)
                        server_cpu = (_server_ns(pid) - before) / 1e9
                        if code != 0:
                            failures.append(f"{kind} at {n} (served={served}): exit {code}")
                        if not served and server_cpu > 0.002:
                            failures.append(f"{kind} at {n}: the server worked for a cold run")
                        label = f"{kind} (served)" if served else f"{kind} (cold)"
                        row = (cpu, wall, rss, server_cpu if served else 0.0)
                        res.setdefault(label, {}).setdefault(n, []).append(row)
    finally:
        for proc in servers.values():
            proc.terminate()
            proc.communicate(timeout=30)
    return {"procs": res, "failures": failures}


# -- report ----------------------------------------------------------------------------------


def report(
    sizes: list[int],
    calls: dict[int, Any],
    procs: dict[str, Any],
    writes: dict[int, Any],
    runs: int,
) -> None:
    import sqlite3

    print(
        f"\nPer-turn benchmark: Python {sys.version.split()[0]}, SQLite {sqlite3.sqlite_version}, "
        f"{os.cpu_count()} CPUs; {runs} runs per process kind; machine load "
        f"{os.getloadavg()[0]:.1f}\n"
    )
    print("Calls in one process (ms; CPU = process_time; every message, engines interleaved):")
    head = f"{'call':<11}{'facts':>7}{'CPU med':>9}{'CPU p95':>9}{'wall med':>10}{'wall p95':>10}"
    print(head + "\n" + "-" * len(head))
    for n in sizes:
        c = calls[n]["calls"]
        for name in CALLS:
            cpu, wall = c[name]["cpu"], c[name]["wall"]
            print(
                f"{name:<11}{n:>7,}{med(cpu):>9.3f}{pct(cpu, 0.95):>9.3f}"
                f"{med(wall):>10.3f}{pct(wall, 0.95):>10.3f}"
            )
        print(
            f"  ({calls[n]['messages']} messages; the facade's last source: "
            f"{calls[n]['facade_source']})\n"
        )
    print("Processes (CPU s = user + system; wall s; peak RSS MiB of that process):")
    head = (
        f"{'process':<20}{'facts':>7}{'CPU med':>9}{'CPU p95':>9}{'wall med':>10}"
        f"{'wall p95':>10}{'RSS MiB':>9}"
    )
    print(head + "\n" + "-" * len(head))
    pr = procs["procs"]
    for kind in pr:
        for n in sizes:
            rows = pr[kind].get(n)
            if not rows:
                continue
            cpu, wall, rss = ([r[i] for r in rows] for i in range(3))
            print(
                f"{kind:<20}{n:>7,}{med(cpu):>9.3f}{pct(cpu, 0.95):>9.3f}{med(wall):>10.3f}"
                f"{pct(wall, 0.95):>10.3f}{max(rss):>9.0f}"
            )
    for f in procs["failures"]:
        print(f"  FAILED: {f}")
    sv = procs.get("served") or {}
    if sv:
        print(
            "\nWith a warm server for the home (CPU s: the client process + the server's work "
            "for that request = the turn's whole cost; peak RSS of the client):"
        )
        head = (
            f"{'process':<30}{'facts':>7}{'client':>9}{'server':>9}{'total':>9}{'total p95':>11}"
            f"{'wall med':>10}{'RSS MiB':>9}"
        )
        print(head + "\n" + "-" * len(head))
        for kind in sv["procs"]:
            for n in sizes:
                rows = sv["procs"][kind].get(n)
                if not rows:
                    continue
                total = [r[0] + r[3] for r in rows]
                print(
                    f"{kind:<30}{n:>7,}{med([r[0] for r in rows]):>9.3f}"
                    f"{med([r[3] for r in rows]):>9.3f}{med(total):>9.3f}{pct(total, 0.95):>11.3f}"
                    f"{med([r[1] for r in rows]):>10.3f}{max(r[2] for r in rows):>9.0f}"
                )
        for f in sv["failures"]:
            print(f"  FAILED: {f}")
    print("\nWrites in an opened engine (ms, median wall / CPU):")
    for n, w in writes.items():
        print(
            f"  {n:>7,} facts: create {med(w['create']):.2f} / {med(w['create_cpu']):.2f}, "
            f"update {med(w['update']):.2f} / {med(w['update_cpu']):.2f}"
        )
    big = max(sizes)
    _targets(calls, pr, writes, big, min(sizes), sv.get("procs") or {})


def _cpu(pr: dict[str, Any], kind: str, n: int) -> float:
    return med([r[0] for r in pr[kind][n]])


def _total(sv: dict[str, Any], kind: str, n: int) -> float:
    return med([r[0] + r[3] for r in sv[kind][n]])


def _targets(
    calls: dict[int, Any],
    pr: dict[str, Any],
    writes: dict[int, Any],
    big: int,
    small: int,
    sv: dict[str, Any],
) -> None:
    tv = _cpu(pr, "python + tantivy", big)
    rss = max(r[2] for r in pr["recall"][big])
    c = calls[big]["calls"]
    tv_call = med(c["tantivy"]["cpu"])
    lines = [
        (f"recall process at {big:,} / python+tantivy process", _cpu(pr, "recall", big) / tv, 10),
        (
            f"recall process {big:,} / {small:,} facts",
            _cpu(pr, "recall", big) / _cpu(pr, "recall", small),
            1.3,
        ),
        (f"recall process peak RSS at {big:,} (MiB)", rss, 120),
        (
            f"memory save process at {big:,} / python+tantivy process",
            _cpu(pr, "save", big) / tv,
            15,
        ),
        *(
            [
                (
                    f"recall process at {big:,}, warm server (client + server) / tantivy",
                    _total(sv, "recall (served)", big) / tv,
                    10,
                ),
                (
                    f"recall process {big:,} / {small:,} facts, warm server",
                    _total(sv, "recall (served)", big) / _total(sv, "recall (served)", small),
                    1.3,
                ),
                (
                    f"memory save at {big:,}, warm server (client + server) / tantivy",
                    _total(sv, "save (served)", big) / tv,
                    15,
                ),
                (
                    f"recall process at {big:,}, warm server, no write since / tantivy",
                    _total(sv, "recall, no write since (served)", big) / tv,
                    10,
                ),
                (
                    f"UserPromptSubmit hook at {big:,}, warm server / tantivy",
                    _total(sv, "hook UserPromptSubmit (served)", big) / tv,
                    10,
                ),
                (
                    f"UserPromptSubmit hook at {big:,}, warm server, no write since / tantivy",
                    _total(sv, "hook, no write since (served)", big) / tv,
                    10,
                ),
                (
                    f"UserPromptSubmit hook at {big:,}, cold / tantivy",
                    _total(sv, "hook UserPromptSubmit (cold)", big) / tv,
                    10,
                ),
            ]
            if sv
            else []
        ),
        (f"core call at {big:,} / tantivy search with ids", med(c["core"]["cpu"]) / tv_call, 3),
        (f"facade call at {big:,} / tantivy search with ids", med(c["facade"]["cpu"]) / tv_call, 3),
        (f"window call at {big:,} / tantivy search with ids", med(c["window"]["cpu"]) / tv_call, 3),
    ]
    if 1000 in writes and big in writes:
        for op in ("create", "update"):
            lines.append(
                (
                    f"engine {op} at {big:,} / at 1,000",
                    med(writes[big][op]) / med(writes[1000][op]),
                    2,
                )
            )
    print("\nTargets (ratios from this run):")
    for what, value, target in lines:
        print(
            f"  {what:<58} {value:8.2f}  target <= {target:<5} {'met' if value <= target else 'NOT met'}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,10000,50000")
    ap.add_argument("--runs", type=int, default=9, help="runs of every process kind and size")
    ap.add_argument("--queries", type=int, default=0, help="first N of TURN_QUERIES (0: all)")
    ap.add_argument("--writes", type=int, default=30, help="creates and updates per size")
    ap.add_argument("--keep", help="reuse (or create) the homes in this folder")
    ap.add_argument("--no-served", action="store_true", help="skip the warm-server runs")
    ap.add_argument("--json", help="also write the raw figures to this file")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--size", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--dir", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        fn = {"calls": calls_worker, "writes": writes_worker}[args.worker]
        arg = args.queries if args.worker == "calls" else args.writes
        print(json.dumps(fn(args.size, Path(args.dir), arg)))
        return
    sizes = [int(s) for s in args.sizes.split(",") if s]
    from bench.installed import byte_compile

    byte_compile()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-turn-"))
    started = time.perf_counter()
    try:
        works = {}
        for n in sorted({*sizes, 1000}):
            works[n] = base / f"n{n}"
            if not (works[n] / "tv_query.py").exists():
                works[n].mkdir(parents=True, exist_ok=True)
                build(n, works[n])
            wrote = settle(works[n])
            print(
                f"  home of {n:,} facts ready{' (recall cache rewritten)' if wrote else ''} "
                f"({time.perf_counter() - started:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
        calls = {n: _spawn("calls", n, works[n], args) for n in sizes}
        print(f"  calls done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        procs = processes(sizes, works, args.runs)
        if not args.no_served:
            procs["served"] = served_processes(sizes, works, args.runs)
        print(f"  processes done ({time.perf_counter() - started:.0f} s)", file=sys.stderr)
        writes = {n: _spawn("writes", n, works[n], args) for n in sorted({1000, max(sizes)})}
        report(sizes, calls, procs, writes, args.runs)
        if args.json:
            Path(args.json).write_text(
                json.dumps(
                    {
                        "calls": calls,
                        "procs": procs["procs"],
                        "served": (procs.get("served") or {}).get("procs"),
                        "writes": writes,
                    }
                )
            )
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    print(
        f"\ntotal {time.perf_counter() - started:.0f} s; peak RSS of this driver "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB"
    )


def _spawn(worker: str, n: int, work: Path, args: argparse.Namespace) -> Any:
    cmd = [
        PY,
        str(Path(__file__).resolve()),
        "--worker",
        worker,
        "--size",
        str(n),
        "--dir",
        str(work),
        "--queries",
        str(args.queries),
        "--writes",
        str(args.writes),
    ]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=_env(work))
    if proc.returncode != 0:
        raise SystemExit(f"worker {worker} {n} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
