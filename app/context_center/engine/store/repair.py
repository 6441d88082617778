"""Repairs on open: what an interrupted write (of this build or an older one) left behind.

Run by ``FactStore.load`` when it can take the store's lock at once (never waiting: a busy
lock means another writer is mid-operation and the next open repairs instead), and only for
what is provably a leftover:

* a **superseded copy** of a fact present under another name (``loader.resolve_duplicates``):
  removed, it is saved in ``.revisions/`` or is the same inode as the survivor;
* an **archive entry that is still an active fact** (the same inode: a forget killed between
  link and unlink; or a revision the active fact has moved past, saved in ``.revisions/``: a
  recover killed before it removed the entry): removed, the fact stays active;
* **orphan temp files** (``atomic.TEMP_NAME``) older than ``atomic.ORPHAN_AGE_S``: in the store
  folder on every open that sees one; in ``.revisions/*/``, ``.archive``, ``.cache`` and the
  engine's other folders (``extra`` in ``sweep_folders``) by the periodic deep pass, at most once
  per ``ORPHAN_AGE_S`` (recorded in ``maintained`` in the store's cache folder, outside the
  home) or when the archive changed. A store this build never wrote to (no ``.lock`` yet, e.g.
  a Reasonix home only read so far) gets no periodic pass: reading never writes into a home.

``MEMORY.md`` is brought in line after a removal unless it is unsafe to touch (a symlink).
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from context_center.engine.kinds import Scope
from context_center.engine.store import atomic, memory_index
from context_center.engine.store.archive import ARCHIVE_DIR, list_archived
from context_center.engine.store.cachedirs import FILE_MODE, writable_store_cache
from context_center.engine.store.entries import Snapshot
from context_center.engine.store.factcache import CACHE_DIR
from context_center.engine.store.guarded import is_link, read_regular
from context_center.engine.store.heads import HEADS_DIR
from context_center.engine.store.loader import REVISIONS_DIR, Scan
from context_center.engine.store.paths import store_cache_dir

MARKER = "maintained"


def _marker(root: Path) -> Path:
    return store_cache_dir(root) / MARKER  # outside the home, with the store's other caches


def _archive_stamp(root: Path) -> str:
    try:
        st = os.lstat(root / ARCHIVE_DIR)
    except OSError:
        return "-"
    return f"{st.st_mtime_ns}:{st.st_ino}"


def passes_due(root: Path) -> tuple[bool, bool]:
    """(archive check due, folder sweep due): the archive changed since the last check; no
    sweep is recorded or the last one is older than the orphan age."""
    try:
        data, st = read_regular(_marker(root), max_bytes=256)
    except OSError:
        return True, True
    archive_due = data.decode(errors="replace").strip() != _archive_stamp(root)
    return archive_due, time.time() - st.st_mtime >= atomic.ORPHAN_AGE_S


def needs_repair(scan: Scan) -> bool:
    return bool(scan.snapshot.superseded or scan.linked or scan.leftovers)


def _unlink(path: Path) -> bool:
    try:
        os.unlink(path)
    except OSError:
        return False
    return True


def _archived_links(root: Path, linked: set[tuple[int, int]]) -> list[Path]:
    """Archive entries sharing an inode with an active fact (a half-done link-based forget)."""
    folder = root / ARCHIVE_DIR
    if not linked or is_link(folder):
        return []
    found = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return []
    for e in entries:
        try:
            st = e.stat(follow_symlinks=False)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in linked:
            found.append(Path(e.path))
    return found


def orphans_in(folders: list[Path]) -> list[Path]:
    return [p for f in folders if not is_link(f) for p in atomic.orphan_temps(f)]


def _with_subfolders(folder: Path) -> list[Path]:
    """``folder`` and the folders directly inside it (never through a symlink)."""
    if is_link(folder):
        return []
    out = [folder]
    with contextlib.suppress(OSError):
        out.extend(Path(e.path) for e in os.scandir(folder) if e.is_dir(follow_symlinks=False))
    return out


def _deep_folders(root: Path, also: tuple[tuple[Path, bool], ...] = ()) -> list[Path]:
    cache = store_cache_dir(root)
    folders = [root / ARCHIVE_DIR, root / CACHE_DIR, root / CACHE_DIR / HEADS_DIR]
    folders += [cache, cache / HEADS_DIR]
    folders += _with_subfolders(root / REVISIONS_DIR)
    for folder, deep in also:  # (folder, with the folders directly inside it)
        folders += _with_subfolders(folder) if deep else [folder]
    return folders


def record_pass(root: Path, *, swept: bool) -> None:
    """The marker holds the archive's stamp; its mtime is the time of the last sweep."""
    path = _marker(root)
    if writable_store_cache(root) is None:
        return
    with contextlib.suppress(OSError):
        before = None if swept else os.lstat(path).st_mtime
        atomic.write_bytes(path, _archive_stamp(root).encode(), mode=FILE_MODE, sync_dir=False)
        if before is not None:
            os.utime(path, (before, before))


@dataclass
class Work:
    """What a repair would remove, found without writing anything."""

    superseded: list[str] = field(default_factory=list)  # fact file stems
    files: list[Path] = field(default_factory=list)  # archive leftovers and orphan temps

    def __bool__(self) -> bool:
        return bool(self.superseded or self.files)


def find_work(
    root: Path,
    scope: Scope,
    scan: Scan,
    *,
    archive: bool,
    sweep: bool,
    also: tuple[tuple[Path, bool], ...] = (),
) -> Work:
    """Everything ``scan`` (and, when due, the periodic passes) proves to be a leftover."""
    work = Work(list(scan.snapshot.superseded), _archived_links(root, scan.linked))
    if scan.leftovers:
        work.files += atomic.orphan_temps(root)
    if archive:
        list_archived(root, scope, scan.snapshot, leftovers=work.files)
    if sweep:
        work.files += orphans_in(_deep_folders(root, also))
    return work


def apply(root: Path, snap: Snapshot, work: Work) -> bool:
    """Remove ``work`` (lock held, proven again under it). True when a fact file went."""
    removed = [s for s in work.superseded if _unlink(root / f"{s}.md")]
    folders = {p.parent for p in work.files if _unlink(p)}
    if removed:
        folders.add(root)
    for folder in folders:
        with contextlib.suppress(OSError):
            atomic.fsync_dir(folder)
    index = root / memory_index.INDEX_NAME
    if removed and not is_link(index):
        with contextlib.suppress(OSError):
            memory_index.rebuild(
                root, sorted((e.fact for e in snap.entries.values()), key=lambda f: f.name)
            )
    return bool(removed)
