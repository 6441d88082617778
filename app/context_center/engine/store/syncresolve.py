"""What a sync tool left beside a fact, paired with it; a person keeps one side.

Two shapes (``syncfiles``) can be resolved:

* a **conflict copy** (``pnpm.sync-conflict-….md``, ``pnpm (… conflicted copy …).md``) pairs
  with the active fact in the file it is a copy of. The sides are ``fact`` and ``copy``;
* a **file with git conflict markers** holds both versions itself. The sides are ``ours``
  (between ``<<<<<<<`` and ``=======``) and ``theirs`` (between ``=======`` and ``>>>>>>>``).

Keeping a side writes it as a new revision of the fact, above the revisions of both sides
(so a machine that synced either one sees the decision as newer), and the other side goes
to the store's archive (``<stamp>-<name>.md``), where it can be read or recovered. The
conflict copy itself is gone afterwards. Everything happens under the store's lock, on the
bytes as they are then.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine.errors import InvalidRequest, NotFound
from context_center.engine.kinds import Scope, utc_now
from context_center.engine.model import Fact
from context_center.engine.store import atomic, syncfiles
from context_center.engine.store.archive import ARCHIVE_DIR, archive_name
from context_center.engine.store.entries import Entry, mtime_of
from context_center.engine.store.factfields import read_bytes as read_fact_bytes
from context_center.engine.store.factfile import FactFileError, parse_fact_bytes, render_fact
from context_center.engine.store.guarded import own_folder
from context_center.engine.store.revisions import save_snapshot

if TYPE_CHECKING:
    from context_center.engine.store.factstore import FactStore
    from context_center.engine.store.memory import Memory

COPY_SIDES = ("fact", "copy")
MARKER_SIDES = ("ours", "theirs")


@dataclass(frozen=True)
class SyncConflict:
    """One thing a sync tool left, with both sides' text for a diff (local-only data)."""

    scope: Scope
    path: str  # the file's name in its store (the diagnostic's path)
    code: str  # syncfiles.SYNC_CONFLICT or syncfiles.GIT_CONFLICT
    fact_ref: str | None  # the active fact a copy pairs with (None: none is active)
    fact_revision: int | None
    sides: tuple[str, str]  # the names ``keep_side`` takes, in the order of the texts
    texts: tuple[str, str]  # (fact, copy) or (ours, theirs)

    @property
    def ref(self) -> str:
        return f"{self.scope.value}/{self.path}"


def _text(path: Path) -> str:
    try:
        data, _ = read_fact_bytes(path)
    except (OSError, FactFileError):
        return ""
    return data.decode("utf-8", errors="replace")


def _paired(store: FactStore, copy_stem: str) -> Entry | None:
    """The active fact in the file ``copy_stem`` is a conflict copy of."""
    base = syncfiles.conflict_copy_of(copy_stem)
    if base is None:
        return None
    for entry in store.snapshot().entries.values():
        if os.path.basename(entry.location) == f"{base}.md":
            return entry
    return None


def find_conflicts(memory: Memory) -> list[SyncConflict]:
    """Every conflict copy and conflicted file the loaded stores reported, paired."""
    out: list[SyncConflict] = []
    for diag in memory.view().diagnostics:
        if diag.code not in (syncfiles.SYNC_CONFLICT, syncfiles.GIT_CONFLICT) or not diag.scope:
            continue
        store = memory.store(diag.scope)
        text = _text(store.root / diag.path)
        if diag.code == syncfiles.SYNC_CONFLICT:
            fact = _paired(store, diag.path[:-3])
            fact_text = _text(fact.path) if fact is not None else ""
            out.append(
                SyncConflict(
                    diag.scope,
                    diag.path,
                    diag.code,
                    fact.fact.ref if fact else None,
                    fact.fact.revision if fact else None,
                    COPY_SIDES,
                    (fact_text, text),
                )
            )
            continue
        sides = syncfiles.conflict_sides(text)
        if sides is not None:
            out.append(
                SyncConflict(diag.scope, diag.path, diag.code, None, None, MARKER_SIDES, sides)
            )
    return out


def _parse(data: bytes, stem: str, store: FactStore, what: str) -> Fact:
    try:
        return parse_fact_bytes(data, stem=stem, directory_scope=store.scope, mtime=utc_now()).fact
    except FactFileError as exc:
        raise InvalidRequest(f"{what} cannot be read as a fact: {exc}", code=exc.code) from exc


def _archive(store: FactStore, name: str, data: bytes, now: datetime) -> Path:
    folder = own_folder(store.root, ARCHIVE_DIR)
    n = 0
    while True:
        dest = folder / archive_name(now, name, n)
        try:
            atomic.create_exclusive(dest, data)
            return dest
        except FileExistsError:
            n += 1


