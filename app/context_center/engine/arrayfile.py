"""One file of named numpy arrays: derived data on disk without pickle.

``magic`` + header length (uint64 LE) + a JSON header + 64-byte aligned raw little-endian
arrays. The header carries the writer's ``stamp`` (a format number, a tokenizer version:
a file whose stamp differs is not read) and a free ``meta`` dict. The file is memory-mapped,
so a process touches only the pages it reads. The recall index (``recall/cache.py``) and the
suggestions' phrase index (``suggestions/phraseindex.py``) are written in this form.
"""

from __future__ import annotations

import json
import math
import mmap
import os
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["parts", "unpack_with_header"]

_ALIGN = 64
_DTYPES = {"<u1", "<u2", "<u4", "<u8", "<i4", "<i8", "|u1", "|b1"}


def parts(
    magic: bytes,
    stamp: dict[str, Any],
    arrays: dict[str, np.ndarray],
    meta: dict[str, Any] | None = None,
) -> list[bytes | memoryview]:
    """The file as buffers in order (magic, header length, JSON header, each array and its
    padding): ``atomic.write_bytes`` writes them one by one, so a file of tens of megabytes is
    never copied into one buffer first (arrays mapped from an older file are read from it)."""
    sections: dict[str, dict[str, object]] = {}
    flat: list[memoryview] = []
    pos = 0
    for name, arr in arrays.items():
        view = np.ascontiguousarray(arr).reshape(-1).view(np.uint8).data
        sections[name] = {
            "dtype": arr.dtype.str,
            "shape": list(arr.shape),
            "offset": pos,
            "nbytes": int(arr.nbytes),
        }
        flat.append(view)
        pos += -(-int(arr.nbytes) // _ALIGN) * _ALIGN
    header = json.dumps({**stamp, "sections": sections, "meta": meta or {}}).encode()
    header += b" " * (-(len(magic) + 8 + len(header)) % _ALIGN)
    out: list[bytes | memoryview] = [magic, len(header).to_bytes(8, "little"), header]
    for view in flat:
        out.append(view)
        if len(view) % _ALIGN:
            out.append(bytes(_ALIGN - len(view) % _ALIGN))
    return out


def _map(path: Path) -> np.ndarray:
    """The file as a read-only uint8 array backed by a private mapping (pages on demand)."""
    if os.name == "nt":  # a mapped file could not be replaced by the next save there
        return np.fromfile(path, dtype=np.uint8)
    with open(path, "rb") as fh:
        size = os.fstat(fh.fileno()).st_size
        if size == 0:
            return np.zeros(0, dtype=np.uint8)
        mm = mmap.mmap(fh.fileno(), size, access=mmap.ACCESS_READ)
    return np.frombuffer(mm, dtype=np.uint8)


def unpack_with_header(
    path: Path, magic: bytes, stamp: dict[str, Any]
) -> tuple[dict[str, np.ndarray], dict[str, Any]] | None:
    """The named arrays and the header's meta; None if not one of ours or of another stamp.
    Raises OSError (unreadable) and ValueError (a header that is not JSON)."""
    data = _map(path)
    head = len(magic) + 8
    if len(data) < head or data[: len(magic)].tobytes() != magic:
        return None
    hlen = int.from_bytes(data[len(magic) : head].tobytes(), "little")
    if head + hlen > len(data):
        return None
    try:
        header = json.loads(data[head : head + hlen].tobytes().decode())
    except RecursionError:  # a header nested deeper than the parser goes: not one of ours
        return None
    if not isinstance(header, dict) or any(header.get(k) != v for k, v in stamp.items()):
        return None
    sections = header.get("sections")
    if not isinstance(sections, dict):
        return None
    start = head + hlen
    out: dict[str, np.ndarray] = {}
    for name, sec in sections.items():
        if not isinstance(sec, dict):
            return None
        try:  # an infinite or absurd number is no section of ours
            dtype, shape = str(sec["dtype"]), [int(x) for x in sec["shape"]]
            offset, nbytes = int(sec["offset"]), int(sec["nbytes"])
        except (KeyError, TypeError, ValueError, OverflowError):
            return None
        # checked before numpy parses it; every section is an array of rows (no writer of
        # ours writes a scalar, and readers index and take lengths)
        if dtype not in _DTYPES or not shape or any(x < 0 for x in shape):
            return None
        off = start + offset
        dt = np.dtype(dtype)
        if (
            off < start
            or off + nbytes > len(data)
            or nbytes != dt.itemsize * math.prod(shape)  # Python ints: never overflows
        ):
            return None
        out[name] = data[off : off + nbytes].view(dt).reshape(shape)
    meta = header.get("meta")
    return out, meta if isinstance(meta, dict) else {}
