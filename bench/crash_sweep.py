"""The full crash-point sweep (issue 17): every kill point of every operation, and torn writes.

    .venv/bin/python bench/crash_sweep.py [--fast] [--no-torn] [OPERATION ...]

Kills each operation (tests/engine/crash/crash_ops.py) before each of its file-system steps,
and in the middle of each write, and checks the invariants after each kill
(tests/engine/crash/crash_harness.py). Prints one line per operation and the totals; exits 1
if any invariant failed (the first failures are printed).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "engine" / "crash"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("operations", nargs="*", help="only these (e.g. rename 'approve create')")
    parser.add_argument("--fast", action="store_true", help="the suite's subset of points")
    parser.add_argument("--no-torn", action="store_true", help="no kills in the middle of writes")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="crash-sweep-"))
    os.environ["CONTEXT_CENTER_CACHE"] = str(scratch / "cache")  # never the real cache
    os.environ.pop("CONTEXT_CENTER_HOME", None)
    from crash_harness import Tally, sweep
    from crash_ops import all_ops

    total = Tally()
    started = time.perf_counter()
    for n, op in enumerate(all_ops()):
        if args.operations and op.name not in args.operations:
            continue
        t0 = time.perf_counter()
        tally = sweep(op, scratch / f"op-{n}", torn=not args.no_torn, fast=args.fast)
        total.add(tally)
        print(
            f"{op.name:22} kill points {tally.kill_points:4}  torn writes {tally.torn_points:3}  "
            f"invariant checks {tally.checks:6}  left before/after {tally.before:3}/{tally.after:3}  "
            f"failures {len(tally.failures):3}  {time.perf_counter() - t0:5.1f} s",
            flush=True,
        )
    print(
        f"{'total':22} kill points {total.kill_points:4}  torn writes {total.torn_points:3}  "
        f"invariant checks {total.checks:6}  left before/after {total.before:3}/{total.after:3}  "
        f"failures {len(total.failures):3}  {time.perf_counter() - started:5.1f} s"
    )
    for failure in total.failures[:20]:
        print("FAIL", failure[:500])
    return 1 if total.failures else 0


if __name__ == "__main__":
    sys.exit(main())
