"""What the facts say, for the suggestions scan: kept per process, read from the phrase index.

``known.py`` holds the phrase rule; this module keeps, per process, what every fact says
(``FactTexts``), valid for as long as the facts are the same: after a save only the facts
that changed are looked at again. Where the workspace's phrase index (``phraseindex.py``,
written by ``index_fact_phrases``, never by a scan) describes a fact unchanged, the fact is
not cut at all: the scan reads its phrases from the index. The others are cut here, in pure
Python; when other threads run (the window scans on a thread of its own), the cutting pauses
``PAUSE_S`` every ``SLICE_S`` so their file reads and the window's own work are not starved
of the GIL. A candidate is compared only with the phrases that share a token with it, so its
cost follows the candidates, not the store. The results are exactly those of comparing with
``phrases_overlap`` phrase by phrase; where several facts say a statement, the fact listed
first is named.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar, cast

import numpy as np

from context_center.engine.errors import PhraseIndexBehind
from context_center.engine.model import Fact
from context_center.engine.suggestions.forkcut import can_fork, cut_in_two
from context_center.engine.suggestions.known import (
    FactKey,
    KnownTexts,
    Origin,
    Probe,
    _entry,
    _fact_key,
    _FactEntry,
)
from context_center.engine.suggestions.phraseindex import (
    NOWHERE,
    Entry,
    PhraseIndex,
    digest_of,
)

__all__ = [
    "ExistingTexts",
    "FactTexts",
    "fact_texts_cache",
    "known_texts",
    "refresh_phrase_index",
]

LOADED_MAX = 4  # phrase indexes kept read, one per workspace
T = TypeVar("T")
REBUILD_AFTER = 64  # facts gone at once: the token index is built again instead
SLICE_S = 0.004  # cutting facts pauses this often, for PAUSE_S, to hand the GIL over
PAUSE_S = 0.002


def _hold(index: dict[str, list[FactKey]], key: FactKey, entry: _FactEntry) -> None:
    for token in entry.tokens():
        if token in index:
            index[token].append(key)
        else:
            index[token] = [key]


@dataclass
class FactTexts:
    """What the facts say, kept up to date fact by fact (see the module docstring).

    ``update`` makes it describe a list of facts: the facts the phrase index (``phraseindex``,
    read from disk) describes are looked up there, the others are cut here, and only the facts
    it has not seen yet; ``cuts`` counts the facts it has cut so far (tests count the work)."""

    entries: dict[FactKey, _FactEntry] = field(default_factory=dict)
    index: dict[str, list[FactKey]] | None = field(default_factory=dict)  # None: to rebuild
    order: tuple[FactKey, ...] = ()
    position: dict[FactKey, int] = field(default_factory=dict)
    joined: str = ""
    starts: list[int] = field(default_factory=list)
    owners: list[int] = field(default_factory=list)  # the position of each joined key's fact
    cuts: int = 0
    facts: Sequence[Fact] = ()
    phrases: PhraseIndex | None = None
    row_pos: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    digests: dict[FactKey, bytes] = field(default_factory=dict)
    _rows: dict[bytes, int] = field(default_factory=dict)

    def update(
        self,
        facts: Sequence[Fact],
        order: tuple[FactKey, ...] | None = None,
        phrases: PhraseIndex | None = None,
        max_cuts: int | None = None,
    ) -> None:
        order = order if order is not None else tuple(_fact_key(f) for f in facts)
        if order == self.order and phrases is self.phrases:
            self.facts = facts
            return
        if phrases is not self.phrases:
            self._rows = phrases.row_of() if phrases is not None else {}
        self.phrases, self.facts = phrases, facts
        wanted = self._place(facts, order)
        if max_cuts is not None:
            behind = sum(1 for k in wanted if k not in self.entries)
            if behind > max_cuts:
                # nothing this object describes may pass for these facts: the next call,
                # whatever it asks, looks at everything again (its shortcut cannot match)
                self.order, self.phrases, self._rows = (), _STALE, {}
                raise PhraseIndexBehind(
                    f"the phrase index does not describe {behind} facts (at most {max_cuts} "
                    "are cut in a scan asked to stay light)"
                )
        gone = self.entries.keys() - wanted.keys()
        new = len(wanted) - (len(self.entries) - len(gone))
        if self.index is None or len(gone) > REBUILD_AFTER or new > REBUILD_AFTER:
            # removing one by one costs the length of each list; and a refresh of the phrase
            # index never asks the token index: it is built again when first asked
            for key in gone:
                del self.entries[key]
            self.index = None
        else:
            for key in gone:
                for token in self.entries.pop(key).tokens():
                    holders = self.index[token]
                    holders.remove(key)
                    if not holders:
                        del self.index[token]
        todo = [(k, f) for k, f in wanted.items() if k not in self.entries]
        cuts = cut_in_two(todo, _cut_paced) if can_fork(len(todo)) else _cut_paced(todo)
        for key, entry in cuts:
            self.entries[key] = entry
            self.cuts += 1
            if self.index is not None:
                _hold(self.index, key, entry)
        self.order = order
        self.position = {}
        for i, key in enumerate(order):
            self.position.setdefault(key, i)
        self._join(order)

    def _place(self, facts: Sequence[Fact], order: tuple[FactKey, ...]) -> dict[FactKey, Fact]:
        """Set ``row_pos`` (each index row's position in ``order``, -1: no such fact now) and
        return the facts the index does not describe, which are cut here."""
        rows = self._rows
        if not rows:
            self.row_pos = np.zeros(0, dtype=np.int64)
            return dict(zip(order, facts, strict=True))
        known = self.digests
        digests: dict[FactKey, bytes] = {}
        row_pos = [-1] * (self.phrases.rows if self.phrases is not None else 0)
        rest: dict[FactKey, Fact] = {}
        for i, (key, fact) in enumerate(zip(order, facts, strict=True)):
            digest = known.get(key) or digest_of(key)
            digests[key] = digest
            row = rows.get(digest)
            if row is not None and row_pos[row] < 0:
                row_pos[row] = i
            else:
                rest[key] = fact
        self.digests = digests
        self.row_pos = np.asarray(row_pos, dtype=np.int64)
        return rest

    def _join(self, order: tuple[FactKey, ...]) -> None:
        keys: list[str] = []
        self.starts, self.owners = [], []
        at = 0
        for where, fact_key in enumerate(order):
            entry = self.entries.get(fact_key)
            if entry is None:  # described by the phrase index
                continue
            for text_key in entry.keys:
                self.starts.append(at)
                self.owners.append(where)
                keys.append(text_key)
                at += len(text_key) + 1
        self.joined = "\x00".join(keys)

    def _origin(self, where: int) -> Origin:
        fact = self.facts[where]
        return Origin.of_fact(fact)

    def by_key(self, key: str) -> Origin | None:
        """The first fact with a title, description or body containing ``key``."""
        found = self.joined.find(key) if key else -1
        best = self.owners[bisect_right(self.starts, found) - 1] if found >= 0 else NOWHERE
        if self.phrases is not None:
            best = min(best, self.phrases.covering_key(key, self.row_pos))
        return self._origin(best) if best != NOWHERE else None

    def by_phrase(self, probe: Probe) -> Origin | None:
        """The first fact with a phrase that says ``probe``."""
        best = NOWHERE
        seen: set[FactKey] = set()
        if self.index is None:
            self.index = {}
            for key, entry in self.entries.items():
                _hold(self.index, key, entry)
        for token in probe.tokens:
            for key in self.index.get(token, ()):
                if key in seen:
                    continue
                seen.add(key)
                where = self.position[key]
                if where >= best:
                    continue
                if any(probe.says(piece) for piece in self.entries[key].pieces):
                    best = where
        if self.phrases is not None:
            best = self.phrases.covering_phrase(probe.norm, probe.tokens, self.row_pos, best)
        return self._origin(best) if best != NOWHERE else None

    def unindexed(self) -> list[Entry]:
        """The facts the phrase index does not describe, as index entries, in order."""
        out: list[Entry] = []
        for key in dict.fromkeys(self.order):  # a fact listed twice is one row
            entry = self.entries.get(key)
            if entry is not None:
                out.append((self.digests.get(key) or digest_of(key), entry.keys, entry.pieces))
        return out


_STALE = cast(PhraseIndex, object())  # "no index this object was updated for"
_CACHE = FactTexts()
_CACHE_LOCK = threading.Lock()
_LOADED: dict[Path, tuple[tuple[int, int, int], PhraseIndex]] = {}


def fact_texts_cache() -> FactTexts:
    """The process's ``FactTexts`` (tests read its ``cuts``)."""
    return _CACHE


def _identity(path: Path) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino) if stat.S_ISREG(st.st_mode) else None


