"""Bring a recall index up to date with a few files our own writes changed (no store load).

``apply_stems`` takes the file stems the store journal lists (``store/stamp.py``) and, for
each, reads the file as it is now: a fact file is indexed (replacing what was indexed for that
stem or that id), a file that is gone or no fact is dropped. It gives up (False) whenever the
full loader could decide differently from one file alone -- a legacy file (its name is not its
stem), or an id that another file still present also holds -- and the caller loads the stores.

``masked_by_keys`` recomputes which global facts a project twin overrides from the 64-bit
conflict-key hashes every row carries (id, name slug, title key), the rule of
``memory.find_conflicts``; ``masked_after`` updates that answer for the few rows a catch-up
changed (the global facts among them or sharing a key with them), without comparing every
global fact's keys with every project fact's again.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from context_center.engine.kinds import Scope
from context_center.engine.recall.index import SCOPE_CODES, RecallIndex
from context_center.engine.recall.lazyfact import read_record
from context_center.engine.recall.masks import isin

# More changed files than this since the index's state: loading the stores is cheaper.
MAX_FILES = 256
# More global facts than this to decide again after a catch-up: decide them all at once.
REMASK_MAX = 64
# Files applied from the journal before the cache file is written again (until then every new
# process reads them again: a few milliseconds).
SAVE_AFTER = 64


def _stems_of(index: RecallIndex, scope: Scope) -> dict[str, int]:
    return index.stems_of_scope(SCOPE_CODES[scope])


def _kill(index: RecallIndex, o: int | None) -> None:
    if o is not None and bool(index.columns()[0][o]):
        key = index.key_of(o)
        index.remove(key[1], key[0])


def apply_stems(index: RecallIndex, scope: Scope, root: Path, stems: Iterable[str]) -> bool:
    """Index the files ``stems`` of the ``scope`` store as they are now; False: load instead."""
    from context_center.engine.recall.keylookup import ordinals_of_stems
    from context_center.engine.store.factfields import FactFileError

    wanted = sorted(set(stems))
    by_stem = ordinals_of_stems(index, SCOPE_CODES[scope], wanted)
    for stem in wanted:
        if "/" in stem or "\\" in stem or stem.startswith(".") or not stem:
            return False
        old = by_stem.get(stem)
        try:
            fact, legacy, st = read_record(root / f"{stem}.md", stem, scope)
        except FileNotFoundError:
            _kill(index, old)
            by_stem.pop(stem, None)
            continue
        except (FactFileError, OSError, ValueError):
            _kill(index, old)  # not a fact (any more): the loader reports it and skips it
            by_stem.pop(stem, None)
            continue
        if legacy or fact.name != stem:
            return False  # legacy names: which file owns a name depends on the others
        same = index.ordinal_of((scope.value, fact.id))
        if same is not None and same != old:
            other = index.stem_of(same)
            if other not in wanted and os.path.lexists(root / f"{other}.md"):
                return False  # two files, one id: the loader decides which one is shown
            by_stem.pop(other, None)
        if old is not None and old != same:
            _kill(index, old)  # the file now holds another fact
        index.upsert(fact)
        o = index.ordinal_of((scope.value, fact.id))
        assert o is not None
        index.set_file(o, stem, st.st_size, st.st_mtime_ns, st.st_ino)
        by_stem[stem] = o
    return True


def files_match(index: RecallIndex, scope: Scope, root: Path) -> bool:
    """Whether the folder lists exactly the fact files the index holds for ``scope``, each
    with the inode it was indexed from (a ``readdir``, no ``stat``): what a racy stamp,
    which a rename in the same clock tick could have left unchanged, is checked with."""
    from context_center.engine.store.stamp import folder_files

    found = folder_files(root)
    if found is None:
        return False
    held = _stems_of(index, scope)
    if len(found) != len(held):
        return False
    ino = index.column("fino").tolist()  # Python ints: no numpy scalar per file
    get = found.get
    return all(get(stem) == ino[o] for stem, o in held.items())


def selected_files_match(
    index: RecallIndex, roots: dict[str, Path], keys: Iterable[tuple[str, str]]
) -> bool:
    """Whether the file of each ``(scope, id)`` in ``keys`` (the facts a turn put in its
    block) still has the size, mtime and inode the index recorded for it: what a cold turn
    proves by reading those files (``lazyfact``), a warm index proves by a ``stat`` each. A
    fact whose file was never recorded (-1) counts as changed."""
    size, mtime, ino = (index.column(k) for k in ("fsize", "fmtime", "fino"))
    for scope, fact_id in keys:
        o = index.ordinal_of((scope, fact_id))
        if o is None or int(size[o]) < 0:
            return False
        try:
            st = os.stat(roots[scope] / f"{index.stem_of(o)}.md")
        except OSError:
            return False
        if (st.st_size, st.st_mtime_ns, st.st_ino) != (int(size[o]), int(mtime[o]), int(ino[o])):
            return False
    return True


def masked_by_keys(index: RecallIndex) -> np.ndarray:
    """Ordinals of the live global facts that share an id, a name slug or a (non-empty)
    title key with a live project fact."""
    alive, scope, _, _ = index.columns()
    idh, nameh, titleh = (index.column(k) for k in ("idh", "nameh", "titleh"))
    project = alive & (scope == SCOPE_CODES[Scope.PROJECT])
    glob = np.flatnonzero(alive & (scope == SCOPE_CODES[Scope.GLOBAL]))
    if not project.any() or not len(glob):
        return np.zeros(0, dtype=np.int64)
    titles = titleh[glob]
    hit = (
        isin(idh[glob], idh[project])
        | isin(nameh[glob], nameh[project])
        | ((titles != 0) & isin(titles, titleh[project & (titleh != 0)]))
    )
    masked: np.ndarray = glob[hit].astype(np.int64)
    return masked


def masked_after(index: RecallIndex, masked: np.ndarray, touched: Sequence[int]) -> np.ndarray:
    """What ``masked_by_keys`` answers now, given ``masked``, its answer before the rows
    ``touched`` were added, removed or changed: only a live global fact among those rows, or
    one sharing a key with what they held or hold (a removed row keeps its keys in the
    columns), can have gained or lost a project twin. Those are decided again, one column
    comparison per key; the rest keep their answer."""
    alive, scope, _, _ = index.columns()
    cols = [index.column(k) for k in ("idh", "nameh", "titleh")]
    rows = np.asarray(touched, dtype=np.int64)
    rows = rows[(rows >= 0) & (rows < len(alive))]
    glob = np.flatnonzero(alive & (scope == SCOPE_CODES[Scope.GLOBAL]))
    keys = [c[rows] for c in cols]
    keys[2] = keys[2][keys[2] != 0]  # an empty title is no key
    near = np.zeros(len(glob), dtype=np.bool_)  # a touched global row holds its own id
    for col, held in zip(cols, keys, strict=True):
        if len(held):
            near |= isin(col[glob], held)
    todo = glob[near]
    if len(todo) > REMASK_MAX:
        return masked_by_keys(index)
    project = alive & (scope == SCOPE_CODES[Scope.PROJECT])
    mine = [c[project] for c in cols]
    keep = masked[(masked < len(alive))]
    keep = keep[alive[keep] & (scope[keep] == SCOPE_CODES[Scope.GLOBAL])]
    keep = keep[~isin(keep, todo)]
    now = np.array([o for o in todo.tolist() if _twinned(o, cols, mine)], dtype=np.int64)
    out: np.ndarray = np.union1d(keep, now).astype(np.int64)
    return out


def _twinned(o: int, cols: list[np.ndarray], project: list[np.ndarray]) -> bool:
    """Whether row ``o`` shares its id, name slug or (non-empty) title key with one of the
    ``project`` rows' (the same columns, taken at the live project facts)."""
    for k, (col, theirs) in enumerate(zip(cols, project, strict=True)):
        v = col[o]
        if k == 2 and v == 0:
            continue  # an empty title is no key
        if bool((theirs == v).any()):
            return True
    return False
