"""Boolean selections of recall's per-candidate arrays, as index takes.

``a[mask]`` with a mask that is neither nearly all True nor nearly all False costs numpy
about three times what finding the True positions once and taking them costs (a branch per
element); and one set of positions serves several arrays of the same candidates. The result
is the very array ``a[mask]`` gives (same values, order and dtype), so nothing downstream can
tell which was used.
"""

from __future__ import annotations

import numpy as np


def where(mask: np.ndarray, *arrays: np.ndarray) -> list[np.ndarray]:
    """``[a[mask] for a in arrays]`` for a 1-D boolean ``mask`` as long as each array."""
    at = np.flatnonzero(mask)
    return [a.take(at) for a in arrays]


def one(mask: np.ndarray, array: np.ndarray) -> np.ndarray:
    """``array[mask]``."""
    out: np.ndarray = array.take(np.flatnonzero(mask))
    return out
