"""Superseded revisions: immutable snapshots in ``.revisions/<id>/<revision>.md``.

Before a fact file is replaced, its current bytes are saved here with an exclusive create
(never overwritten, mode 0444). Saving the same bytes again is a no-op, so a writer killed
after the snapshot and retried does not pile up copies; different bytes under a taken
revision number get ``-1``, ``-2`` … suffixes. History is only ever read from inside the store.
"""

from __future__ import annotations

import os
from pathlib import Path

from context_center.engine.kinds import Scope
from context_center.engine.store import atomic
from context_center.engine.store.entries import Entry, RevisionEntry
from context_center.engine.store.factcache import read_fact_file
from context_center.engine.store.factfields import read_bytes as read_fact_bytes
from context_center.engine.store.factfile import FactFileError
from context_center.engine.store.guarded import is_link, own_folder, read_regular
from context_center.engine.store.loader import REVISIONS_DIR


def save_snapshot(root: Path, entry: Entry, data: bytes | None = None) -> Path:
    """Save ``entry``'s bytes as the snapshot of its revision (idempotent)."""
    if data is None:
        data, _ = read_fact_bytes(entry.path)
    folder = own_folder(root, REVISIONS_DIR, entry.fact.id)
    base = f"{entry.fact.revision:09d}"
    candidate = folder / f"{base}.md"
    n = 0
    while True:
        try:
            atomic.create_exclusive(candidate, data, mode=0o444)
            return candidate
        except FileExistsError:
            try:
                if read_regular(candidate)[0] == data:
                    return candidate
            except OSError:
                pass
            n += 1
            candidate = folder / f"{base}-{n}.md"


def list_snapshots(root: Path, scope: Scope, fact_id: str) -> list[RevisionEntry]:
    """Every readable snapshot of ``fact_id``, by file name."""
    folder = root / REVISIONS_DIR / fact_id
    found: list[RevisionEntry] = []
    if is_link(root / REVISIONS_DIR) or is_link(folder):
        return found  # history is only ever read from inside the store
    try:
        names = sorted(os.listdir(folder))
    except (OSError, ValueError):
        return found
    for name in names:
        if not name.endswith(".md"):
            continue
        path = folder / name
        try:
            parsed, _, _ = read_fact_file(path, stem=name[:-3], scope=scope)
        except (OSError, FactFileError):
            continue
        found.append(RevisionEntry(parsed.fact.revision, parsed.fact, path))
    return found


def top_revision(root: Path, scope: Scope, fact_id: str, current: int) -> int:
    """The highest revision ``fact_id`` has ever had (``current`` or a snapshot)."""
    return max([current, *(s.revision for s in list_snapshots(root, scope, fact_id))])
