"""Facts of a cached recall index that are read from their files only when needed.

``PackedFacts`` is what the index cache keeps per fact besides its postings and columns: the
id, name, title, description and file stem (packed strings), a digest of the indexed text and
the file's size, mtime and inode as the store's scan saw them. ``LazyFact`` is a real ``Fact``
(a subclass, so everything that takes a Fact takes it) built from those fields; its ``body``
is read on first use through the store's guarded read. The file read must be the one the
cache describes -- same size, mtime and inode, same fields, same digest of the text -- or
``StaleIndex`` is raised: the caller then loads the stores and answers again (a hand edit in
place, which no folder stamp shows, is caught here, for every fact whose text a turn reads).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from context_center.engine.model import Fact, Scope
from context_center.engine.recall.digest import content_digest
from context_center.engine.recall.termtable import Strings

_CHECKED = ("id", "revision", "created_at", "updated_at", "name", "title", "description", "type")
_FIELDS_SET = frozenset(Fact.model_fields)


class StaleIndex(Exception):
    """A cached fact no longer matches its file: load the stores and answer again."""


class PackedFacts:
    """The per-fact strings, digests and file stats of one cache file (read-only)."""

    def __init__(
        self,
        roots: dict[str, Path],
        strings: dict[str, Strings],
        digest: np.ndarray,
        stats: tuple[np.ndarray, np.ndarray, np.ndarray],
    ) -> None:
        self.roots = roots  # scope value -> store folder
        self.ids = strings["ids"]
        self.names = strings["names"]
        self.titles = strings["titles"]
        self.descriptions = strings["descriptions"]
        self.stems = strings["stems"]
        self.digest = digest  # (n, 16) uint8
        self.stats = stats  # int64 columns: size, mtime_ns, inode
        self.n = len(digest)

    def digest_of(self, row: int) -> bytes:
        return bytes(self.digest[row].tobytes())

    def read(self, row: int, expect: Fact) -> Fact:
        """The fact file of ``row``, parsed, if it is still exactly what the cache holds."""
        from context_center.engine.store.factcache import read_fact_file
        from context_center.engine.store.factfile import FactFileError

        scope = expect.scope
        stem = self.stems[row]
        path = self.roots[scope.value] / f"{stem}.md"
        try:
            parsed, _, st = read_fact_file(path, stem=stem, scope=Scope(scope))
        except (OSError, ValueError, FactFileError) as exc:
            raise StaleIndex(f"{scope.value}/{stem}.md cannot be read as cached") from exc
        size, mtime, ino = (int(a[row]) for a in self.stats)
        fact = parsed.fact
        if (
            (st.st_size, st.st_mtime_ns, st.st_ino) != (size, mtime, ino)
            or any(getattr(fact, k) != expect.__dict__[k] for k in _CHECKED)
            or content_digest(fact) != self.digest_of(row)
        ):
            raise StaleIndex(f"{scope.value}/{stem}.md changed since it was indexed")
        return fact


class LazyFact(Fact):
    """A cached fact whose body is read from its file on first use (``PackedFacts.read``)."""

    @classmethod
    def build(cls, packed: PackedFacts, row: int, values: dict[str, Any]) -> LazyFact:
        f = cls.__new__(cls)
        values["_lazy"] = (packed, row)
        object.__setattr__(f, "__dict__", values)
        object.__setattr__(f, "__pydantic_fields_set__", _FIELDS_SET)
        object.__setattr__(f, "__pydantic_extra__", None)
        object.__setattr__(f, "__pydantic_private__", None)
        return f

    def __getattr__(self, name: str) -> Any:
        if name == "body":
            return self.materialised().body
        return super().__getattr__(name)  # type: ignore[misc]

    @property
    def loaded(self) -> bool:
        return "body" in self.__dict__

    def materialised(self) -> Fact:
        """The real Fact, read from the file (raises StaleIndex if it changed)."""
        d = self.__dict__
        real = d.get("_real")
        if real is None:
            packed, row = d["_lazy"]
            real = packed.read(row, self)
            d["_real"] = real
            d["body"] = real.body
        return real  # type: ignore[no-any-return]
