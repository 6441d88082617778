"""``memory migrate``: rewrite legacy facts in canonical form, keeping what Reasonix calls them.

A legacy fact (no ``id``, ``revision``, ``metadata``, times, or a name that is not its file's)
is rewritten once, in place, under the store lock, and only if its bytes are still the ones
the load saw (another program's edit meanwhile wins; the next run picks it up):

* its id stays the one it was loaded with, which is Reasonix's legacy id (``legacy.py``), and
  ``revision`` stays 1 (what Reasonix reads for a file without one);
* its name stays the one Reasonix reads: the declared ``name`` (slugged the way Reasonix
  slugs), else the file stem; the declared name is never moved into the title;
* a file whose stem is not that name moves to ``<name>.md`` (``pnpm.md`` declaring ``name:
  package-manager`` becomes ``package-manager.md``), which is also what Reasonix does on its
  next save of it; if ``<name>.md`` is taken, the file is left as it is (it is reported as
  ``duplicate_name``);
* a missing ``updated_at`` becomes the file's modification time; ``created_at`` keeps the
  spelling it was written with; a missing title becomes the one Reasonix shows (the name with
  ``-`` as spaces);
* a value no reader could read back (``fmvalue``) leaves that file unmigrated.

Each store's ``MEMORY.md`` is rebuilt afterwards, and the old in-store cache folder of earlier
builds (``<store>/.cache``: the parsed-facts cache and head ledger, now kept outside the
home) is removed. Running it again changes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import stat
from typing import TYPE_CHECKING

from context_center.engine.errors import EngineError, InvalidRequest
from context_center.engine.store import atomic
from context_center.engine.store.entries import Entry, mtime_of
from context_center.engine.store.factcache import read_fact_file
from context_center.engine.store.factfile import FactFileError, render_fact

if TYPE_CHECKING:
    from context_center.engine.store.factstore import FactStore
    from context_center.engine.store.memory import Memory

OLD_CACHE_DIR = ".cache"
_OLD_CACHE_FILES = frozenset({"facts-v1.json", "heads", "maintained"})


def migrate(memory: Memory) -> list[str]:
    """Rewrite the legacy facts of both stores. Returns the refs it changed (idempotent)."""
    changed: list[str] = []
    for store in (memory.project, memory.global_):
        snap = store.load(persist_cache=False)
        for entry in sorted(snap.entries.values(), key=lambda e: e.fact.name):
            if entry.legacy and rewrite_canonical(store, entry):
                changed.append(entry.fact.ref)
        # lexists: False for a store folder this user cannot read (a diagnostic, not a crash)
        if snap.entries or os.path.lexists(store.root / "MEMORY.md"):
            store.rebuild_index()
        remove_old_cache(store)
        store.load()
    return changed


def rewrite_canonical(store: FactStore, entry: Entry) -> bool:
    """Rewrite one legacy file in canonical form if it is unchanged since ``entry`` was read."""
    with store.locked():
        try:
            parsed, _, st = read_fact_file(entry.path, stem=entry.path.name[:-3], scope=store.scope)
        except (OSError, FactFileError):
            return False
        if parsed.sha256 != entry.sha256 or not parsed.legacy:
            return False
        fact = parsed.fact
        if fact.updated_at is None:  # the legacy rule: a missing time becomes the mtime
            fact = fact.model_copy(update={"updated_at": mtime_of(st)})
        try:
            data = render_fact(fact)
        except InvalidRequest:
            return False
        target = store.root / f"{fact.name}.md"
        store.heads.record(fact.id, hashlib.sha256(data).hexdigest(), previous=parsed.sha256)
        if target.name == entry.path.name:
            atomic.write_bytes(entry.path, data)
            return True
        return _move(store, entry, target, data)


def _move(store: FactStore, entry: Entry, target: os.PathLike[str], data: bytes) -> bool:
    """Write ``data`` as ``target`` (never over an existing file), then drop the old name."""
    tmp = atomic.write_temp(store.root, data)
    try:
        atomic.link_temp(tmp, target)
    except FileExistsError:
        return False
    os.unlink(entry.path)
    atomic.fsync_dir(store.root)
    return True


def remove_old_cache(store: FactStore) -> bool:
    """Remove ``<store>/.cache`` of earlier builds when it holds only what they put there."""
    folder = store.root / OLD_CACHE_DIR
    try:
        st = os.lstat(folder)
        names = set(os.listdir(folder)) if stat.S_ISDIR(st.st_mode) else None
    except OSError:
        return False
    if stat.S_ISLNK(st.st_mode) or names is None or not names <= _OLD_CACHE_FILES:
        return False
    with contextlib.suppress(OSError, EngineError), store.locked():
        shutil.rmtree(folder)
        return True
    return False
