"""Facts on the same subject, and which one of them is current.

Two facts of one store are on the same subject when

* their titles are near-duplicates: the same words once case, word forms, common words, years
  (``2025``, ``2026``) and punctuation are set aside ("On-call rotation 2025" and "On-call
  rotation 2026"; "Node version" twice), or
* a person said so: a body line ``Supersedes: project/old-name.md`` (also ``Replaces:``,
  ``取代：``, ``替代：``; targets are references, names or ids, separated by commas).

The newest fact of a group (by ``updated_at``) is current, except that a fact another one
explicitly supersedes is never current. Recall injects only the current fact and lists the
others as ``superseded``; the window shows the groups. Nothing is archived or deleted here.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from context_center.engine.kinds import Scope
from context_center.engine.recall.keylookup import SCOPE_CODES, key_hash
from context_center.engine.recall.stem import stem
from context_center.engine.recall.tokenize import is_common, tokens
from context_center.engine.store.keys import name_key

if TYPE_CHECKING:
    from context_center.engine.model import Fact
    from context_center.engine.recall.changelog import Mark
    from context_center.engine.recall.index import RecallIndex

_YEAR = re.compile(r"^(19|20)\d\d$")
# A title made only of these says nothing about its subject ("Notes", "会议记录").
_GENERIC_TITLE_TEXT = (
    "note notes misc todo draft meeting memo log 笔记 备忘 记录 会议 纪要 草稿 待办"
)
_GENERIC_TITLE_WORDS = frozenset(stem(w) for w in _GENERIC_TITLE_TEXT.split())
SUPERSEDES_RE = re.compile(
    r"^[ \t>*-]*(?:supersedes|replaces|取代|替代|替换)[ \t]*[:：][ \t]*(?P<targets>.+?)[ \t]*$",
    re.IGNORECASE | re.MULTILINE,
)
# Index terms that a body with such a line contains (stems and CJK bigrams).
LINK_TERMS = ("supersed", "replac", "取代", "替代", "替换")
_TARGET_SPLIT = re.compile(r"[,，;；\s]+")
_REF = re.compile(r"^(?P<scope>project|global)/(?P<name>.+?)(?:\.md)?$")


def title_terms(title: str) -> tuple[str, ...]:
    """The words that name a title's subject (sorted, deduplicated)."""
    out = set()
    for raw in tokens(title):
        if _YEAR.match(raw) or is_common(raw):
            continue
        out.add(stem(raw))
    if out <= _GENERIC_TITLE_WORDS:
        return ()
    return tuple(sorted(out))


def subject_key(fact: Fact) -> int:
    """A nonzero 64-bit key shared by facts of one store with near-duplicate titles; 0 when
    the title names no subject."""
    terms = title_terms(fact.title or fact.name.replace("-", " "))
    if not terms:
        return 0
    data = (fact.scope.value + "\x00" + "\x00".join(terms)).encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little") or 1


@dataclass(frozen=True, slots=True)
class Target:
    """What a ``Supersedes:`` line points at: a name in a scope (None: the linking fact's), or
    an id."""

    scope: Scope | None
    name: str | None
    id: str | None


def link_targets(body: str) -> list[Target]:
    out: list[Target] = []
    for m in SUPERSEDES_RE.finditer(body):
        for raw in _TARGET_SPLIT.split(m.group("targets")):
            word = raw.strip().strip("`'\"()[]<>")
            if not word:
                continue
            if word.startswith(("mem-", "legacy-")):
                out.append(Target(None, None, word))
                continue
            ref = _REF.match(word)
            if ref:
                out.append(Target(Scope(ref.group("scope")), ref.group("name"), None))
            else:
                out.append(Target(None, word.removesuffix(".md"), None))
    return out


@dataclass(frozen=True, slots=True)
class SubjectGroup:
    """Facts on one subject: the current one and the older ones it replaces."""

    current: Fact
    older: tuple[Fact, ...]
    how: str  # "supersedes" (a person's link) or "same_title"

    def public_dict(self) -> dict[str, object]:
        return {
            "current": self.current.ref,
            "current_id": self.current.id,
            "older": [f.ref for f in self.older],
            "older_ids": [f.id for f in self.older],
            "how": self.how,
        }


