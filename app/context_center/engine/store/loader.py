"""Scanning a store directory into a ``Snapshot``: cached rows, fresh parses, diagnostics.

Two files carrying one id are normally both excluded (``duplicate_id``): nothing can tell which
is meant. Two cases are provable leftovers of an interrupted write, and are resolved instead:

* **one inode under two names** (a rename killed between link and unlink by an older build):
  one fact; the name its frontmatter declares is kept, else the first name;
* **a superseded copy**: every other file of the id has a lower revision than one of them and
  its exact bytes are saved in ``.revisions/<id>/`` (a rename killed after the new name was
  written but before the old one was removed): the newest is the fact.

The superseded names are listed in ``Snapshot.superseded`` for the store to remove under its
lock (``repair.py``); until then they are simply not shown.
"""

from __future__ import annotations

import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from context_center.engine.kinds import Scope
from context_center.engine.model import Diagnostic
from context_center.engine.store import atomic, legacy, memory_index
from context_center.engine.store.entries import Entry, Snapshot, make_entry
from context_center.engine.store.factcache import (
    cached_facts,
    fact_to_cache,
    load_cache,
    read_fact_file,
    write_cache,
)
from context_center.engine.store.factfile import FactFileError
from context_center.engine.store.factpack import DIAG_ROW, FACT_ROW, Packed
from context_center.engine.store.guarded import UnsafeStoreFile, is_link, read_regular

REVISIONS_DIR = ".revisions"


@dataclass
class Scan:
    """A snapshot and what the scan noticed that maintenance may act on."""

    snapshot: Snapshot
    exists: bool = True  # False when the store folder is missing or unreadable
    leftovers: bool = False  # temp files in the store folder
    linked: set[tuple[int, int]] = field(default_factory=set)  # (dev, ino) of multi-linked facts


def _diag(scope: Scope, code: str, rel: str, message: str) -> Diagnostic:
    return Diagnostic(code=code, path=rel, message=message, scope=scope)


def _list(root: Path, snap: Snapshot, scan: Scan) -> list[os.DirEntry[str]] | None:
    try:
        it = os.scandir(root)
    except FileNotFoundError:
        return None
    except OSError as exc:
        snap.diagnostics.append(_diag(snap.scope, "store_unreadable", ".", str(exc.strerror)))
        return None
    out = []
    with it:
        for e in it:
            if e.name == memory_index.INDEX_NAME:
                _check_index(e, snap)
            elif e.name.endswith(".md") and not e.name.startswith("."):
                out.append(e)
            elif e.name.startswith(atomic.TEMP_PREFIX):
                scan.leftovers = True
    return out


def _check_index(e: os.DirEntry[str], snap: Snapshot) -> None:
    """A symlinked or shared ``MEMORY.md`` is reported: every change to the store is refused
    until it is removed (``factstore.check_index_file``)."""
    try:
        st = e.stat(follow_symlinks=False)
    except OSError:
        return
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
        snap.diagnostics.append(
            _diag(
                snap.scope,
                "unsafe_store_file",
                e.name,
                "the index is a symbolic link or not a plain file of its own; changes to this "
                "store are refused until it is removed",
            )
        )


def check_index_file(root: Path) -> None:
    """Refuse a ``MEMORY.md`` that is a symlink, not a regular file or linked elsewhere: the
    next change would read it (copying outside lines into the store)."""
    try:
        st = os.lstat(root / memory_index.INDEX_NAME)
    except OSError:
        return
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeStoreFile(
            f"the store's {memory_index.INDEX_NAME} is a symbolic link; refusing to read or "
            "replace it (remove the link and the index is rebuilt)"
        )
    if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
        raise UnsafeStoreFile(
            f"the store's {memory_index.INDEX_NAME} is not a plain file of its own (a folder, "
            "a device or a hard link shared with another file); refusing to read or replace it"
        )


