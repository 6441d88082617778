"""Find a few rows of a recall index by id or by file stem without a map of every row.

A cold process that catches up with a handful of our own writes (``catchup.apply_stems``)
asks for the rows of a few ids and stems. Building ``{(scope, id): ordinal}`` or
``{stem: ordinal}`` for 50,000 cached rows costs tens of milliseconds (every string unpacked,
every key hashed into a dict); these look each one up in the 64-bit key columns every row
already carries (``idh``: the id's hash, ``nameh``: the name slug's) and confirm the match on
the row's own strings, so hash collisions cannot mislead them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from context_center.engine.kinds import Scope
from context_center.engine.store.keys import name_key

if TYPE_CHECKING:
    from context_center.engine.recall.ordinals import DocKey, Ordinals

__all__ = ["SCOPE_CODES", "key_hash", "ordinal_by_hash", "ordinals_of_stems"]

# The ``scope`` column's codes (``ordinals`` re-exports them); a scope's value finds its code
# too (``Scope`` is a ``StrEnum``).
SCOPE_CODES = {Scope.PROJECT: 0, Scope.GLOBAL: 1}


def key_hash(text: str) -> int:
    """A 64-bit key (0 for the empty text: no key): the ``idh``, ``nameh`` and ``titleh``
    columns hold these."""
    if not text:
        return 0
    h = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return int.from_bytes(h, "little") or 1


def _last_live(
    rows: Ordinals, candidates: np.ndarray, code: int, same: Callable[[int], bool]
) -> int | None:
    """Among ``candidates`` (rows whose key hash matches), the live row of scope ``code`` that
    ``same`` confirms — the one the full maps hold: they list the rows still read from the
    cache first, then the others, so a later row of the second kind wins."""
    c = rows.c
    alive, scopes, src = c["alive"].data, c["scope"].data, c["src"].data
    cached = fresh = None
    for o in candidates.tolist():
        if alive[o] and int(scopes[o]) == code and same(o):
            if int(src[o]) >= 0:
                cached = o
            else:
                fresh = o
    return fresh if fresh is not None else cached


def ordinal_by_hash(rows: Ordinals, key: DocKey) -> int | None:
    """What ``rows._ords().get(key)`` would answer: the live row of ``(scope, id)``."""
    scope, fact_id = key
    code = SCOPE_CODES.get(scope)  # type: ignore[call-overload]  # a value finds its member
    if code is None or not fact_id:
        return None
    candidates = np.flatnonzero(rows.c["idh"].view() == key_hash(fact_id))
    return _last_live(rows, candidates, code, lambda o: rows.key_of(o) == key)


def _stems_are_names(rows: Ordinals) -> bool:
    """Whether every live row's file stem is its name (no legacy file is indexed)."""
    packed = rows._packed
    if any(rows._stems):
        return False
    if packed is None:
        return True
    return bool(packed.stems.raw() == packed.names.raw())


def _has_stem(rows: Ordinals, stem: str, o: int) -> bool:
    return rows.stem_of(o) == stem


def ordinals_of_stems(rows: Ordinals, code: int, stems: Iterable[str]) -> dict[str, int]:
    """``{stem: ordinal}`` of the live rows of scope ``code`` among ``stems`` — what
    ``rows.stems_of_scope(code)`` holds for them. Legacy files (a stem that is not the name)
    make it fall back to that full map."""
    wanted = list(stems)
    if not _stems_are_names(rows):
        full = rows.stems_of_scope(code)
        return {s: full[s] for s in wanted if s in full}
    nameh = rows.c["nameh"].view()
    out: dict[str, int] = {}
    for stem in wanted:
        candidates = np.flatnonzero(nameh == key_hash(name_key(stem)))
        found = _last_live(rows, candidates, code, partial(_has_stem, rows, stem))
        if found is not None:
            out[stem] = found
    return out
