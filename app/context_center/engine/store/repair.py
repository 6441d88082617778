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
from pathlib import Path

from context_center.engine.model import Scope
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


def _remove_superseded(snap: Snapshot) -> list[str]:
    removed = [s for s in snap.superseded if _unlink(snap.root / f"{s}.md")]
    if removed:
        with contextlib.suppress(OSError):
            atomic.fsync_dir(snap.root)
    return removed


def _remove_archived_links(root: Path, linked: set[tuple[int, int]]) -> int:
    """Archive entries sharing an inode with an active fact (a half-done link-based forget)."""
    folder = root / ARCHIVE_DIR
    if not linked or is_link(folder):
        return 0
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for e in entries:
        try:
            st = e.stat(follow_symlinks=False)
        except OSError:
            continue
        if (st.st_dev, st.st_ino) in linked and _unlink(Path(e.path)):
            removed += 1
    if removed:
        with contextlib.suppress(OSError):
            atomic.fsync_dir(folder)
    return removed


def sweep_folders(folders: list[Path]) -> int:
    return sum(atomic.sweep_temp(f) for f in folders if not is_link(f))


def _deep_folders(root: Path) -> list[Path]:
    cache = store_cache_dir(root)
    folders = [root / ARCHIVE_DIR, root / CACHE_DIR, root / CACHE_DIR / HEADS_DIR]
    folders += [cache, cache / HEADS_DIR]
    revisions = root / REVISIONS_DIR
    if not is_link(revisions):
        folders.append(revisions)
        with contextlib.suppress(OSError):
            folders.extend(
                Path(e.path) for e in os.scandir(revisions) if e.is_dir(follow_symlinks=False)
            )
    return folders


def _record_pass(root: Path, *, swept: bool) -> None:
    """The marker holds the archive's stamp; its mtime is the time of the last sweep."""
    path = _marker(root)
    if writable_store_cache(root) is None:
        return
    with contextlib.suppress(OSError):
        before = None if swept else os.lstat(path).st_mtime
        atomic.write_bytes(path, _archive_stamp(root).encode(), mode=FILE_MODE, sync_dir=False)
        if before is not None:
            os.utime(path, (before, before))


def _periodic(root: Path, scope: Scope, snap: Snapshot, *, archive: bool, sweep: bool) -> None:
    if archive:
        leftovers: list[Path] = []
        list_archived(root, scope, snap, leftovers=leftovers)
        for path in leftovers:
            _unlink(path)
    if sweep:
        sweep_folders(_deep_folders(root))
    if archive or sweep:
        _record_pass(root, swept=sweep)


def repair(root: Path, scope: Scope, scan: Scan, *, archive: bool, sweep: bool) -> bool:
    """Remove what ``scan`` proved to be leftovers (lock held). True when a fact file went."""
    snap = scan.snapshot
    removed = _remove_superseded(snap)
    _remove_archived_links(root, scan.linked)
    if scan.leftovers:
        atomic.sweep_temp(root)
    _periodic(root, scope, snap, archive=archive, sweep=sweep)
    index = root / memory_index.INDEX_NAME
    if removed and not is_link(index):
        with contextlib.suppress(OSError):
            memory_index.rebuild(
                root, sorted((e.fact for e in snap.entries.values()), key=lambda f: f.name)
            )
    return bool(removed)
