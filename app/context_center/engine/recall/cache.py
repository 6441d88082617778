"""The on-disk form of the recall index (``recall-index.cache``): derived data, no pickle.

``CCRECALL`` + header length (uint64 LE) + a JSON header + 64-byte aligned raw little-endian
arrays, read back with one ``numpy.fromfile`` and zero-copy views. It holds the CSR base and,
per fact, its (scope, id), revision, updated_at, a blake2b digest of the indexed text and its
subject key (``subjects.py``). A restarted process reuses the postings of every fact whose key
and digest still match and tokenises only the rest. A missing, unreadable or mismatched file
is ignored (and rebuilt by the caller).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from context_center.engine.model import Fact
from context_center.engine.recall.tokenize import TOKENIZER_VERSION

CACHE_FORMAT = 2  # 2: subject keys; weighted, stemmed terms (tokenizer 2)
CACHE_MAGIC = b"CCRECALL"
_ALIGN = 64
_DTYPES = {"<u1", "<u2", "<u4", "<u8", "<i8", "|u1", "|b1"}

DocKey = tuple[str, str]  # (scope, id)


@dataclass(slots=True)
class CacheData:
    terms: list[str]
    keys: list[DocKey]
    revision: np.ndarray
    updated: np.ndarray  # ms since the epoch, or int64 min for "no time"
    digest: np.ndarray  # (n, 16) uint8
    dl: np.ndarray
    offsets: np.ndarray
    docs: np.ndarray
    tfs: np.ndarray
    subject: np.ndarray  # uint64 subject keys (0: none)


def pack(arrays: dict[str, np.ndarray]) -> bytearray:
    """One buffer: magic, header length, JSON header, aligned raw arrays (plain numbers only)."""
    sections: dict[str, dict[str, object]] = {}
    pos = 0
    for name, arr in arrays.items():
        sections[name] = {
            "dtype": arr.dtype.str,
            "shape": list(arr.shape),
            "offset": pos,
            "nbytes": int(arr.nbytes),
        }
        pos += -(-int(arr.nbytes) // _ALIGN) * _ALIGN
    header = json.dumps(
        {"format": CACHE_FORMAT, "tokenizer": TOKENIZER_VERSION, "sections": sections}
    ).encode()
    header += b" " * (-(len(CACHE_MAGIC) + 8 + len(header)) % _ALIGN)
    start = len(CACHE_MAGIC) + 8 + len(header)
    out = bytearray(start + pos)
    out[: len(CACHE_MAGIC)] = CACHE_MAGIC
    out[len(CACHE_MAGIC) : len(CACHE_MAGIC) + 8] = len(header).to_bytes(8, "little")
    out[len(CACHE_MAGIC) + 8 : start] = header
    view = memoryview(out)
    for name, arr in arrays.items():
        off = start + int(sections[name]["offset"])  # type: ignore[call-overload]
        flat = np.ascontiguousarray(arr).reshape(-1).view(np.uint8)
        view[off : off + len(flat)] = flat.data
    return out


def unpack(path: Path) -> dict[str, np.ndarray] | None:
    """The named arrays of a cache file; None if it is not one of ours (or of another format)."""
    data = np.fromfile(path, dtype=np.uint8)
    head = len(CACHE_MAGIC) + 8
    if len(data) < head or data[: len(CACHE_MAGIC)].tobytes() != CACHE_MAGIC:
        return None
    hlen = int.from_bytes(data[len(CACHE_MAGIC) : head].tobytes(), "little")
    if head + hlen > len(data):
        return None
    header = json.loads(data[head : head + hlen].tobytes().decode())
    if header.get("format") != CACHE_FORMAT or header.get("tokenizer") != TOKENIZER_VERSION:
        return None
    start = head + hlen
    out: dict[str, np.ndarray] = {}
    for name, sec in header["sections"].items():
        dtype, shape = str(sec["dtype"]), [int(x) for x in sec["shape"]]
        off, nbytes = start + int(sec["offset"]), int(sec["nbytes"])
        dt = np.dtype(dtype)
        if (
            dtype not in _DTYPES
            or off + nbytes > len(data)
            or nbytes != dt.itemsize * int(np.prod(shape, dtype=np.int64))
        ):
            return None
        out[name] = data[off : off + nbytes].view(dt).reshape(shape)
    return out


def _consistent(c: CacheData) -> bool:
    n, v = len(c.dl), len(c.offsets) - 1
    off, docs = c.offsets, c.docs
    return (
        len(c.terms) == v
        and len(c.keys) == n
        and len(c.revision) == len(c.updated) == len(c.subject) == n
        and c.digest.shape == (n, 16)
        and off.dtype == np.int64
        and (v < 0 or (off[0] == 0 and bool(np.all(np.diff(off) >= 0))))
        and int(off[-1]) == len(docs) == len(c.tfs)
        and docs.dtype == np.uint32
        and c.tfs.dtype == np.uint16
        and c.dl.dtype == np.uint32
        and c.subject.dtype == np.uint64
        and c.revision.dtype == c.updated.dtype == np.int64
        and (len(docs) == 0 or int(docs.max()) < n)
    )


def read(path: Path) -> CacheData | None:
    """A validated cache, or None. Raises OSError/ValueError/KeyError on unreadable files."""
    z = unpack(path)
    if z is None:
        return None
    vocab_blob = z["vocab"].tobytes().decode("utf-8", "surrogatepass")
    terms = vocab_blob.split("\n") if len(z["offsets"]) > 1 else []
    key_blob = z["keys"].tobytes().decode("utf-8")
    n = len(z["dl"])
    keys: list[DocKey] = []
    for line in key_blob.split("\n") if n else []:
        scope, _, fact_id = line.partition(":")
        keys.append((scope, fact_id))
    data = CacheData(
        terms=terms,
        keys=keys,
        revision=z["revision"],
        updated=z["updated"],
        digest=z["digest"],
        dl=z["dl"],
        offsets=z["offsets"],
        docs=z["docs"],
        tfs=z["tfs"],
        subject=z["subject"],
    )
    return data if _consistent(data) else None


def arrays(
    terms: Sequence[str],
    facts: Sequence[Fact],
    revision: np.ndarray,
    updated: np.ndarray,
    digests: Sequence[bytes],
    columns: dict[str, np.ndarray],
) -> dict[str, np.ndarray]:
    """The sections of a cache file (``columns``: dl, offsets, docs, tfs, subject)."""
    keys = "\n".join(f"{f.scope.value}:{f.id}" for f in facts)
    return {
        "vocab": np.frombuffer("\n".join(terms).encode("utf-8", "surrogatepass"), dtype=np.uint8),
        "keys": np.frombuffer(keys.encode("utf-8"), dtype=np.uint8),
        "revision": revision,
        "updated": updated,
        "digest": np.frombuffer(b"".join(digests), dtype=np.uint8).reshape(-1, 16),
        **columns,
    }


@dataclass(slots=True)
class Reuse:
    """Which cached ordinals still describe a wanted fact (and the fact for each)."""

    kept: list[Fact | None]
    digests: list[bytes | None]
    alive: np.ndarray
    reused: set[DocKey]


def match(
    data: CacheData,
    wanted: dict[DocKey, Fact],
    time_ms: Callable[[Fact], int],
    digest: Callable[[Fact], bytes],
) -> Reuse:
    """A cached ordinal is reused when its fact has the same key, revision, update time and
    text digest (so a hand edit that kept the revision is still caught)."""
    n = len(data.keys)
    kept: list[Fact | None] = [None] * n
    digests: list[bytes | None] = [None] * n
    alive = np.zeros(n, dtype=np.bool_)
    reused: set[DocKey] = set()
    rev, upd, dig = data.revision, data.updated, data.digest
    for o, key in enumerate(data.keys):
        hit = wanted.get(key)
        if hit is None or hit.revision != int(rev[o]) or time_ms(hit) != int(upd[o]):
            continue
        g = digest(hit)
        if g != dig[o].tobytes():
            continue
        kept[o] = hit
        digests[o] = g
        alive[o] = True
        reused.add(key)
    return Reuse(kept, digests, alive, reused)