def _title_groups(
    subject: np.ndarray, alive: np.ndarray
) -> tuple[dict[int, list[int]], np.ndarray]:
    """({key: its live ordinals, ascending} for every nonzero key two live facts share, the
    mask of those ordinals): one sort of the live keys."""
    members: dict[int, list[int]] = {}
    titled = np.zeros(len(subject), dtype=np.bool_)
    live = np.flatnonzero(alive & (subject != 0))
    if not len(live):
        return members, titled
    keys = subject[live]
    order = np.argsort(keys, kind="stable")
    ordered = keys[order]
    same = ordered[1:] == ordered[:-1]
    if not same.any():
        return members, titled
    # every fact after the first of a run of equal keys, and the first too
    shared = np.zeros(len(ordered), dtype=np.bool_)
    shared[1:] = same
    shared[:-1] |= same
    ords = np.sort(live[order[shared]])
    titled[ords] = True
    for o, k in zip(ords.tolist(), subject[ords].tolist(), strict=True):
        members.setdefault(int(k), []).append(o)
    return members, titled


def _title_groups_after(
    prev: SubjectMap, touched: Sequence[int], subject: np.ndarray, alive: np.ndarray
) -> tuple[dict[int, list[int]], np.ndarray]:
    """What ``_title_groups`` finds now, from ``prev``'s groups and the ``touched`` rows
    (added, removed or changed since): only the keys those rows hold (a removed row keeps its
    key in the column) can have gained or lost a member. One comparison of the column per
    such key."""
    n = len(subject)
    titled = np.zeros(n, dtype=np.bool_)
    m = min(n, len(prev._titled))
    titled[:m] = prev._titled[:m]
    members = dict(prev._members)
    rows = np.asarray(touched, dtype=np.int64)
    for k in set(subject[rows[(rows >= 0) & (rows < n)]].tolist()) - {0}:
        old = members.pop(k, None)
        if old:
            titled[old] = False
        now = np.flatnonzero(subject == np.uint64(k))
        now = now[alive[now]]
        if len(now) > 1:
            members[k] = now.tolist()
            titled[now] = True
    return members, titled


class SubjectMap:
    """Same-subject groups over the ordinals of one index state. Built once per state: from
    every subject key (one sort), or -- ``since`` an earlier map of the same index and the
    ordinals changed after it (``changelog``) -- from that map, regrouping only the keys those
    rows had or have. ``mark`` is where the index's change log stood when it was built."""

    def __init__(
        self,
        fact_at: Callable[[int], Fact | None],
        subject: np.ndarray,
        alive: np.ndarray,
        updated: np.ndarray,
        linking: Iterable[int],
        resolve: Callable[[Fact, Target], int | None],
        *,
        mark: Mark | None = None,
        since: tuple[SubjectMap, Sequence[int]] | None = None,
    ) -> None:
        self.mark = mark
        self._fact_at = fact_at
        self._updated = updated
        self._subject = subject
        if since is None:
            self._members, self._titled = _title_groups(subject, alive)
        else:
            self._members, self._titled = _title_groups_after(*since, subject, alive)
        self.superseded_by: dict[int, list[int]] = {}
        for s in linking:
            f = fact_at(s)
            if f is None:
                continue
            for target in link_targets(f.body):
                t = resolve(f, target)
                if t is not None and t != s and fact_at(t) is not None:
                    self.superseded_by.setdefault(t, []).append(s)
        self._linked = np.array(sorted(self.superseded_by), dtype=np.int64)
        grouped = self._titled
        if len(self._linked):
            grouped = grouped.copy()
            grouped[self._linked[self._linked < len(grouped)]] = True
        self._grouped = grouped  # in a group at all: by title or by a link

    def maybe_superseded(self, ords: np.ndarray) -> np.ndarray:
        """A cheap first pass: which of ``ords`` are in a group at all (one mask per index
        state, then a lookup per turn)."""
        if not len(self._linked) and not self._members:
            return np.zeros(len(ords), dtype=np.bool_)
        inside = ords < len(self._grouped)
        out = np.zeros(len(ords), dtype=np.bool_)
        out[inside] = self._grouped[ords[inside]]
        return out

    def _newest(self, ords: Iterable[int]) -> int:
        def key(o: int) -> tuple[float, int]:
            u = float(self._updated[o])
            return (-math.inf if math.isnan(u) else u, o)

        return max(ords, key=key)

    def current_of(self, o: int) -> tuple[int, str] | None:
        """(the current fact's ordinal, how) when ``o`` is superseded; None when it is current."""
        cur, how = o, ""
        for _ in range(8):  # a chain of links, or a cycle someone wrote by hand
            sup = self.superseded_by.get(cur)
            if sup:
                nxt, step = self._newest(sup), "supersedes"
            else:
                members = self._members.get(int(self._subject[cur]), ())
                candidates = [m for m in members if m not in self.superseded_by]
                if not candidates:
                    break
                nxt, step = self._newest(candidates), "same_title"
            if nxt in (cur, o):
                break
            cur, how = nxt, how or step
        return (cur, how) if cur != o else None

    def involved(self) -> set[int]:
        out = set(self.superseded_by)
        for members in self._members.values():
            out.update(members)
        return out

    def groups(self) -> list[SubjectGroup]:
        """Every group with at least one superseded fact, newest current first."""
        by_current: dict[int, tuple[list[int], str]] = {}
        for o in sorted(self.involved()):
            found = self.current_of(o)
            if found is None:
                continue
            cur, how = found
            older, first_how = by_current.setdefault(cur, ([], how))
            older.append(o)
            if how == "supersedes" and first_how != how:
                by_current[cur] = (older, how)
        out = []
        for cur, (older, how) in by_current.items():
            current = self._fact_at(cur)
            facts = [self._fact_at(o) for o in older]
            if current is None:
                continue
            olds = tuple(f for f in facts if f is not None)
            olds = tuple(sorted(olds, key=lambda f: f.ref))
            out.append(SubjectGroup(current, olds, how))
        out.sort(key=lambda g: (g.current.scope.value, g.current.ref))
        return out


