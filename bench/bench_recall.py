"""Recall benchmark: this engine vs rank-bm25's BM25Okapi vs SQLite FTS5, on one corpus.

Run: .venv/bin/python bench/bench_recall.py [--sizes 1000,10000,50000] [--repeat 5]

Not a test. For every size and engine a separate subprocess generates the same corpus
(bench/corpus.py: English, Chinese and mixed facts), builds the index, runs the fixed query
set (bench.corpus.QUERIES) ``--repeat`` times warm, times incremental updates, and reports
its peak RSS (ru_maxrss, so every figure belongs to that engine and size alone). Another
subprocess per size measures the *cold* first recall: a new process that regenerates the
facts (not timed), then times the first query including loading the on-disk index.

What is timed per query:
* engine: ``Recaller.recall(message, facts, (), persist=False)`` -- the whole per-turn call:
  sync check, tokenising, BM25, policy, snippets, block, trace object. The facts tuple is the
  same object each turn (as the facade passes it), so sync is O(1). "search" is
  ``Recaller.search(query, limit=20)``.
* fts5: the same query front end (generic-turn check, query terms), then
  ``SELECT rowid, bm25(docs) ... WHERE docs MATCH '"t1" OR "t2" ...' ORDER BY bm25 LIMIT 20``
  and mapping rows to facts. CJK fairness: FTS5's unicode61 tokenizer would keep a whole
  Chinese sentence as one token and the trigram tokenizer cannot match two-character words,
  so FTS5 indexes *pre-tokenised* text (our terms, CJK bigrams, joined by spaces) with
  ``unicode61 remove_diacritics 0 tokenchars '_'``; both engines then search identical terms.
  The database is a file (synchronous=OFF, default 2 MB page cache), optimised after the
  bulk insert; updates are UPDATE + COMMIT.
* bm25okapi: ``BM25Okapi.get_scores(terms)`` + top 20. It has no incremental update (a change
  means a rebuild) and no persistence (cold = rebuild), so those cells show the build time.

The baseline row ("corpus") is a process that only generates the facts: every engine's
process also holds them, as the app does.
"""

from __future__ import annotations

import time

_T_START = time.perf_counter()

import argparse  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import shutil  # noqa: E402
import statistics  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
from pathlib import Path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

ENGINES = ("engine", "fts5", "bm25okapi")
UPDATES = 200


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _pct(values: list[float], p: float) -> float:
    values = sorted(values)
    if not values:
        return float("nan")
    k = (len(values) - 1) * p
    lo, hi = int(k), min(int(k) + 1, len(values) - 1)
    return values[lo] + (values[hi] - values[lo]) * (k - lo)


def _timed(fn, *args):  # type: ignore[no-untyped-def]
    t = time.perf_counter()
    out = fn(*args)
    return time.perf_counter() - t, out


# -- workers (one engine, one size, one process) -------------------------------------------


def _changed(fact, i: int):  # type: ignore[no-untyped-def]
    return fact.model_copy(
        update={
            "body": fact.body + f" appended change {i} kubernetes 变更{i}",
            "revision": fact.revision + 1,
        }
    )


def worker_engine(n: int, work: Path, repeat: int) -> dict[str, object]:
    from bench.corpus import QUERIES, generate_list

    from context_center.engine.recall import Recaller
    from context_center.engine.store.paths import Layout

    imports_s = time.perf_counter() - _T_START
    facts = tuple(generate_list(n))
    layout = Layout(work / "home", work / "ws")
    r = Recaller(layout)
    build_s, _ = _timed(r.index.build, facts)
    save_s, _ = _timed(r.save_cache)
    r.sync(facts)
    warm: list[float] = []
    for _ in range(repeat):
        for q in QUERIES:
            t, _res = _timed(lambda q=q: r.recall(q, facts, (), persist=False))
            warm.append(t)
    search: list[float] = []
    for q in QUERIES:
        search.append(_timed(lambda q=q: r.search(q, limit=20))[0])
    resync = [_timed(r.sync, list(facts))[0] for _ in range(5)]
    ups: list[float] = []
    for i in range(UPDATES):
        f = _changed(facts[(i * 7919) % n], i)
        ups.append(_timed(r.index.upsert, f)[0])
    rms: list[float] = []
    for i in range(UPDATES):
        f = facts[(i * 104729 + 13) % n]
        rms.append(_timed(r.index.remove, f.id, f.scope)[0])
    compact_s, _ = _timed(r.index.compact)
    return {
        "imports_s": imports_s,
        "build_s": build_s,
        "save_s": save_s,
        "cache_mb": (layout.cache_dir / "recall-index.cache").stat().st_size / 2**20,
        "warm_ms": [t * 1000 for t in warm],
        "search_ms": [t * 1000 for t in search],
        "resync_ms": statistics.median(resync) * 1000,
        "upsert_ms": [t * 1000 for t in ups],
        "remove_ms": [t * 1000 for t in rms],
        "compact_s": compact_s,
        "rss_mb": _rss_mb(),
    }