def scan_store(root: Path, scope: Scope, *, persist_cache: bool, trust_cache: bool = False) -> Scan:
    """Scan ``root``; parse only files whose size, mtime or inode changed since cached.

    ``trust_cache``: a file whose name and inode (which the directory listing gives, with no
    ``stat``) are the cache's is taken as cached without checking its size and mtime. What
    goes unseen: an edit made in place, and a file replaced by one that got the same inode
    number back (ext4 reuses a freed number at once: a delete and a new file, two editor
    saves in a row). For the window's first look at 50,000 facts, which checks every file
    right after (``Engine.load_entries(trust_cache=True)``)."""
    snap = Snapshot(scope=scope, root=root)
    scan = Scan(snap)
    dir_entries = _list(root, snap, scan)
    if dir_entries is None:
        scan.exists = False
        return scan
    cache = load_cache(root)
    new_cache: dict[str, Any] = {}  # a row, or the index of an unchanged row of ``cache``
    inodes: dict[str, tuple[int, int]] = {}
    dirty = False
    trusted = _folder_device(root) if trust_cache else None
    for de, st in _take_cached(dir_entries, cache, new_cache, snap, scan, inodes, trusted):
        dirty = True  # a file the cache does not describe: read it, keep its place
        found = _read_one(de, st, root, scope, new_cache, snap, inodes)
        if found is None:
            del snap.entries[de.name[:-3]]
        else:
            snap.entries[de.name[:-3]] = found
    if len(cache) != len(new_cache) or cache.index.keys() != new_cache.keys():
        dirty = True
    resolve_duplicates(snap, inodes)
    legacy.key_by_name(snap)  # entries by fact name; two files claiming one name: diagnostics
    if dirty and persist_cache:
        write_cache(root, new_cache, cache)
    return scan


Stat = os.stat_result | OSError


def _folder_device(root: Path) -> int | None:
    try:
        return os.stat(root).st_dev
    except OSError:
        return None


def _trusted_row(
    de: os.DirEntry[str], i: int | None, inos: list[int], flags: list[int]
) -> int | None:
    """Cache row ``i`` when it holds a fact and ``de`` is a plain file with its inode (which
    the listing gives: no stat), else None (the file is stat'ed as usual)."""
    if i is None or not flags[i] & FACT_ROW or flags[i] & DIAG_ROW:
        return None
    try:
        if de.is_symlink() or de.inode() != inos[i]:
            return None
    except OSError:
        return None
    return i


def _take_cached(
    dir_entries: list[os.DirEntry[str]],
    cache: Packed,
    new_cache: dict[str, Any],
    snap: Snapshot,
    scan: Scan,
    inodes: dict[str, tuple[int, int]],
    trusted: int | None = None,
) -> list[tuple[os.DirEntry[str], Stat]]:
    """Stat every file (``trusted``, the folder's device: only those ``_trusted_row`` does not
    take as cached); add those the cache describes unchanged to ``snap`` (their facts built in
    one pass), and return the others with their stat (or the error) to be read.

    This is the whole cost of opening a large store whose files did not change, so it is one
    tight loop: ``snap.entries`` gets a place for every file in directory order first (files
    read afterwards keep their place; one that yields no fact is removed again)."""
    scope = snap.scope
    get = cache.index.get
    sizes, mtimes, inos, flags = (cache.ints[k] for k in ("size", "mtime", "ino", "flags"))
    files, entries, linked = snap.files, snap.entries, scan.linked
    placeholder = cast(Entry, None)
    rest: list[tuple[os.DirEntry[str], Stat]] = []
    hits: list[tuple[str, str, int]] = []  # stem, path, cache row
    for de in dir_entries:
        name = de.name
        stem = name[:-3]
        entries[stem] = placeholder
        if trusted is not None and (i := _trusted_row(de, get(name), inos, flags)) is not None:
            inodes[stem] = (trusted, inos[i])
            files[stem] = (sizes[i], mtimes[i], inos[i])
            new_cache[name] = i
            hits.append((stem, de.path, i))
            continue
        try:
            st = de.stat(follow_symlinks=False)
        except OSError as exc:
            rest.append((de, exc))
            continue
        size, mtime, ino = st.st_size, st.st_mtime_ns, st.st_ino
        if st.st_nlink > 1 and stat.S_ISREG(st.st_mode):
            linked.add((st.st_dev, ino))
        inodes[stem] = (st.st_dev, ino)
        files[stem] = (size, mtime, ino)
        i = get(name)
        if i is None or sizes[i] != size or mtimes[i] != mtime or inos[i] != ino:
            rest.append((de, st))
            continue
        new_cache[name] = i
        if flags[i] & FACT_ROW and not flags[i] & DIAG_ROW:
            hits.append((stem, de.path, i))
            continue
        code, message = cache.diag(i) or ("unreadable", "")
        snap.diagnostics.append(_diag(scope, code, name, message))
        del entries[stem]
    facts = cached_facts(cache, [i for _, _, i in hits], scope)
    for (stem, path, i), fact in zip(hits, facts, strict=True):
        entries[stem] = make_entry(fact, path, cache.sha(i) or "", cache.legacy(i))
    return rest


