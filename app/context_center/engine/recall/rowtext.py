"""What the recall index derives from each row's text once, when it adds the row.

A turn needs two things of the facts it looks at beyond their postings: the spans of the text
the provider-visible sanitizer withholds (a match only inside one does not count,
``secretmatch``) and the terms of the name, title and description (whether a matched term is
in the head fields, ``scoring``). Both are properties of the text, so they are found when a
row is added (``postings``) and kept per row and in the cache, not found again per turn for
every fact a turn shows. A row whose values are not known (a cache written before they were
kept, or spans found by another scanner) has them found on first use and kept.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from context_center.engine.recall.secretmatch import Spans, signature
from context_center.engine.recall.stem import stem
from context_center.engine.recall.tokenize import tokens

if TYPE_CHECKING:
    from context_center.engine.model import Fact
    from context_center.engine.recall.lazyfact import PackedFacts
    from context_center.engine.recall.ordinals import Column

_NO_TERMS: frozenset[str] = frozenset()


def head_terms_once(name: str, title: str, description: str) -> frozenset[str]:
    """The index terms of a name, title and description (each stemmed)."""
    return frozenset(map(stem, tokens(f"{name}\n{title}\n{description}")))


class RowText:
    """The per-row values of ``Ordinals`` found from its text (see the module's text)."""

    _withheld: list[Spans | None]  # None: not known
    _heads: list[str | None]  # the head terms joined by spaces; None: not known
    _packed: PackedFacts | None
    c: dict[str, Column]

    def fact(self, ordinal: int) -> Fact:
        raise NotImplementedError

    def known_withheld(self, o: int) -> Spans | None:
        """The withheld spans of row ``o``'s text if known (kept, or in the cache and found
        by the same scanner); None when they are not."""
        w = self._withheld[o]
        if w is None and self._packed is not None:
            src = int(self.c["src"].data[o])
            if src >= 0:
                w = self._withheld[o] = self._packed.withheld(src)
        return w

    def _detach(self, o: int) -> None:
        """Row ``o`` is about to stop pointing at the cache (a Fact of the same text takes
        its place): keep what the cache knows of its text."""
        p = self._packed
        src = int(self.c["src"].data[o])
        if p is None or src < 0:
            return
        if self._withheld[o] is None:
            self._withheld[o] = p.withheld(src)
        if self._heads[o] is None:
            self._heads[o] = p.head_string(src)

    def head_string(self, o: int) -> str:
        """The terms of row ``o``'s name, title and description joined by spaces: kept since
        the row was added (or in the cache), else found from those fields now and kept."""
        h = self._heads[o]
        if h is None:
            p = self._packed
            src = int(self.c["src"].data[o])
            if p is not None and src >= 0:  # a cached row: its fields without making its fact
                h = p.head_string(src)
                if h is None:
                    fields = (p.names[src], p.titles[src], p.descriptions[src])
                    h = " ".join(head_terms_once(*fields))
            else:
                f = self.fact(o)
                h = " ".join(head_terms_once(f.name, f.title, f.description))
            self._heads[o] = h
        return h

    def head_terms(self, o: int) -> frozenset[str]:
        """The index terms of row ``o``'s name, title and description."""
        h = self.head_string(o)
        return frozenset(h.split(" ")) if h else _NO_TERMS

    def kept_items(self) -> list[Spans | None]:
        """Every row's withheld spans as far as known without scanning (``known_withheld``
        of each row, the cached ones taken in bulk)."""
        items = list(self._withheld)
        p = self._packed
        kept = p.kept if p is not None else None
        if kept is None or kept.sig != signature():
            return items
        src = self.c["src"].view()
        rows = np.flatnonzero(src >= 0)
        states = kept.known[src[rows]]
        for o in rows[states == 1].tolist():
            if items[o] is None:
                items[o] = ()
        for o in rows[states == 2].tolist():
            if items[o] is None:
                items[o] = kept.spans_of(int(src[o]))
        return items