def cold_engine(n: int, work: Path) -> dict[str, object]:
    from bench.corpus import QUERIES, generate_list

    from context_center.engine.recall import Recaller
    from context_center.engine.store.paths import Layout

    imports_s = time.perf_counter() - _T_START
    facts = tuple(generate_list(n))
    layout = Layout(work / "home", work / "ws")
    t = time.perf_counter()
    r = Recaller(layout)
    res = r.recall(QUERIES[0], facts, (), persist=False)
    cold_s = time.perf_counter() - t
    assert r.last_sync is not None and r.last_sync.from_cache, r.last_sync
    return {
        "cold_s": cold_s,
        "imports_s": imports_s,
        "selected": len(res.trace.selected),
        "rss_mb": _rss_mb(),
    }


_FTS_TOKENIZE = "unicode61 remove_diacritics 0 tokenchars '_'"


def _fts_query_terms(message: str) -> list[str]:
    from context_center.engine.recall import is_generic_turn, query_terms, searchable

    if is_generic_turn(message):
        return []
    return [t.text for t in searchable(query_terms(message))]


def _fts_search(con, facts, message: str):  # type: ignore[no-untyped-def]
    terms = _fts_query_terms(message)
    if not terms:
        return []
    match = " OR ".join(f'"{t}"' for t in terms)
    rows = con.execute(
        "SELECT rowid, bm25(docs) FROM docs WHERE docs MATCH ? ORDER BY bm25(docs) LIMIT 20",
        (match,),
    ).fetchall()
    return [(facts[rowid], score) for rowid, score in rows]


def _fts_connect(path: Path):  # type: ignore[no-untyped-def]
    import sqlite3

    con = sqlite3.connect(path)
    con.execute("PRAGMA synchronous=OFF")
    return con


def worker_fts5(n: int, work: Path, repeat: int) -> dict[str, object]:
    from bench.corpus import QUERIES, generate_list

    from context_center.engine.recall import tokens
    from context_center.engine.recall.index import index_text

    imports_s = time.perf_counter() - _T_START
    facts = tuple(generate_list(n))
    db = work / "fts.db"
    if db.exists():
        db.unlink()
    t = time.perf_counter()
    con = _fts_connect(db)
    con.execute(f'CREATE VIRTUAL TABLE docs USING fts5(text, tokenize="{_FTS_TOKENIZE}")')
    con.executemany(
        "INSERT INTO docs(rowid, text) VALUES (?, ?)",
        ((i, " ".join(tokens(index_text(f)))) for i, f in enumerate(facts)),
    )
    con.commit()
    con.execute("INSERT INTO docs(docs) VALUES('optimize')")
    con.commit()
    build_s = time.perf_counter() - t
    warm: list[float] = []
    for _ in range(repeat):
        for q in QUERIES:
            warm.append(_timed(_fts_search, con, facts, q)[0])
    ups: list[float] = []
    for i in range(UPDATES):
        k = (i * 7919) % n
        f = _changed(facts[k], i)

        def update(k: int = k, f=f) -> None:  # type: ignore[no-untyped-def]
            con.execute(
                "UPDATE docs SET text = ? WHERE rowid = ?", (" ".join(tokens(index_text(f))), k)
            )
            con.commit()

        ups.append(_timed(update)[0])
    rms: list[float] = []
    for i in range(UPDATES):
        k = (i * 104729 + 13) % n

        def remove(k: int = k) -> None:
            con.execute("DELETE FROM docs WHERE rowid = ?", (k,))
            con.commit()

        rms.append(_timed(remove)[0])
    con.close()
    return {
        "imports_s": imports_s,
        "build_s": build_s,
        "cache_mb": db.stat().st_size / 2**20,
        "warm_ms": [t * 1000 for t in warm],
        "upsert_ms": [t * 1000 for t in ups],
        "remove_ms": [t * 1000 for t in rms],
        "rss_mb": _rss_mb(),
    }


