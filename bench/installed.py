"""Benchmarks measure the program as installed: byte-compiled.

An install (``pip install``) writes every module's ``.pyc``; an editable checkout on a machine
with ``PYTHONDONTWRITEBYTECODE=1`` (this one) would otherwise compile the edited modules again
in every process a benchmark starts, a cost no user's process pays.
"""

from __future__ import annotations

import compileall
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "app" / "context_center"


def byte_compile(package: Path = PACKAGE) -> None:
    """Write the missing or stale ``.pyc`` of ``package`` (quietly; an error only costs speed)."""
    compileall.compile_dir(str(package), quiet=2)
