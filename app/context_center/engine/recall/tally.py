"""Per-ordinal sums of one turn's concepts: raw score, matched concepts, and those of them not
frequent in the store, with the head/strong marks ``scoring`` reads.

A concept that many facts match (at least one in ``SPARSE_SHARE`` of the ordinals) is added
as whole columns kept for the index state (``Dense``: its best score, 0 where it did not
match, and marks), which costs a fraction of gathering and scattering tens of thousands of
ordinals; any other concept is scattered by its ordinals. Either way each ordinal's terms are
added in concept order, starting from 0.0, as ``raw[docs] += best`` per concept would (adding
0.0 leaves a float as it is): the same floats whichever way a concept was added.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from context_center.engine.recall.matching import Matched
    from context_center.engine.recall.terms import Concept


@dataclass(frozen=True, slots=True)
class Dense:
    """One concept's match as columns over every ordinal: best score (0.0 where it did not
    match), matched, and in the head fields (estimated)."""

    best: np.ndarray
    mask: np.ndarray
    head: np.ndarray

    @classmethod
    def of(cls, m: Matched, size: int) -> Dense:
        best = np.zeros(size, dtype=np.float64)
        best[m.docs] = m.best
        mask = np.zeros(size, dtype=np.bool_)
        mask[m.docs] = True
        head = np.zeros(size, dtype=np.bool_)
        head[m.head_docs] = True
        for a in (best, mask, head):
            a.flags.writeable = False  # shared by every turn of this index state
        return cls(best, mask, head)

    @property
    def nbytes(self) -> int:
        return 64 + int(self.best.nbytes + self.mask.nbytes + self.head.nbytes)


def _bump(counts: np.ndarray, docs: np.ndarray, mask: np.ndarray | None) -> None:
    """One more for each of ``docs`` (unique ordinals), or for each ordinal under ``mask``
    (the same ordinals as a column)."""
    if mask is not None:
        counts += mask
    elif len(docs):
        counts[docs] += 1


class Tally:
    """Per-ordinal arrays filled concept by concept (see the module's text)."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.raw = np.zeros(n, dtype=np.float64)
        self.count = np.zeros(n, dtype=np.int32)  # matched concepts (bare numbers excluded)
        # matched concepts not frequent in the store: the counts themselves until a frequent
        # concept is counted
        self._specific: np.ndarray | None = None
        self.head = np.zeros(n, dtype=np.bool_)
        self.sure = np.zeros(n, dtype=np.bool_)
        self.strong = np.zeros(n, dtype=np.bool_)
        self.ident = np.zeros(n, dtype=np.bool_)

    @property
    def specific(self) -> np.ndarray:
        return self.count if self._specific is None else self._specific

    def add(
        self,
        c: Concept,
        m: Matched,
        frequent: bool,
        counted: np.ndarray,
        dense: Dense | None = None,
    ) -> None:
        """Add concept ``c`` (matched as ``m``; ``counted``: the ordinals for which it adds a
        matched concept; ``dense``: ``m`` as columns, or None)."""
        if dense is None:
            self.raw[m.docs] += m.best
        else:
            self.raw += dense.best
        if c.number:
            return
        whole = dense.mask if dense is not None and counted is m.docs else None
        if frequent and self._specific is None:
            self._specific = self.count.copy()
        _bump(self.count, counted, whole)
        if not frequent and self._specific is not None:
            _bump(self._specific, counted, whole)
        if dense is not None:
            self.head |= dense.head
        else:
            self.head[m.head_docs] = True

    def mark_strong(self, docs: np.ndarray, *, sure: bool, ident: bool) -> None:
        self.strong[docs] = True
        if sure:
            self.sure[docs] = True
        if ident:
            self.ident[docs] = True
