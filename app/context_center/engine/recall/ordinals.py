"""Per-ordinal state of the recall index: the facts, their columns, and facts not yet read.

Every indexed fact has an *ordinal* (its row). Beside the Fact itself the index keeps numpy
columns per ordinal: weighted length, alive, scope, type, updated_at (seconds and
microseconds), created_at, revision, subject key, the project-over-global mask, whether the
body has a ``Supersedes:`` line, 64-bit hashes of the conflict keys (id, name slug, title key)
and the fact file's size, mtime and inode as the store's scan saw it.

An index opened from the cache (``RecallIndex.open``) holds no Fact objects at first: row
``o`` points at a row of the cache's ``PackedFacts`` (``src``), and ``fact_at(o)`` builds a
``LazyFact`` from it on demand, whose body is read from the fact file only when something asks
for it (``lazyfact.py``). Nothing here tokenises; ``postings.py`` holds the postings.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, TypeGuard, cast

import numpy as np

from context_center.engine.kinds import FactType, Scope
from context_center.engine.recall.changelog import ChangeLog
from context_center.engine.recall.digest import content_digest, index_text
from context_center.engine.recall.keylookup import SCOPE_CODES, key_hash, ordinal_by_hash
from context_center.engine.recall.lazyfact import FactRecord, LazyFact, PackedFacts, StaleIndex
from context_center.engine.recall.rowtext import RowText
from context_center.engine.recall.secretmatch import Spans
from context_center.engine.store.keys import name_key, title_key

if TYPE_CHECKING:
    from context_center.engine.model import Fact

TYPE_CODES = {FactType.USER: 0, FactType.FEEDBACK: 1, FactType.PROJECT: 2, FactType.REFERENCE: 3}
SCOPES = tuple(SCOPE_CODES)
TYPES = tuple(TYPE_CODES)
NO_TIME = np.iinfo(np.int64).min
HASH_LOOKUPS = 512
NO_TIME_MS = NO_TIME
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

DocKey = tuple[str, str]  # (scope, id): the same id may exist once in each store
FileRow = tuple[str, int, int, int]  # (file stem, size, mtime_ns, inode)


class _Unmade:
    """The placeholder of a row whose LazyFact has not been built yet."""

    __slots__ = ()


UNMADE_FACT = _Unmade()


def doc_key(fact: Fact) -> DocKey:
    return (fact.scope.value, fact.id)


def time_us(value: datetime | None) -> int:
    if value is None:
        return int(NO_TIME)
    d = value - _EPOCH
    return (d.days * 86400 + d.seconds) * 1_000_000 + d.microseconds


def time_ms(value: datetime | None) -> int:
    return int(NO_TIME) if value is None else round(value.timestamp() * 1000)


def time_s(value: datetime | None) -> float:
    return math.nan if value is None else value.timestamp()


def from_us(us: int) -> datetime | None:
    return None if us == NO_TIME else _EPOCH + timedelta(microseconds=us)


def conflict_hashes(fact: Fact) -> tuple[int, int, int]:
    """(id, name slug, title key) hashes: the keys ``memory.find_conflicts`` compares."""
    return key_hash(fact.id), key_hash(name_key(fact.name)), key_hash(title_key(fact.title))


class Column:
    """A growable 1-D numpy array."""

    __slots__ = ("data", "size")

    def __init__(self, dtype: type | np.dtype, initial: np.ndarray | None = None) -> None:
        if initial is None or len(initial) == 0:
            self.data = np.zeros(64, dtype=dtype)
            self.size = 0
        else:
            self.data = np.array(initial, dtype=dtype)
            self.size = len(initial)

    def append(self, value: float | int | bool) -> None:
        if self.size == len(self.data):
            grown = np.zeros(max(64, len(self.data) * 2), dtype=self.data.dtype)
            grown[: self.size] = self.data[: self.size]
            self.data = grown
        self.data[self.size] = value
        self.size += 1

    def view(self) -> np.ndarray:
        return self.data[: self.size]


# name -> (dtype, value for "unknown"); also the cache's per-fact sections (``cache.py``)
COLUMNS: dict[str, tuple[type, int | float | bool]] = {
    "dl": (np.uint32, 0),
    "alive": (np.bool_, True),
    "scope": (np.uint8, 0),
    "type": (np.uint8, 0),
    "upd": (np.float64, math.nan),
    "subject": (np.uint64, 0),
    "rev": (np.int64, 1),
    "created": (np.int64, int(NO_TIME)),
    "updated": (np.int64, int(NO_TIME)),
    "masked": (np.bool_, False),
    "link": (np.bool_, False),
    "idh": (np.uint64, 0),
    "nameh": (np.uint64, 0),
    "titleh": (np.uint64, 0),
    "fsize": (np.int64, -1),
    "fmtime": (np.int64, -1),
    "fino": (np.int64, -1),
    "src": (np.int64, -1),
}


def _held(f: object) -> TypeGuard[Fact]:
    """Whether a row holds its fact itself (a ``Fact`` or a ``FactRecord`` read from its
    file), not a cache row (``LazyFact``), a row not made yet or a dead one."""
    return f is not None and f is not UNMADE_FACT and not isinstance(f, LazyFact)


def real_fact(f: Fact) -> Fact:
    """What leaves the index is a plain ``Fact``, never a record or one tied to the cache."""
    if isinstance(f, LazyFact):
        return f.materialised()
    if isinstance(f, FactRecord):
        return f.to_fact()
    return f


class Ordinals(RowText, ChangeLog):
    """Facts by ordinal and their columns (``PostingsStore`` adds postings on top)."""

    def _reset_rows(self) -> None:
        self._facts: list[object] = []  # Fact, LazyFact, UNMADE_FACT or None (dead)
        self._digest: list[bytes | None] = []
        # the spans of each row's text the sanitizer withholds (``secretmatch``); None: not known
        self._withheld: list[Spans | int | None] = []  # see ``RowText``
        # the terms of each row's name, title and description, joined by spaces
        self._heads: list[str | int | None] = []
        self._stems: list[str | None] = []  # file stem when it differs from the name
        self._objects: set[int] = set()  # id() of every live real Fact held (see sync)
        self._ordmap: dict[DocKey, int] | None = {}
        self._packed: PackedFacts | None = None
        self.c: dict[str, Column] = {k: Column(dt) for k, (dt, _) in COLUMNS.items()}
        self._n_alive = 0
        self._dead = 0
        self._new_epoch()

    @property
    def size(self) -> int:
        """Ordinals in use (live and dead)."""
        return len(self._facts)

    # -- facts -------------------------------------------------------------------------------

    def _make(self, o: int) -> LazyFact:
        p = self._packed
        assert p is not None
        c = self.c
        row = int(c["src"].data[o])
        f = LazyFact.build(
            p,
            row,
            {
                "id": p.ids[row],
                "revision": int(c["rev"].data[o]),
                "created_at": from_us(int(c["created"].data[o])),
                "updated_at": from_us(int(c["updated"].data[o])),
                "name": p.names[row],
                "title": p.titles[row],
                "description": p.descriptions[row],
                "type": TYPES[int(c["type"].data[o])],
                "scope": SCOPES[int(c["scope"].data[o])],
            },
        )
        self._facts[o] = f
        return f

    def fact(self, ordinal: int) -> Fact:
        f = self._facts[ordinal]
        if f is UNMADE_FACT:
            return self._make(ordinal)
        assert f is not None
        return f  # type: ignore[return-value]

    def _held_fact(self, o: int) -> Fact | None:
        f = self._facts[o]
        return f if _held(f) else None

    def fact_at(self, ordinal: int) -> Fact | None:
        if not 0 <= ordinal < len(self._facts):
            return None
        f = self._facts[ordinal]
        if f is UNMADE_FACT:
            return self._make(ordinal)
        return f  # type: ignore[return-value]

    def facts(self) -> list[Fact]:
        """Every live fact, as real Facts (lazy ones are read from their files)."""
        with self._lock:  # type: ignore[attr-defined]
            out = []
            for o in range(self.size):
                f = self.fact_at(o)
                if f is not None:
                    out.append(real_fact(f))
            return out

    def key_of(self, o: int) -> DocKey:
        f = self._facts[o]
        if f is UNMADE_FACT or isinstance(f, LazyFact):
            assert self._packed is not None
            return (
                SCOPES[int(self.c["scope"].data[o])].value,
                self._packed.ids[int(self.c["src"].data[o])],
            )
        assert _held(f)
        return doc_key(f)

    def _ords(self) -> dict[DocKey, int]:
        if self._ordmap is None:
            c = self.c
            alive, src, scope = c["alive"].view(), c["src"].view(), c["scope"].view()
            out: dict[DocKey, int] = {}
            if self._packed is not None:  # rows still described by the cache: no Fact needed
                rows = np.flatnonzero(alive & (src >= 0))
                ids, names = self._packed.ids.all(), [s.value for s in SCOPES]
                cols = (rows.tolist(), scope[rows].tolist(), src[rows].tolist())
                for o, sc, r in zip(*cols, strict=True):
                    out[(names[sc], ids[r])] = o
            for o in np.flatnonzero(alive & (src < 0)).tolist():
                out[doc_key(self._facts[o])] = o  # type: ignore[arg-type]
            self._ordmap = out
        return self._ordmap

    def stems_of_scope(self, code: int) -> dict[str, int]:
        """{file stem: ordinal} of the live facts of one scope (cached rows unread)."""
        c = self.c
        alive, src, scope = c["alive"].view(), c["src"].view(), c["scope"].view()
        mine = alive & (scope == code)
        out: dict[str, int] = {}
        if self._packed is not None:
            rows = np.flatnonzero(mine & (src >= 0))
            stems = self._packed.stems.all()
            for o, r in zip(rows.tolist(), src[rows].tolist(), strict=True):
                out[stems[r]] = o
        for o in np.flatnonzero(mine & (src < 0)).tolist():
            out[self.stem_of(o)] = o
        return out

    def ordinal(self, scope: Scope | str, fact_id: str) -> int | None:
        return self.ordinal_of((Scope(scope).value, fact_id))

    _hash_lookups = 0  # lookups answered without the map (``keylookup``) so far

    def ordinal_of(self, key: DocKey) -> int | None:
        """``ordinal`` for a ``(scope value, id)`` key, without building an enum. The first
        ``HASH_LOOKUPS`` asked before the map exists search the id-hash column instead (a
        cold process asks for a few; the map of 50,000 rows costs more than all of them)."""
        if self._ordmap is None and self._hash_lookups < HASH_LOOKUPS:
            self._hash_lookups += 1
            return ordinal_by_hash(self, key)
        return self._ords().get(key)

    def stem_of(self, o: int) -> str:
        """The file stem of a live ordinal (the name, except for legacy files)."""
        f = self._facts[o]
        if f is UNMADE_FACT or isinstance(f, LazyFact):
            assert self._packed is not None
            return self._packed.stems[int(self.c["src"].data[o])]
        assert _held(f)
        return self._stems[o] or f.name

    def name_of(self, o: int) -> str:
        f = self._facts[o]
        if f is UNMADE_FACT:
            assert self._packed is not None
            return self._packed.names[int(self.c["src"].data[o])]
        assert f is not None
        return cast("Fact", f).name

    def digest_of(self, o: int) -> bytes:
        g = self._digest[o]
        if g is None:
            f = self._facts[o]
            if f is UNMADE_FACT or isinstance(f, LazyFact):
                assert self._packed is not None
                g = self._packed.digest_of(int(self.c["src"].data[o]))
            else:
                assert _held(f)
                g = content_digest(f)
            self._digest[o] = g
        return g

    # -- columns -----------------------------------------------------------------------------

    def columns(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(alive, scope code, type code, updated_at seconds or NaN), one entry per ordinal."""
        c = self.c
        return c["alive"].view(), c["scope"].view(), c["type"].view(), c["upd"].view()

    def subject_column(self) -> np.ndarray:
        """Subject keys per ordinal (``subjects.subject_key``; 0: none)."""
        return self.c["subject"].view()

    def column(self, name: str) -> np.ndarray:
        return self.c[name].view()

    def _append_row(self, fact: Fact, dl: int, subject: int, link: bool) -> int:
        o = len(self._facts)
        self._facts.append(fact)
        self._objects.add(id(fact))
        self._digest.append(None)
        self._withheld.append(None)
        self._heads.append(None)
        self._stems.append(None)
        if self._ordmap is not None:
            self._ordmap[doc_key(fact)] = o
        idh, nameh, titleh = conflict_hashes(fact)
        values: dict[str, float | int | bool] = {
            "dl": dl,
            "alive": True,
            "scope": SCOPE_CODES[fact.scope],
            "type": TYPE_CODES[fact.type],
            "upd": time_s(fact.updated_at),
            "subject": subject,
            "rev": fact.revision,
            "created": time_us(fact.created_at),
            "updated": time_us(fact.updated_at),
            "masked": False,
            "link": link,
            "idh": idh,
            "nameh": nameh,
            "titleh": titleh,
            "fsize": -1,
            "fmtime": -1,
            "fino": -1,
            "src": -1,
        }
        for name, col in self.c.items():
            col.append(values[name])
        self._n_alive += 1
        self._touch(o)
        return o

    def _set_metadata(self, o: int, fact: Fact) -> None:
        """A fact whose text is unchanged took the place of row ``o`` (revision, time, type)."""
        old = self._facts[o]
        if _held(old):
            self._objects.discard(id(old))
        else:  # a row read from the cache: keep its file's stem
            stem = self.stem_of(o)
            self._stems[o] = stem if stem != fact.name else None
        self._facts[o] = fact
        self._objects.add(id(fact))
        c = self.c
        c["type"].data[o] = TYPE_CODES[fact.type]
        c["upd"].data[o] = time_s(fact.updated_at)
        c["rev"].data[o] = fact.revision
        c["created"].data[o] = time_us(fact.created_at)
        c["updated"].data[o] = time_us(fact.updated_at)
        self._detach(o)  # the text is the same: so are its spans and head terms
        c["src"].data[o] = -1  # the row is now described by the Fact itself
        self._touch(o)

    def same_metadata(self, o: int, fact: Fact) -> bool:
        c = self.c
        return (
            int(c["rev"].data[o]) == fact.revision
            and int(c["type"].data[o]) == TYPE_CODES[fact.type]
            and int(c["created"].data[o]) == time_us(fact.created_at)
            and int(c["updated"].data[o]) == time_us(fact.updated_at)
        )

    def set_files(self, files: Mapping[DocKey, FileRow]) -> None:
        """Record where each live fact's file is and how the scan saw it (stat)."""
        c = self.c
        size, mtime, ino = c["fsize"].data, c["fmtime"].data, c["fino"].data
        for key, o in self._ords().items():
            row = files.get(key)
            if row is None:
                size[o] = mtime[o] = ino[o] = -1
                continue
            stem, size[o], mtime[o], ino[o] = row
            f = self._facts[o]
            if _held(f):
                self._stems[o] = stem if stem != f.name else None

    def set_file(self, o: int, stem: str, size: int, mtime_ns: int, ino: int) -> None:
        """Where the fact of row ``o`` was just read from, and how its file looked."""
        c = self.c
        c["fsize"].data[o], c["fmtime"].data[o], c["fino"].data[o] = size, mtime_ns, ino
        f = self._facts[o]
        if _held(f):
            self._stems[o] = stem if stem != f.name else None

    def set_masked(self, ordinals: np.ndarray) -> None:
        m = self.c["masked"]
        m.data[: m.size] = False
        m.data[ordinals] = True

    def _kill(self, o: int) -> None:
        key = self.key_of(o)
        f = self._facts[o]
        if self._ordmap is not None:
            self._ordmap.pop(key, None)
        if _held(f):
            self._objects.discard(id(f))
        self._facts[o] = None
        self._digest[o] = None
        self._withheld[o] = None
        self._heads[o] = None
        self.c["alive"].data[o] = False
        self._n_alive -= 1
        self._dead += 1
        self._touch(o)

    def _keep_rows(self, alive: np.ndarray) -> None:
        """Drop dead rows (compaction; ordinals are renumbered in order)."""
        keep = alive.tolist()
        self._facts = [f for f, k in zip(self._facts, keep, strict=True) if k]
        self._digest = [g for g, k in zip(self._digest, keep, strict=True) if k]
        self._withheld = [w for w, k in zip(self._withheld, keep, strict=True) if k]
        self._heads = [h for h, k in zip(self._heads, keep, strict=True) if k]
        self._stems = [s for s, k in zip(self._stems, keep, strict=True) if k]
        self.c = {name: Column(col.data.dtype, col.view()[alive]) for name, col in self.c.items()}
        self._ordmap = None  # rebuilt on demand
        self._dead = 0
        self._new_epoch()  # renumbered

    def adopt(self, packed: PackedFacts, cols: Mapping[str, np.ndarray]) -> None:
        """Rows for every fact of a cache, none of them read yet."""
        n = packed.n
        self._facts = [UNMADE_FACT] * n
        self._digest = [None] * n
        self._withheld = [None] * n
        self._heads = [None] * n
        self._stems = [None] * n
        self._objects = set()
        self._ordmap = None
        self._packed = packed
        self.c = {}
        for name, (dt, _) in COLUMNS.items():
            if name == "src":
                self.c[name] = Column(dt, np.arange(n, dtype=np.int64))
            elif name == "alive":
                self.c[name] = Column(dt, np.ones(n, dtype=np.bool_))
            elif name == "upd":
                u = cols["updated"]
                upd = u.astype(np.float64) / 1e6
                upd[u == NO_TIME] = math.nan
                self.c[name] = Column(dt, upd)
            else:
                self.c[name] = Column(dt, cols[name])
        self._n_alive = n
        self._dead = 0
        self._new_epoch()


__all__ = [
    "COLUMNS",
    "NO_TIME",
    "NO_TIME_MS",
    "SCOPE_CODES",
    "TYPE_CODES",
    "UNMADE_FACT",
    "Column",
    "DocKey",
    "FileRow",
    "LazyFact",
    "Ordinals",
    "StaleIndex",
    "content_digest",
    "doc_key",
    "index_text",
    "time_ms",
    "time_s",
    "time_us",
]