def _write(store: FactStore, fact: Fact, target: Path, previous: str | None) -> None:
    data = render_fact(fact)
    sha = hashlib.sha256(data).hexdigest()
    store.heads.record(fact.id, sha, previous=previous)
    store.touched(target.name[:-3])
    atomic.write_bytes(target, data)
    store.index_change(put=fact)
    store._remember(Entry(fact, target, sha), drop=fact.name)


def _check_name(store: FactStore, path: str) -> Path:
    if "/" in path or "\\" in path or path.startswith(".") or not path.endswith(".md"):
        raise InvalidRequest(f"{path!r} is not a file of the {store.scope.value} store")
    return store.root / path


def _keep_copy_side(
    store: FactStore, file: Path, side: str, expected: int | None, now: datetime
) -> tuple[Fact, Path]:
    copy_data, _ = read_fact_bytes(file)
    store.load(persist_cache=False)
    active = _paired(store, file.name[:-3])
    if active is None:
        raise NotFound(f"{file.name} is a conflict copy of a fact that is not active")
    active = store.read_fresh(active.fact.name)
    if expected is not None:
        store._check_revision(active, expected)
    base = syncfiles.conflict_copy_of(file.name[:-3]) or active.fact.name
    copy = _parse(copy_data, base, store, file.name) if side == "copy" else None
    other_rev = copy.revision if copy else _copy_revision(copy_data, base, store)
    revision = max(active.fact.revision, other_rev) + 1
    if copy is not None:  # the copy's content, under the fact's id, name and creation
        keep = {"title": copy.title, "description": copy.description, "type": copy.type}
        kept = active.fact.model_copy(update={**keep, "body": copy.body})
        fact_data, _ = read_fact_bytes(active.path)
        dest = _archive(store, active.fact.name, fact_data, now)
    else:
        kept = active.fact
        save_snapshot(store.root, active)
        dest = _archive(store, active.fact.name, copy_data, now)
    kept = Fact.model_validate(
        kept.model_copy(update={"revision": revision, "updated_at": now}).model_dump()
    )
    _write(store, kept, active.path, active.sha256)
    store.touched(file.name[:-3])
    os.unlink(file)
    atomic.fsync_dir(store.root)
    return kept, dest


def _copy_revision(data: bytes, stem: str, store: FactStore) -> int:
    try:
        return _parse(data, stem, store, "the copy").revision
    except InvalidRequest:
        return 0


def _keep_marker_side(store: FactStore, file: Path, side: str, now: datetime) -> tuple[Fact, Path]:
    data, st = read_fact_bytes(file)
    sides = syncfiles.conflict_sides(data.decode("utf-8", errors="replace"))
    if sides is None:
        raise InvalidRequest(f"{file.name} holds no complete git conflict to resolve")
    chosen, other = sides if side == "ours" else sides[::-1]
    stem = file.name[:-3]
    fact = _parse(chosen.encode(), stem, store, f"the {side} side of {file.name}")
    try:
        other_rev = _parse(other.encode(), stem, store, "the other side").revision
    except InvalidRequest:
        other_rev = 0
    if fact.name != stem:
        raise InvalidRequest(f"the {side} side of {file.name} names another fact ({fact.name})")
    if fact.updated_at is None:
        fact = fact.model_copy(update={"updated_at": mtime_of(st)})
    dest = _archive(store, fact.name, other.encode(), now)
    kept = fact.model_copy(
        update={"revision": max(fact.revision, other_rev) + 1, "updated_at": now}
    )
    _write(store, kept, file, None)
    return kept, dest


def keep_side(
    memory: Memory,
    scope: Scope,
    path: str,
    side: str,
    *,
    expected_revision: int | None = None,
    now: datetime | None = None,
) -> tuple[Fact, Path]:
    """Resolve ``path`` (a conflict copy, or a file with git conflict markers, in the
    ``scope`` store) by keeping ``side``. Returns the fact as written and the archive entry
    the other side went to."""
    store = memory.store(scope)
    file = _check_name(store, path)
    now = now or utc_now()
    is_copy = syncfiles.conflict_copy_of(file.name[:-3]) is not None
    allowed = COPY_SIDES if is_copy else MARKER_SIDES
    if side not in allowed:
        raise InvalidRequest(f"keep {allowed[0]!r} or {allowed[1]!r} for {scope.value}/{path}")
    with store.locked():
        try:
            if is_copy:
                return _keep_copy_side(store, file, side, expected_revision, now)
            return _keep_marker_side(store, file, side, now)
        except FileNotFoundError as exc:
            raise NotFound(f"{scope.value}/{path} does not exist") from exc
        except FactFileError as exc:
            raise InvalidRequest(
                f"{scope.value}/{path} cannot be used: {exc}", code=exc.code
            ) from exc
