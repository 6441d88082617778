"""``MEMORY.md``: a derived index of a store, one line per fact; hand-written lines survive.

It is never a source of truth: loading ignores it, and every change rewrites the managed
lines while leaving every other line as the person wrote it. A managed line is any line
Reasonix treats as one, ``- [Title](name.md) — …`` (whatever follows the dash); the lines
this engine writes are ``- [Title](name.md) — [scope/type] description``.
"""

from __future__ import annotations

import bisect
import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from context_center.engine.model import Fact
from context_center.engine.store import atomic

INDEX_NAME = "MEMORY.md"
HEADER = "# Memory index\n\nDerived from the fact files in this folder; the list is rebuilt after every change.\n"
# Reasonix's own pattern: any line "- [Title](name.md) — …", tagged "[scope/type]" or not, is
# an index line (so an older untagged or Claude-style line for a file is replaced, not kept
# beside the new one, and goes away with the fact).
_MANAGED = re.compile(r"^\s*-\s\[.+?\]\((?P<file>[^)]+)\.md\)\s*—\s.*$")


def index_line(fact: Fact) -> str:
    title = fact.display_title.replace("[", "\\[").replace("]", "\\]").replace("\n", " ")
    desc = " ".join(fact.description.split())
    return f"- [{title}]({fact.name}.md) — [{fact.scope.value}/{fact.type.value}] {desc}".rstrip()


@dataclass
class _Parsed:
    keep: list[str]  # hand-written lines, in order
    where: int | None  # where the managed block sits among them
    managed: dict[str, str]  # file stem -> line
    order: list[str]  # sorted keys of managed


def _split(text: str) -> _Parsed:
    keep: list[str] = []
    where: int | None = None
    managed: dict[str, str] = {}
    for line in text.splitlines():
        m = _MANAGED.match(line)
        if m:
            if where is None:
                where = len(keep)
            managed[m.group("file")] = line
        else:
            keep.append(line)
    return _Parsed(keep, where, managed, sorted(managed))


def _render(parsed: _Parsed) -> str:
    block = [parsed.managed[k] for k in parsed.order]
    keep, where = parsed.keep, parsed.where
    if where is None:
        where = len(keep)
        if keep and keep[-1].strip():
            block = ["", *block]
    lines = keep[:where] + block + keep[where:]
    return "\n".join(lines).rstrip("\n") + "\n"


# What this process last wrote, by path, with the file's (size, mtime_ns, inode) then: a
# store with 50k facts would otherwise re-read and re-parse a multi-megabyte index per change.
_CACHE: dict[Path, tuple[tuple[int, int, int], _Parsed]] = {}


def _stat_key(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def _load(path: Path) -> _Parsed:
    key = _stat_key(path)
    cached = _CACHE.get(path)
    if key is not None and cached is not None and cached[0] == key:
        return cached[1]
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = HEADER
    return _split(text)


def _store(path: Path, parsed: _Parsed) -> None:
    # Derived data: atomic (no torn reads) but not fsynced; it is rebuilt from the facts.
    atomic.write_bytes(path, _render(parsed).encode("utf-8"), durable=False)
    key = _stat_key(path)
    if key is not None:
        _CACHE[path] = (key, parsed)


def rebuild(store_root: Path, facts: Iterable[Fact]) -> bool:
    """Rewrite the managed lines from the facts. Returns False when nothing changed."""
    path = store_root / INDEX_NAME
    old = _load(path)
    managed = {f.name: index_line(f) for f in facts}
    new = _Parsed(list(old.keep), old.where, managed, sorted(managed))
    if path.exists() and new.managed == old.managed and _render(new) == _render(old):
        return False
    _store(path, new)
    return True


def apply_change(
    store_root: Path,
    *,
    put: Fact | None = None,
    remove: str | None = None,
    known: Mapping[str, object] | None = None,
) -> None:
    """Update one fact's line (and drop another's, for renames and forgets).

    Lines for files that are neither ``known`` (the stems this process has loaded) nor on disk
    (stems, e.g. the store snapshot's entries) are stale and dropped, so the index never advertises a fact that is gone.
    """
    path = store_root / INDEX_NAME
    parsed = _load(path)
    managed = dict(parsed.managed)
    order = list(parsed.order)
    if known is not None:
        stale = [f for f in managed.keys() - known.keys() if not (store_root / f"{f}.md").is_file()]
        for file in stale:
            del managed[file]
        if stale:
            order = sorted(managed)
    if remove is not None and managed.pop(remove, None) is not None:
        order.remove(remove)
    if put is not None:
        key = put.name
        if key not in managed:
            bisect.insort(order, key)
        managed[key] = index_line(put)
    _store(path, _Parsed(parsed.keep, parsed.where, managed, order))
