"""Run the CLI in this process, as the console script would, and capture what it prints.

Most CLI tests use this (fast, and counted by coverage); each command keeps one test that
starts the real console script in a subprocess (tests/cli/test_entry.py).
"""

from __future__ import annotations

import contextlib
import io
import subprocess
import sys

from context_center.cli import main


class _Stdin(io.StringIO):
    def isatty(self) -> bool:  # never a terminal: nobody types here
        return False


def run_inprocess(argv: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``main(argv)`` with stdin/stdout/stderr swapped for buffers; usage errors exit 2."""
    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = _Stdin(stdin or "")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse: --help is 0, a usage error 2
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        sys.stdin = saved
    return subprocess.CompletedProcess(
        ["context-center", *argv], code, out.getvalue(), err.getvalue()
    )
