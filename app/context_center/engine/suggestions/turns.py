"""What every source of user turns shares: the turn, the per-source report, workspace matching,
and the helpers that read JSON Lines transcripts quickly and without ever raising.

A line is malformed when it is not a complete JSON object (the usual damage: a torn or truncated
write), or when it is a record that can carry a user turn and does not decode or lacks the
fields its kind needs. To keep large transcripts fast, a complete-looking line that cannot carry
a user turn (it lacks the source's tell-tale text, such as ``"type":"user"``) is passed over
without being decoded. Nothing here writes.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from context_center.engine.suggestions.textual import hash32


class SourceName(StrEnum):
    HISTORY = "history"
    CLAUDE = "claude"
    CODEX = "codex"


class SourceStatus(StrEnum):
    OK = "ok"
    MISSING = "missing"
    UNCONFIRMED = "unconfirmed"  # the source is not on a file system we can confirm is local


@dataclass(frozen=True, slots=True)
class UserTurn:
    """One thing a person typed, with where and when. ``index`` orders turns within a session;
    ``message`` is the transcript's own id of the line, when it has one (the same message
    copied into another file, as a resumed session is, keeps it)."""

    source: str
    session: str
    time: datetime | None
    text: str
    cwd: str
    index: int = 0
    message: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        # A session id is quoted into what a candidate saves ("… session <id> on …"): one
        # that is not a plain id (a transcript can hold anything there: escapes, line breaks
        # that forge a "**How to apply:**" line) is shown by a digest of itself instead.
        if not _PLAIN_SESSION.fullmatch(self.session):
            object.__setattr__(self, "session", f"session-{hash32(self.session)}")


_PLAIN_SESSION = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:@+-]{0,127}")


@dataclass(slots=True)
class SourceReport:
    """What one source contributed to a scan. ``agent_sessions`` counts sessions of the
    workspace that an agent wrote (a sub-agent's or a review's prompts), which are not read."""

    source: str
    root: str
    status: str = SourceStatus.OK.value
    files: int = 0
    sessions: int = 0
    turns: int = 0
    malformed: int = 0
    agent_sessions: int = 0
    note: str = ""

    def public_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "root": self.root,
            "status": self.status,
            "files": self.files,
            "sessions": self.sessions,
            "turns": self.turns,
            "malformed": self.malformed,
            "agent_sessions": self.agent_sessions,
            "note": self.note,
        }


@dataclass(slots=True)
class SourceRead:
    report: SourceReport
    turns: list[UserTurn] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class FileRead:
    """What reading one transcript file gave: its turns and malformed lines; ``agent`` when an
    agent wrote the session (nothing in it is the person's)."""

    turns: list[UserTurn]
    malformed: int = 0
    agent: bool = False


class WorkspaceMatcher:
    """Resolved-path equality against one workspace, with a cache for the cwd strings seen."""

    def __init__(self, workspace: Path) -> None:
        self.path = os.path.realpath(workspace)
        self._cache: dict[str, bool] = {}

    def __call__(self, cwd: object) -> bool:
        if not isinstance(cwd, str) or not cwd:
            return False
        hit = self._cache.get(cwd)
        if hit is None:
            hit = os.path.isabs(cwd) and os.path.realpath(cwd) == self.path
            self._cache[cwd] = hit
        return hit


# A block that is entirely one XML-ish element (<environment_context>…</environment_context>).
WHOLE_ELEMENT_RE = re.compile(r"^\s*<([A-Za-z_][\w\-]*)(?:\s[^>]*)?>.*</\1>\s*$", re.DOTALL)


def parse_time(value: object) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        when = datetime.fromisoformat(value)
        when = when if when.tzinfo else when.replace(tzinfo=UTC)
        when.astimezone(UTC)  # 0001-01-01T00:00:00+01:00 has no UTC time: no time at all
    except (ValueError, OverflowError):
        return None
    return when


def split_lines(data: bytes) -> list[bytes]:
    return [line for line in (raw.strip() for raw in data.splitlines()) if line]


def read_lines(path: Path) -> list[bytes] | None:
    """The non-blank lines of ``path``, or None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    return split_lines(data)


def jsonl_files_newest_first(paths: Iterable[Path]) -> list[tuple[float, Path]]:
    out: list[tuple[float, Path]] = []
    for path in paths:
        try:
            st = path.stat()
        except OSError:
            continue
        if path.is_file():
            out.append((st.st_mtime, path))
    out.sort(key=lambda item: (-item[0], str(item[1])))
    return out


def whole_object(raw: bytes) -> bool:
    return raw.startswith(b"{") and raw.endswith(b"}")


def decode(raw: bytes) -> dict[str, Any] | None:
    """One line as a JSON object, or None when it is not one."""
    if not whole_object(raw):
        return None
    try:
        entry = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return None
    return entry if isinstance(entry, dict) else None


def json_objects(
    lines: Iterable[bytes], tell: re.Pattern[bytes]
) -> Iterator[dict[str, Any] | None]:
    """The JSON objects among ``lines`` that ``tell`` picks out, None for each malformed line.
    Lines without the tell are skipped unparsed: most lines of a transcript are not the
    person's turns, and a regular-expression search is far cheaper than ``json.loads``."""
    for raw in lines:
        if not whole_object(raw):
            yield None
            continue
        if tell.search(raw) is None:
            continue
        yield decode(raw)


def content_text(
    content: object,
    clean: Callable[[str], str],
    text_kinds: tuple[str, ...],
    not_a_turn: tuple[str, ...] = (),
) -> str | None:
    """The person's text of a message's content (a string, or a list of typed blocks whose
    ``text_kinds`` carry text): '' when there is none, None when malformed. A block of a kind
    in ``not_a_turn`` makes the whole message ''."""
    if isinstance(content, str):
        return clean(content)
    if not isinstance(content, list):
        return None
    parts: list[str] = []
    for block in content:
        if not isinstance(block, dict):
            return None
        kind = block.get("type")
        if kind in not_a_turn:
            return ""
        if kind in text_kinds and isinstance(block.get("text"), str):
            cleaned = clean(block["text"])
            if cleaned:
                parts.append(cleaned)
    return "\n".join(parts)


def read_newest_sessions(
    report: SourceReport,
    files: list[tuple[float, Path]],
    read: Callable[[Path], FileRead | None],
    session_limit: int,
    max_files: int | None = None,
) -> SourceRead:
    """Read ``files`` (newest first) until ``session_limit`` sessions are in or ``max_files``
    files were examined. ``read`` gives a file's turns, or None for a file of another
    workspace, which the report does not count; a session an agent wrote is counted as such
    and contributes nothing."""
    turns: list[UserTurn] = []
    sessions: set[str] = set()
    seen: set[str] = set()  # message ids: a message read once counts once
    for examined, (_mtime, path) in enumerate(files):
        if len(sessions) >= session_limit or (max_files is not None and examined >= max_files):
            break
        got = read(path)
        if got is None:
            continue
        report.files += 1
        report.malformed += got.malformed
        if got.agent:
            report.agent_sessions += 1
            continue
        new = []
        for t in got.turns:
            if t.message:
                if t.message in seen:
                    continue
                seen.add(t.message)
            new.append(t)
        if new:
            turns.extend(new)
            sessions.update(turn.session for turn in new)
    report.sessions = len(sessions)
    report.turns = len(turns)
    return SourceRead(report, turns)