def cold_fts5(n: int, work: Path) -> dict[str, object]:
    from bench.corpus import QUERIES, generate_list

    imports_s = time.perf_counter() - _T_START
    facts = tuple(generate_list(n))
    t = time.perf_counter()
    con = _fts_connect(work / "fts.db")
    rows = _fts_search(con, facts, QUERIES[0])
    cold_s = time.perf_counter() - t
    return {"cold_s": cold_s, "imports_s": imports_s, "selected": len(rows), "rss_mb": _rss_mb()}


def worker_bm25okapi(n: int, work: Path, repeat: int) -> dict[str, object]:
    import numpy as np
    from bench.corpus import QUERIES, generate_list
    from rank_bm25 import BM25Okapi

    from context_center.engine.recall import tokens
    from context_center.engine.recall.index import index_text

    imports_s = time.perf_counter() - _T_START
    facts = tuple(generate_list(n))
    t = time.perf_counter()
    bm = BM25Okapi([tokens(index_text(f)) for f in facts])
    build_s = time.perf_counter() - t

    def run(message: str) -> list[tuple[object, float]]:
        terms = _fts_query_terms(message)
        if not terms:
            return []
        scores = bm.get_scores(terms)
        k = min(20, len(scores))
        top = np.argpartition(-scores, k - 1)[:k]
        top = top[np.argsort(-scores[top])]
        return [(facts[i], float(scores[i])) for i in top if scores[i] > 0]

    reps = repeat if n <= 10_000 else 1
    warm: list[float] = []
    for _ in range(reps):
        for q in QUERIES:
            warm.append(_timed(run, q)[0])
    return {
        "imports_s": imports_s,
        "build_s": build_s,
        "warm_ms": [t * 1000 for t in warm],
        "rss_mb": _rss_mb(),
    }


def worker_corpus(n: int, work: Path, repeat: int) -> dict[str, object]:
    from bench.corpus import generate_list

    facts = generate_list(n)
    return {"facts": len(facts), "rss_mb": _rss_mb()}


WORKERS = {
    "engine": worker_engine,
    "fts5": worker_fts5,
    "bm25okapi": worker_bm25okapi,
    "corpus": worker_corpus,
}
COLD = {"engine": cold_engine, "fts5": cold_fts5}


# -- driver --------------------------------------------------------------------------------