def phrase_index(path: Path | None) -> PhraseIndex | None:
    """The phrase index in ``path`` (read again only when the file changed), or None."""
    if path is None:
        return None
    identity = _identity(path)
    if identity is None:
        _LOADED.pop(path, None)
        return None
    held = _LOADED.get(path)
    if held is not None and held[0] == identity:
        return held[1]
    index = PhraseIndex.load(path)
    if index is None:
        _LOADED.pop(path, None)
        return None
    _remember(path, identity, index)
    return index


def _remember(path: Path, identity: tuple[int, int, int], index: PhraseIndex) -> None:
    """Keep the index read from ``path``; a window that switched workspaces many times holds
    the last ``LOADED_MAX`` of them, not every one."""
    _LOADED.pop(path, None)
    while len(_LOADED) >= LOADED_MAX:
        _LOADED.pop(next(iter(_LOADED)))
    _LOADED[path] = (identity, index)


def _paced(items: list[T]) -> Iterator[T]:
    """``items`` one by one, pausing ``PAUSE_S`` every ``SLICE_S`` of the consumer's work when
    other threads run (the window scans on a thread of its own); alone (the CLI), never."""
    shared = threading.active_count() > 1
    resume = time.perf_counter() + SLICE_S
    for item in items:
        yield item
        if shared and time.perf_counter() >= resume:
            time.sleep(PAUSE_S)
            resume = time.perf_counter() + SLICE_S


