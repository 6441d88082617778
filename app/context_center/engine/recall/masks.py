"""Boolean selections of recall's per-candidate arrays, as index takes.

``a[mask]`` with a mask that is neither nearly all True nor nearly all False costs numpy
about three times what finding the True positions once and taking them costs (a branch per
element); and one set of positions serves several arrays of the same candidates. The result
is the very array ``a[mask]`` gives (same values, order and dtype), so nothing downstream can
tell which was used.
"""

from __future__ import annotations

import numpy as np

# Below this length a boolean index costs less than finding the positions first (numpy's
# fixed cost per call dominates); the result is the same array either way.
_SMALL = 512
# From this many values ``isin`` sorts them before the binary searches.
_SORT_VALUES = 2048


def where(mask: np.ndarray, *arrays: np.ndarray) -> list[np.ndarray]:
    """``[a[mask] for a in arrays]`` for a 1-D boolean ``mask`` as long as each array."""
    if len(mask) < _SMALL and mask.dtype == np.bool_:
        return [a[mask] for a in arrays]
    at = mask.nonzero()[0]
    return [a.take(at) for a in arrays]


def isin(values: np.ndarray, pool: np.ndarray) -> np.ndarray:
    """``np.isin(values, pool)`` for integer arrays, by one sort of ``pool`` and a binary
    search per value (a third of ``isin``'s time at 50,000 rows: it sorts both together; and
    ``isin`` imports ``numpy.ma``, some 5 ms of a cold process, to ask whether they are
    masked)."""
    if not len(pool) or not len(values):
        return np.zeros(len(values), dtype=bool)
    ordered = np.sort(pool)
    if len(values) < _SORT_VALUES:
        at = np.searchsorted(ordered, values)
        at[at == len(ordered)] = 0
        found: np.ndarray = ordered[at] == values
        return found
    # many values: searched in sorted order, each search starts near the last one (numpy's
    # searchsorted keeps its bounds between sorted keys), which halves the time at 50,000
    # rows even with the sort of the values; the answer goes back to their order
    order = np.argsort(values)
    keys = values[order]
    at = np.searchsorted(ordered, keys)
    at[at == len(ordered)] = 0
    found = np.empty(len(values), dtype=bool)
    found[order] = ordered[at] == keys
    return found


def marks(members: np.ndarray, size: int) -> np.ndarray:
    """Per ordinal under ``size``: is it one of ``members``."""
    marked = np.zeros(size, dtype=np.bool_)
    marked[members] = True
    return marked


def member(ords: np.ndarray, members: np.ndarray, size: int) -> np.ndarray:
    """``np.isin(ords, members)`` for ordinals under ``size``: one mark per ordinal and a
    gather, no sort of both arrays."""
    out: np.ndarray = marks(members, size)[ords]
    return out


def one(mask: np.ndarray, array: np.ndarray) -> np.ndarray:
    """``array[mask]``."""
    if len(mask) < _SMALL and mask.dtype == np.bool_:
        small: np.ndarray = array[mask]
        return small
    out: np.ndarray = array.take(mask.nonzero()[0])
    return out
