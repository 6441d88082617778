"""``MEMORY.md``: a derived index of a store, one line per fact; hand-written lines survive.

It is never a source of truth: loading ignores it, and every change rewrites the managed
lines while leaving every other line as the person wrote it. A managed line is any line
Reasonix treats as one, ``- [Title](name.md) — …`` (whatever follows the dash); the lines
this engine writes are ``- [Title](name.md) — [scope/type] description``, sorted by file name
in one block.

A change touches one line, in bounded form: when ``MEMORY.md`` is still the file this engine
last wrote (same size, mtime and inode, remembered with the managed block's byte range in the
store's private cache folder, ``memory-index.json``), the changed line is found by a binary
search over the block's lines (a few lines parsed), replaced, inserted or removed in the
bytes, and the file is replaced atomically -- no other line is parsed or rendered, and no
store is loaded. A ``MEMORY.md`` changed by anyone else (a person, Reasonix) is parsed and
rewritten whole once, as before, which also drops lines of facts that are gone.
"""

from __future__ import annotations

import bisect
import os
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from context_center.engine.model import Fact
from context_center.engine.store import atomic, memory_splice
from context_center.engine.store.memory_splice import MANAGED as _MANAGED
from context_center.engine.store.memory_splice import index_line

INDEX_NAME = "MEMORY.md"
HEADER = "# Memory index\n\nDerived from the fact files in this folder; the list is rebuilt after every change.\n"


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
    data, block = _render_bytes(parsed)
    atomic.write_bytes(path, data, durable=False)
    key = _stat_key(path)
    if key is not None:
        _CACHE[path] = (key, parsed)
    memory_splice.remember(path.parent, path, block)


def _render_bytes(parsed: _Parsed) -> tuple[bytes, tuple[int, int] | None]:
    """The file and the byte range of its managed block (None when there is none)."""
    data = _render(parsed).encode("utf-8")
    if not parsed.order or not all(
        memory_splice.reads_back(k, parsed.managed[k]) for k in parsed.order
    ):
        return data, None  # nothing to splice into, or a line a search could misread
    keep = parsed.keep
    where = parsed.where if parsed.where is not None else len(keep)
    pre = list(keep[:where])
    if parsed.where is None and keep and keep[-1].strip():
        pre.append("")  # the blank line ``_render`` puts before a block it appends
    start = len(("\n".join(pre) + "\n").encode("utf-8")) if pre else 0
    size = sum(len(parsed.managed[k].encode("utf-8")) + 1 for k in parsed.order)
    return data, (start, start + size)


def rebuild(store_root: Path, facts: Iterable[Fact]) -> bool:
    """Rewrite the managed lines from the facts. Returns False when nothing changed."""
    path = store_root / INDEX_NAME
    old = _load(path)
    managed = {f.name: index_line(f) for f in facts}
    new = _Parsed(list(old.keep), old.where, managed, sorted(managed))
    if path.exists() and new.managed == old.managed and _render(new) == _render(old):
        # unchanged; still note how it looks, so that the next change can be spliced
        memory_splice.remember(store_root, path, _render_bytes(new)[1])
        return False
    _store(path, new)
    return True


def apply_change(
    store_root: Path,
    *,
    put: Fact | None = None,
    remove: str | None = None,
    known: Mapping[str, object] | None = None,
    before: tuple[int, int] | None = None,
    current: Callable[[], Iterable[Fact]] | None = None,
) -> None:
    """Update one fact's line (and drop another's, for renames and forgets).

    ``before`` is the store folder's (mtime, inode) when the store lock was taken: if it is
    the one our last write left and ``MEMORY.md`` is the file we wrote, the change is spliced
    into it (``memory_splice``: one line found, nothing else parsed). Otherwise someone else
    changed the folder or the index, and with ``current`` (the store's facts as they are
    now, loaded only then) the file is rewritten whole from them, keeping the hand-written
    lines. Without ``current``, only the changed lines are updated, and lines for files that
    are neither ``known`` (the stems this process has loaded) nor on disk are dropped.
    """
    path = store_root / INDEX_NAME
    if before is not None and memory_splice.splice(store_root, path, put, remove, before):
        return
    if current is not None:
        rebuild(store_root, sorted(current(), key=lambda f: f.name))
        return
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
