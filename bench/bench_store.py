"""Fact store benchmark: open time against a bare scandir+stat, create/update latency, memory.

Run: .venv/bin/python bench/bench_store.py [--sizes 1000,10000,50000]

Each size runs in its own subprocess so peak RSS (ru_maxrss) belongs to that size alone.
Targets at 10k facts (issue 2): warm open <= 10x scandir+stat; create/update median <= 10 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

EN = [
    "release",
    "branch",
    "deploy",
    "pipeline",
    "cache",
    "token",
    "config",
    "database",
    "migration",
    "schema",
    "review",
    "test",
    "lint",
    "format",
    "commit",
    "service",
    "api",
    "gateway",
    "auth",
    "handler",
    "queue",
    "worker",
    "retry",
    "timeout",
    "metrics",
    "log",
    "trace",
]
ZH = [
    "发布",
    "分支",
    "部署",
    "流水线",
    "缓存",
    "配置",
    "数据库",
    "迁移",
    "评审",
    "测试",
    "提交",
    "服务",
    "网关",
    "认证",
    "队列",
    "重试",
    "超时",
    "指标",
    "日志",
    "约定",
]


def write_corpus(store: Path, n: int, seed: int = 7) -> None:
    from context_center.engine.model import Fact, FactType, Scope, new_fact_id
    from context_center.engine.store.factfile import render_fact

    rng = random.Random(seed)
    store.mkdir(parents=True, exist_ok=True)
    base = datetime(2026, 1, 1, tzinfo=UTC)
    types = list(FactType)
    for i in range(n):
        zh = i % 3 == 0
        words = ZH if zh else EN
        sep = "" if zh else " "
        title = sep.join(rng.choice(words) for _ in range(4))
        body = sep.join(rng.choice(words) for _ in range(60))
        when = base + timedelta(minutes=i)
        fact = Fact(
            id=new_fact_id(),
            revision=1,
            created_at=when,
            updated_at=when,
            name=f"fact-{i:06d}",
            title=title,
            description=sep.join(rng.choice(words) for _ in range(10)),
            type=types[i % 4],
            scope=Scope.PROJECT,
            body=body,
        )
        (store / f"fact-{i:06d}.md").write_bytes(render_fact(fact))


def bare_scan(store: Path) -> int:
    count = 0
    with os.scandir(store) as it:
        for entry in it:
            if entry.name.endswith(".md"):
                entry.stat(follow_symlinks=False)
                count += 1
    return count


def median_time(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def run_size(n: int) -> dict[str, float]:
    from context_center.engine.model import FactType, Scope
    from context_center.engine.store.factstore import FactStore

    with tempfile.TemporaryDirectory(dir=os.environ.get("BENCH_TMP")) as tmp:
        store_dir = Path(tmp) / "memory"
        write_corpus(store_dir, n)
        bare = median_time(lambda: bare_scan(store_dir), 7)

        start = time.perf_counter()
        FactStore(store_dir, Scope.PROJECT).load()  # parses every file, writes the cache
        cold = time.perf_counter() - start
        warm = median_time(lambda: FactStore(store_dir, Scope.PROJECT).load(), 7)

        store = FactStore(store_dir, Scope.PROJECT)
        store.load()
        store.rebuild_index()  # a real store has a MEMORY.md line per fact to keep up to date
        creates = []
        for i in range(100):
            start = time.perf_counter()
            store.create(
                name=f"new-{i}", title="New", description="d", type=FactType.PROJECT, body="b " * 50
            )
            creates.append(time.perf_counter() - start)
        updates = []
        names = [f"fact-{i:06d}" for i in random.Random(3).sample(range(n), 100)]
        for name in names:
            entry = store.read_fresh(name)
            start = time.perf_counter()
            store.update(
                name, expected_revision=entry.fact.revision, changes={"body": "updated " * 20}
            )
            updates.append(time.perf_counter() - start)
        creates.sort()
        updates.sort()
        return {
            "facts": n,
            "bare_scan_ms": bare * 1000,
            "open_cold_ms": cold * 1000,
            "open_warm_ms": warm * 1000,
            "warm_over_bare": warm / bare,
            "create_median_ms": statistics.median(creates) * 1000,
            "create_p95_ms": creates[94] * 1000,
            "update_median_ms": statistics.median(updates) * 1000,
            "update_p95_ms": updates[94] * 1000,
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sizes", default="1000,10000,50000")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_size(args.one)))
        return
    rows = []
    for n in (int(s) for s in args.sizes.split(",")):
        out = subprocess.run(
            [sys.executable, __file__, "--one", str(n)], capture_output=True, text=True, check=True
        ).stdout
        rows.append(json.loads(out.strip().splitlines()[-1]))
    cols = [
        ("facts", "{:>7}"),
        ("bare_scan_ms", "{:>12.1f}"),
        ("open_cold_ms", "{:>12.1f}"),
        ("open_warm_ms", "{:>12.1f}"),
        ("warm_over_bare", "{:>14.1f}"),
        ("create_median_ms", "{:>16.2f}"),
        ("create_p95_ms", "{:>13.2f}"),
        ("update_median_ms", "{:>16.2f}"),
        ("update_p95_ms", "{:>13.2f}"),
        ("peak_rss_mb", "{:>11.0f}"),
    ]
    print("  ".join(f"{name:>{len(fmt.format(rows[0][name]))}}" for name, fmt in cols))
    for row in rows:
        print("  ".join(fmt.format(row[name]) for name, fmt in cols))
    print("targets at 10k: warm_over_bare <= 10, create/update median <= 10 ms")


if __name__ == "__main__":
    main()
