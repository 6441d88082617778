"""The package's lazy exports: ``accept`` is the function even when ``dismiss`` (same submodule,
``accept.py``) was loaded first — the window dismissing one candidate and then accepting
another once failed with "'module' object is not callable"."""

from __future__ import annotations

import subprocess
import sys


def test_accept_is_the_function_after_dismiss_was_loaded_first() -> None:
    code = (
        "import types\n"
        "from context_center.engine.suggestions import dismiss\n"
        "from context_center.engine.suggestions import accept\n"
        "assert callable(dismiss)\n"
        "assert not isinstance(accept, types.ModuleType), accept\n"
        "assert accept.__name__ == 'accept'\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
