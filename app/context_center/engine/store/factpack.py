"""The byte form of the parsed-facts cache: columns, not JSON (no numpy, no pickle).

``MAGIC`` + header length (uint32 LE) + a JSON header + the columns: seven arrays of 64-bit
little-endian integers (file size, mtime_ns, inode, revision, created_at and updated_at in
microseconds, flags) and nine NUL-joined UTF-8 texts (file name, sha256, id, name, title,
description, body, diagnostic code and message). Fact text never holds NUL (a fact file with
one is refused), so one ``split`` per text gives back every row's value. The header says how
many rows there are and how many of them are legacy files or diagnostics, which
``summary`` reads without decoding anything else.
"""

from __future__ import annotations

import json
import sys
from array import array
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

MAGIC = b"CCFACTS\x00"
_INTS = ("size", "mtime", "ino", "revision", "created", "updated", "flags")
_STRS = ("file", "sha", "id", "name", "title", "description", "body", "dcode", "dmsg")
_LEGACY, _FACT, _DIAG, _SHA = 1, 2, 4, 8
FACT_ROW, DIAG_ROW = _FACT, _DIAG  # flags: the row holds a fact / a diagnostic
_TYPE_SHIFT = 8
_TYPES = ("user", "feedback", "project", "reference")
NO_TIME = -(2**63)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


@dataclass(frozen=True)
class Summary:
    rows: int
    legacy: int
    diagnostics: int


def _us(value: datetime | None) -> int:
    if value is None:
        return NO_TIME
    d = value - _EPOCH
    return (d.days * 86400 + d.seconds) * 1_000_000 + d.microseconds


def _text(value: str) -> str:
    return value.replace("\x00", "\ufffd") if "\x00" in value else value


def _columns(
    files: dict[str, Any], packed: Packed | None
) -> tuple[dict[str, list[int]], dict[str, list[str]]]:
    ints: dict[str, list[int]] = {k: [] for k in _INTS}
    strs: dict[str, list[str]] = {k: [] for k in _STRS}
    for file, value in files.items():
        if isinstance(value, int):  # an unchanged row of the cache that was read
            assert packed is not None
            for k in _INTS:
                ints[k].append(packed.ints[k][value])
            for k in _STRS:
                strs[k].append(packed.strs[k][value])
            continue
        size, mtime, ino, sha, legacy, row, diag = value
        if "\x00" in file or (row is not None and any("\x00" in str(x) for x in row)):
            continue  # cannot be a fact; simply parsed again next time
        flags = (_LEGACY if legacy else 0) | (_SHA if sha is not None else 0)
        fact: list[Any] = ["", 0, None, None, "", "", "", "", ""] if row is None else list(row)
        if row is not None:
            flags |= _FACT | (_TYPES.index(row[7]) << _TYPE_SHIFT)
        if diag is not None:
            flags |= _DIAG
        for k, v in zip(
            _INTS, (size, mtime, ino, fact[1], _us(fact[2]), _us(fact[3]), flags), strict=True
        ):
            ints[k].append(int(v))
        code, message = diag if diag is not None else ("", "")
        for k, v in zip(
            _STRS,
            (file, sha or "", fact[0], fact[4], fact[5], fact[6], fact[8], code, _text(message)),
            strict=True,
        ):
            strs[k].append(v)
    return ints, strs


def encode(files: dict[str, Any], version: int, packed: Packed | None = None) -> bytes:
    """The cache file for ``files``: per file name a ``loader`` row (size, mtime_ns, inode,
    sha256, legacy, fact row, diagnostic) or the index of an unchanged row of ``packed``."""
    ints, strs = _columns(files, packed)
    n = len(ints["size"])
    parts: list[bytes] = []
    for k in _INTS:
        a = array("q", ints[k])
        if sys.byteorder == "big":
            a.byteswap()
        parts.append(a.tobytes())
    lens = []
    for k in _STRS:
        blob = "\x00".join(strs[k]).encode("utf-8", "surrogatepass")
        parts.append(blob)
        lens.append(len(blob))
    flags = ints["flags"]
    header = json.dumps(
        {
            "version": version,
            "rows": n,
            "legacy": sum(1 for f in flags if f & _LEGACY),
            "diagnostics": sum(1 for f in flags if f & _DIAG),
            "text_bytes": lens,
        }
    ).encode()
    return b"".join([MAGIC, len(header).to_bytes(4, "little"), header, *parts])