def _read_one(
    de: os.DirEntry[str],
    st: Stat,
    root: Path,
    scope: Scope,
    new_cache: dict[str, Any],
    snap: Snapshot,
    inodes: dict[str, tuple[int, int]],
) -> Entry | None:
    """Read one file the cache does not describe (``st``: its stat, or why it failed): its
    entry, or None with a diagnostic in ``snap``; ``new_cache`` gets its row."""
    name = de.name
    stem = name[:-3]
    if isinstance(st, OSError):
        snap.diagnostics.append(_diag(scope, "unreadable", name, str(st.strerror)))
        return None
    if stat.S_ISLNK(st.st_mode):
        snap.diagnostics.append(
            _diag(scope, "symlink", name, "a symlink stands in place of a fact file")
        )
        return None
    if not stat.S_ISREG(st.st_mode):
        snap.diagnostics.append(_diag(scope, "not_regular_file", name, "not a regular file"))
        return None
    try:
        parsed, _, fst = read_fact_file(root / name, stem=stem, scope=scope)
    except FactFileError as exc:
        snap.diagnostics.append(_diag(scope, exc.code, name, str(exc)))
        new_cache[name] = [
            st.st_size,
            st.st_mtime_ns,
            st.st_ino,
            None,
            False,
            None,
            [exc.code, str(exc)],
        ]
        return None
    except OSError as exc:
        snap.diagnostics.append(_diag(scope, "unreadable", name, str(exc.strerror)))
        return None
    new_cache[name] = [
        fst.st_size,
        fst.st_mtime_ns,
        fst.st_ino,
        parsed.sha256,
        parsed.legacy,
        fact_to_cache(parsed.fact),
        None,
    ]
    inodes[stem] = (fst.st_dev, fst.st_ino)
    snap.files[stem] = (fst.st_size, fst.st_mtime_ns, fst.st_ino)
    return Entry(parsed.fact, de.path, parsed.sha256, parsed.legacy)


# -- two files, one id ---------------------------------------------------------------------------


def snapshot_hashes(root: Path, fact_id: str) -> set[str]:
    """The sha256 of every saved revision of ``fact_id`` (read only from inside the store)."""
    folder = root / REVISIONS_DIR / fact_id
    if is_link(root / REVISIONS_DIR) or is_link(folder) or "/" in fact_id:
        return set()
    try:
        names = os.listdir(folder)
    except (OSError, ValueError):
        return set()
    out = set()
    for name in names:
        if name.endswith(".md"):
            try:
                out.add(hashlib.sha256(read_regular(folder / name)[0]).hexdigest())
            except OSError:
                continue
    return out


def _stem(entry: Entry) -> str:
    return Path(entry.location).name[:-3]


def pick_survivor(
    entries: list[Entry], inodes: dict[str, tuple[int, int]], root: Path
) -> Entry | None:
    """The one fact among ``entries`` (one id) when the others are provable leftovers."""
    by_inode: dict[tuple[int, int] | None, list[Entry]] = {}
    for e in sorted(entries, key=_stem):
        by_inode.setdefault(inodes.get(_stem(e)), []).append(e)
    if None in by_inode:
        return None
    # one inode under several names is one fact: the name it declares, else the first
    distinct = [next((e for e in g if _stem(e) == e.fact.name), g[0]) for g in by_inode.values()]
    if len(distinct) == 1:
        return distinct[0]
    top = max(e.fact.revision for e in distinct)
    newest = [e for e in distinct if e.fact.revision == top]
    if len(newest) != 1:
        return None
    saved = snapshot_hashes(root, newest[0].fact.id)
    if all(e.sha256 in saved for e in distinct if e is not newest[0]):
        return newest[0]
    return None


def resolve_duplicates(snap: Snapshot, inodes: dict[str, tuple[int, int]]) -> None:
    """Keep the provable survivor of each id used twice; exclude the rest with diagnostics."""
    seen: dict[str, list[str]] = {}
    for stem, entry in snap.entries.items():
        seen.setdefault(entry.fact.id, []).append(stem)
    for fact_id, stems in seen.items():
        if len(stems) < 2:
            continue
        group = [snap.entries[s] for s in stems]
        keep = pick_survivor(group, inodes, snap.root)
        for stem in sorted(stems):
            if keep is not None:
                if stem != _stem(keep):
                    snap.superseded.append(stem)
                    del snap.entries[stem]
                continue
            others = ", ".join(f"{s}.md" for s in sorted(stems) if s != stem)
            snap.diagnostics.append(
                _diag(
                    snap.scope,
                    "duplicate_id",
                    f"{stem}.md",
                    f"id {fact_id} is also used by {others}",
                )
            )
            del snap.entries[stem]
