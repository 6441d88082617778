"""Regular expressions compiled once per Python build, not once per process.

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

``compile(pattern, flags)`` is the same for patterns compiled one at a time wherever they are
needed (the secret detectors' patterns at their first use, the provider-visibility and
look-alike patterns): the first call reads one shared table (``recall-patterns-shared.json``,
at most ``MAX_SHARED`` patterns), a pattern it holds is built from its code, and a pattern it
does not is compiled by ``re``, checked equal to what its code builds, and added; the table
is written again when the process ends (``atexit``), merged with what other processes added
since. A per-turn process compiles some ninety patterns (about 0.012 CPU-s) otherwise.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import re
import sys
import threading
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


def _read(path: Path, key: list[Any], max_bytes: int | None = None) -> list[Any] | None:
    from context_center.engine.store.cachedirs import read_derived

    raw = read_derived(path)
    if raw is None or (max_bytes is not None and len(raw) > max_bytes):
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


# -- one pattern at a time, through a shared table ----------------------------------------

SHARED = "shared"
# Bounds of the table: it holds the patterns every process compiles alike (constants of the
# code), never ones built from a home's paths or a message, so a few dozen; a larger file is
# not read (and is written again within the bounds).
MAX_SHARED = 256
MAX_SHARED_BYTES = 256 * 1024
_lock = threading.RLock()  # reentrant: reading the table may import modules that compile
_table: dict[tuple[str, int], list[Any]] | None = None  # loaded on first use
_added: dict[tuple[str, int], list[Any]] = {}
_state: dict[str, Any] = {}  # "path", "key", "registered"


def _shared_table() -> dict[tuple[str, int], list[Any]] | None:
    global _table
    if _table is not None or _state.get("off"):
        return _table
    interpreter = _interpreter()
    path = _path(SHARED) if interpreter is not None else None
    if interpreter is None or path is None:
        _state["off"] = True
        return None
    _state["path"], _state["key"] = path, interpreter
    _table = _entries(_read(path, interpreter, MAX_SHARED_BYTES))
    _state["bytes"] = sum(_size(p) for p in _table.values())
    return _table


def _size(parts: list[Any]) -> int:
    """About what an entry takes in the file (its code dominates)."""
    return len(parts[0]) + 6 * len(parts[2]) + 64


def _entries(raw: list[Any] | None) -> dict[tuple[str, int], list[Any]]:
    """``{(pattern, flags asked for): the arguments of _sre.compile}`` from the file's list of
    ``[pattern, flags, arguments]``."""
    out: dict[tuple[str, int], list[Any]] = {}
    for item in raw or ():
        if (
            isinstance(item, list)
            and len(item) == 3
            and isinstance(item[0], str)
            and isinstance(item[1], int)
            and isinstance(item[2], list)
            and len(item[2]) == 6
        ):
            out[(item[0], item[1])] = item[2]
    return out


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """``re.compile(pattern, flags)``, from the shared table when it holds the pattern."""
    with _lock:
        table = _shared_table()
        if table is None:
            return re.compile(pattern, flags)
        parts = table.get((pattern, flags))
        if parts is not None:
            try:
                built = _build(parts)
                if built.pattern == pattern:
                    return built
            except Exception:  # not ours after all (_sre refused the code): compile below
                pass
        compiled = re.compile(pattern, flags)
        if len(table) < MAX_SHARED and _state.get("bytes", 0) < MAX_SHARED_BYTES:
            try:
                fresh = _parts(pattern, flags)
                same = _build(fresh) == compiled
            except Exception:  # re's internals are not what this module expects
                same = False
            if same:
                table[(pattern, flags)] = fresh
                _added[(pattern, flags)] = fresh
                _state["bytes"] = _state.get("bytes", 0) + _size(fresh)
                if not _state.get("registered"):
                    _state["registered"] = True
                    atexit.register(save_shared)
        return compiled


def save_shared() -> None:
    """Write the shared table with this process's new patterns (quietly: a table that cannot
    be written only costs the next process the compiles)."""
    with _lock:
        if not _added or "path" not in _state:
            return
        path, key = _state["path"], _state["key"]
        merged = _entries(_read(path, key, MAX_SHARED_BYTES))
        size = sum(_size(p) for p in merged.values())
        for k, parts in _added.items():
            if len(merged) >= MAX_SHARED or size >= MAX_SHARED_BYTES:
                break
            if k not in merged:
                merged[k] = parts
                size += _size(parts)
        _added.clear()
        with contextlib.suppress(Exception):  # derived data
            _write(path, key, [[p, f, parts] for (p, f), parts in merged.items()])
