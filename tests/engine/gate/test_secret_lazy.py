"""Patterns compiled at their first use (``gate.secrets.lazy``) behave as compiled ones."""

from __future__ import annotations

import re
import subprocess
import sys

from context_center.engine.gate.secrets.lazy import lazy_compile


def test_a_lazy_pattern_compiles_at_first_use_and_matches_the_same() -> None:
    lazy = lazy_compile(r"(?P<word>t[a-z]++)", re.IGNORECASE)
    assert "search" not in vars(lazy) and lazy.pattern == r"(?P<word>t[a-z]++)"
    real = re.compile(lazy.pattern, re.IGNORECASE)
    text = "Tokens and TEXT, then tea"
    assert [m.span() for m in lazy.finditer(text)] == [m.span() for m in real.finditer(text)]
    assert "search" in vars(lazy)  # compiled once, kept
    assert lazy.groupindex == real.groupindex and lazy.flags == real.flags
    assert lazy.fullmatch("tea") is not None and lazy.match("xtea") is None
    assert lazy.sub("-", text) == real.sub("-", text)
    assert {lazy: 1}[lazy] == 1 and lazy is lazy


def test_importing_the_scan_compiles_no_detector_pattern() -> None:
    code = (
        "from context_center.engine.gate.secrets import find_sensitive, tokens, statements\n"
        "find_sensitive('plain words of an ordinary fact')\n"
        "lazy = [p for p in (*tokens.SCANNING, *statements.SCANNING) if 'search' in vars(p)]\n"
        "print(len(lazy))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "0"
