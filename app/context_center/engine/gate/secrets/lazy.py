"""Patterns compiled at their first use, not at import.

The detectors hold about 80 patterns; compiling them all costs some 25 ms of every process
that imports the scan, while most texts never reach most of them (``prefilter`` turns away a
text with nothing to find, and each detector's own pre-check the texts without its needles).
``lazy_compile(pattern, flags)`` returns a stand-in that compiles on the first attribute read
and from then on answers with the compiled pattern's own bound methods (kept on the stand-in,
so a later call costs what a call on the pattern costs). Its identity is stable (``is``
comparisons, sets and dictionaries of patterns work), and ``pattern``/``flags`` are known
before compiling.
"""

from __future__ import annotations

import re
from typing import cast

from context_center.engine import rxcache

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split")


class _LazyPattern:
    def __init__(self, pattern: str, flags: int) -> None:
        self.pattern = pattern
        self.flags = flags

    def __getattr__(self, name: str) -> object:
        # only for names not set yet: compile, then keep what later reads need
        compiled = rxcache.compile(self.pattern, self.flags)
        for method in _METHODS:
            setattr(self, method, getattr(compiled, method))
        self.groupindex = compiled.groupindex
        self.groups = compiled.groups
        self.flags = compiled.flags  # with the implied re.UNICODE, as a compiled pattern has
        if name in self.__dict__:
            return self.__dict__[name]
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy_compile({self.pattern!r})"


def lazy_compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, done at the first use."""
    return cast("re.Pattern[str]", _LazyPattern(pattern, flags))