def _cut_paced(items: Sequence[tuple[FactKey, Fact]]) -> Iterator[tuple[FactKey, _FactEntry]]:
    for key, fact in _paced(list(items)):
        yield key, _entry(fact)


def refresh_phrase_index(facts: Sequence[Fact], path: Path) -> int:
    """Make the phrase index in ``path`` describe ``facts``: rows of facts that are gone or
    changed are dropped, the facts it lacks are cut and added. Returns how many facts were
    added (0 and no write when it already describes them). Raises OSError if it cannot write."""
    order = tuple(_fact_key(f) for f in facts)
    with _CACHE_LOCK:
        old = phrase_index(path)
        _CACHE.update(facts, order, old)
        added = _CACHE.unindexed()
        keep = _CACHE.row_pos >= 0
        if old is not None and not added and bool(keep.all()):
            return 0
        index = PhraseIndex.merged(old, keep if old is not None else None, _paced(added))
        index.save(path)
        identity = _identity(path)
        if identity is not None:
            _remember(path, identity, index)
            _CACHE.update(facts, order, index)
        return len(added)


class ExistingTexts:
    """The facts and instruction files of a scan; the facts are looked at on the first
    ``covering`` call only. ``phrases``: where the workspace's phrase index is (read only)."""

    def __init__(
        self,
        facts: Sequence[Fact],
        instructions: KnownTexts,
        phrases: Path | None = None,
        max_cuts: int | None = None,
    ) -> None:
        self._facts = facts
        self._instructions = instructions
        self._phrases = phrases
        self._max_cuts = max_cuts
        self._order: tuple[FactKey, ...] | None = None
        self._by_name: dict[str, list[Fact]] | None = None

    def covering(self, statement: str, key: str) -> Origin | None:
        """The origin of a fact or instruction file that already says ``statement``, or None."""
        probe = Probe.of(statement, key)
        if self._order is None:
            self._order = tuple(_fact_key(f) for f in self._facts)
        with _CACHE_LOCK:  # another scan (another thread, another store) may have moved it
            _CACHE.update(self._facts, self._order, phrase_index(self._phrases), self._max_cuts)
            by_key = _CACHE.by_key(key)
            if by_key is None:
                by_key = self._instructions.by_key(key)
            found = by_key or _CACHE.by_phrase(probe) or self._instructions.by_phrase(probe)
        if found is None or not probe.agrees(self._texts_of(found)):
            return None  # a correction of what the text says is no repetition of it
        return found

    def _texts_of(self, origin: Origin) -> list[str]:
        if origin.kind != "fact":
            return self._instructions.texts.get(origin, [])
        if self._by_name is None:  # once, by name: a fact's ref costs an enum lookup
            self._by_name = {}
            for f in self._facts:
                self._by_name.setdefault(f.name, []).append(f)
        name = origin.label.rpartition("/")[2].removesuffix(".md")
        for f in self._by_name.get(name, ()):
            if f.ref == origin.label:
                return [t for t in (f.title, f.description, f.body) if t]
        return []

    def covers(self, statement: str, key: str) -> bool:
        return self.covering(statement, key) is not None


def known_texts(
    facts: Sequence[Fact],
    instructions: Sequence[str | tuple[str, str]],
    phrases: Path | None = None,
    *,
    max_cuts: int | None = None,
) -> ExistingTexts:
    """The known texts of ``facts`` (title, description, body) and of the loaded instruction
    files, given as bodies or as (label, body) pairs. Costs nothing until asked. ``phrases``:
    the workspace's phrase index, read when present. ``max_cuts``: a comparison that would
    cut more facts than that (the index does not describe them) raises PhraseIndexBehind."""
    known = KnownTexts()
    for item in instructions:
        label, body = item if isinstance(item, tuple) else ("", item)
        known.add(body, Origin("instruction", label or "loaded instructions"))
    return ExistingTexts(facts, known, phrases, max_cuts)
