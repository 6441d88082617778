"""User turns from Codex CLI rollouts: ``<codex_root>/sessions/YYYY/MM/DD/rollout-*.jsonl``.

Two formats are read.

- Since late 2025 each line is ``{"timestamp", "type", "payload"}``; ``session_meta`` (and later
  ``turn_context``) carry ``payload.cwd``; a person's turn is a ``response_item`` whose payload
  is a ``message`` with ``role: "user"`` and ``input_text`` blocks, mirrored by an ``event_msg``
  ``user_message`` in newer releases (the two are merged, never double counted).
- The 2025 format has no wrapper: the first line is a bare header ``{id, timestamp,
  instructions, git?, cwd?}``, then ``{"record_type": "state"}`` markers and bare response items
  (``{"type": "message", "role": "user", "content": [...]}``) with no timestamp of their own (the
  header's is used). When the header has no ``cwd``, the working directory is only in the
  ``<cwd>`` of the injected ``<environment_context>`` message.

Injected context such as ``<environment_context>``, ``<user_instructions>`` and ``# AGENTS.md
instructions for …`` is not a turn. A session whose ``session_meta.payload.source`` marks a
sub-agent (``{"subagent": "review"}``, ``{"subagent": {"thread_spawn": …}}``, ``{"subagent":
{"other": …}}``) or an internal job (``{"internal": "memory_consolidation"}``), or whose
``thread_source`` is ``subagent`` / ``memory_consolidation``, holds prompts the parent agent
wrote, not the person's words: it yields no turns and is counted as an agent session.

Rollouts of every workspace share one tree, so a file whose first line names another workspace
is rejected after that line.
"""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from context_center.engine.suggestions.turns import (
    WHOLE_ELEMENT_RE,
    FileRead,
    SourceName,
    SourceRead,
    SourceReport,
    SourceStatus,
    UserTurn,
    WorkspaceMatcher,
    content_text,
    decode,
    json_objects,
    jsonl_files_newest_first,
    parse_time,
    read_newest_sessions,
    split_lines,
)

CODEX_MAX_FILES = 2000  # rollouts of every workspace share one tree: examine at most this many

_CODEX_INJECTED = (
    "<environment_context>", "<user_instructions>", "<INSTRUCTIONS>", "# AGENTS.md instructions",
    "<user_shell_command>", "<turn_aborted>", "<recommended_plugins>", "<permissions",
    "<skill>", "<collaboration_mode>", "<personality_spec>",
)  # fmt: skip
_CODEX_TELL_RE = re.compile(rb'"role": ?"user"|"user_message"|"session_meta"|"turn_context"')
_CONTEXT_CWD_RE = re.compile(r"<environment_context>.*?<cwd>\s*(.*?)\s*</cwd>", re.DOTALL)
_SESSION_ID_RE = re.compile(r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})")
_AGENT_SOURCES = ("subagent", "internal")
_AGENT_THREADS = ("subagent", "memory_consolidation")

Entry = tuple[datetime | None, str, str]  # (time, text, cwd)


def clean_codex_text(text: str) -> str:
    text = text.strip()
    if not text or text.startswith(_CODEX_INJECTED) or WHOLE_ELEMENT_RE.match(text):
        return ""
    return text


def _message_text(content: object) -> str | None:
    return content_text(content, clean_codex_text, ("input_text", "text"))


def is_agent_session(meta: dict[str, Any]) -> bool:
    """Whether a session's metadata says an agent, not a person, started it."""
    source = meta.get("source")
    names: list[str] = []
    if isinstance(source, dict):
        names = [str(key) for key in source]
    elif isinstance(source, str):
        names = [source]  # "subagent_review" is how Codex displays one
    if any(name.lower().replace("_", "").startswith(_AGENT_SOURCES) for name in names):
        return True
    thread = meta.get("thread_source")
    return isinstance(thread, str) and thread.lower() in _AGENT_THREADS


def _context_cwd(content: object) -> str | None:
    """The ``<cwd>`` of an injected ``<environment_context>`` block, if the message has one."""
    blocks = content if isinstance(content, list) else [{"text": content}]
    for block in blocks:
        text = block.get("text") if isinstance(block, dict) else None
        if isinstance(text, str) and "<environment_context>" in text:
            found = _CONTEXT_CWD_RE.search(text)
            if found and found.group(1):
                return found.group(1)
    return None


def _is_legacy_header(entry: dict[str, Any]) -> bool:
    return "type" not in entry and "payload" not in entry and isinstance(entry.get("id"), str)


