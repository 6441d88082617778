"""Recall quality on a labelled bilingual evaluation: this tree against a baseline commit.

Run: .venv/bin/python bench/bench_recall_quality.py [--baseline-commit COMMIT | --baseline-dir DIR]
                                                    [--no-baseline] [--split] [--misses [dev|held-out]] [--json]

Not a test. The corpus (bench/recall_eval/facts_*.yaml: three workspaces and the global store,
every type and scope, superseded pairs, broad notes facts, archived and overridden facts) and
the labelled turns (bench/recall_eval/turns.yaml) were written from a user's point of view
before any run. For each workspace recall sees the active facts of that workspace's project
store plus the global store, with the project-over-global conflicts the store computes, as
the engine passes them; archived facts are not active.

Each engine runs in its own subprocess: this tree, and the baseline (by default the commit
before the recall rework, checked out once with ``git worktree add`` under /tmp) imported
through PYTHONPATH, so both are measured on identical inputs with the same harness.

``--split`` also prints the table for two fixed halves of the turns, chosen by a rule fixed
before any result was looked at: *dev* (even position in turns.yaml, 0-based) and *held-out*
(odd position). Rules are developed on the dev half's misses (``--misses dev``); the held-out
half shows whether they generalise.

Per category it prints: turns; hit (turns that need a fact and got at least one needed fact);
recall@4 (share of the needed facts recalled); precision (injected facts that were needed or
acceptable); wrong (injected superseded, overridden, stable-guidance or archived facts); and
empty (turns that need nothing and got nothing but acceptable extras).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "bench" / "recall_eval"
BASELINE_COMMIT = "cb3f792"
NOW = datetime(2026, 7, 27, 12, 0, tzinfo=UTC)
WORKSPACES = ("pay", "web", "data")
FACT_FILES = {
    "pay": "facts_payments.yaml",
    "web": "facts_web.yaml",
    "data": "facts_data.yaml",
    "global": "facts_global.yaml",
}
CATEGORIES = (
    "identifier",
    "paraphrase",
    "cross_language",
    "pasted_error",
    "multi_intent",
    "generic",
    "vague",
    "trap",
)


def fact_id(key: str) -> str:
    return "mem-" + hashlib.md5(key.encode()).hexdigest()


def load_corpus(eval_dir: Path = EVAL) -> tuple[dict[str, list[dict[str, Any]]], list[dict]]:
    facts = {
        ws: yaml.safe_load((eval_dir / name).read_text(encoding="utf-8"))
        for ws, name in FACT_FILES.items()
    }
    turns = yaml.safe_load((eval_dir / "turns.yaml").read_text(encoding="utf-8"))
    keys = [f["key"] for fs in facts.values() for f in fs]
    assert len(keys) == len(set(keys)), "duplicate fact keys"
    known = set(keys)
    for t in turns:
        t.setdefault("ok", [])
        assert t["cat"] in CATEGORIES, t
        assert t["ws"] in WORKSPACES, t
        for k in [*t["need"], *t["ok"]]:
            assert k in known, f"unknown fact {k!r} in {t['text']!r}"
    return facts, turns


# -- worker: runs inside the engine under test --------------------------------------------------


def _worker(eval_dir: Path) -> None:
    from context_center.engine.model import Fact, FactType, Scope
    from context_center.engine.recall import Recaller
    from context_center.engine.store.memory import find_conflicts

    facts, turns = load_corpus(eval_dir)

    def make(d: dict[str, Any], scope: Scope) -> Fact:
        updated = NOW - timedelta(days=float(d.get("age", 1)))
        return Fact(
            id=fact_id(d["key"]),
            revision=1,
            created_at=updated,
            updated_at=updated,
            name=d["name"],
            title=d["title"],
            description=d.get("description", ""),
            type=FactType(d["type"]),
            scope=scope,
            body=d["body"].strip(),
        )

    glob = [make(d, Scope.GLOBAL) for d in facts["global"] if not d.get("archived")]
    out: dict[str, Any] = {"turns": [], "overridden": {}}
    key_of = {fact_id(f["key"]): f["key"] for fs in facts.values() for f in fs}
    for ws in WORKSPACES:
        project = [make(d, Scope.PROJECT) for d in facts[ws] if not d.get("archived")]
        conflicts = find_conflicts(project, glob)
        out["overridden"][ws] = sorted({key_of[c.global_id] for c in conflicts})
        recaller = Recaller(None)
        active = tuple(project + glob)
        for i, t in enumerate(turns):
            if t["ws"] != ws:
                continue
            result = recaller.recall(t["text"], active, conflicts, now=NOW, persist=False)
            out["turns"].append(
                {
                    "i": i,
                    "selected": [key_of[s.id] for s in result.trace.selected],
                    "reasons": [s.reason for s in result.trace.selected],
                    "why": result.trace.reason.value if result.trace.reason else None,
                    "ms": result.trace.elapsed_ms,
                }
            )
    out["turns"].sort(key=lambda r: r["i"])
    json.dump(out, sys.stdout)


def run_engine(app_dir: Path | None) -> dict[str, Any]:
    env = dict(os.environ)
    if app_dir is not None:
        env["PYTHONPATH"] = str(app_dir) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run(
        [sys.executable, __file__, "--worker", str(EVAL)],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    if proc.returncode != 0:
        raise SystemExit(f"worker failed ({app_dir or 'this tree'}):\n{proc.stderr}")
    return json.loads(proc.stdout)


def baseline_app(commit: str, directory: str | None) -> Path:
    if directory:
        return Path(directory) / "app"
    target = Path("/tmp") / f"recall-base-{commit}"
    if not (target / "app").is_dir():
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(target), commit],
            cwd=ROOT,
            check=True,
            capture_output=True,
        )
    return target / "app"


# -- scoring -----------------------------------------------------------------------------------


def wrong_keys(facts: dict[str, list[dict]], overridden: dict[str, list[str]], ws: str) -> set:
    wrong = set(overridden.get(ws, ()))
    for group, fs in facts.items():
        for f in fs:
            if f.get("superseded") or f.get("archived"):
                wrong.add(f["key"])
            if group == "global" and f["type"] in ("user", "feedback"):
                wrong.add(f["key"])
    return wrong


HALVES = {"dev": 0, "held-out": 1}


def in_half(i: int, half: str | None) -> bool:
    """Turn ``i`` (0-based position in turns.yaml) is in ``half`` (None or "all": every turn)."""
    return half in (None, "all") or i % 2 == HALVES[half]


def score(facts, turns, run, half=None) -> dict[str, dict[str, float]]:  # type: ignore[no-untyped-def]
    acc: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    for i, (t, r) in enumerate(zip(turns, run["turns"], strict=True)):
        if not in_half(i, half):
            continue
        sel = r["selected"]
        need, ok = set(t["need"]), set(t["ok"])
        wrong = wrong_keys(facts, run["overridden"], t["ws"])
        for cat in (t["cat"], "all"):
            a = acc[cat]
            a["turns"] += 1
            a["injected"] += len(sel)
            a["good"] += sum(1 for k in sel if k in need or k in ok)
            a["wrong"] += sum(1 for k in sel if k in wrong)
            if need:
                a["need_turns"] += 1
                got = need & set(sel)
                a["hit"] += 1 if got else 0
                a["recall"] += len(got) / len(need)
            else:
                a["empty_turns"] += 1
                a["empty"] += 1 if all(k in ok for k in sel) else 0
    return acc


def _pct(num: float, den: float) -> str:
    return f"{100 * num / den:5.1f}%" if den else "    —"


def table(acc) -> list[str]:  # type: ignore[no-untyped-def]
    head = f"{'category':<15}{'turns':>6}{'hit':>8}{'recall@4':>10}{'precision':>11}"
    head += f"{'wrong':>7}{'empty':>8}"
    lines = [head, "-" * len(head)]
    for cat in (*CATEGORIES, "all"):
        a = acc.get(cat)
        if not a:
            continue
        lines.append(
            f"{cat:<15}{int(a['turns']):>6}{_pct(a['hit'], a['need_turns']):>8}"
            f"{_pct(a['recall'], a['need_turns']):>10}{_pct(a['good'], a['injected']):>11}"
            f"{int(a['wrong']):>7}{_pct(a['empty'], a['empty_turns']):>8}"
        )
    return lines


def misses(facts, turns, run, half=None) -> list[str]:  # type: ignore[no-untyped-def]
    out = []
    for i, (t, r) in enumerate(zip(turns, run["turns"], strict=True)):
        if not in_half(i, half):
            continue
        sel = r["selected"]
        need, ok = set(t["need"]), set(t["ok"])
        extra = [k for k in sel if k not in need and k not in ok]
        missing = sorted(need - set(sel))
        if extra or missing:
            text = " ".join(t["text"].split())[:90]
            out.append(
                f"#{i} [{t['cat']}/{t['ws']}] {text}\n    missing={missing} extra={extra} "
                f"why={r['why']}"
            )
    return out


def main() -> None:
    if len(sys.argv) >= 2 and sys.argv[1] == "--worker":
        _worker(Path(sys.argv[2]))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--baseline-commit", default=BASELINE_COMMIT)
    ap.add_argument("--baseline-dir", help="a checkout of the baseline (its app/ is imported)")
    ap.add_argument("--no-baseline", action="store_true")
    ap.add_argument(
        "--misses",
        nargs="?",
        const="all",
        choices=("all", *HALVES),
        help="list every turn with an error (of one half only: dev or held-out)",
    )
    ap.add_argument("--split", action="store_true", help="also the dev and held-out halves")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    facts, turns = load_corpus()
    n_facts = sum(len(v) for v in facts.values())
    runs = {"this tree": run_engine(None)}
    if not args.no_baseline:
        app = baseline_app(args.baseline_commit, args.baseline_dir)
        runs[f"baseline {args.baseline_commit}"] = run_engine(app)
    if args.json:
        halves = ("all", *HALVES) if args.split else ("all",)
        out = {k: {h: score(facts, turns, v, h) for h in halves} for k, v in runs.items()}
        json.dump(out, sys.stdout, indent=1)
        return
    print(
        f"Recall quality: {len(turns)} labelled turns, {n_facts} facts "
        f"({', '.join(f'{k} {len(v)}' for k, v in facts.items())}), now = {NOW:%Y-%m-%d}"
    )
    for name, run in runs.items():
        ms = sorted(r["ms"] for r in run["turns"])
        print(f"\n{name}  (median {ms[len(ms) // 2]:.2f} ms per turn)")
        print("\n".join(table(score(facts, turns, run))))
        if args.split:
            for half in HALVES:
                n = sum(1 for i in range(len(turns)) if in_half(i, half))
                print(f"\n{name}, {half} half ({n} turns)")
                print("\n".join(table(score(facts, turns, run, half))))
        if args.misses:
            print("\n".join(misses(facts, turns, run, args.misses)))


if __name__ == "__main__":
    main()
