"""One fact store (a directory of Markdown facts): load, create, update, forget, recover.

Cross-process safety: every mutation holds the store's lock (``<store>/.lock``, an ``flock``
through filelock, released by the kernel when a process dies, so a killed writer never leaves
it stuck) and re-reads the file it changes from disk. Files are replaced atomically
(``atomic.py``), creates are link-based so they never overwrite, and superseded revisions are
kept as immutable snapshots before anything is replaced.

Opening a large store is fast because parsed facts are cached in ``.cache/facts-v1.json``,
validated per file by size, mtime and inode; only changed files are parsed again.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import json
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from context_center.engine.errors import (
    AlreadyExists,
    ArchiveRefused,
    ContentConflict,
    InvalidRequest,
    NotFound,
    RevisionConflict,
    StoreUnavailable,
)
from context_center.engine.model import Diagnostic, Fact, FactType, Scope, new_fact_id, utc_now
from context_center.engine.store import atomic, memory_index
from context_center.engine.store.factfile import (
    MAX_FILE_BYTES,
    FactFileError,
    parse_fact_bytes,
    render_fact,
)
from context_center.engine.store.locking import hold

CACHE_VERSION = 2
LOCK_TIMEOUT_S = 30.0
REVISIONS_DIR = ".revisions"
ARCHIVE_DIR = ".archive"
CACHE_DIR = ".cache"


@dataclass(frozen=True)
class Entry:
    """An active fact and where it lives (the path is local-only, never provider-visible)."""

    fact: Fact
    location: str | Path  # a plain str when loaded in bulk: 50k Path objects cost 0.7 s
    sha256: str
    legacy: bool = False

    @property
    def path(self) -> Path:
        return Path(self.location)


@dataclass(frozen=True)
class ArchivedEntry:
    path: Path
    archived_at: datetime | None
    fact: Fact | None
    error: str | None = None


@dataclass(frozen=True)
class RevisionEntry:
    revision: int
    fact: Fact
    path: Path
    current: bool = False


@dataclass
class Snapshot:
    scope: Scope
    root: Path
    entries: dict[str, Entry] = field(default_factory=dict)  # by file stem
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def by_id(self) -> dict[str, Entry]:
        return {e.fact.id: e for e in self.entries.values()}


def _mtime(st: os.stat_result) -> datetime:
    return datetime.fromtimestamp(st.st_mtime, UTC).replace(
        microsecond=(int(st.st_mtime * 1000) % 1000) * 1000
    )


def _read_regular(path: Path) -> tuple[bytes, os.stat_result]:
    """Read a regular, non-symlinked file without ever blocking on a FIFO."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if path.is_symlink():
            raise FactFileError("symlink", "a symlink stands in place of a fact file") from exc
        raise
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise FactFileError("not_regular_file", "not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            raise FactFileError(
                "too_large", f"file is {st.st_size} bytes; the limit is {MAX_FILE_BYTES}"
            )
        chunks = []
        remaining = MAX_FILE_BYTES + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks), st
    finally:
        os.close(fd)


def _fact_to_cache(fact: Fact) -> list[Any]:
    return [
        fact.id,
        fact.revision,
        fact.created_at.isoformat() if fact.created_at else None,
        fact.updated_at.isoformat() if fact.updated_at else None,
        fact.name,
        fact.title,
        fact.description,
        fact.type.value,
        fact.body,
    ]


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Building tens of thousands of small objects triggers the cyclic GC again and again
    (it scanned the growing heap for most of a 50k-fact open); none of them form cycles.

    On the way out the surviving objects are moved to the permanent generation
    (``gc.freeze``), so the first collection afterwards does not rescan them all either. They
    are still freed by reference counting when dropped; only cycle detection skips them.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.freeze()
            gc.enable()


_TYPES = {t.value: t for t in FactType}