def _header(data: bytes, version: int) -> tuple[dict[str, Any], int] | None:
    head = len(MAGIC) + 4
    if len(data) < head or not data.startswith(MAGIC):
        return None
    hlen = int.from_bytes(data[len(MAGIC) : head], "little")
    try:
        header = json.loads(data[head : head + hlen])
    except RecursionError:  # a header nested deeper than the parser goes: not one of ours
        return None
    if not isinstance(header, dict) or header.get("version") != version:
        return None
    return header, head + hlen


def summary(data: bytes, version: int) -> Summary | None:
    try:
        got = _header(data, version)
    except ValueError:
        return None
    if got is None:
        return None
    h = got[0]
    return Summary(int(h["rows"]), int(h["legacy"]), int(h["diagnostics"]))


def _time(us: int) -> datetime | None:
    return None if us == NO_TIME else _EPOCH + timedelta(microseconds=us)


class Packed:
    """The rows of a cache file as columns (nothing built per row until asked for)."""

    def __init__(self, ints: dict[str, list[int]], strs: dict[str, list[str]]) -> None:
        self.ints = ints
        self.strs = strs
        self.index = {name: i for i, name in enumerate(strs["file"])}

    def __len__(self) -> int:
        return len(self.index)

    def get(self, name: str) -> int | None:
        return self.index.get(name)

    def same_file(self, i: int, size: int, mtime_ns: int, ino: int) -> bool:
        c = self.ints
        return c["size"][i] == size and c["mtime"][i] == mtime_ns and c["ino"][i] == ino

    def diag(self, i: int) -> tuple[str, str] | None:
        if not self.ints["flags"][i] & _DIAG:
            return None
        return self.strs["dcode"][i], self.strs["dmsg"][i]

    def sha(self, i: int) -> str | None:
        return self.strs["sha"][i] if self.ints["flags"][i] & _SHA else None

    def legacy(self, i: int) -> bool:
        return bool(self.ints["flags"][i] & _LEGACY)

    def fact_fields(self, rows: list[int]) -> list[dict[str, Any]]:
        """The fields of the fact in each of ``rows`` (rows holding a fact) but its scope
        (``factcache.fact_from_values`` adds it), in one pass: opening a 50,000-fact store
        builds every one of them."""
        s, c = self.strs, self.ints
        ids, names, titles = s["id"], s["name"], s["title"]
        descriptions, bodies = s["description"], s["body"]
        revisions, created, updated, flags = c["revision"], c["created"], c["updated"], c["flags"]
        times: dict[int, datetime | None] = {NO_TIME: None}  # many facts share a moment
        out = []
        for i in rows:
            made, changed = created[i], updated[i]
            created_at = times.get(made) or times.setdefault(made, _time(made))
            updated_at = times.get(changed) or times.setdefault(changed, _time(changed))
            out.append(
                {
                    "id": ids[i],
                    "revision": revisions[i],
                    "created_at": created_at,
                    "updated_at": updated_at,
                    "name": names[i],
                    "title": titles[i],
                    "description": descriptions[i],
                    "type": _TYPES[flags[i] >> _TYPE_SHIFT & 15],
                    "body": bodies[i],
                }
            )
        return out


EMPTY = Packed({k: [] for k in _INTS}, {k: [] for k in _STRS})


def decode(data: bytes, version: int) -> Packed:
    """The rows of a cache file; empty for another version. Raises ValueError (or another
    error of bad data) for a damaged file."""
    got = _header(data, version)
    if got is None:
        return EMPTY
    header, pos = got
    n = int(header["rows"])
    lens = [int(x) for x in header["text_bytes"]]
    if len(lens) != len(_STRS) or pos + 8 * n * len(_INTS) + sum(lens) != len(data):
        raise ValueError("damaged cache")
    ints: dict[str, list[int]] = {}
    for k in _INTS:
        a = array("q")
        a.frombytes(data[pos : pos + 8 * n])
        if sys.byteorder == "big":
            a.byteswap()
        ints[k] = a.tolist()
        pos += 8 * n
    strs: dict[str, list[str]] = {}
    for k, length in zip(_STRS, lens, strict=True):
        values = data[pos : pos + length].decode("utf-8", "surrogatepass").split("\x00")
        if len(values) != n and n:
            raise ValueError("damaged cache")
        strs[k] = values if n else []
        pos += length
    if any(f >> _TYPE_SHIFT & 15 >= len(_TYPES) for f in ints["flags"]):
        raise ValueError("damaged cache")
    return Packed(ints, strs)