# More rows changed than this since the last map: build it afresh (one sort) instead of
# regrouping each of their keys (one comparison of the column per key).
REGROUP_MAX = 64
# Link targets named (not by id) that are looked up in the name-hash column; past this many a
# map of every live row's name is cheaper.
NAME_LOOKUPS = 32


def subject_map(index: RecallIndex, prev: SubjectMap | None = None) -> SubjectMap:
    """Same-subject groups of the index's facts: near-duplicate titles from the subject
    column (updated from ``prev`` for the rows changed since, when there are few), explicit
    links from the few facts whose text has a link word."""
    alive, _, _, upd = index.columns()
    # facts whose body holds a Supersedes: line (flagged when indexed; no file read)
    linking = np.flatnonzero(index.column("link") & alive).tolist()

    names: dict[tuple[str, str], int] | None = None  # once many names are looked up
    lookups = 0

    def named(scope: str, name: str) -> int | None:
        nonlocal names, lookups
        if names is None and lookups < NAME_LOOKUPS:
            lookups += 1
            return _named(index, scope, name)
        if names is None:
            values = [s.value for s in SCOPE_CODES]
            scope_col = index.columns()[1]
            names = {
                (values[int(scope_col[o])], index.name_of(o)): o
                for o in np.flatnonzero(alive).tolist()
            }
        return names.get((scope, name))

    def resolve(source: Fact, target: Target) -> int | None:
        scopes = [target.scope.value] if target.scope else [source.scope.value, Scope.GLOBAL.value]
        for s in dict.fromkeys(scopes):
            o = (
                index.ordinal_of((s, target.id))
                if target.id is not None
                else named(s, target.name or "")
            )
            if o is not None:
                return o
        return None

    touched = index.touched_since(prev.mark) if prev is not None else None
    since = (prev, touched) if prev is not None and touched is not None else None
    if touched is not None and len(touched) > REGROUP_MAX:
        since = None
    subject = index.subject_column()
    return SubjectMap(
        index.fact_at, subject, alive, upd, linking, resolve, mark=index.mark(), since=since
    )


def _named(index: RecallIndex, scope: str, name: str) -> int | None:
    """The live fact of ``scope`` named ``name`` (the last such ordinal), found through the
    name-slug hash column and confirmed on the row's name: no map of every row's name."""
    alive, scopes = index.columns()[:2]
    code = SCOPE_CODES[Scope(scope)]
    rows = np.flatnonzero(index.column("nameh") == np.uint64(key_hash(name_key(name))))
    for o in reversed(rows.tolist()):
        if alive[o] and int(scopes[o]) == code and index.name_of(o) == name:
            return o
    return None
