"""One line of ``MEMORY.md`` changed in the file's bytes, without parsing the rest.

``remember`` notes, after each write of ``MEMORY.md`` by this engine, the file's size, mtime
and inode and the byte range of its managed block (sorted by file name, one line per fact) in
``memory-index.json`` in the store's private cache folder. ``splice`` then applies one change
-- replace, insert or remove the line of one file -- when the file on disk is still exactly
that one: it finds the place by a binary search over the block's lines (each probed line is
parsed, about 17 at 50,000 facts; the file is mapped, not read) and replaces the file
atomically, the kernel copying the bytes around the changed line. A block is remembered only
when every line of it reads back as the index line of its own file, so the search cannot be
misled. Anything unexpected (another writer, a line that is not an index line) returns False,
and the caller parses and rewrites the file whole.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import mmap
import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from context_center.engine.store import atomic, release
from context_center.engine.store.cachedirs import (
    FILE_MODE,
    readable_store_cache,
    writable_store_cache,
)
from context_center.engine.store.stamp import folder_stamp

if TYPE_CHECKING:
    from context_center.engine.model import Fact

SIDE_FILE = "memory-index.json"


class Buffer(Protocol):
    """What ``_find`` reads: ``bytes`` or a read-only ``mmap``."""

    def find(self, sub: bytes, start: int = ..., end: int = ...) -> int: ...
    def rfind(self, sub: bytes, start: int = ..., end: int = ...) -> int: ...
    def __getitem__(self, key: slice) -> bytes: ...


# Reasonix's own pattern: any line "- [Title](name.md) — …", tagged "[scope/type]" or not, is
# an index line (so an older untagged or Claude-style line for a file is replaced, not kept
# beside the new one, and goes away with the fact).
MANAGED = re.compile(r"^\s*-\s\[.+?\]\((?P<file>[^)]+)\.md\)\s*—\s.*$")


def index_line(fact: Fact) -> str:
    title = fact.display_title.replace("[", "\\[").replace("]", "\\]").replace("\n", " ")
    desc = " ".join(fact.description.split())
    return f"- [{title}]({fact.name}.md) — [{fact.scope.value}/{fact.type.value}] {desc}".rstrip()


class _Unexpected(Exception):
    """The block is not what ``remember`` recorded: rewrite the file whole."""


def _stat(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.lstat(path)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


def remember(root: Path, path: Path, block: tuple[int, int] | None) -> None:
    """Record how ``path`` (just written by us, the last change of this write to the store
    folder) looks, where its managed block is, and the folder's (mtime, inode) now."""
    folder = writable_store_cache(root)
    if folder is None:
        return
    side = folder / SIDE_FILE
    st = _stat(path)
    with contextlib.suppress(OSError):
        if block is None or st is None:
            side.unlink(missing_ok=True)
            return
        data = json.dumps(
            {"stat": list(st), "block": list(block), "folder": list(folder_stamp(root))}
        ).encode()
        atomic.write_bytes(side, data, mode=FILE_MODE, sync_dir=False, durable=False)


def _recorded(root: Path) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]] | None:
    folder = readable_store_cache(root)
    if folder is None:
        return None
    try:
        data = json.loads((folder / SIDE_FILE).read_bytes())
        st = tuple(int(x) for x in data["stat"])
        block = tuple(int(x) for x in data["block"])
        seen = tuple(int(x) for x in data["folder"])
    except (OSError, ValueError, KeyError, TypeError, RecursionError):
        return None
    if len(st) != 3 or len(block) != 2 or len(seen) != 2:
        return None
    return st, block, seen


def _stem(line: bytes) -> str:
    try:
        m = MANAGED.match(line.decode("utf-8"))
    except UnicodeDecodeError:
        m = None
    if m is None:
        raise _Unexpected
    return m.group("file")


def _find(data: Buffer, start: int, end: int, stem: str) -> tuple[int, int | None]:
    """(where the line of ``stem`` is or would go, the end of that line if it is there)."""
    lo, hi = start, end
    while lo < hi:
        mid = (lo + hi) // 2
        ls = max(data.rfind(b"\n", start, mid) + 1, start)
        le = data.find(b"\n", mid, end) + 1
        if le <= 0:
            raise _Unexpected
        if _stem(data[ls : le - 1]) < stem:
            lo = le
        else:
            hi = ls
    if lo < end:
        le = data.find(b"\n", lo, end) + 1
        if le <= 0:
            raise _Unexpected
        if _stem(data[lo : le - 1]) == stem:
            return lo, le
    return lo, None


def reads_back(key: str, line: str) -> bool:
    """Whether ``line`` is read back as one index line for the file ``key`` (a title can hold
    ``](`` or a character ``splitlines`` breaks at): only a block of such lines is spliced."""
    m = MANAGED.match(line)
    return m is not None and m.group("file") == key and len(line.splitlines()) == 1


def _line(put: Fact) -> bytes:
    text = index_line(put)
    if not reads_back(put.name, text):
        raise _Unexpected  # leave it to a whole rewrite
    return text.encode("utf-8", "surrogatepass") + b"\n"


def _edits(
    data: Buffer, start: int, end: int, put: Fact | None, remove: str | None
) -> tuple[list[tuple[int, int, bytes]], int]:
    """The byte ranges to replace (in order, not overlapping) and the block's new end."""
    cuts: list[tuple[int, int, bytes]] = []
    if remove is not None and (put is None or put.name != remove):
        pos, line_end = _find(data, start, end, remove)
        if line_end is not None:
            cuts.append((pos, line_end, b""))
    if put is not None:
        pos, line_end = _find(data, start, end, put.name)
        cuts.append((pos, line_end if line_end is not None else pos, _line(put)))
    cuts.sort()
    for (_, a_end, _), (b_start, _, _) in itertools.pairwise(cuts):
        if b_start < a_end:
            raise _Unexpected  # cannot happen for two different names; never splice blindly
    new_end = end + sum(len(text) - (b - a) for a, b, text in cuts)
    return cuts, new_end


def splice(
    root: Path, path: Path, put: Fact | None, remove: str | None, before: tuple[int, int]
) -> bool:
    """Apply one change to ``MEMORY.md`` in place of a full rewrite; False if it cannot.

    ``before``: the store folder's (mtime, inode) before this write changed it; it must be
    the one our last write left (nobody else created, renamed or removed a file since, so
    the index still lists every fact). The file is mapped, not read: only the pages of the
    probed lines are touched, and the new file is copied by the kernel around the changed
    line (``atomic.write_spliced``)."""
    recorded = _recorded(root)
    if recorded is None or _stat(path) != recorded[0] or tuple(before) != recorded[2]:
        return False
    st, (start, end), _ = recorded
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    replaced = False
    try:
        if os.fstat(fd).st_size != st[0] or not 0 <= start < end <= st[0]:
            return False
        with mmap.mmap(fd, st[0], access=mmap.ACCESS_READ) as data:
            if (start and data[start - 1 : start] != b"\n") or data[end - 1 : end] != b"\n":
                return False
            try:
                cuts, new_end = _edits(data, start, end, put, remove)
            except _Unexpected:
                return False
            if new_end <= start:
                return False  # the last line went: the full form decides how it looks
        atomic.write_spliced(path, fd, st[0], cuts)
        replaced = True
    finally:
        if replaced:  # the old file's last descriptor: its blocks are freed off our path
            release.close_later(fd)
        else:
            os.close(fd)
    remember(root, path, (start, new_end))
    return True
