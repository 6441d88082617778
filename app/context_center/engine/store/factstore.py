"""One fact store (a directory of Markdown facts): load, create, update, forget, recover.

Cross-process safety: every mutation holds the store's lock (``<store>/.lock``, an ``flock``
through filelock, released by the kernel when a process dies, so a killed writer never leaves
it stuck) and re-reads the file it changes from disk. Files are replaced atomically
(``atomic.py``), creates are link-based so they never overwrite, and superseded revisions are
kept as immutable snapshots (``revisions.py``) before anything is replaced.

Every multi-step write is ordered so that a process killed at any point leaves the old fact or
the new one, never neither and never both as two facts:

* a **rename** writes the new content under the new name first (temp file, then an exclusive
  link), then removes the old name; in between, the old file is a saved revision and the
  loader shows only the new one (``loader.resolve_duplicates``), and the next open removes it;
* a **forget** is one no-replace rename into ``.archive``;
* a **recover** saves the archived bytes as a revision, writes the next revision to a temp
  file inside ``.archive`` and moves it into place with one no-replace rename, then removes the
  entry (``archive.bring_back``).

What older builds left half-done is repaired on open (``repair.py``). The parts: scanning and
the parsed-facts cache (``loader.py``, ``factcache.py``), the hand-edit ledger (``heads.py``),
revisions, the archive (``archive.py``), the guarded read and safe folders (``guarded.py``).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from context_center.engine.errors import (
    AlreadyExists,
    ArchiveRefused,
    InvalidRequest,
    NotFound,
    RevisionConflict,
)
from context_center.engine.kinds import FactType, Scope, new_fact_id, utc_now
from context_center.engine.model import Fact
from context_center.engine.store import atomic, legacy, memory_index, stamp
from context_center.engine.store.archive import (
    ARCHIVE_DIR,
    archive_name,
    archive_stem,
    bring_back,
    list_archived,
    owns_archive_entry,
)
from context_center.engine.store.entries import (
    ArchivedEntry,
    Entry,
    RevisionEntry,
    Snapshot,
)
from context_center.engine.store.factcache import (
    CACHE_DIR,
    CACHE_VERSION,
    cache_path,
    read_fact_file,
)
from context_center.engine.store.factfile import FactFileError, render_fact
from context_center.engine.store.gcpause import gc_paused
from context_center.engine.store.guarded import (
    UnsafeStoreFile,
    UnsafeStoreFolder,
    own_folder,
)
from context_center.engine.store.heads import HeadLedger
from context_center.engine.store.loader import REVISIONS_DIR, Scan, scan_store
from context_center.engine.store.locking import STORE_TIMEOUT_S, try_hold
from context_center.engine.store.repair import (
    apply,
    find_work,
    needs_repair,
    passes_due,
    record_pass,
)
from context_center.engine.store.revisions import list_snapshots, save_snapshot, top_revision
from context_center.engine.store.storelock import LockedStore

LOCK_TIMEOUT_S = STORE_TIMEOUT_S
EDITABLE = frozenset({"name", "title", "description", "type", "body"})

__all__ = [
    "ARCHIVE_DIR",
    "CACHE_DIR",
    "CACHE_VERSION",
    "LOCK_TIMEOUT_S",
    "REVISIONS_DIR",
    "ArchivedEntry",
    "Entry",
    "FactStore",
    "RevisionEntry",
    "Snapshot",
    "UnsafeStoreFile",
    "UnsafeStoreFolder",
    "gc_paused",
]


class FactStore(LockedStore):
    """A store directory for one scope. Holds the last loaded snapshot in memory."""

    def __init__(self, root: Path, scope: Scope) -> None:
        super().__init__(root, scope)
        self.heads = HeadLedger(root)
        # the engine's other folders whose orphan temp files this store's periodic pass sweeps:
        # (folder, with the folders directly inside it)
        self.sweep_also: tuple[tuple[Path, bool], ...] = ()
        self._snapshot: Snapshot | None = None
        self._ids: tuple[tuple[int, int], Snapshot, dict[str, Entry]] | None = None

    # -- loading ---------------------------------------------------------------------------

    @property
    def cache_path(self) -> Path:
        return cache_path(self.root)

    def load(self, *, persist_cache: bool = True, trust_cache: bool = False) -> Snapshot:
        """Scan the store; parse only files whose size, mtime or inode changed since cached.

        A persisting load (an open) also repairs what interrupted writes left, if the lock is
        free at once (``repair.py``). ``trust_cache``: files whose name and inode are the
        cache's are not checked further (``loader.scan_store``); such a load writes nothing
        and repairs nothing."""
        with gc_paused():
            if trust_cache:
                scan = scan_store(self.root, self.scope, persist_cache=False, trust_cache=True)
            else:
                scan = scan_store(self.root, self.scope, persist_cache=persist_cache)
            if persist_cache and scan.exists and not trust_cache:
                scan = self._maintain(scan)
        self._snapshot = scan.snapshot
        return scan.snapshot

    def _maintain(self, scan: Scan) -> Scan:
        archive_due, sweep_due = passes_due(self.root)
        if not (needs_repair(scan) or archive_due or sweep_due):
            return scan
        if not needs_repair(scan) and not os.path.lexists(self.root / ".lock"):
            return scan  # never written by us: a periodic pass would only create the lock file
        work = find_work(
            self.root,
            self.scope,
            scan,
            archive=archive_due,
            sweep=sweep_due,
            also=self.sweep_also,
        )
        repaired = self._repair(scan, archive=archive_due, sweep=sweep_due) if work else scan
        if repaired is not None and (archive_due or sweep_due):
            record_pass(self.root, swept=sweep_due)
        return repaired or scan

    def _repair(self, scan: Scan, *, archive: bool, sweep: bool) -> Scan | None:
        """Remove the leftovers, proven again under the lock (taken only if free at once;
        None when it was busy)."""
        lock = self._file_lock()
        if not try_hold(lock):
            return None
        try:
            scan = scan_store(self.root, self.scope, persist_cache=False)
            work = find_work(
                self.root, self.scope, scan, archive=archive, sweep=sweep, also=self.sweep_also
            )
            if apply(self.root, scan.snapshot, work):
                stamp.bump(self.root, None, None)  # files went: readers load the store
                scan = scan_store(self.root, self.scope, persist_cache=True)
        finally:
            lock.release()
        return scan

    def snapshot(self) -> Snapshot:
        return self._snapshot if self._snapshot is not None else self.load()

    # -- reading one file fresh (under the lock, for mutations) ----------------------------

    def read_fresh(self, stem: str) -> Entry:
        path = legacy.file_of(self._snapshot, self.root, stem)  # a legacy file's other stem
        if path is None:  # two files could hold the name: the loader decides, as it lists
            path = legacy.loaded_file_of(self.load(persist_cache=False), self.root, stem)
        try:
            parsed, _, _ = read_fact_file(path, stem=path.name[:-3], scope=self.scope)
        except FileNotFoundError as exc:
            raise NotFound(f"{self.scope.value}/{stem}.md does not exist") from exc
        except FactFileError as exc:
            raise InvalidRequest(
                f"{self.scope.value}/{stem}.md cannot be used: {exc}", code=exc.code
            ) from exc
        except ValueError as exc:  # a NUL in the name
            raise InvalidRequest("the name contains a NUL character", code="invalid_path") from exc
        except OSError as exc:
            raise InvalidRequest(
                f"{self.scope.value}/{stem[:80]}.md cannot be read: {exc.strerror}",
                code="unreadable",
            ) from exc
        return Entry(parsed.fact, path, parsed.sha256, parsed.legacy)

    def find_id(self, fact_id: str) -> Entry | None:
        """The active entry with ``fact_id`` as the disk holds it now: the loaded snapshot is
        only a hint, checked against the file; a stale or missing hint rescans the store."""
        snap = self._snapshot
        if snap is not None:
            hint = self._by_id(snap).get(fact_id)
            if hint is not None:
                with contextlib.suppress(NotFound, InvalidRequest):
                    entry = self.read_fresh(hint.fact.name)
                    if entry.fact.id == fact_id:
                        return entry
        fresh = self.load(persist_cache=False)
        found = next((e for e in fresh.entries.values() if e.fact.id == fact_id), None)
        return self.read_fresh(found.fact.name) if found is not None else None

    def _by_id(self, snap: Snapshot) -> dict[str, Entry]:
        """The snapshot's entries by id, kept while the snapshot is unchanged."""
        key = (id(snap), snap.version)
        if self._ids is None or self._ids[0] != key or self._ids[1] is not snap:
            self._ids = (key, snap, {e.fact.id: e for e in snap.entries.values()})
        return self._ids[2]

    def _known(self) -> dict[str, Entry]:
        return self.snapshot().entries

    def _remember(self, entry: Entry | None, *, drop: str | None = None) -> None:
        snap = self._snapshot
        if snap is None:
            return
        ids = self._by_id(snap) if self._ids is not None else None  # kept up to date below
        snap.version += 1
        if drop is not None:
            gone = snap.entries.pop(drop, None)
            if ids is not None and gone is not None and ids.get(gone.fact.id) is gone:
                del ids[gone.fact.id]
        if entry is not None:
            old = snap.entries.get(entry.fact.name)
            if ids is not None and old is not None and ids.get(old.fact.id) is old:
                del ids[old.fact.id]
            snap.entries[entry.fact.name] = entry
            if ids is not None:
                ids[entry.fact.id] = entry
        if ids is not None:
            self._ids = ((id(snap), snap.version), snap, ids)

    # -- writing ---------------------------------------------------------------------------

    def _write_new(self, fact: Fact) -> Entry:
        data = render_fact(fact)
        path = self.root / f"{fact.name}.md"
        sha = hashlib.sha256(data).hexdigest()
        self.heads.record(fact.id, sha)
        try:
            atomic.create_exclusive(path, data)
        except FileExistsError as exc:
            # The attempt moved the folder's mtime (a temp file came and went): name the one
            # file it was about, so readers re-read that file instead of loading the store.
            self.touched(fact.name)
            raise AlreadyExists(
                f"{fact.ref} already exists; creates never overwrite (choose another name or update it)"
            ) from exc
        return Entry(fact, path, sha)

    def create(
        self,
        *,
        name: str,
        title: str,
        description: str,
        type: FactType,
        body: str,
        now: datetime | None = None,
        fact_id: str | None = None,
    ) -> Fact:
        """Create a fact; fails if the name is taken, even by a file created a moment ago.

        ``fact_id`` gives the new fact a known id instead of a random one (an approval derives
        it from its item, so a retry after a crash can find what it wrote); the caller makes
        sure no active fact has it."""
        now = now or utc_now()
        fact = Fact(
            id=fact_id or new_fact_id(),
            revision=1,
            created_at=now,
            updated_at=now,
            name=name,
            title=title,
            description=description,
            type=type,
            scope=self.scope,
            body=body,
        )
        with self.locked():
            entry = self._write_new(fact)
            self.index_change(put=fact)
            self._remember(entry)
        return fact

    def update(
        self,
        stem: str,
        *,
        expected_revision: int,
        expected_sha: str | None = None,
        changes: dict[str, Any],
        now: datetime | None = None,
    ) -> Fact:
        """Compare-and-set update. ``changes`` may hold name, title, description, type, body."""
        unknown = set(changes) - EDITABLE
        if unknown:
            raise InvalidRequest(f"cannot change {', '.join(sorted(unknown))}")
        with self.locked():
            entry = self.read_fresh(stem)
            self._check_revision(entry, expected_revision)
            self.heads.check(entry, expected_sha)
            return self._replace(entry, changes, now=now)

    def _check_revision(self, entry: Entry, expected: int) -> None:
        if entry.fact.revision != expected:
            raise RevisionConflict(
                f"revision conflict on {entry.fact.ref}: expected {expected}, found {entry.fact.revision}",
                current_revision=entry.fact.revision,
            )

    def _replace(self, entry: Entry, changes: dict[str, Any], *, now: datetime | None) -> Fact:
        """Write revision+1 of ``entry`` (lock held): snapshot first; a rename writes the new
        name before it removes the old one."""
        now = now or utc_now()
        current = entry.fact
        new_name = changes.get("name", current.name)
        fact = current.model_copy(
            update={
                **changes,
                "name": new_name,
                "revision": current.revision + 1,
                "updated_at": now,
            }
        )
        fact = Fact.model_validate(fact.model_dump())
        target = self.root / f"{new_name}.md"
        # a legacy file declaring another name than its stem moves to <name>.md on its save
        renamed = new_name != current.name or target.name != entry.path.name
        self._touched.add(entry.path.name[:-3])  # a legacy file's stem may not be its name
        if renamed and os.path.lexists(target):
            raise AlreadyExists(f"{fact.ref} is already used by another fact")
        data = render_fact(fact)  # refuses an unrepresentable value before anything is written
        save_snapshot(self.root, entry)
        sha = hashlib.sha256(data).hexdigest()
        self.heads.record(fact.id, sha, previous=entry.sha256)
        if renamed:
            self._write_renamed(entry, target, data, fact)
        else:
            atomic.write_bytes(target, data)
        self.index_change(put=fact, remove=current.name if renamed else None)
        self._remember(Entry(fact, target, sha), drop=current.name)
        return fact

    def _write_renamed(self, entry: Entry, target: Path, data: bytes, fact: Fact) -> None:
        tmp = atomic.write_temp(self.root, data)
        try:
            atomic.link_temp(tmp, target)
        except FileExistsError as exc:
            raise AlreadyExists(f"{fact.ref} is already used by another fact") from exc
        os.unlink(entry.path)
        atomic.fsync_dir(self.root)

    # -- revisions -------------------------------------------------------------------------

    def revisions(self, stem: str) -> list[RevisionEntry]:
        current = self.read_fresh(stem)
        out = [RevisionEntry(current.fact.revision, current.fact, current.path, current=True)]
        out.extend(self._snapshots(current.fact.id))
        out.sort(key=lambda r: (r.revision, r.current, str(r.path)), reverse=True)
        return out

    def _snapshots(self, fact_id: str) -> list[RevisionEntry]:
        return list_snapshots(self.root, self.scope, fact_id)

    def restore(self, stem: str, revision: int, *, now: datetime | None = None) -> Fact:
        """Copy an old revision's content into a new, higher revision."""
        with self.locked():
            entry = self.read_fresh(stem)
            if revision == entry.fact.revision:
                raise InvalidRequest(
                    f"revision {revision} of {entry.fact.ref} is already the current one"
                )
            snaps = [s for s in self._snapshots(entry.fact.id) if s.revision == revision]
            if not snaps:
                raise NotFound(f"{entry.fact.ref} has no saved revision {revision}")
            old = snaps[0].fact
            changes = {
                "title": old.title,
                "description": old.description,
                "type": old.type,
                "body": old.body,
            }
            return self._replace(entry, changes, now=now)

    # -- archive ---------------------------------------------------------------------------

    @property
    def archive_root(self) -> Path:
        return self.root / ARCHIVE_DIR

    def forget(
        self, stem: str, *, expected_revision: int | None = None, now: datetime | None = None
    ) -> Path:
        """Move the fact into the archive with one no-replace rename."""
        with self.locked():
            entry = self.read_fresh(stem)
            if expected_revision is not None:
                self._check_revision(entry, expected_revision)
            now = now or utc_now()
            folder = own_folder(self.root, ARCHIVE_DIR)
            n = 0
            while True:
                dest = folder / archive_name(now, entry.fact.name, n)
                try:
                    self._touched.add(entry.path.name[:-3])
                    atomic.rename_noreplace(entry.path, dest)
                    break
                except FileExistsError:
                    n += 1
            self.index_change(remove=entry.fact.name)
            self._remember(None, drop=entry.fact.name)
            return dest

    def archived(self) -> list[ArchivedEntry]:
        """The archive, newest first, without leftovers of interrupted forgets and recovers."""
        return list_archived(self.root, self.scope, self.snapshot())

    def owns_archive_entry(self, path: Path) -> Path:
        """Validate that ``path`` is a regular file directly inside this store's own .archive."""
        return owns_archive_entry(self.root, path)

    def recover(self, path: Path, *, name: str | None = None, now: datetime | None = None) -> Fact:
        """Bring an archive entry back as the next revision of its fact (under ``name``, a
        slug, instead of its own when that is taken; the id stays)."""
        with self.locked():
            entry_path = owns_archive_entry(self.root, path)
            try:
                parsed, data, _ = read_fact_file(
                    entry_path,
                    stem=archive_stem(entry_path.name),
                    scope=self.scope,
                    prefer_declared_name=True,
                )
            except FactFileError as exc:
                raise InvalidRequest(
                    f"archived entry cannot be read: {exc}", code=exc.code
                ) from exc
            except OSError as exc:
                raise NotFound(f"archived memory not found: {entry_path.name}") from exc
            old = parsed.fact
            wanted = old if name is None else old.model_copy(update={"name": name})
            self._check_recoverable(wanted)
            save_snapshot(self.root, Entry(old, entry_path, parsed.sha256), data)
            top = top_revision(self.root, self.scope, old.id, old.revision)
            fact = wanted.model_copy(update={"revision": top + 1, "updated_at": now or utc_now()})
            new_data = render_fact(fact)
            sha = hashlib.sha256(new_data).hexdigest()
            self.heads.record(fact.id, sha, previous=parsed.sha256)
            target = self.root / f"{fact.name}.md"
            try:
                bring_back(entry_path, target, new_data)
            except FileExistsError as exc:
                raise ArchiveRefused(
                    f"cannot recover: {fact.ref} is already active (another fact has that name)"
                ) from exc
            self.index_change(put=fact)
            self._remember(Entry(fact, target, sha))
            return fact

    def _check_recoverable(self, old: Fact) -> None:
        active = self.load(persist_cache=False)
        ids = active.by_id()
        if old.id in ids:
            raise ArchiveRefused(
                f"cannot recover: id {old.id} is already active as {ids[old.id].fact.ref}"
            )
        if old.name in active.entries or os.path.lexists(self.root / f"{old.name}.md"):
            raise ArchiveRefused(
                f"cannot recover: {old.ref} is already active (another fact has that name)"
            )

    # -- maintenance -----------------------------------------------------------------------

    def rebuild_index(self) -> None:
        snap = self.load(persist_cache=False)
        with self.locked():
            memory_index.rebuild(
                self.root, sorted((e.fact for e in snap.entries.values()), key=lambda f: f.name)
            )

    def rewrite_canonical(self, entry: Entry) -> bool:
        """Migration of one legacy file (``migrate.py``)."""
        from context_center.engine.store.migrate import rewrite_canonical

        return rewrite_canonical(self, entry)
