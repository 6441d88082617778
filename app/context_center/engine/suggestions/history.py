"""This workspace's own session log: the user turns any agent or script chose to record.

The log lives at ``Layout.state_dir / "history.jsonl"`` and is JSON Lines, UTF-8, one object per
line, appended and never rewritten::

    {"v": 1, "session": "day-2026-11-02", "time": "2026-11-02T09:14:03.120Z",
     "role": "user", "text": "Always run ruff before committing.", "cwd": "/home/ana/shop"}

- ``v``: format version, always 1. A line with another version is skipped (and counted).
- ``session``: any non-empty string naming the conversation the turn belongs to. When the writer
  gives none, ``$CONTEXT_CENTER_SESSION`` is used, else one session per UTC day (``day-YYYY-MM-DD``).
- ``time``: RFC 3339 in UTC with milliseconds (see ``model.format_time``).
- ``role``: always ``"user"``; only what a person typed belongs here.
- ``text``: the turn as typed, 1 to ``MAX_TEXT_CHARS`` characters.
- ``cwd``: the absolute workspace path the turn was typed in; readers match on it exactly.

The log and its lock are 0600 in a 0700 state folder (what a person typed is private); looser
modes left by an older version are tightened on the next append, and a symlinked log is refused.
Appends take a cross-process lock (``history.jsonl.lock`` beside the log) and write each line with
a single ``O_APPEND`` write, so concurrent appenders never interleave. A writer killed mid-line
leaves a torn last line; the next append starts on a fresh line and readers skip the torn one.
This is the one file the engine appends to rather than replacing through ``engine.atomic``:
rewriting a growing log on every turn would be quadratic and would race with readers.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from context_center.engine.errors import InvalidRequest
from context_center.engine.kinds import format_time, utc_now
from context_center.engine.store import atomic
from context_center.engine.store.locking import LOG_TIMEOUT_S, file_lock, hold
from context_center.engine.store.paths import Layout
from context_center.engine.store.private import (
    FILE_MODE,
    ensure_private_dir,
)

FORMAT_VERSION = 1
HISTORY_FILE = "history.jsonl"
LOCK_SUFFIX = ".lock"
SESSION_ENV = "CONTEXT_CENTER_SESSION"
MAX_TEXT_CHARS = 20_000
MAX_SESSION_CHARS = 200
LOCK_TIMEOUT_S = LOG_TIMEOUT_S


class HistoryEntry(BaseModel):
    """One line of the log."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="ignore")

    v: int = FORMAT_VERSION
    session: str = Field(min_length=1, max_length=MAX_SESSION_CHARS)
    time: datetime
    role: str = "user"
    text: str = Field(min_length=1)
    cwd: str

    def to_line(self) -> bytes:
        data = {
            "v": self.v,
            "session": self.session,
            "time": format_time(self.time),
            "role": self.role,
            "text": self.text,
            "cwd": self.cwd,
        }
        return (json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")


def history_path(layout: Layout) -> Path:
    return layout.state_dir / HISTORY_FILE


def default_session(now: datetime) -> str:
    env = os.environ.get(SESSION_ENV, "").strip()
    if env:
        return env[:MAX_SESSION_CHARS]
    return "day-" + format_time(now)[:10]


def append_turn(
    layout: Layout,
    text: str,
    session: str | None = None,
    time: datetime | None = None,
) -> HistoryEntry:
    """Append one user turn to this workspace's log and return the entry written.

    Raises InvalidRequest for empty or oversized text, StoreUnavailable if the lock cannot be
    taken within ``LOCK_TIMEOUT_S`` seconds.
    """
    if not isinstance(text, str) or not text.strip():
        raise InvalidRequest("a history turn needs some text")
    if len(text) > MAX_TEXT_CHARS:
        raise InvalidRequest(
            f"a history turn is limited to {MAX_TEXT_CHARS} characters (got {len(text)})"
        )
    when = time if time is not None else utc_now()
    if when.tzinfo is None:
        raise InvalidRequest("the turn's time must carry a time zone")
    name = (session or "").strip() or default_session(when)
    if len(name) > MAX_SESSION_CHARS or "\n" in name:
        raise InvalidRequest(f"a session id is one line of at most {MAX_SESSION_CHARS} characters")
    entry = HistoryEntry(
        session=name, time=when, text=text, cwd=str(Path(layout.workspace).absolute())
    )
    line = entry.to_line()
    path = history_path(layout)
    ensure_private_dir(path.parent)
    lock = file_lock(str(path) + LOCK_SUFFIX, timeout=LOCK_TIMEOUT_S, mode=FILE_MODE)
    with hold(lock, f"the history log ({path.name})"):
        _append_line(path, line)
    return entry


def _append_line(path: Path, line: bytes) -> None:
    atomic.append_line(path, line, mode=FILE_MODE, what="the history log")


@dataclass(frozen=True, slots=True)
class HistoryRead:
    """What reading the log found: the entries in file order and how many lines were skipped."""

    entries: list[HistoryEntry]
    malformed: int
    exists: bool


def read_history(path: Path) -> HistoryRead:
    """Every valid entry of the log at ``path``; bad lines are skipped and counted, never fatal."""
    entries: list[HistoryEntry] = []
    malformed = 0
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return HistoryRead([], 0, False)
    for raw in data.splitlines():
        if not raw.strip():
            continue
        entry = parse_line(raw)
        if entry is None:
            malformed += 1
        else:
            entries.append(entry)
    return HistoryRead(entries, malformed, True)


def parse_fields(raw: bytes | str) -> tuple[str, datetime, str, str] | None:
    """(session, time, text, cwd) of one valid version-1 user line, else None."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    if not isinstance(data, dict) or data.get("v") != FORMAT_VERSION or data.get("role") != "user":
        return None
    text, session, cwd, stamp = (
        data.get("text"),
        data.get("session"),
        data.get("cwd"),
        data.get("time"),
    )
    if not (isinstance(text, str) and text.strip() and isinstance(session, str) and session):
        return None
    if not (isinstance(cwd, str) and cwd and isinstance(stamp, str)):
        return None
    try:
        when = datetime.fromisoformat(stamp)
        if when.tzinfo is not None:
            when.astimezone(UTC)  # a time with no UTC time (year 1 east of UTC) is no time
    except (ValueError, OverflowError):
        return None
    if when.tzinfo is None:
        return None
    return session, when, text, cwd


def parse_line(raw: bytes | str) -> HistoryEntry | None:
    """One log line as an entry, or None when it is not a valid version-1 user turn."""
    fields = parse_fields(raw)
    if fields is None:
        return None
    session, when, text, cwd = fields
    return HistoryEntry.model_construct(
        v=FORMAT_VERSION, session=session, time=when, role="user", text=text, cwd=cwd
    )
