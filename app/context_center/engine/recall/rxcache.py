"""Recall's CJK-class regular expressions, compiled once per Python build, not once per process.

Each pattern that holds ``tokenize.CJK_CLASS`` costs ``re`` 1.5-3 ms to compile: its
charset optimiser visits every one of the class's ~40,000 BMP code points in Python. A cold
per-turn process compiles six of them (about 14 ms) before it does any work.

``compile_all`` returns exactly the patterns ``re.compile`` would: a compiled pattern is
``_sre.compile(pattern, flags, code, groups, groupindex, indexgroup)`` (what
``re._compiler.compile`` ends with), and the first process writes those arguments, per
pattern, to ``recall-patterns-<name>.json`` under the cache root; later processes pass them
to ``_sre.compile`` directly. The file is used only when its key matches this interpreter
(version and build, ``_sre``'s magic number and code size, ``sys.maxunicode``) and the very
patterns and flags asked for; ``_sre.compile`` itself validates the code it is given. Anything
else (no cache root, a missing, stale or damaged file, another implementation of ``re``) and
the patterns are compiled by ``re.compile`` as before. Derived data: deleting the file only
costs the next process the compiles.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

FORMAT = 1
PREFIX = "recall-patterns-"

Spec = tuple[str, int]  # (pattern, flags)


def _interpreter() -> list[Any] | None:
    try:
        import _sre
    except ImportError:  # pragma: no cover - CPython always has it
        return None
    if sys.implementation.name != "cpython" or not hasattr(_sre, "compile"):
        return None  # pragma: no cover
    return [
        FORMAT,
        sys.version,
        sys.implementation.cache_tag,
        sys.maxunicode,
        getattr(_sre, "MAGIC", None),
        getattr(_sre, "CODESIZE", None),
        getattr(_sre, "MAXREPEAT", None),
        getattr(_sre, "MAXGROUPS", None),
    ]


def _parts(pattern: str, flags: int) -> list[Any]:
    """The arguments ``re._compiler.compile`` passes to ``_sre.compile`` for ``pattern``."""
    from importlib import import_module

    _compiler, _parser = import_module("re._compiler"), import_module("re._parser")

    parsed = _parser.parse(pattern, flags)
    code = _compiler._code(parsed, flags)
    groupindex = parsed.state.groupdict
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, i in groupindex.items():
        indexgroup[i] = name
    return [
        pattern,
        flags | parsed.state.flags,
        list(code),
        parsed.state.groups - 1,
        dict(groupindex),
        indexgroup,
    ]


def _build(parts: Sequence[Any]) -> re.Pattern[str]:
    import _sre

    pattern, flags, code, groups, groupindex, indexgroup = parts
    compiled: re.Pattern[str] = _sre.compile(
        pattern, flags, list(code), groups, dict(groupindex), tuple(indexgroup)
    )
    return compiled


def _path(name: str) -> Path | None:
    try:
        from context_center.engine.store.paths import cache_root

        return cache_root() / f"{PREFIX}{name}.json"
    except Exception:  # no usable cache root: compile
        return None


def _read(path: Path, key: list[Any]) -> list[Any] | None:
    from context_center.engine.store.cachedirs import read_derived

    raw = read_derived(path)
    if raw is None:
        return None
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):  # derived: compile instead
        return None
    if not isinstance(value, dict) or value.get("key") != key:
        return None
    parts = value.get("parts")
    return parts if isinstance(parts, list) else None


def _write(path: Path, key: list[Any], parts: list[list[Any]]) -> None:
    from context_center.engine.store.cachedirs import write_derived

    write_derived(path, json.dumps({"key": key, "parts": parts}, separators=(",", ":")).encode())


def compile_all(name: str, specs: Sequence[Spec]) -> list[re.Pattern[str]]:
    """``[re.compile(p, f) for p, f in specs]``, from the cache file ``name`` when it holds
    them for this interpreter (see the module docstring)."""
    interpreter = _interpreter()
    path = _path(name) if interpreter is not None else None
    if interpreter is None or path is None:
        return [re.compile(p, f) for p, f in specs]
    key = [*interpreter, [[p, f] for p, f in specs]]
    cached = _read(path, key)
    if cached is not None and len(cached) == len(specs):
        try:
            built = [_build(parts) for parts in cached]
            # each for the very pattern asked for (a copy's key and its parts agree)
            if [b.pattern for b in built] == [p for p, _ in specs]:
                return built
        except Exception:  # not ours after all (_sre refused the code): compile below
            pass
    try:
        fresh = [_parts(p, f) for p, f in specs]
        patterns = [_build(parts) for parts in fresh]
    except Exception:  # re's internals are not what this module expects
        return [re.compile(p, f) for p, f in specs]
    if patterns != [re.compile(p, f) for p, f in specs]:  # pragma: no cover - never seen
        return [re.compile(p, f) for p, f in specs]
    _write(path, key, fresh)
    return patterns
