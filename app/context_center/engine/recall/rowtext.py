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
    """The per-row values of ``Ordinals`` found from its text (see the module's text).

    A row's entry is its value once known, ``None`` when not known, or the row of the cache
    (``_packed``) that describes the same text -- what a row keeps when a Fact of the same text
    takes its place (``_detach``), so that nothing is read from the cache until it is asked
    for. An index text can be the same for other fields (a line break moved between the
    description and the body), so cached head terms serve a held Fact only when its name,
    title and description are the cached ones."""

    _withheld: list[Spans | int | None]
    _heads: list[str | int | None]  # the head terms joined by spaces
    _packed: PackedFacts | None
    c: dict[str, Column]

    def fact(self, ordinal: int) -> Fact:
        raise NotImplementedError

    def _held_fact(self, o: int) -> Fact | None:
        """The Fact row ``o`` holds itself (None for a row the cache still describes)."""
        raise NotImplementedError

    def _cache_row(self, o: int, entry: object) -> int | None:
        """The cache row that describes row ``o``'s text, from its entry or its columns."""
        if isinstance(entry, int):
            return entry
        src = int(self.c["src"].data[o])
        return src if src >= 0 else None

    def known_withheld(self, o: int) -> Spans | None:
        """The withheld spans of row ``o``'s text if known (kept, or in the cache and found
        by the same scanner); None when they are not."""
        w = self._withheld[o]
        if w is None or isinstance(w, int):
            row = self._cache_row(o, w)
            found = self._packed.withheld(row) if row is not None and self._packed else None
            if found is not None:
                self._withheld[o] = found
            return found
        return w

    def _detach(self, o: int) -> None:
        """Row ``o`` is about to stop pointing at the cache (a Fact of the same index text
        takes its place): keep a reference to what the cache knows of that text."""
        src = int(self.c["src"].data[o])
        if self._packed is None or src < 0:
            return
        if self._withheld[o] is None:
            self._withheld[o] = src
        if self._heads[o] is None:
            self._heads[o] = src

    def head_string(self, o: int) -> str:
        """The terms of row ``o``'s name, title and description joined by spaces: kept since
        the row was added (or in the cache), else found from those fields now and kept."""
        h = self._heads[o]
        if isinstance(h, str):
            return h
        p = self._packed
        row = self._cache_row(o, h)
        held = self._held_fact(o)
        found: str | None = None
        if p is not None and row is not None:
            fields = (p.names[row], p.titles[row], p.descriptions[row])
            if held is None or fields == (held.name, held.title, held.description):
                found = p.head_string(row)
                if found is None:  # a cached row: its fields, without making its fact
                    found = " ".join(head_terms_once(*fields))
        if found is None:
            f = held if held is not None else self.fact(o)
            found = " ".join(head_terms_once(f.name, f.title, f.description))
        self._heads[o] = found
        return found

    def head_terms(self, o: int) -> frozenset[str]:
        """The index terms of row ``o``'s name, title and description."""
        h = self.head_string(o)
        return frozenset(h.split(" ")) if h else _NO_TERMS

    def kept_current(self) -> bool:
        """False when the cache this index was opened from does not know every text's spans
        by the scanner that runs here (written before they were kept, by another scanner, or
        carrying rows of such a cache over); True otherwise, and when no signature can be
        taken (nothing could be filled in)."""
        p = self._packed
        if p is None:
            return True
        sig = signature()
        if sig is None:
            return True
        kept = p.kept
        return kept is not None and kept.sig == sig and not bool(np.any(kept.known == 0))

    def kept_items(self) -> list[Spans | None]:
        """Every row's withheld spans as far as known without scanning (``known_withheld``
        of each row, the cached ones taken in bulk)."""
        items: list[Spans | None] = [w if not isinstance(w, int) else None for w in self._withheld]
        p = self._packed
        kept = p.kept if p is not None else None
        if kept is None or kept.sig != signature():
            return items
        src = self.c["src"].view()
        refs = np.asarray(
            [
                w if isinstance(w, int) else s
                for w, s in zip(self._withheld, src.tolist(), strict=True)
            ],
            dtype=np.int64,
        )
        rows = np.flatnonzero(refs >= 0)
        states = kept.known[refs[rows]]
        for o in rows[states == 1].tolist():
            if items[o] is None:
                items[o] = ()
        for o in rows[states == 2].tolist():
            if items[o] is None:
                items[o] = kept.spans_of(int(refs[o]))
        return items