class _CodexReader:
    """The state of reading one rollout, line by line."""

    def __init__(self, match: WorkspaceMatcher) -> None:
        self.match = match
        self.session = ""
        self.cwd: str | None = None
        self.ours = False
        self.agent = False
        self.malformed = 0
        self.header_time: datetime | None = None
        self.items: list[Entry] = []  # response_item user messages
        self.events: list[Entry] = []  # event_msg user_message

    def set_cwd(self, cwd: object) -> None:
        if isinstance(cwd, str):
            self.cwd = cwd
            self.ours = self.ours or self.match(cwd)

    def meta(self, payload: dict[str, Any]) -> None:
        sid = payload.get("id")
        if isinstance(sid, str) and sid:
            self.session = sid
        self.set_cwd(payload.get("cwd"))
        self.agent = self.agent or is_agent_session(payload)

    def legacy_header(self, header: dict[str, Any]) -> None:
        self.meta(header)
        self.header_time = parse_time(header.get("timestamp"))

    def _here(self) -> bool:
        return self.cwd is not None and self.match(self.cwd)

    def user_message(self, when: datetime | None, content: object) -> None:
        text = _message_text(content)
        if text is None:
            self.malformed += 1
            return
        if self.cwd is None:
            self.set_cwd(_context_cwd(content))
        if text and self._here():
            self.items.append((when, text, self.cwd or ""))

    def user_event(self, when: datetime | None, payload: dict[str, Any]) -> None:
        message = payload.get("message")
        if not isinstance(message, str):
            self.malformed += 1
        elif payload.get("kind", "plain") == "plain":
            text = clean_codex_text(message)
            if text and self._here():
                self.events.append((when, text, self.cwd or ""))

    def feed(self, entry: dict[str, Any]) -> None:
        payload = entry.get("payload")
        kind = entry.get("type")
        when = parse_time(entry.get("timestamp"))
        if isinstance(payload, dict):
            self._wrapped(kind, payload, when)
        elif kind == "message" and "payload" not in entry:  # the 2025 format's bare item
            if entry.get("role") == "user":
                self.user_message(when or self.header_time, entry.get("content"))
        else:
            self.malformed += 1

    def _wrapped(self, kind: object, payload: dict[str, Any], when: datetime | None) -> None:
        if kind == "session_meta":
            self.meta(payload)
        elif kind == "turn_context":
            self.set_cwd(payload.get("cwd"))
        elif kind == "response_item":
            if payload.get("type") == "message" and payload.get("role") == "user":
                self.user_message(when, payload.get("content"))
        elif kind == "event_msg" and payload.get("type") == "user_message":
            self.user_event(when, payload)

    def turns(self, path: Path) -> list[UserTurn]:
        session = self.session
        if not session:
            found = _SESSION_ID_RE.search(path.name)
            session = found.group(1) if found else path.stem
        merged = merge_codex(self.items, self.events)
        return [
            UserTurn(SourceName.CODEX.value, session, when, text, where, index)
            for index, (when, text, where) in enumerate(merged)
        ]


def _head_cwd(head: dict[str, Any] | None) -> str | None:
    if head is None:
        return None
    if head.get("type") == "session_meta" and isinstance(head.get("payload"), dict):
        cwd = head["payload"].get("cwd")
    elif _is_legacy_header(head):
        cwd = head.get("cwd")
    else:
        return None
    return cwd if isinstance(cwd, str) else None


def _open_rollout(
    path: Path, match: WorkspaceMatcher
) -> tuple[dict[str, Any] | None, list[bytes]] | None:
    """The decoded first line and every line, or None when the file cannot be read or its
    first line names another workspace (most files of the shared tree end here)."""
    try:
        with open(path, "rb") as handle:
            head = handle.readline()
            meta = decode(head.strip())
            cwd = _head_cwd(meta)
            if cwd is not None and not match(cwd):
                return None
            data = head + handle.read()
    except OSError:
        return None
    return meta, split_lines(data)


def read_codex_file(path: Path, match: WorkspaceMatcher) -> FileRead | None:
    """The file's turns, or None when it does not belong to the workspace at all."""
    opened = _open_rollout(path, match)
    if opened is None:
        return None
    head, lines = opened
    reader = _CodexReader(match)
    body = lines
    if head is not None and _is_legacy_header(head):
        reader.legacy_header(head)
        body = lines[1:]
    elif head is not None and head.get("type") == "session_meta":
        payload = head.get("payload")
        reader.meta(payload if isinstance(payload, dict) else {})
        if reader.agent and reader.ours:
            return FileRead([], 0, agent=True)  # nothing below is the person's
    for entry in json_objects(body, _CODEX_TELL_RE):
        if entry is None:
            reader.malformed += 1
        else:
            reader.feed(entry)
    if not reader.ours:
        return None
    if reader.agent:
        return FileRead([], reader.malformed, agent=True)
    return FileRead(reader.turns(path), reader.malformed)


def merge_codex(items: list[Entry], events: list[Entry]) -> list[Entry]:
    """Newer Codex writes each turn twice (response_item and event_msg): count each once."""
    if not events:
        return items
    if not items:
        return events
    merged = list(events)
    have = Counter(text for _, text, _ in events)
    for item in items:
        if have[item[1]] > 0:
            have[item[1]] -= 1
        else:
            merged.append(item)
    merged.sort(key=lambda t: t[0] or datetime.min.replace(tzinfo=UTC))
    return merged


def codex_session_files(root: Path) -> list[tuple[float, Path]]:
    sessions = root / "sessions"
    if not sessions.is_dir():
        return []
    return jsonl_files_newest_first(sessions.rglob("*.jsonl"))


def read_codex_source(
    root: Path, match: WorkspaceMatcher, session_limit: int, max_files: int = CODEX_MAX_FILES
) -> SourceRead:
    report = SourceReport(source=SourceName.CODEX.value, root=str(root))
    files = codex_session_files(root)
    if not files:
        report.status = SourceStatus.MISSING.value
        report.note = "no Codex CLI sessions"
        return SourceRead(report)
    return read_newest_sessions(
        report, files, lambda path: read_codex_file(path, match), session_limit, max_files
    )
