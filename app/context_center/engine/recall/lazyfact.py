"""Facts of a recall index that are not (yet) ``Fact`` models: cached rows and quick reads.

``FactRecord`` holds what a ``Fact`` holds, with the same read-only interface recall uses
(its fields, ``ref``, ``display_title``, ``freshness``, ``public_dict``), and no pydantic: a
cold per-turn process builds records, never models, so it never imports pydantic unless it
has to (a file that only the full reader reads, or a caller that asks for real facts). A
record becomes the real ``Fact`` with ``to_fact()`` (built without validation from fields
that were validated when they were read: the model's own checks, ``store/factfields``).
Whatever leaves the recaller is a real Fact (``Recaller._real``, ``Ordinals.facts``).

``PackedFacts`` is what the index cache keeps per fact besides its postings and columns: the
id, name, title, description and file stem (packed strings), a digest of the indexed text and
the file's size, mtime and inode as the store's scan saw them. ``LazyFact`` is a record built
from those fields; its ``body`` is read on first use. The file read must be the one the cache
describes -- same size, mtime and inode, same fields, same digest of the text -- or
``StaleIndex`` is raised: the caller then loads the stores and answers again (a hand edit in
place, which no folder stamp shows, is caught here, for every fact whose text a turn reads).
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from context_center.engine.kinds import (
    FACT_FIELDS,
    FactType,
    FactViews,
    Scope,
)
from context_center.engine.recall.digest import content_digest
from context_center.engine.recall.secretmatch import Kept, Spans
from context_center.engine.recall.termtable import Strings

if TYPE_CHECKING:
    from context_center.engine.model import Fact

# A record has a Fact's read-only interface, and recall's code takes either: the type checker
# is told so by an Any base (a record passes where a Fact is asked for).
_Base: Any = object

# what a file read must agree on with the cached row (scope is the folder's, body unread)
_CHECKED = tuple(k for k in FACT_FIELDS if k not in ("scope", "body"))
_UNREAD = object()


class StaleIndex(Exception):
    """A cached fact no longer matches its file: load the stores and answer again."""


class DamagedCache(StaleIndex):
    """What the index took from its cache file cannot be right (a posting past the rows): drop
    all of it and answer from the stores."""


# What a damaged cache file can raise when a turn first reads the part its checks at open
# left alone (the open reads no string and no value of every row: a cold turn's budget): a
# string that is not UTF-8, a code or a time out of range, an array of the wrong shape. A turn
# of an index holding rows of a cache that raises one of these is answered again from the
# stores, with everything the cache gave dropped (``CurrentRecall``, ``Recaller.recall``).
CACHE_DAMAGE: tuple[type[Exception], ...] = (
    DamagedCache,
    UnicodeDecodeError,
    IndexError,
    OverflowError,
    ValueError,
    KeyError,
    TypeError,
    NotImplementedError,
)
# the same, with a fact that changed since it was indexed (answered again, the index kept)
STALE_OR_DAMAGED: tuple[type[Exception], ...] = (StaleIndex, *CACHE_DAMAGE)


class FactRecord(FactViews, _Base):  # type: ignore[misc]
    """A fact's fields without the model (see the module's text)."""

    __slots__ = (
        "_body",
        "_fact",
        "created_at",
        "description",
        "id",
        "name",
        "revision",
        "scope",
        "title",
        "type",
        "updated_at",
    )

    id: str
    revision: int
    created_at: datetime | None
    updated_at: datetime | None
    name: str
    title: str
    description: str
    type: FactType
    scope: Scope
    _body: object
    _fact: Fact | None

    def __init__(self, values: dict[str, Any]) -> None:
        for key in FACT_FIELDS[:-1]:
            object.__setattr__(self, key, values[key])
        object.__setattr__(self, "_body", values.get("body", _UNREAD))
        object.__setattr__(self, "_fact", None)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"a fact is immutable ({name})")

    @classmethod
    def of(cls, fact: Fact | FactRecord) -> FactRecord:
        return cls({k: getattr(fact, k) for k in FACT_FIELDS})

    @property
    def body(self) -> str:
        return cast(str, self._body)

    def to_fact(self) -> Fact:
        """The real ``Fact`` (the same object every time)."""
        fact = self._fact
        if fact is None:
            from context_center.engine.store.factcache import fact_from_values

            values = {k: getattr(self, k) for k in FACT_FIELDS}
            values["type"] = self.type.value
            fact = fact_from_values(values, self.scope)
            object.__setattr__(self, "_fact", fact)
        return fact

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.ref!r}, id={self.id!r}, r{self.revision})"


class PackedFacts:
    """The per-fact strings, digests and file stats of one cache file (read-only)."""

    def __init__(
        self,
        roots: dict[str, Path],
        strings: dict[str, Strings],
        digest: np.ndarray,
        stats: tuple[np.ndarray, np.ndarray, np.ndarray],
        kept: Kept | None = None,
        heads: Strings | None = None,
    ) -> None:
        self.roots = roots  # scope value -> store folder
        self.ids = strings["ids"]
        self.names = strings["names"]
        self.titles = strings["titles"]
        self.descriptions = strings["descriptions"]
        self.stems = strings["stems"]
        self.digest = digest  # (n, 16) uint8
        self.stats = stats  # int64 columns: size, mtime_ns, inode
        self.kept = kept  # the texts' withheld spans (``secretmatch``), if the cache has them
        self.heads = heads  # each row's head terms joined by spaces, if the cache has them
        self.n = len(digest)

    def digest_of(self, row: int) -> bytes:
        return bytes(self.digest[row].tobytes())

    def head_string(self, row: int) -> str | None:
        return self.heads[row] if self.heads is not None else None

    def withheld(self, row: int) -> Spans | None:
        """The withheld spans of ``row``'s text, when the cache knows them (and was written
        with the scanner that runs here)."""
        return self.kept.spans_of(row) if self.kept is not None else None

    def read(self, row: int, expect: FactRecord) -> FactRecord:
        """The fact file of ``row``, read (``read_record``), if it is still exactly what the
        cache holds."""
        from context_center.engine.store.factfields import FactFileError

        scope = expect.scope
        stem = self.stems[row]
        try:
            fact, _, st = read_record(self.roots[scope.value] / f"{stem}.md", stem, scope)
        except (OSError, ValueError, FactFileError) as exc:
            raise StaleIndex(f"{scope.value}/{stem}.md cannot be read as cached") from exc
        size, mtime, ino = (int(a[row]) for a in self.stats)
        if (
            (st.st_size, st.st_mtime_ns, st.st_ino) != (size, mtime, ino)
            or any(getattr(fact, k) != getattr(expect, k) for k in _CHECKED)
            or content_digest(fact) != self.digest_of(row)
        ):
            raise StaleIndex(f"{scope.value}/{stem}.md changed since it was indexed")
        return fact


def read_record(path: Path, stem: str, scope: Scope) -> tuple[FactRecord, bool, os.stat_result]:
    """(fact, legacy, stat) of one fact file: read by the canonical reader when it is in that
    form (no YAML, no model), else by the full reader, whose validated ``Fact`` the record
    keeps (``to_fact``). Raises FactFileError and OSError."""
    from context_center.engine.store.factfields import read_canonical

    values, data, st = read_canonical(path, stem=stem, scope=scope)
    if values is not None:
        return FactRecord(values.fields), values.legacy, st
    from context_center.engine.store.entries import mtime_of
    from context_center.engine.store.factfile import parse_fact_bytes

    parsed = parse_fact_bytes(data, stem=stem, directory_scope=scope, mtime=mtime_of(st))
    record = FactRecord.of(parsed.fact)
    object.__setattr__(record, "_fact", parsed.fact)
    return record, parsed.legacy, st


class LazyFact(FactRecord):
    """A cached fact whose body is read from its file on first use (``PackedFacts.read``)."""

    __slots__ = ("_lazy",)
    _lazy: tuple[PackedFacts, int]

    @classmethod
    def build(cls, packed: PackedFacts, row: int, values: dict[str, Any]) -> LazyFact:
        f = cls(values)
        object.__setattr__(f, "_lazy", (packed, row))
        return f

    @property
    def body(self) -> str:
        body = self._body
        if body is _UNREAD:
            body = self._read().body
        return cast(str, body)

    @property
    def loaded(self) -> bool:
        return self._body is not _UNREAD

    def _read(self) -> FactRecord:
        packed, row = self._lazy
        read = packed.read(row, self)
        object.__setattr__(self, "_body", read.body)
        return read

    def materialised(self) -> Fact:
        """The real Fact, read from the file (raises StaleIndex if it changed)."""
        if self._body is _UNREAD:
            self._read()
        return self.to_fact()
