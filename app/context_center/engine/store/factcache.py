"""The parsed-facts cache (``facts-v4.bin``) and the guarded read of one fact file.

The cache lives outside the home, in the store's private folder under the platform's cache
directory (``paths.store_cache_dir``: 0700 folders, a 0600 file), so reading a store never
writes into it.

Opening a large store is fast because parsed facts are cached, validated per file by size,
mtime and inode; only changed files are parsed again. The cache is advisory: it is never read
or written through a symlink, a damaged cache is ignored, and a failed write only costs speed.

The file is compact and column-wise (``factpack.py``): a small JSON header (how many rows, how
many of them are legacy files or diagnostics: ``summary`` reads only that), then per field
one array of 64-bit integers or one NUL-joined UTF-8 text, so reading 50,000 rows is a few
decodes and splits instead of parsing 65 MB of JSON.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from typing import Any

from context_center.engine.kinds import FactType, Scope, normalise_body
from context_center.engine.model import Fact
from context_center.engine.store import atomic, factpack
from context_center.engine.store.cachedirs import (
    FILE_MODE,
    readable_store_cache,
    writable_store_cache,
)
from context_center.engine.store.entries import mtime_of
from context_center.engine.store.factfields import read_bytes as read_fact_bytes
from context_center.engine.store.factfile import (
    ParsedFile,
    parse_fact_bytes,
)
from context_center.engine.store.guarded import is_link, read_regular
from context_center.engine.store.paths import store_cache_dir

CACHE_VERSION = 4  # 3: names and legacy ids as Reasonix derives them; 4: compact columns
CACHE_DIR = ".cache"  # where earlier builds kept it, inside the store (migrate removes it)
CACHE_FILE = "facts-v4.bin"
OLD_CACHE_FILE = "facts-v1.json"
MAX_CACHE_BYTES = 1 << 30


def read_fact_file(
    path: Path | str, *, stem: str, scope: Scope, prefer_declared_name: bool = False
) -> tuple[ParsedFile, bytes, Any]:
    """Read and parse one fact file: (parsed, raw bytes, stat). Raises FactFileError/OSError."""
    data, st = read_fact_bytes(path)
    parsed = parse_fact_bytes(
        data,
        stem=stem,
        directory_scope=scope,
        mtime=mtime_of(st),
        prefer_declared_name=prefer_declared_name,
    )
    return parsed, data, st


def fact_to_cache(fact: Fact) -> list[Any]:
    return [
        fact.id,
        fact.revision,
        fact.created_at,
        fact.updated_at,
        fact.name,
        fact.title,
        fact.description,
        fact.type.value,
        fact.body,
    ]


_TYPES = {t.value: t for t in FactType}
_FIELDS_SET = frozenset(Fact.model_fields)


def fact_from_values(values: dict[str, Any], scope: Scope) -> Fact:
    """A fact from fields validated when its file was parsed (``type`` as its value).

    Equivalent to ``Fact.model_construct`` (no validation), without its per-call overhead,
    which dominated opening a 50k-fact store.
    """
    return _facts_from([values], scope)[0]


def cached_facts(cache: factpack.Packed, rows: list[int], scope: Scope) -> list[Fact]:
    """The facts of ``rows`` of ``cache`` (rows holding a fact), in one pass."""
    return _facts_from(cache.fact_fields(rows), scope)


def _facts_from(fields: list[dict[str, Any]], scope: Scope) -> list[Fact]:
    """``fact_from_values`` of each, as one loop (opening a 50k-fact store builds them all)."""
    types, fields_set, new, set_attr = _TYPES, _FIELDS_SET, Fact.__new__, object.__setattr__
    out = []
    for values in fields:
        values["type"] = types[values["type"]]
        values["scope"] = scope
        body = values.get("body")
        if isinstance(body, str) and "\r" in body:  # cached by a build that kept CR line ends
            values["body"] = normalise_body(body)
        fact = new(Fact)
        set_attr(fact, "__dict__", values)
        set_attr(fact, "__pydantic_fields_set__", fields_set)
        set_attr(fact, "__pydantic_extra__", None)
        set_attr(fact, "__pydantic_private__", None)
        out.append(fact)
    return out


def cache_path(root: Path) -> Path:
    """Outside the home, in the store's private cache folder (``paths.store_cache_dir``)."""
    return store_cache_dir(root) / CACHE_FILE


def _cache_bytes(root: Path) -> bytes | None:
    folder = readable_store_cache(root)
    path = cache_path(root)
    if folder is None or is_link(path):
        return None  # never trust parsed facts read through a link
    try:
        return read_regular(path, max_bytes=MAX_CACHE_BYTES)[0]
    except (OSError, ValueError):
        return None


def load_cache(root: Path) -> factpack.Packed:
    """The cached rows (by file name: ``get``); empty when missing, damaged, old or behind a
    symlink."""
    data = _cache_bytes(root)
    if data is None:
        return factpack.EMPTY
    try:
        return factpack.decode(data, CACHE_VERSION)
    except (ValueError, KeyError, IndexError, TypeError, OverflowError, UnicodeDecodeError):
        return factpack.EMPTY


def summary(root: Path) -> factpack.Summary | None:
    """How many rows the cache holds and how many are legacy files (only the header is
    read); None when there is no usable cache."""
    folder = readable_store_cache(root)
    path = cache_path(root)
    if folder is None or is_link(path):
        return None
    try:
        with open(path, "rb", opener=_no_follow) as fh:
            head = fh.read(len(factpack.MAGIC) + 4)
            size = int.from_bytes(head[len(factpack.MAGIC) :], "little")
            data = head + fh.read(min(size, 1 << 16))
    except (OSError, ValueError):
        return None
    return factpack.summary(data, CACHE_VERSION)


def _no_follow(path: str, flags: int) -> int:
    import os

    return os.open(path, flags | getattr(os, "O_NOFOLLOW", 0))


def write_cache(root: Path, files: dict[str, Any], packed: factpack.Packed | None = None) -> None:
    """Write the cache: per file a row, or the index of an unchanged row of ``packed``."""
    if writable_store_cache(root) is None:
        return
    payload = factpack.encode(files, CACHE_VERSION, packed)
    path = cache_path(root)
    with contextlib.suppress(OSError):  # a cache that cannot be written only costs speed
        atomic.write_bytes(path, payload, mode=FILE_MODE, sync_dir=False)
        (path.parent / OLD_CACHE_FILE).unlink(missing_ok=True)  # the JSON form before v4
