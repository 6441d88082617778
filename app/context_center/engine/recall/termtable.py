"""Index terms by id and ids by term, without building a dict of every term at open.

A cold recall process looks up a few dozen terms; building a dict of the 120,000 terms of a
50,000-fact index would cost it more than the whole turn. ``TermTable`` therefore keeps the
terms read from the cache *packed* (one UTF-8 blob, its offsets and the ids in sorted term
order, ``Strings``) and finds a term by binary search; terms added since (``add``) live in a
dict beside it. ``terms()`` unpacks everything, for compaction and saving.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np


class Strings:
    """``n`` strings in one UTF-8 blob: string ``i`` is ``blob[off[i]:off[i+1]]``."""

    __slots__ = ("_blob", "_off", "n")

    def __init__(self, blob: bytes | memoryview | np.ndarray, off: np.ndarray) -> None:
        # a memoryview over the cache's mapping: nothing is copied until a string is asked for
        self._blob = (
            memoryview(blob).cast("B")  # type: ignore[arg-type]  # an ndarray is a buffer
            if not isinstance(blob, bytes)
            else blob
        )
        # a list when short; else a memoryview, whose items are Python ints (a lookup reads
        # two of them, a binary search over 120,000 terms some forty)
        self._off: list[int] | memoryview = off.tolist() if len(off) < 4096 else _ints(off)
        self.n = len(off) - 1

    def __len__(self) -> int:
        return self.n

    def __getitem__(self, i: int) -> str:
        off = self._off
        return str(self._blob[off[i] : off[i + 1] - 1], "utf-8", "surrogatepass")

    def raw(self) -> bytes:
        """The blob: equal blobs hold equal strings (they are NUL-joined, and hold no NUL)."""
        return bytes(self._blob)

    def all(self) -> list[str]:
        if not self.n:
            return []
        return str(self._blob, "utf-8", "surrogatepass").split("\x00")


def _ints(a: np.ndarray) -> memoryview:
    """A read-only view of a 1-D integer array whose items read as Python ints."""
    return np.ascontiguousarray(a).data.toreadonly()


# How many base terms a table remembers having found (a turn's terms, the terms of the files
# a catch-up indexes: they repeat); beyond it, lookups search again.
MEMO_TERMS = 1 << 16


def pack_strings(items: Iterable[str]) -> tuple[np.ndarray, np.ndarray]:
    """(blob as uint8, offsets as int64) of ``items``: the strings joined by NUL (they never
    hold one: fact files refuse it), so that ``Strings.all`` is one decode and one split.
    String ``i`` starts at ``off[i]`` and ends one byte before ``off[i + 1]``. One encode of
    the joined text; the offsets are where its NULs are."""
    items = items if isinstance(items, list) else list(items)
    data = np.frombuffer("\x00".join(items).encode("utf-8", "surrogatepass"), dtype=np.uint8)
    off = np.zeros(len(items) + 1, dtype=np.int64)
    if items:
        ends = np.flatnonzero(data == 0)
        if len(ends) != len(items) - 1:
            raise ValueError("a string to pack holds a NUL")
        off[1:-1] = ends + 1
        off[-1] = len(data) + 1
    return data, off


class TermTable:
    """Term ids <-> term strings: a packed, sorted base plus a dict of terms added since."""

    __slots__ = ("_added", "_base", "_extra", "_found", "_n_base", "_order")

    def __init__(
        self,
        terms: list[str] | None = None,
        *,
        packed: Strings | None = None,
        order: np.ndarray | None = None,
    ) -> None:
        self._base = packed
        self._order = _ints(order) if order is not None else None
        self._found: dict[str, int | None] = {}  # base lookups already made (the base is fixed)
        self._n_base = len(packed) if packed is not None else 0
        self._extra: list[str] = list(terms or ())
        self._added: dict[str, int] = {t: i for i, t in enumerate(self._extra)}

    def __len__(self) -> int:
        return self._n_base + len(self._extra)

    @property
    def packed(self) -> bool:
        """Whether the table holds terms read from a cache (a packed base)."""
        return self._base is not None

    def __getitem__(self, i: int) -> str:
        if i < self._n_base:
            assert self._base is not None
            return self._base[i]
        return self._extra[i - self._n_base]

    def __iter__(self) -> Iterator[str]:
        return iter(self.terms())

    def _find_base(self, term: str) -> int | None:
        found = self._found
        if term in found:
            return found[term]
        tid = self._search_base(term)
        if len(found) < MEMO_TERMS:
            found[term] = tid
        return tid

    def _search_base(self, term: str) -> int | None:
        base, order = self._base, self._order
        if base is None or order is None or not self._n_base:
            return None
        lo, hi = 0, self._n_base
        while lo < hi:
            mid = (lo + hi) // 2
            if base[order[mid]] < term:
                lo = mid + 1
            else:
                hi = mid
        if lo < self._n_base:
            tid = order[lo]
            if base[tid] == term:
                return tid
        return None

    def get(self, term: str) -> int | None:
        tid = self._added.get(term)
        if tid is not None:
            return tid + self._n_base
        return self._find_base(term)

    def add(self, term: str) -> int:
        """The id of ``term``, added if new."""
        tid = self.get(term)
        if tid is None:
            tid = len(self)
            self._added[term] = tid - self._n_base
            self._extra.append(term)
        return tid

    def terms(self) -> list[str]:
        head = self._base.all() if self._base is not None else []
        return head + self._extra

    def sorted_ids(self) -> np.ndarray:
        """Term ids in ascending term order (what the cache stores for the binary search)."""
        terms = self.terms()
        return np.array(sorted(range(len(terms)), key=terms.__getitem__), dtype=np.uint32)
