"""What a store hands out: active entries, archive entries, revisions, a loaded snapshot.

Paths in these records are local-only; they never reach provider-visible text.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from context_center.engine.kinds import Scope
    from context_center.engine.model import Diagnostic, Fact


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


def make_entry(fact: Fact, location: str | Path, sha256: str, legacy: bool = False) -> Entry:
    """``Entry(fact, location, sha256, legacy)`` without the frozen dataclass's four
    ``object.__setattr__`` calls (opening a 50,000-fact store builds one per fact)."""
    entry = Entry.__new__(Entry)
    object.__setattr__(
        entry, "__dict__", {"fact": fact, "location": location, "sha256": sha256, "legacy": legacy}
    )
    return entry


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
    # stems of files that are provably leftovers of an interrupted write (a superseded copy of
    # a fact that is present under another name); removed by the next repair under the lock
    superseded: list[str] = field(default_factory=list)
    # (size, mtime_ns, inode) of every fact file the scan considered, by file stem, as the
    # scan saw it (what the recall index cache keeps to check the files it reads later)
    files: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    version: int = 0  # bumped by every change this process makes to ``entries``

    def by_id(self) -> dict[str, Entry]:
        return {e.fact.id: e for e in self.entries.values()}


def mtime_of(st: os.stat_result) -> datetime:
    """A file's mtime as an aware UTC datetime with millisecond precision."""
    return datetime.fromtimestamp(st.st_mtime, UTC).replace(
        microsecond=(int(st.st_mtime * 1000) % 1000) * 1000
    )