def _fact_from_cache(row: list[Any], scope: Scope) -> Fact:
    """Rebuild a fact that was validated when its file was parsed.

    Equivalent to ``Fact.model_construct`` (no validation), without its per-call overhead,
    which dominated opening a 50k-fact store.
    """
    values = {
        "id": row[0],
        "revision": row[1],
        "created_at": datetime.fromisoformat(row[2]) if row[2] else None,
        "updated_at": datetime.fromisoformat(row[3]) if row[3] else None,
        "name": row[4],
        "title": row[5],
        "description": row[6],
        "type": _TYPES[row[7]],
        "scope": scope,
        "body": row[8],
    }
    fact = Fact.__new__(Fact)
    object.__setattr__(fact, "__dict__", values)
    object.__setattr__(fact, "__pydantic_fields_set__", _FIELDS_SET)
    object.__setattr__(fact, "__pydantic_extra__", None)
    object.__setattr__(fact, "__pydantic_private__", None)
    return fact


_FIELDS_SET = frozenset(Fact.model_fields)


class FactStore:
    """A store directory for one scope. Holds the last loaded snapshot in memory."""

    def __init__(self, root: Path, scope: Scope) -> None:
        self.root = root
        self.scope = scope
        self._snapshot: Snapshot | None = None
        self._lock: FileLock | None = None

    # -- locking ---------------------------------------------------------------------------

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        try:
            self.root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(
                f"cannot create the {self.scope.value} store: {exc.strerror}"
            ) from exc
        if self._lock is None:
            self._lock = FileLock(str(self.root / ".lock"), timeout=LOCK_TIMEOUT_S)
        with hold(self._lock, f"the {self.scope.value} store"):
            yield

    # -- loading ---------------------------------------------------------------------------

    @property
    def cache_path(self) -> Path:
        return self.root / CACHE_DIR / "facts-v1.json"

    def _load_cache(self) -> dict[str, list[Any]]:
        if _is_link(self.root / CACHE_DIR) or _is_link(self.cache_path):
            return {}  # never trust parsed facts from outside the store
        try:
            data = json.loads(self.cache_path.read_bytes())
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict) or data.get("version") != CACHE_VERSION:
            return {}
        files = data.get("files")
        return files if isinstance(files, dict) else {}

    def load(self, *, persist_cache: bool = True) -> Snapshot:
        """Scan the store; parse only files whose size, mtime or inode changed since cached."""
        with gc_paused():
            return self._load(persist_cache)

    def _load(self, persist_cache: bool) -> Snapshot:
        snap = Snapshot(scope=self.scope, root=self.root)
        try:
            it = os.scandir(self.root)
        except FileNotFoundError:
            self._snapshot = snap
            return snap
        except OSError as exc:
            snap.diagnostics.append(
                Diagnostic(
                    code="store_unreadable", path=".", message=str(exc.strerror), scope=self.scope
                )
            )
            self._snapshot = snap
            return snap
        cache = self._load_cache()
        new_cache: dict[str, list[Any]] = {}
        dirty = False
        with it:
            dir_entries = []
            leftovers = False
            for e in it:
                if e.name.endswith(".md") and not e.name.startswith("."):
                    dir_entries.append(e)
                elif e.name.startswith(atomic.TEMP_PREFIX):
                    leftovers = True
        for de in dir_entries:
            name = de.name
            if name == memory_index.INDEX_NAME:
                continue
            stem = name[:-3]
            try:
                st = de.stat(follow_symlinks=False)
            except OSError as exc:
                snap.diagnostics.append(self._diag("unreadable", name, str(exc.strerror)))
                continue
            key = [st.st_size, st.st_mtime_ns, st.st_ino]
            cached = cache.get(name)
            if cached is not None and cached[:3] == key:
                new_cache[name] = cached
                sha, legacy, row, diag = cached[3], cached[4], cached[5], cached[6]
                if diag is not None:
                    snap.diagnostics.append(self._diag(diag[0], name, diag[1]))
                else:
                    fact = _fact_from_cache(row, self.scope)
                    snap.entries[stem] = Entry(fact, de.path, sha, legacy)
                continue
            dirty = True
            if stat.S_ISLNK(st.st_mode):
                snap.diagnostics.append(
                    self._diag("symlink", name, "a symlink stands in place of a fact file")
                )
                continue
            if not stat.S_ISREG(st.st_mode):
                snap.diagnostics.append(self._diag("not_regular_file", name, "not a regular file"))
                continue
            try:
                data, fst = _read_regular(self.root / name)
                parsed = parse_fact_bytes(
                    data, stem=stem, directory_scope=self.scope, mtime=_mtime(fst)
                )
            except FactFileError as exc:
                snap.diagnostics.append(self._diag(exc.code, name, str(exc)))
                new_cache[name] = [*key, None, False, None, [exc.code, str(exc)]]
                continue
            except OSError as exc:
                snap.diagnostics.append(self._diag("unreadable", name, str(exc.strerror)))
                continue
            key = [fst.st_size, fst.st_mtime_ns, fst.st_ino]
            new_cache[name] = [
                *key,
                parsed.sha256,
                parsed.legacy,
                _fact_to_cache(parsed.fact),
                None,
            ]
            snap.entries[stem] = Entry(parsed.fact, de.path, parsed.sha256, parsed.legacy)
        if set(cache) != set(new_cache):
            dirty = True
        self._exclude_duplicate_ids(snap)
        if dirty and persist_cache:
            self._write_cache(new_cache)
        if persist_cache and leftovers:
            atomic.sweep_temp(self.root)  # leftovers of writers killed mid-write
        self._snapshot = snap
        return snap

    def _exclude_duplicate_ids(self, snap: Snapshot) -> None:
        seen: dict[str, list[str]] = {}
        for stem, entry in snap.entries.items():
            seen.setdefault(entry.fact.id, []).append(stem)
        for fact_id, stems in seen.items():
            if len(stems) < 2:
                continue
            for stem in sorted(stems):
                others = ", ".join(f"{s}.md" for s in sorted(stems) if s != stem)
                snap.diagnostics.append(
                    self._diag(
                        "duplicate_id", f"{stem}.md", f"id {fact_id} is also used by {others}"
                    )
                )
                del snap.entries[stem]

    def _write_cache(self, files: dict[str, list[Any]]) -> None:
        if _is_link(self.root / CACHE_DIR):
            return
        payload = json.dumps(
            {"version": CACHE_VERSION, "files": files}, ensure_ascii=False, separators=(",", ":")
        )
        with contextlib.suppress(OSError):  # a cache that cannot be written only costs speed
            atomic.write_bytes(self.cache_path, payload.encode("utf-8"), sync_dir=False)

    def _diag(self, code: str, rel: str, message: str) -> Diagnostic:
        return Diagnostic(code=code, path=rel, message=message, scope=self.scope)

    def snapshot(self) -> Snapshot:
        return self._snapshot if self._snapshot is not None else self.load()

    # -- reading one file fresh (under the lock, for mutations) ----------------------------

    def read_fresh(self, stem: str) -> Entry:
        path = self.root / f"{stem}.md"
        try:
            data, st = _read_regular(path)
        except FileNotFoundError as exc:
            raise NotFound(f"{self.scope.value}/{stem}.md does not exist") from exc
        except FactFileError as exc:
            raise InvalidRequest(
                f"{self.scope.value}/{stem}.md cannot be used: {exc}", code=exc.code
            ) from exc
        try:
            parsed = parse_fact_bytes(data, stem=stem, directory_scope=self.scope, mtime=_mtime(st))
        except FactFileError as exc:
            raise InvalidRequest(
                f"{self.scope.value}/{stem}.md cannot be used: {exc}", code=exc.code
            ) from exc
        return Entry(parsed.fact, path, parsed.sha256, parsed.legacy)

    def _known(self) -> dict[str, Entry]:
        return self.snapshot().entries

    def _remember(self, entry: Entry | None, *, drop: str | None = None) -> None:
        snap = self._snapshot
        if snap is None:
            return
        if drop is not None:
            snap.entries.pop(drop, None)
        if entry is not None:
            snap.entries[entry.fact.name] = entry

    # -- the head ledger: what this engine last wrote, to catch hand edits -------------------

    def _head_path(self, fact_id: str) -> Path:
        return self.root / CACHE_DIR / "heads" / fact_id

    def _record_head(self, fact_id: str, sha: str, previous: str | None = None) -> None:
        if _is_link(self.root / CACHE_DIR) or _is_link(self.root / CACHE_DIR / "heads"):
            return  # an advisory cache is never written through a link
        """Record what is about to be written, before writing it. The previous hash stays
        acceptable too, so a writer killed between the two steps is not taken for a hand edit."""
        text = sha if previous is None else f"{sha} {previous}"
        with contextlib.suppress(OSError):
            atomic.write_bytes(self._head_path(fact_id), text.encode(), sync_dir=False)

    def _check_hand_edit(self, entry: Entry, expected_sha: str | None) -> None:
        if expected_sha is not None:
            if expected_sha != entry.sha256:
                raise ContentConflict(
                    f"{entry.fact.ref} changed on disk since you read it (revision "
                    f"{entry.fact.revision}, content differs); read it again before saving",
                    current_revision=entry.fact.revision,
                )
            return
        try:
            if _is_link(self.root / CACHE_DIR) or _is_link(self.root / CACHE_DIR / "heads"):
                return
            head = self._head_path(entry.fact.id).read_text().split()
        except OSError:
            return
        if head and entry.sha256 not in head:
            raise ContentConflict(
                f"{entry.fact.ref} was edited by hand after revision {entry.fact.revision} was "
                "written (its revision was not bumped); read it again and save with its content hash",
                current_revision=entry.fact.revision,
            )

    # -- writing ---------------------------------------------------------------------------

    def _write_new(self, fact: Fact) -> Entry:
        data = render_fact(fact)
        path = self.root / f"{fact.name}.md"
        sha = hashlib.sha256(data).hexdigest()
        self._record_head(fact.id, sha)
        try:
            atomic.create_exclusive(path, data)
        except FileExistsError as exc:
            raise AlreadyExists(
                f"{fact.ref} already exists; creates never overwrite (choose another name or update it)"
            ) from exc
        return Entry(fact, path, sha)

    def _snapshot_revision(self, entry: Entry, data: bytes | None = None) -> Path:
        """Save the superseded revision as an immutable snapshot (never overwritten)."""
        if data is None:
            data, _ = _read_regular(entry.path)
        folder = self._own_folder(REVISIONS_DIR, entry.fact.id)
        base = f"{entry.fact.revision:09d}"
        candidate = folder / f"{base}.md"
        n = 0
        while True:
            try:
                atomic.create_exclusive(candidate, data, mode=0o444)
                return candidate
            except FileExistsError:
                try:
                    if candidate.read_bytes() == data:
                        return candidate
                except OSError:
                    pass
                n += 1
                candidate = folder / f"{base}-{n}.md"

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
            memory_index.apply_change(self.root, known=self._known(), put=fact)
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
        allowed = {"name", "title", "description", "type", "body"}
        unknown = set(changes) - allowed
        if unknown:
            raise InvalidRequest(f"cannot change {', '.join(sorted(unknown))}")
        with self.locked():
            entry = self.read_fresh(stem)
            self._check_revision(entry, expected_revision)
            self._check_hand_edit(entry, expected_sha)
            return self._replace(entry, changes, now=now)

    def _check_revision(self, entry: Entry, expected: int) -> None:
        if entry.fact.revision != expected:
            raise RevisionConflict(
                f"revision conflict on {entry.fact.ref}: expected {expected}, found {entry.fact.revision}",
                current_revision=entry.fact.revision,
            )

    def _replace(self, entry: Entry, changes: dict[str, Any], *, now: datetime | None) -> Fact:
        """Write revision+1 of ``entry`` (lock held). Snapshot first; rename via link."""
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
        self._snapshot_revision(entry)
        target = self.root / f"{new_name}.md"
        if new_name != current.name:
            try:
                os.link(entry.path, target)
            except FileExistsError as exc:
                raise AlreadyExists(f"{fact.ref} is already used by another fact") from exc
            os.unlink(entry.path)
        data = render_fact(fact)
        sha = hashlib.sha256(data).hexdigest()
        self._record_head(fact.id, sha, previous=entry.sha256)
        atomic.write_bytes(target, data)
        memory_index.apply_change(
            self.root,
            known=self._known(),
            put=fact,
            remove=current.name if new_name != current.name else None,
        )
        self._remember(Entry(fact, target, sha), drop=current.name)
        return fact

    # -- revisions -------------------------------------------------------------------------

    def revisions(self, stem: str) -> list[RevisionEntry]:
        current = self.read_fresh(stem)
        out = [RevisionEntry(current.fact.revision, current.fact, current.path, current=True)]
        out.extend(self._snapshots(current.fact.id))
        out.sort(key=lambda r: (r.revision, r.current, str(r.path)), reverse=True)
        return out

    def _snapshots(self, fact_id: str) -> list[RevisionEntry]:
        folder = self.root / REVISIONS_DIR / fact_id
        found: list[RevisionEntry] = []
        if _is_link(self.root / REVISIONS_DIR) or _is_link(folder):
            return found  # history is only ever read from inside the store
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            return found
        for name in names:
            if not name.endswith(".md"):
                continue
            path = folder / name
            try:
                data, st = _read_regular(path)
                parsed = parse_fact_bytes(
                    data, stem=name[:-3], directory_scope=self.scope, mtime=_mtime(st)
                )
            except (OSError, FactFileError):
                continue
            found.append(RevisionEntry(parsed.fact.revision, parsed.fact, path))
        return found

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
        with self.locked():
            entry = self.read_fresh(stem)
            if expected_revision is not None:
                self._check_revision(entry, expected_revision)
            now = now or utc_now()
            stamp = (
                now.astimezone(UTC).strftime("%Y%m%d-%H%M%S.") + f"{now.microsecond // 1000:03d}"
            )
            self._ensure_archive_dir()
            n = 0
            while True:
                suffix = "" if n == 0 else f"-{n}"
                dest = self.archive_root / f"{stamp}-{entry.fact.name}{suffix}.md"
                try:
                    atomic.move_exclusive(entry.path, dest)
                    break
                except FileExistsError:
                    n += 1
            memory_index.apply_change(self.root, known=self._known(), remove=entry.fact.name)
            self._remember(None, drop=entry.fact.name)
            return dest

    def _ensure_archive_dir(self) -> None:
        self._own_folder(ARCHIVE_DIR)

    def _own_folder(self, *parts: str) -> Path:
        """A folder inside the store, created if missing; a symlink on the way (which could
        lead writes out of the store) is refused."""
        folder = self.root
        for part in parts:
            folder = folder / part
            if _is_link(folder):
                raise UnsafeStoreFolder(
                    f"the store's {folder.relative_to(self.root)} folder is a symbolic link; "
                    "refusing to write through it"
                )
            folder.mkdir(exist_ok=True)
        return folder

    def archived(self) -> list[ArchivedEntry]:
        root = self.archive_root
        if root.is_symlink() or not root.is_dir():
            return []
        out: list[ArchivedEntry] = []
        for name in sorted(os.listdir(root), reverse=True):
            if not name.endswith(".md") or name.startswith("."):
                continue
            path = root / name
            when = _archive_time(name)
            try:
                data, st = _read_regular(path)
                stem = _archive_stem(name)
                parsed = parse_fact_bytes(
                    data,
                    stem=stem,
                    directory_scope=self.scope,
                    mtime=_mtime(st),
                    prefer_declared_name=True,
                )
                out.append(ArchivedEntry(path, when, parsed.fact))
            except (OSError, FactFileError) as exc:
                out.append(ArchivedEntry(path, when, None, error=str(exc)))
        return out

    def owns_archive_entry(self, path: Path) -> Path:
        """Validate that ``path`` is a regular file directly inside this store's own .archive."""
        root = self.archive_root
        try:
            root_st = os.lstat(root)
        except OSError as exc:
            raise NotFound("archived memory not found (this store has no archive)") from exc
        if stat.S_ISLNK(root_st.st_mode) or not stat.S_ISDIR(root_st.st_mode):
            raise ArchiveRefused(
                "archived memory not found: the .archive folder is a symbolic link or not a folder"
            )
        candidate = (
            path
            if path.is_absolute()
            else (self.root / path if path.parent != Path(".") else root / path)
        )
        if candidate.parent.absolute() != root.absolute() or not candidate.name.endswith(".md"):
            raise ArchiveRefused(
                f"archived memory not found: {path} is not an entry of this store's archive"
            )
        try:
            st = os.lstat(candidate)
        except OSError as exc:
            raise NotFound(f"archived memory not found: {candidate.name}") from exc
        if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
            raise ArchiveRefused(
                f"archived memory not found: {candidate.name} is not a regular file"
            )
        if os.path.realpath(candidate.parent) != os.path.realpath(root):
            raise ArchiveRefused("archived memory not found: the entry resolves outside this store")
        return candidate

    def recover(self, path: Path, *, now: datetime | None = None) -> Fact:
        with self.locked():
            entry_path = self.owns_archive_entry(path)
            try:
                data, st = _read_regular(entry_path)
                parsed = parse_fact_bytes(
                    data,
                    stem=_archive_stem(entry_path.name),
                    directory_scope=self.scope,
                    mtime=_mtime(st),
                    prefer_declared_name=True,
                )
            except FactFileError as exc:
                raise InvalidRequest(
                    f"archived entry cannot be read: {exc}", code=exc.code
                ) from exc
            except OSError as exc:
                raise NotFound(f"archived memory not found: {entry_path.name}") from exc
            old = parsed.fact
            active = self.load(persist_cache=False)
            if old.id in active.by_id():
                raise ArchiveRefused(
                    f"cannot recover: id {old.id} is already active as {active.by_id()[old.id].fact.ref}"
                )
            if old.name in active.entries or (self.root / f"{old.name}.md").exists():
                raise ArchiveRefused(
                    f"cannot recover: {old.ref} is already active (another fact has that name)"
                )
            archived_entry = Entry(old, entry_path, parsed.sha256)
            self._snapshot_revision(archived_entry, data)
            top = max([old.revision, *(s.revision for s in self._snapshots(old.id))])
            now = now or utc_now()
            fact = old.model_copy(update={"revision": top + 1, "updated_at": now})
            entry = self._write_new(fact)
            os.unlink(entry_path)
            atomic.fsync_dir(entry_path.parent)
            memory_index.apply_change(self.root, known=self._known(), put=fact)
            self._remember(entry)
            return fact

    # -- maintenance -----------------------------------------------------------------------

    def rebuild_index(self) -> None:
        snap = self.load(persist_cache=False)
        with self.locked():
            memory_index.rebuild(
                self.root, sorted((e.fact for e in snap.entries.values()), key=lambda f: f.name)
            )

    def rewrite_canonical(self, entry: Entry) -> bool:
        """Migration: rewrite a legacy file in canonical form if it is unchanged since read."""
        with self.locked():
            try:
                fresh = self.read_fresh(entry.fact.name)
            except (NotFound, InvalidRequest):
                return False
            if fresh.sha256 != entry.sha256 or not fresh.legacy:
                return False
            fact = fresh.fact
            if fact.updated_at is None:  # the legacy rule: a missing time becomes the mtime
                fact = fact.model_copy(update={"updated_at": _mtime(os.stat(fresh.path))})
            data = render_fact(fact)
            self._record_head(
                fresh.fact.id, hashlib.sha256(data).hexdigest(), previous=fresh.sha256
            )
            atomic.write_bytes(fresh.path, data)
            return True


def _is_link(path: Path) -> bool:
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


class UnsafeStoreFolder(StoreUnavailable):
    code = "unsafe_store_folder"


def _archive_time(name: str) -> datetime | None:
    try:
        return datetime.strptime(name[:19], "%Y%m%d-%H%M%S.%f").replace(tzinfo=UTC)
    except ValueError:
        return None


def _archive_stem(name: str) -> str:
    stem = name[:-3]
    if _archive_time(name) is not None and len(stem) > 20 and stem[19] == "-":
        stem = stem[20:]
    return stem
