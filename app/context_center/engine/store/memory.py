"""Both stores of one workspace as one model: references, conflicts, a person's edits, migration."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from context_center.engine.errors import ArchiveRefused, InvalidRequest, NotFound
from context_center.engine.kinds import ID_RE, FactType, Scope
from context_center.engine.model import Conflict, Diagnostic, Fact
from context_center.engine.store import legacy
from context_center.engine.store.archive import check_path_text
from context_center.engine.store.factstore import (
    ArchivedEntry,
    Entry,
    FactStore,
    RevisionEntry,
    gc_paused,
)
from context_center.engine.store.keys import name_key, title_key
from context_center.engine.store.paths import Layout, slugify

_ARCHIVE_REF = re.compile(r"^(project|global)/\.archive/([^/\\]+)$")
_REF = re.compile(r"^(?P<scope>project|global)/(?P<name>[^/\\]+?)(?:\.md)?$")


def find_conflicts(project: list[Fact], global_: list[Fact]) -> list[Conflict]:
    """Project/global pairs that are equivalent by id, name slug or normalised title.

    Each pair is reported once, under the first key that matched (id, then name, then
    title), ordered by project name then global name.
    """
    if not project or not global_:
        return []
    by_id = {f.id: f for f in global_}
    by_name: dict[str, list[Fact]] = {}
    by_title: dict[str, list[Fact]] = {}
    for g in global_:
        by_name.setdefault(name_key(g.name), []).append(g)
        key = title_key(g.title)
        if key:
            by_title.setdefault(key, []).append(g)
    pairs: list[tuple[str, Fact, Fact]] = []
    for p in project:
        same_id = by_id.get(p.id)
        same_name = by_name.get(name_key(p.name))
        tkey = title_key(p.title)
        same_title = by_title.get(tkey) if tkey else None
        if same_id is None and same_name is None and same_title is None:
            continue
        seen: set[str] = set()
        for key, hits in (
            ("id", [same_id] if same_id else []),
            ("name", same_name),
            ("title", same_title),
        ):
            for g in hits or ():
                if g.id not in seen:
                    seen.add(g.id)
                    pairs.append((key, p, g))
    pairs.sort(key=lambda t: (t[1].name, t[2].name))
    return [
        Conflict(key=key, project_ref=p.ref, global_ref=g.ref, project_id=p.id, global_id=g.id)
        for key, p, g in pairs
    ]


@dataclass
class MemoryView:
    """Everything active in both stores at one moment."""

    project: list[Entry] = field(default_factory=list)
    global_: list[Entry] = field(default_factory=list)
    conflicts: list[Conflict] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def entries(self) -> list[Entry]:
        return self.project + self.global_

    @property
    def facts(self) -> list[Fact]:
        return [e.fact for e in self.entries]

    @property
    def masked_global_ids(self) -> set[str]:
        return {c.global_id for c in self.conflicts}


class Memory:
    """The project store and the global store of one workspace."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self._last_view: tuple[tuple[int, int, int, int], object, object, MemoryView] | None = None
        self.project = FactStore(layout.project_store, Scope.PROJECT)
        self.global_ = FactStore(layout.global_store, Scope.GLOBAL)
        # orphan temp files of the engine's other folders go with the project store's sweep:
        # state and queue (and the folders in them), the recall cache, and where instruction
        # files are written
        self.project.sweep_also = (
            (layout.state_dir, True),
            (layout.approvals_dir, True),
            (layout.cache_dir, False),  # the recall index cache, outside the home
            (layout.home, False),
            (layout.workspace, False),
        )

    def store(self, scope: Scope) -> FactStore:
        return self.project if scope is Scope.PROJECT else self.global_

    def load(self, *, persist_cache: bool = True) -> MemoryView:
        with gc_paused():
            p = self.project.load(persist_cache=persist_cache)
            g = self.global_.load(persist_cache=persist_cache)
            return self._view(p.entries.values(), g.entries.values(), p.diagnostics + g.diagnostics)

    def view(self) -> MemoryView:
        """The last loaded state, updated by this process's own writes (no disk scan). The
        same object again while nothing changed, so a caller that passes it on each turn
        (the window's recall) costs nothing to compare."""
        p = self.project.snapshot()
        g = self.global_.snapshot()
        key = (id(p), p.version, id(g), g.version)
        cached = self._last_view
        if cached is not None and cached[0] == key and cached[1] is p and cached[2] is g:
            return cached[3]
        view = self._view(p.entries.values(), g.entries.values(), p.diagnostics + g.diagnostics)
        self._last_view = (key, p, g, view)
        return view

    @staticmethod
    def _view(
        project: Iterable[Entry], global_: Iterable[Entry], diags: list[Diagnostic]
    ) -> MemoryView:
        pe = sorted(project, key=lambda e: e.fact.name)
        ge = sorted(global_, key=lambda e: e.fact.name)
        conflicts = find_conflicts([e.fact for e in pe], [e.fact for e in ge])
        return MemoryView(pe, ge, conflicts, sorted(diags, key=lambda d: (str(d.scope), d.path)))

    # -- references ------------------------------------------------------------------------

    def resolve(self, ref: str) -> Entry:
        """`project/<name>[.md]`, `global/<name>[.md]`, an id, or a bare name (project first)."""
        ref = ref.strip()
        if not ref:
            raise InvalidRequest("empty fact reference")
        m = _REF.match(ref)
        if m:
            scope = Scope(m.group("scope"))
            return self._by_name(self.store(scope), m.group("name"), ref)
        if ID_RE.match(ref):
            # The disk as it is now: a loaded snapshot is only a hint, checked against the
            # file it names; a stale or missing hint rescans, so no caller has to load first
            # and a fact written or renamed by another process is found.
            for store in (self.project, self.global_):
                found = store.find_id(ref)
                if found is not None:
                    return found
            alias = legacy.find_alias(ref, (self.project, self.global_))  # older legacy ids
            if alias is not None:
                return alias
            raise NotFound(f"no active fact has id {ref}")
        if "/" in ref or "\\" in ref:
            raise InvalidRequest(
                f"{ref!r} is not a reference: use project/<name>.md, global/<name>.md, a name or an id"
            )
        name = ref.removesuffix(".md")
        for store in (self.project, self.global_):
            try:
                return self._by_name(store, name, ref)
            except NotFound:
                continue
        raise NotFound(f"no active fact named {ref!r} in the project or global store")

    def _by_name(self, store: FactStore, name: str, ref: str) -> Entry:
        """The active fact with that file stem (or that name's slug) in ``store``.

        A file the store excluded when loading (a bad file, two files with one id) is never
        resolved: its diagnostic is the error, so nothing can read or change it by name.
        """
        candidates = [name]
        with contextlib.suppress(InvalidRequest):
            candidates.append(slugify(name))
        for stem in candidates:
            if "/" in stem or "\\" in stem or stem.startswith(".") or "\0" in stem:
                continue
            if stem in store.snapshot().entries:
                return store.read_fresh(stem)
            try:
                present = os.path.lexists(store.root / f"{stem}.md")
            except (OSError, ValueError):  # e.g. a name too long for the file system
                continue
            if not present:
                continue
            snap = store.load(persist_cache=False)  # written since this process loaded?
            if stem in snap.entries:
                return store.read_fresh(stem)
            for diag in snap.diagnostics:
                if diag.path == f"{stem}.md":
                    raise InvalidRequest(
                        f"{store.scope.value}/{stem}.md cannot be used: {diag.message}",
                        code=diag.code,
                    )
        raise NotFound(f"{ref} does not exist")

    # -- a person's explicit actions ---------------------------------------------------------

    def create(
        self,
        *,
        name: str,
        title: str = "",
        description: str = "",
        type: FactType,
        scope: Scope = Scope.PROJECT,
        body: str,
        now: datetime | None = None,
        fact_id: str | None = None,
    ) -> Fact:
        stem = slugify(name)
        return self.store(scope).create(
            name=stem,
            title=title.strip() or name.strip(),
            description=description.strip(),
            type=type,
            body=body,
            now=now,
            fact_id=fact_id,
        )

    def update(
        self,
        ref: str,
        *,
        expected_revision: int,
        expected_sha: str | None = None,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        type: FactType | None = None,
        body: str | None = None,
        now: datetime | None = None,
    ) -> Fact:
        fields = {"title": title, "description": description, "type": type, "body": body}
        with self._resolved_locked(ref) as (store, entry):
            return store.update(
                entry.fact.name,
                expected_revision=expected_revision,
                expected_sha=expected_sha,
                changes=self._changes(ref, entry, name, fields),
                now=now,
            )

    @staticmethod
    def _changes(
        ref: str, entry: Entry, name: str | None, fields: Mapping[str, object]
    ) -> dict[str, object]:
        changes: dict[str, object] = {}
        if name is not None:
            stem = slugify(name)
            if stem != entry.fact.name and not ID_RE.match(ref.strip()):
                raise InvalidRequest(
                    "renaming a fact is only done through its id (pass the id as the reference)"
                )
            changes["name"] = stem
        for key, value in fields.items():
            if isinstance(value, str) and key in ("title", "description"):
                changes[key] = value.strip()
            elif value is not None:
                changes[key] = value
        return changes

    def revisions(self, ref: str) -> list[RevisionEntry]:
        entry = self.resolve(ref)
        return self.store(entry.fact.scope).revisions(entry.fact.name)

    def restore(self, ref: str, revision: int, *, now: datetime | None = None) -> Fact:
        with self._resolved_locked(ref) as (store, entry):
            return store.restore(entry.fact.name, revision, now=now)

    def forget(
        self, ref: str, *, expected_revision: int | None = None, now: datetime | None = None
    ) -> tuple[Fact, Path]:
        with self._resolved_locked(ref) as (store, entry):
            dest = store.forget(entry.fact.name, expected_revision=expected_revision, now=now)
            return entry.fact, dest

    @contextlib.contextmanager
    def _resolved_locked(self, ref: str) -> Iterator[tuple[FactStore, Entry]]:
        """Hold the lock of the store ``ref`` names, with ``ref`` resolved again under it: an
        id finds its fact wherever the disk has it now, even if another process renamed it
        between the first look and the lock."""
        entry = self.resolve(ref)
        store = self.store(entry.fact.scope)
        with store.locked():
            if ID_RE.match(ref.strip()):
                found = store.find_id(ref.strip())
                if found is None and entry.fact.id == ref.strip():
                    raise NotFound(f"no active fact has id {ref.strip()}")
                entry = found or entry  # an older legacy id resolves through its alias
            yield store, entry

    def archived(self) -> list[ArchivedEntry]:
        return self.project.archived() + self.global_.archived()

    def archive_ref(self, entry: ArchivedEntry) -> str:
        """``<scope>/.archive/<file>``: the one form an archive entry is named by (``recover``
        parses it back with ``_ARCHIVE_REF``)."""
        scope = Scope.PROJECT if entry.path.parent == self.project.archive_root else Scope.GLOBAL
        return f"{scope.value}/.archive/{entry.path.name}"

    def recover(
        self, path: str | Path, *, name: str | None = None, now: datetime | None = None
    ) -> Fact:
        """Recover an archive entry of either store; the path decides which store owns it.
        ``name`` recovers it under another name (slugged) when its own is taken."""
        stem = slugify(name) if name is not None else None
        text = str(path)
        check_path_text(text)  # a NUL or an over-long name is a coded error, not a traceback
        m = _ARCHIVE_REF.match(text)
        if m:
            store = self.store(Scope(m.group(1)))
            return store.recover(store.archive_root / m.group(2), name=stem, now=now)
        p = Path(path)
        for store in (self.project, self.global_):
            parent = p.parent if p.is_absolute() else None
            if parent is not None and parent.absolute() == store.archive_root.absolute():
                return store.recover(p, name=stem, now=now)
        if not p.is_absolute():
            for store in (self.project, self.global_):
                candidate = store.archive_root / p.name
                if (p.parent in (Path("."), Path(".archive"))) and (
                    candidate.exists() or candidate.is_symlink()
                ):
                    return store.recover(candidate, name=stem, now=now)
        message = f"archived memory not found: {path} is not an entry of this workspace's archives"
        if os.path.lexists(p):
            raise ArchiveRefused(message)
        raise NotFound(message)

    # -- upgrade ---------------------------------------------------------------------------

    def migrate(self) -> list[str]:
        """Rewrite legacy facts in canonical form. Returns the refs it changed (idempotent)."""
        from context_center.engine.store.migrate import migrate

        return migrate(self)

    def needs_migration(self) -> bool:
        """Whether ``migrate`` has anything to do, from the stores' parsed-facts caches (a
        header read, no load): a cache that counts legacy files, no cache for a store folder
        that exists, or an in-store cache folder of an earlier build."""
        from context_center.engine.store.factcache import summary
        from context_center.engine.store.migrate import OLD_CACHE_DIR

        for store in (self.project, self.global_):
            root = store.root
            if not os.path.isdir(root):
                continue
            if os.path.lexists(root / OLD_CACHE_DIR):
                return True
            known = summary(root)
            if known is None or known.legacy:
                return True
        return False

    def migrate_if_needed(self) -> list[str]:
        """``migrate`` when ``needs_migration`` says so (a person's write calls this first)."""
        return self.migrate() if self.needs_migration() else []
