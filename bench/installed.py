"""Benchmarks measure the program as installed: byte-compiled.

An install (``pip install``) writes every module's ``.pyc``; an editable checkout on a machine
with ``PYTHONDONTWRITEBYTECODE=1`` (this one) would otherwise compile the edited modules again
in every process a benchmark starts, a cost no user's process pays.
"""

from __future__ import annotations

import compileall
from pathlib import Path


def byte_compile() -> None:
    """Write the missing or stale ``.pyc`` of the ``context_center`` package this process
    imports (the one its child processes import too: a worktree on ``PYTHONPATH`` wins), once
    per file, quietly; an error only costs speed."""
    import context_center

    package = Path(context_center.__file__).resolve().parent
    compileall.compile_dir(str(package), quiet=2, workers=1)