def _spawn(args: list[str]) -> dict[str, object]:
    cmd = [sys.executable, str(Path(__file__).resolve()), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        raise SystemExit(f"worker {args} failed:\n{proc.stderr}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _fmt(value: object, spec: str = ".2f") -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return format(value, spec)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,50000")
    ap.add_argument("--repeat", type=int, default=5, help="warm passes over the query set")
    ap.add_argument("--engines", default=",".join(ENGINES))
    ap.add_argument("--json", help="also write all figures to this file")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--cold", help=argparse.SUPPRESS)
    ap.add_argument("--size", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--dir", help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.worker:
        out = WORKERS[args.worker](args.size, Path(args.dir), args.repeat)
        print(json.dumps(out))
        return
    if args.cold:
        print(json.dumps(COLD[args.cold](args.size, Path(args.dir))))
        return

    from bench.corpus import QUERIES

    sizes = [int(s) for s in args.sizes.split(",") if s]
    engines = [e for e in args.engines.split(",") if e]
    started = time.perf_counter()
    results: dict[str, dict[int, dict[str, object]]] = {}
    tmp = Path(tempfile.mkdtemp(prefix="bench-recall-"))
    try:
        for n in sizes:
            for name in ["corpus", *engines]:
                work = tmp / f"{name}-{n}"
                work.mkdir(parents=True, exist_ok=True)
                base = ["--size", str(n), "--dir", str(work), "--repeat", str(args.repeat)]
                res = _spawn(["--worker", name, *base])
                if name in COLD:
                    res["cold"] = _spawn(["--cold", name, "--size", str(n), "--dir", str(work)])
                results.setdefault(name, {})[n] = res
                print(
                    f"  done {name:9s} {n:>6d} ({time.perf_counter() - started:.0f} s)",
                    file=sys.stderr,
                    flush=True,
                )
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    print(
        f"\nRecall benchmark: {len(QUERIES)} queries x {args.repeat} warm passes; "
        f"{UPDATES} updates and removes; Python {sys.version.split()[0]}, "
        f"SQLite {__import__('sqlite3').sqlite_version}, {os.cpu_count()} CPUs\n"
    )
    head = (
        f"{'engine':10s} {'facts':>6s} {'build s':>8s} {'warm med ms':>11s} "
        f"{'warm p95 ms':>11s} {'update ms':>9s} {'remove ms':>9s} {'cold 1st s':>10s} "
        f"{'peak RSS MB':>11s} {'on disk MB':>10s}"
    )
    print(head)
    print("-" * len(head))
    for n in sizes:
        for name in ["corpus", *engines]:
            r = results[name][n]
            warm = r.get("warm_ms")
            med = statistics.median(warm) if warm else None  # type: ignore[arg-type]
            p95 = _pct(warm, 0.95) if warm else None  # type: ignore[arg-type]
            upd = statistics.median(r["upsert_ms"]) if "upsert_ms" in r else None  # type: ignore[arg-type]
            rem = statistics.median(r["remove_ms"]) if "remove_ms" in r else None  # type: ignore[arg-type]
            cold = r["cold"]["cold_s"] if "cold" in r else None  # type: ignore[index]
            if name == "bm25okapi":
                upd = rem = "rebuild"
                cold = "rebuild"
            print(
                f"{name:10s} {n:>6d} {_fmt(r.get('build_s'), '.2f'):>8s} "
                f"{_fmt(med, '.3f'):>11s} {_fmt(p95, '.3f'):>11s} {_fmt(upd, '.3f'):>9s} "
                f"{_fmt(rem, '.3f'):>9s} {_fmt(cold, '.3f'):>10s} "
                f"{_fmt(r['rss_mb'], '.0f'):>11s} {_fmt(r.get('cache_mb'), '.1f'):>10s}"
            )
        print()

    if "engine" in results:
        print(
            "engine extras (median): search ms / per-turn sync of a new list of the same "
            "facts ms / cache save s / compaction s / imports s"
        )
        for n in sizes:
            e = results["engine"][n]
            print(
                f"  {n:>6d}: search {statistics.median(e['search_ms']):.3f} ms, "  # type: ignore[arg-type]
                f"resync {e['resync_ms']:.2f} ms, save {e['save_s']:.2f} s, "
                f"compact {e['compact_s']:.2f} s, imports {e['imports_s']:.2f} s, "
                f"cold RSS {e['cold']['rss_mb']:.0f} MB"
            )  # type: ignore[index]
        print()

    if "engine" in results and "fts5" in results:
        print("targets:")
        for n in sizes:
            e, f = results["engine"][n], results["fts5"][n]
            em = statistics.median(e["warm_ms"])  # type: ignore[arg-type]
            fm = statistics.median(f["warm_ms"])  # type: ignore[arg-type]
            line = f"  {n:>6d}: warm median engine/fts5 = {em / fm:.2f}"
            if n >= 10_000:
                line += " (target <= 1.00)"
            line += f"; peak RSS engine/fts5 = {e['rss_mb'] / f['rss_mb']:.2f}"  # type: ignore[operator]
            if n >= 50_000:
                line += " (target <= 2.00)"
            line += f"; cold first recall {e['cold']['cold_s']:.3f} s"  # type: ignore[index]
            if n == 10_000:
                line += " (target <= 0.5)"
            print(line)
    print(f"\ntotal {time.perf_counter() - started:.0f} s")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
