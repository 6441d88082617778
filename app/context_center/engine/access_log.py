"""The agent access log: what agents did through the MCP server and the hooks, content-free.

One JSON line per access in ``<state>/access-log.jsonl`` (the workspace's private state
folder: 0700, the file 0600), appended with ``atomic.append_line`` under a short lock. A line
holds when, which agent (and client), which tool or hook, the refs returned or written, the
pending approval id, the outcome and an error code — never a body, a title, a description or
a query: a query is kept only as the first 16 hex digits of its sha256 and its length.

The log is bounded: entries older than ``MAX_AGE_DAYS`` and all but the newest
``MAX_ENTRIES`` are dropped. Appending stays O(1): the file is compacted (rewritten
atomically) only when it has grown well past the bound or its first line is too old.
Logging never breaks the access it records: a failure is logged and swallowed.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from context_center.engine.kinds import format_time, utc_now
from context_center.engine.store import atomic
from context_center.engine.store.locking import BEST_EFFORT_TIMEOUT_S, brief_lock
from context_center.engine.store.private import (
    FILE_MODE,
    O_NOFOLLOW,
    ensure_private_dir,
)

log = logging.getLogger(__name__)

LOG_FILE = "access-log.jsonl"
MAX_AGE_DAYS = 30
MAX_ENTRIES = 10_000
MAX_REFS = 20  # refs listed per entry (the rest are counted)
# Compact when the file holds this many more lines than the bound (checked by size).
_SLACK_ENTRIES = 2_000
_TYPICAL_LINE_BYTES = 260
_LOCK_TIMEOUT_S = BEST_EFFORT_TIMEOUT_S
_TEXT_CAP = 200
FLUSH_EVERY_S = 0.25  # agent, client, tool and code strings are labels, never content


def query_digest(text: str) -> dict[str, Any]:
    """A query as the log keeps it: a short digest and the length in characters."""
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    return {"sha256": digest, "length": len(text)}


def _label(value: object) -> str:
    text = "".join(ch if ch.isprintable() else " " for ch in str(value))
    return " ".join(text.split())[:_TEXT_CAP]


@dataclass(frozen=True)
class AccessEntry:
    """One agent access. ``refs`` are provider-visible references (``project/<name>.md``)."""

    via: str  # "mcp" | "hook"
    tool: str  # a tool name, a resource read, or a hook event
    agent: str
    outcome: str  # ok | applied | queued | refused | error | denied | allowed | empty
    client: str = ""
    refs: Sequence[str] = ()
    pending_id: str | None = None
    error: str | None = None
    query: str | None = None  # digested before it is written
    elapsed_ms: float | None = None
    at: datetime = field(default_factory=utc_now)

    def to_json(self) -> dict[str, Any]:
        refs = [_label(r) for r in self.refs]
        line: dict[str, Any] = {
            "v": 1,
            "at": format_time(self.at),
            "via": _label(self.via),
            "tool": _label(self.tool),
            "agent": _label(self.agent),
            "client": _label(self.client),
            "outcome": _label(self.outcome),
            "refs": refs[:MAX_REFS],
        }
        if len(refs) > MAX_REFS:
            line["refs_more"] = len(refs) - MAX_REFS
        if self.pending_id:
            line["pending_id"] = _label(self.pending_id)
        if self.error:
            line["error"] = _label(self.error)
        if self.query is not None:
            line["query"] = query_digest(self.query)
        if self.elapsed_ms is not None:
            line["elapsed_ms"] = round(self.elapsed_ms, 3)
        return line


class AccessLog:
    """The access log of one workspace (its state folder)."""

    def __init__(self, state_dir: Path) -> None:
        self.folder = state_dir
        self.path = state_dir / LOG_FILE
        self._pending: list[AccessEntry] | None = None  # queued while a writer thread runs
        self._pending_lock = threading.Lock()
        self._stop = threading.Event()
        self._writer: threading.Thread | None = None

    # -- a background writer for long-lived processes ---------------------------------------

    def start_background(self) -> None:
        """From now on ``append`` only queues the entry; a writer thread appends what is
        queued every ``FLUSH_EVERY_S`` in one write and one fsync. A request never waits for
        the log, nor wakes the writer (waking it would hand it the GIL mid-request).
        ``close`` writes what is left."""
        if self._writer is not None:
            return
        self._pending = []
        self._stop = threading.Event()
        self._writer = threading.Thread(target=self._drain, name="access-log", daemon=True)
        self._writer.start()

    def _drain(self) -> None:
        while not self._stop.wait(FLUSH_EVERY_S):
            self.flush()
        self.flush()

    def flush(self) -> None:
        """Write every queued entry now (the background writer calls this)."""
        with self._pending_lock:
            batch, self._pending = self._pending, [] if self._pending is not None else None
        if batch:
            self._write(batch)

    def close(self, timeout: float = 5.0) -> None:
        writer = self._writer
        if writer is None:
            return
        self._stop.set()
        writer.join(timeout)
        self._writer = None
        with self._pending_lock:
            batch, self._pending = self._pending, None
        if batch:
            self._write(batch)

    def _locked(self) -> Any:
        return brief_lock(
            self.folder / f".{LOG_FILE}.lock",
            "the access log",
            timeout=_LOCK_TIMEOUT_S,
            mode=FILE_MODE,
        )

    def append(self, entry: AccessEntry) -> bool:
        """Record one access; False (and a log line) when it could not be written. With a
        background writer running, the entry is queued and True is returned."""
        with self._pending_lock:
            if self._pending is not None:
                self._pending.append(entry)
                return True
        return self._write([entry])

    def _write(self, entries: list[AccessEntry]) -> bool:
        line = b"".join(
            (json.dumps(e.to_json(), ensure_ascii=False) + "\n").encode("utf-8") for e in entries
        )
        try:
            ensure_private_dir(self.folder)
            with self._locked():
                self._append(line)
                self._compact_if_due(entries[-1].at)
        except Exception as exc:  # the access goes on; only its record is missing
            log.warning("could not record an agent access in %s: %s", LOG_FILE, exc)
            return False
        return True

    def _append(self, line: bytes) -> None:
        atomic.append_line(self.path, line, mode=FILE_MODE, what="the access log")

    def _compact_if_due(self, now: datetime) -> None:
        try:
            size = os.stat(self.path).st_size
            with open(self.path, "rb") as handle:
                first = handle.readline(4096)
        except OSError:
            return
        too_big = size > (MAX_ENTRIES + _SLACK_ENTRIES) * _TYPICAL_LINE_BYTES
        if too_big or _older_than(first, now - timedelta(days=MAX_AGE_DAYS)):
            self.compact(now)

    def compact(self, now: datetime | None = None) -> int:
        """Rewrite the log keeping only the bounded tail. Returns how many entries remain.
        The caller holds the lock (``append``), or nothing else writes (tests)."""
        now = now or utc_now()
        kept = _bounded(self._raw_lines(), now)
        data = b"".join(kept)
        atomic.write_bytes(self.path, data, mode=FILE_MODE)
        return len(kept)

    def _raw_lines(self) -> list[bytes]:
        try:
            fd = os.open(self.path, os.O_RDONLY | O_NOFOLLOW)
        except OSError:
            return []
        with os.fdopen(fd, "rb") as handle:
            return [
                line if line.endswith(b"\n") else line + b"\n" for line in handle if line.strip()
            ]

    def entries(self, *, limit: int = 500, now: datetime | None = None) -> list[dict[str, Any]]:
        """The newest entries first, at most ``limit``, within the age bound; damaged lines
        are skipped."""
        now = now or utc_now()
        cutoff = now - timedelta(days=MAX_AGE_DAYS)
        out: list[dict[str, Any]] = []
        for raw in reversed(self._raw_lines()):
            item = _parse(raw)
            if item is None:
                continue
            at = _when(item)
            if at is not None and at < cutoff:
                break  # appended in time order: everything before is older still
            out.append(item)
            if len(out) >= limit:
                break
        return out


def _parse(raw: bytes) -> dict[str, Any] | None:
    with contextlib.suppress(ValueError, RecursionError):
        item = json.loads(raw)
        if isinstance(item, dict):
            return item
    return None


def _when(item: dict[str, Any]) -> datetime | None:
    value = item.get("at")
    if not isinstance(value, str):
        return None
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None


def _older_than(raw: bytes, cutoff: datetime) -> bool:
    item = _parse(raw)
    at = _when(item) if item is not None else None
    return at is not None and at < cutoff


def _bounded(lines: Iterable[bytes], now: datetime) -> list[bytes]:
    cutoff = now - timedelta(days=MAX_AGE_DAYS)
    kept = []
    for raw in lines:
        item = _parse(raw)
        if item is None:
            continue
        at = _when(item)
        if at is None or at < cutoff:
            continue
        kept.append(raw)
    return kept[-MAX_ENTRIES:]
