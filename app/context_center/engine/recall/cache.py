"""The on-disk form of the recall index (``recall-index.cache``): derived data, no pickle.

``CCRECALL`` + header length (uint64 LE) + a JSON header + 64-byte aligned raw little-endian
arrays. The file is memory-mapped, so a process touches only the pages it reads: the postings
of its query terms, a few per-fact columns, the strings of the facts it shows.

It holds the CSR base, the terms (packed strings and their sorted order, ``termtable.py``)
and per fact: its columns (``ordinals.COLUMNS``: scope, type, revision, times, subject key,
the project-over-global mask, the conflict-key hashes, the file's size, mtime and inode), a
blake2b digest of the indexed text, and its id, name, title, description and file stem as
packed strings; each text's head terms (those of its name, title and description, joined by
spaces: a turn checks a fact's head fields without tokenising them); and, when known, the spans of each text the sanitizer withholds
(``secretmatch.Kept``, stamped with the scanner that found them; a file without them, or with
malformed ones, is read without them). The header's ``meta`` says which store state it describes (the stamps of
``store/stamp.py``). A missing, unreadable or mismatched file is ignored (and rebuilt by the
caller).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from context_center.engine import arrayfile
from context_center.engine.recall.ordinals import COLUMNS, SCOPES, DocKey
from context_center.engine.recall.secretmatch import Kept
from context_center.engine.recall.termtable import Strings
from context_center.engine.recall.tokenize import TOKENIZER_VERSION

CACHE_FORMAT = 3  # 3: memory-mapped; per-fact strings, file stats and store stamps
CACHE_MAGIC = b"CCRECALL"
STRING_FIELDS = ("ids", "names", "titles", "descriptions", "stems")
# the per-fact columns a cache file holds (alive, upd and src are derived on open)
CACHED_COLUMNS = tuple(k for k in COLUMNS if k not in ("alive", "upd", "src"))

__all__ = ["CACHE_FORMAT", "CACHE_MAGIC", "UNREADABLE", "CacheData", "parts", "read", "unpack"]

# what reading a damaged cache file can raise (each means: no usable cache)
UNREADABLE = (
    OSError,
    ValueError,
    KeyError,
    TypeError,
    IndexError,
    UnicodeDecodeError,
    OverflowError,
    NotImplementedError,
)


@dataclass(slots=True)
class CacheData:
    vocab: Strings
    vocab_order: np.ndarray
    offsets: np.ndarray
    docs: np.ndarray
    tfs: np.ndarray
    cols: dict[str, np.ndarray]
    digest: np.ndarray  # (n, 16) uint8
    strings: dict[str, Strings]
    meta: dict[str, Any]
    kept: Kept | None = None  # the texts' withheld spans (absent from older files)
    heads: Strings | None = None  # each row's head terms joined by spaces (the same)

    @property
    def n(self) -> int:
        return len(self.digest)

    def keys(self) -> list[DocKey]:
        scope = self.cols["scope"].tolist()
        return [(SCOPES[s].value, i) for s, i in zip(scope, self.strings["ids"].all(), strict=True)]


def parts(arrays: dict[str, np.ndarray], meta: dict[str, Any] | None = None) -> list[Any]:
    """The cache file (``arrayfile``'s form, stamped with this format and tokenizer) as
    buffers in order, for ``atomic.write_bytes`` to write one by one."""
    return arrayfile.parts(CACHE_MAGIC, _stamp(), arrays, meta)


def _stamp() -> dict[str, Any]:
    return {"format": CACHE_FORMAT, "tokenizer": TOKENIZER_VERSION}


def unpack_with_header(path: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]] | None:
    """The named arrays and the header's meta; None if not one of ours (or another format)."""
    return arrayfile.unpack_with_header(path, CACHE_MAGIC, _stamp())


def unpack(path: Path) -> dict[str, np.ndarray] | None:
    got = unpack_with_header(path)
    return got[0] if got is not None else None


def _strings(z: dict[str, np.ndarray], name: str, n: int) -> Strings | None:
    blob, off = z.get(f"s_{name}"), z.get(f"o_{name}")
    if blob is None or off is None or off.dtype != np.int64 or len(off) != n + 1:
        return None
    if n and (int(off[0]) != 0 or int(off[-1]) != len(blob) + 1 or bool(np.any(np.diff(off) < 1))):
        return None
    return Strings(blob, off)


def _columns_ok(cols: dict[str, np.ndarray], n: int) -> bool:
    for name in CACHED_COLUMNS:
        arr = cols.get(name)
        if arr is None or arr.shape != (n,) or arr.dtype != np.dtype(COLUMNS[name][0]):
            return False
    return True


def _postings_ok(off: np.ndarray, docs: np.ndarray, tfs: np.ndarray, order: np.ndarray) -> bool:
    v = len(off) - 1
    return (
        off.dtype == np.int64
        and docs.dtype == np.uint32
        and tfs.dtype == np.uint16
        and order.dtype == np.uint32
        and len(order) == v
        and v >= 0
        and int(off[0]) == 0
        and not (v > 0 and bool(np.any(np.diff(off) < 0)))
        and int(off[-1]) == len(docs) == len(tfs)
        and not (v and int(order.max()) >= v)
    )


def read(path: Path) -> CacheData | None:
    """A validated cache, or None. Raises OSError/ValueError/KeyError on unreadable files.

    The checks are O(terms + facts), never O(postings): a posting list is checked against
    the number of facts when it is first read (``PostingsStore._postings``)."""
    got = unpack_with_header(path)
    if got is None:
        return None
    z, meta = got
    digest = z["digest"]
    n = len(digest)
    off = z["offsets"]
    v = len(off) - 1
    vocab = _strings(z, "vocab", v)
    order = z["vocab_order"]
    strings = {name: _strings(z, name, n) for name in STRING_FIELDS}
    cols = {name: z[name] for name in CACHED_COLUMNS if name in z}
    if (
        vocab is None
        or any(s is None for s in strings.values())
        or not _columns_ok(cols, n)
        or digest.shape != (n, 16)
        or not _postings_ok(off, z["docs"], z["tfs"], order)
    ):
        return None
    docs, tfs = z["docs"], z["tfs"]
    return CacheData(
        vocab=vocab,
        vocab_order=order,
        offsets=off,
        docs=docs,
        tfs=tfs,
        cols=cols,
        digest=digest,
        strings={k: s for k, s in strings.items() if s is not None},
        meta=meta,
        kept=Kept.of(n, z),
        heads=_strings(z, "heads", n),
    )


def string_sections(name: str, blob: np.ndarray, off: np.ndarray) -> dict[str, np.ndarray]:
    return {f"s_{name}": blob, f"o_{name}": off}


@dataclass(slots=True)
class Reuse:
    """Which cached rows still describe a wanted fact (and the fact for each)."""

    kept: list[object]  # the Fact for each reused row, else None
    alive: np.ndarray
    reused: set[DocKey]


def match(
    data: CacheData,
    wanted: dict[DocKey, Any],
    time_us: Callable[[Any], int],
    digest: Callable[[Any], bytes],
) -> Reuse:
    """A cached row is reused when its fact has the same key, revision, update time and text
    digest (so a hand edit that kept the revision is still caught)."""
    n = data.n
    kept: list[object] = [None] * n
    alive = np.zeros(n, dtype=np.bool_)
    reused: set[DocKey] = set()
    rev, upd, dig = data.cols["rev"], data.cols["updated"], data.digest
    for o, key in enumerate(data.keys()):
        hit = wanted.get(key)
        if hit is None or hit.revision != int(rev[o]) or time_us(hit) != int(upd[o]):
            continue
        if digest(hit) != dig[o].tobytes():
            continue
        kept[o] = hit
        alive[o] = True
        reused.add(key)
    return Reuse(kept, alive, reused)
