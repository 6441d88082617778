#!/usr/bin/env python3
"""The stable prefix at scale: its size, each part against its budget, build time, stability.

    .venv/bin/python bench/bench_prefix.py --sizes 1000,20000

Facts come from ``bench/corpus.py`` (deterministic; 20% global, types rotate) and go straight
to ``build_prefix`` with one small instruction file, so only the prefix is measured, not the
store. Each size is built twice from shuffled input to check the output is byte-identical.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.corpus import generate

from context_center.engine.instructions.prefix import build_prefix
from context_center.engine.instructions.resolve import resolve_instructions


def run(n: int) -> dict[str, object]:
    facts = list(generate(n))
    with tempfile.TemporaryDirectory() as tmp:
        ws = Path(tmp) / "ws"
        (ws / ".git").mkdir(parents=True)
        (ws / "AGENTS.md").write_text("- Run the tests before committing.\n", encoding="utf-8")
        res = resolve_instructions(Path(tmp) / "home", ws, ws)
        start = time.perf_counter()
        prefix = build_prefix(res, facts, [])
        elapsed = time.perf_counter() - start
        shuffled = facts[:]
        random.Random(1).shuffle(shuffled)
        again = build_prefix(res, shuffled, [])
    parts = {p.name: (p.chars, p.budget, p.shown, p.total) for p in prefix.parts}
    return {
        "facts": n,
        "chars": prefix.length,
        "parts": parts,
        "seconds": round(elapsed, 3),
        "stable": again.text == prefix.text,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,20000")
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        result = run(size)
        print(
            f"{result['facts']:>6,} facts: {result['chars']:>9,} characters in "
            f"{result['seconds']} s; byte-stable: {result['stable']}"
        )
        for name, (chars, budget, shown, total) in result["parts"].items():  # type: ignore[attr-defined]
            limit = f" / {budget:,}" if budget else ""
            print(f"        {name:<12} {chars:>7,}{limit} characters, {shown:,} of {total:,} shown")


if __name__ == "__main__":
    main()
