"""Read the user turns people already have, matched to one workspace, from three sources.

- ``history``: this workspace's own log (``history.py``).
- ``claude``: Claude Code transcripts, ``<claude_root>/projects/<encoded cwd>/<session>.jsonl``.
  Every line carries ``type``, ``cwd``, ``sessionId``, ``timestamp``; a person's turn is a
  ``type: "user"`` line whose ``message.content`` is a string or a list of ``text`` blocks. Lines
  with ``tool_result`` blocks (tool output), ``isMeta`` (caveats, hook output), ``isSidechain``
  (sub-agent prompts), ``isCompactSummary`` / ``isVisibleInTranscriptOnly`` (compaction), and
  command wrappers (``<command-name>``, ``<local-command-stdout>``, ``<bash-input>`` …) are not.
  The folder name is the cwd with every character other than a letter or digit turned into
  ``-`` (older releases replaced only ``/`` and ``.``); both spellings are looked up, and each
  line's own ``cwd`` still has to match.
- ``codex``: Codex CLI rollouts, ``<codex_root>/sessions/YYYY/MM/DD/rollout-*.jsonl``. Each line
  is ``{"timestamp", "type", "payload"}``; ``session_meta`` (and later ``turn_context``) carry
  ``payload.cwd``; a person's turn is a ``response_item`` whose payload is a ``message`` with
  ``role: "user"`` and ``input_text`` blocks, mirrored by an ``event_msg`` ``user_message`` in newer
  releases (the two are merged, never double counted). Injected context such as
  ``<environment_context>``, ``<user_instructions>`` and ``# AGENTS.md instructions for …`` is
  not a turn.

A source that is missing is skipped; a malformed line is skipped and counted; nothing here ever
raises for bad input. A line is malformed when it is not a complete JSON object (the usual damage:
a torn or truncated write), or when it is a record that can carry a user turn and does not decode
or lacks the fields its kind needs. To keep large transcripts fast, a complete-looking line that
cannot carry a user turn (an assistant reply, a tool call, a snapshot: it lacks the tell-tale
``"type":"user"`` / ``"role":"user"`` / ``user_message`` / ``session_meta`` / ``turn_context``
text) is passed over without being decoded. A turn counts for the
workspace only when its recorded working directory, resolved, equals the resolved workspace path.
Sessions are read newest first and reading stops once ``session_limit`` sessions of the workspace
were found in that source. Nothing here writes.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path
from typing import Any

from context_center.engine.store.paths import Layout
from context_center.engine.suggestions.history import history_path, parse_fields


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
    """One thing a person typed, with where and when. ``index`` orders turns within a session."""

    source: str
    session: str
    time: datetime | None
    text: str
    cwd: str
    index: int = 0


@dataclass(slots=True)
class SourceReport:
    """What one source contributed to a scan."""

    source: str
    root: str
    status: str = SourceStatus.OK.value
    files: int = 0
    sessions: int = 0
    turns: int = 0
    malformed: int = 0
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
            "note": self.note,
        }


@dataclass(slots=True)
class SourceRead:
    report: SourceReport
    turns: list[UserTurn] = field(default_factory=list)


# ---------------------------------------------------------------- workspace matching


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


# ---------------------------------------------------------------- local / remote

_URI_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:/")  # ssh://, vscode-remote://, file:/ …
_SCP_RE = re.compile(r"^(?:[^@/\s]+@)?[^/\s:]+:")  # host:/path, user@host:path
_WINDOWS_DRIVE_RE = re.compile(r"^[A-Za-z]:[\\/]")
_MANGLED_SCHEME_RE = re.compile(
    r"^(?:ssh|sftp|vscode-remote|vscode-vfs|file|smb|nfs|https?|[\w.\-]+\+[\w.\-]+):$"
)
NETWORK_FILESYSTEMS = frozenset(
    {
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "afs", "coda", "ceph", "glusterfs",
        "lustre", "gpfs", "beegfs", "davfs", "9p.remote", "fuse.sshfs", "sshfs", "fuse.rclone",
        "fuse.s3fs", "fuse.gcsfuse", "fuse.glusterfs", "fuse.cephfs", "fuse.davfs2",
    }
)  # fmt: skip


def read_mount_table() -> list[tuple[str, str]] | None:
    """(mount point, file system type) pairs from /proc/self/mounts; None where there is none."""
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as handle:
            rows = handle.read().splitlines()
    except OSError:
        return None
    table: list[tuple[str, str]] = []
    for row in rows:
        parts = row.split()
        if len(parts) >= 3:
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), parts[1])
            table.append((point, parts[2]))
    return table


def _filesystem_of(path: str, table: list[tuple[str, str]]) -> str | None:
    best: tuple[int, str] | None = None
    for point, fstype in table:
        root = point.rstrip("/") or "/"
        inside = root == "/" or path == root or path.startswith(root + "/")
        if inside and (best is None or len(root) > best[0]):
            best = (len(root), fstype)
    return best[1] if best else None


def network_filesystem(path: str, mounts: Callable[[], list[tuple[str, str]] | None]) -> str | None:
    """The network file system type ``path`` lives on, or None when it is local or unknown.

    Where the platform has no mount table (macOS, Windows) nothing can be learned and the path
    is treated as local; a workspace URI or ``host:path`` is still refused by ``remote_reason``.
    """
    table = mounts()
    if not table:
        return None
    fstype = _filesystem_of(path, table)
    if fstype and (fstype in NETWORK_FILESYSTEMS or fstype.startswith("nfs")):
        return fstype
    return None


def remote_reason(
    workspace: Path | str,
    mounts: Callable[[], list[tuple[str, str]] | None] = read_mount_table,
) -> str | None:
    """Why the workspace cannot be treated as local, or None when it can."""
    text = str(workspace)
    if os.name == "nt" and _WINDOWS_DRIVE_RE.match(text):
        pass
    elif _URI_RE.match(text) or (not text.startswith(("/", "\\", ".")) and _SCP_RE.match(text)):
        return (
            f"The workspace {text!r} is a remote location. Suggestions read only local session "
            "history of a local workspace and never fall back to this machine's history for it, "
            "so nothing was scanned."
        )
    path = Path(text)
    if not path.exists() and any(_MANGLED_SCHEME_RE.match(part) for part in path.parts[1:]):
        # "ssh://host/x" made absolute by a caller becomes "/cwd/ssh:/host/x".
        return (
            f"The workspace {text!r} looks like a remote location. Suggestions read only local "
            "session history of a local workspace, so nothing was scanned."
        )
    if not path.is_absolute():
        return f"The workspace {text!r} is not an absolute local path, so nothing was scanned."
    if not path.is_dir():
        return (
            f"The workspace {text!r} does not exist on this machine (it may live on a remote "
            "host). Suggestions fail closed: nothing was scanned."
        )
    fstype = network_filesystem(os.path.realpath(path), mounts)
    if fstype:
        return (
            f"The workspace {text!r} is on a network file system ({fstype}), so it cannot be "
            "confirmed local. Suggestions fail closed: nothing was scanned."
        )
    return None


# ---------------------------------------------------------------- text helpers

# A block that is entirely one XML-ish element (<environment_context>…</environment_context>).
_WHOLE_ELEMENT_RE = re.compile(r"^\s*<([A-Za-z_][\w\-]*)(?:\s[^>]*)?>.*</\1>\s*$", re.DOTALL)
_SYSTEM_REMINDER_RE = re.compile(r"<system-reminder>.*?</system-reminder>", re.DOTALL)
_CLAUDE_WRAPPERS = (
    "<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
    "<local-command-stderr>", "<local-command-caveat>", "<bash-input>", "<bash-stdout>",
    "<bash-stderr>", "<task-notification>", "<user-prompt-submit-hook>", "<system-reminder>",
    "Caveat: The messages below were generated by the user while running local commands",
    "[Request interrupted by user",
    "This session is being continued from a previous conversation",
)  # fmt: skip
_CODEX_INJECTED = (
    "<environment_context>", "<user_instructions>", "<INSTRUCTIONS>", "# AGENTS.md instructions",
    "<user_shell_command>", "<turn_aborted>", "<recommended_plugins>", "<permissions",
    "<skill>", "<collaboration_mode>", "<personality_spec>",
)  # fmt: skip


def _clean_claude_text(text: str) -> str:
    text = _SYSTEM_REMINDER_RE.sub("", text).strip()
    if not text or text.startswith(_CLAUDE_WRAPPERS) or _WHOLE_ELEMENT_RE.match(text):
        return ""
    return text


def _clean_codex_text(text: str) -> str:
    text = text.strip()
    if not text or text.startswith(_CODEX_INJECTED) or _WHOLE_ELEMENT_RE.match(text):
        return ""
    return text


def parse_time(value: object) -> datetime | None:
    if not isinstance(value, str) or not value:
        return None
    try:
        when = datetime.fromisoformat(value)
    except ValueError:
        return None
    return when if when.tzinfo else when.replace(tzinfo=UTC)


def _read_lines(path: Path) -> list[bytes] | None:
    """The non-blank lines of ``path``, or None when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return None
    return [line for line in (raw.strip() for raw in data.splitlines()) if line]


def _jsonl_files_newest_first(paths: Iterable[Path]) -> list[tuple[float, Path]]:
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


# ---------------------------------------------------------------- history


def read_history_source(layout: Layout, match: WorkspaceMatcher, session_limit: int) -> SourceRead:
    path = history_path(layout)
    report = SourceReport(source=SourceName.HISTORY.value, root=str(path))
    lines = _read_lines(path) if path.exists() else None
    if lines is None:
        report.status = SourceStatus.MISSING.value
        report.note = "no history log yet (context-center history append writes one)"
        return SourceRead(report)
    report.files = 1
    turns: list[UserTurn] = []
    per_session: Counter[str] = Counter()
    last_seen: dict[str, datetime] = {}
    for raw in lines:
        fields = parse_fields(raw)
        if fields is None:
            report.malformed += 1
            continue
        session, when, text, cwd = fields
        if not match(cwd):
            continue
        turns.append(
            UserTurn(SourceName.HISTORY.value, session, when, text, cwd, per_session[session])
        )
        per_session[session] += 1
        if session not in last_seen or when > last_seen[session]:
            last_seen[session] = when
    keep = set(sorted(last_seen, key=lambda s: (last_seen[s], s), reverse=True)[:session_limit])
    turns = [t for t in turns if t.session in keep]
    report.sessions = len(keep)
    report.turns = len(turns)
    return SourceRead(report, turns)


# ---------------------------------------------------------------- Claude Code


def claude_folder_names(workspace: Path) -> list[str]:
    """The folder names Claude Code may have used for this workspace under ``projects/``."""
    names: list[str] = []
    for text in {str(Path(workspace).absolute()), os.path.realpath(workspace)}:
        for name in (
            re.sub(r"[^A-Za-z0-9]", "-", text),
            re.sub(r"[/\\.:]", "-", text),
            re.sub(r"[/\\]", "-", text),
        ):
            if name not in names:
                names.append(name)
    return names


def _content_text(
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


def _claude_text(content: object) -> str | None:
    """The person's text of a user message, '' when there is none, None when malformed.
    Tool output travels in user lines; it is never the person's turn."""
    return _content_text(content, _clean_claude_text, ("text",), not_a_turn=("tool_result",))


_CLAUDE_TELL_RE = re.compile(rb'"type": ?"user"')
_CODEX_TELL_RE = re.compile(rb'"role": ?"user"|"user_message"|"session_meta"|"turn_context"')


def _whole_object(raw: bytes) -> bool:
    return raw.startswith(b"{") and raw.endswith(b"}")


def _json_objects(
    lines: Iterable[bytes], tell: re.Pattern[bytes]
) -> Iterator[dict[str, Any] | None]:
    """The JSON objects among ``lines`` that ``tell`` picks out, None for each malformed line.
    Lines without the tell are skipped unparsed: most lines of a transcript are not the
    person's turns, and a regular-expression search is far cheaper than ``json.loads``."""
    for raw in lines:
        if not _whole_object(raw):
            yield None
            continue
        if tell.search(raw) is None:
            continue
        try:
            entry = json.loads(raw)
        except (ValueError, UnicodeDecodeError):
            yield None
            continue
        yield entry if isinstance(entry, dict) else None


def read_claude_file(path: Path, match: WorkspaceMatcher) -> tuple[list[UserTurn], int]:
    turns: list[UserTurn] = []
    malformed = 0
    lines = _read_lines(path)
    if lines is None:
        return turns, 0
    fallback_session = path.stem
    for entry in _json_objects(lines, _CLAUDE_TELL_RE):
        if entry is None:
            malformed += 1
            continue
        if entry.get("type") != "user":
            continue
        message = entry.get("message")
        if not isinstance(message, dict) or message.get("role") != "user":
            malformed += 1
            continue
        if (
            entry.get("isMeta")
            or entry.get("isSidechain")
            or entry.get("isCompactSummary")
            or entry.get("isVisibleInTranscriptOnly")
        ):
            continue
        if not match(entry.get("cwd")):
            continue
        text = _claude_text(message.get("content"))
        if text is None:
            malformed += 1
            continue
        if not text:
            continue
        session = entry.get("sessionId")
        turns.append(
            UserTurn(
                source=SourceName.CLAUDE.value,
                session=session if isinstance(session, str) and session else fallback_session,
                time=parse_time(entry.get("timestamp")),
                text=text,
                cwd=entry["cwd"],
                index=len(turns),
            )
        )
    return turns, malformed


def read_claude_source(
    root: Path, workspace: Path, match: WorkspaceMatcher, session_limit: int
) -> SourceRead:
    report = SourceReport(source=SourceName.CLAUDE.value, root=str(root))
    projects = root / "projects"
    folders = [projects / name for name in claude_folder_names(workspace)]
    folders = [folder for folder in folders if folder.is_dir()]
    if not folders:
        report.status = SourceStatus.MISSING.value
        report.note = "no Claude Code transcripts for this workspace"
        return SourceRead(report)
    files = _jsonl_files_newest_first(path for folder in folders for path in folder.glob("*.jsonl"))
    return _read_newest_sessions(
        report, files, lambda path: read_claude_file(path, match), session_limit
    )


def _read_newest_sessions(
    report: SourceReport,
    files: list[tuple[float, Path]],
    read: Callable[[Path], tuple[list[UserTurn], int] | None],
    session_limit: int,
    max_files: int | None = None,
) -> SourceRead:
    """Read ``files`` (newest first) until ``session_limit`` sessions are in or ``max_files``
    files were examined. ``read`` gives a file's (turns, malformed lines), or None for a file
    of another workspace, which the report does not count."""
    turns: list[UserTurn] = []
    sessions: set[str] = set()
    for examined, (_mtime, path) in enumerate(files):
        if len(sessions) >= session_limit or (max_files is not None and examined >= max_files):
            break
        got = read(path)
        if got is None:
            continue
        found, bad = got
        report.files += 1
        report.malformed += bad
        if found:
            turns.extend(found)
            sessions.update(turn.session for turn in found)
    report.sessions = len(sessions)
    report.turns = len(turns)
    return SourceRead(report, turns)


# ---------------------------------------------------------------- Codex CLI


def _codex_message_text(content: object) -> str | None:
    return _content_text(content, _clean_codex_text, ("input_text", "text"))


def _read_codex_lines(path: Path, match: WorkspaceMatcher) -> list[bytes] | None:
    """The file's lines, or None when it cannot be read or its first line (``session_meta``)
    names another workspace: rollouts of every workspace share one tree, so most files are
    rejected after one line."""
    try:
        with open(path, "rb") as handle:
            head = handle.readline()
            try:
                meta = json.loads(head)
            except (ValueError, UnicodeDecodeError):
                meta = None
            if isinstance(meta, dict) and meta.get("type") == "session_meta":
                payload = meta.get("payload")
                cwd = payload.get("cwd") if isinstance(payload, dict) else None
                if isinstance(cwd, str) and not match(cwd):
                    return None
            data = head + handle.read()
    except OSError:
        return None
    return [line for line in (raw.strip() for raw in data.splitlines()) if line]


def read_codex_file(path: Path, match: WorkspaceMatcher) -> tuple[list[UserTurn], int, bool]:
    """(turns, malformed lines, whether the file belongs to the workspace at all)."""
    malformed = 0
    session = ""
    cwd: str | None = None
    ours = False
    items: list[tuple[datetime | None, str, str]] = []  # response_item user messages
    events: list[tuple[datetime | None, str, str]] = []  # event_msg user_message
    lines = _read_codex_lines(path, match)
    if lines is None:
        return [], 0, False
    first = True
    for line in _json_objects(lines, _CODEX_TELL_RE):
        if line is None or not isinstance(line.get("payload"), dict):
            malformed += 1
            continue
        kind = line.get("type")
        payload = line["payload"]
        if kind == "session_meta":
            sid = payload.get("id")
            if isinstance(sid, str) and sid:
                session = sid
            cwd = payload.get("cwd") if isinstance(payload.get("cwd"), str) else cwd
            ours = ours or match(cwd)
            if first and not match(cwd):
                # A session of another workspace: stop reading (its later lines are not ours),
                # unless a later turn_context moves it here, which Codex does not do.
                return [], 0, False
        elif kind == "turn_context":
            if isinstance(payload.get("cwd"), str):
                cwd = payload["cwd"]
                ours = ours or match(cwd)
        elif kind == "response_item":
            if payload.get("type") == "message" and payload.get("role") == "user":
                text = _codex_message_text(payload.get("content"))
                if text is None:
                    malformed += 1
                elif text and cwd is not None and match(cwd):
                    items.append((parse_time(line.get("timestamp")), text, cwd))
        elif kind == "event_msg" and payload.get("type") == "user_message":
            message = payload.get("message")
            if not isinstance(message, str):
                malformed += 1
            elif payload.get("kind", "plain") == "plain":
                text = _clean_codex_text(message)
                if text and cwd is not None and match(cwd):
                    events.append((parse_time(line.get("timestamp")), text, cwd))
        first = False
    if not session:
        match_sid = re.search(
            r"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})", path.name
        )
        session = match_sid.group(1) if match_sid else path.stem
    merged = _merge_codex(items, events)
    turns = [
        UserTurn(SourceName.CODEX.value, session, when, text, where, index)
        for index, (when, text, where) in enumerate(merged)
    ]
    return turns, malformed, ours


def _merge_codex(
    items: list[tuple[datetime | None, str, str]], events: list[tuple[datetime | None, str, str]]
) -> list[tuple[datetime | None, str, str]]:
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
    return _jsonl_files_newest_first(sessions.rglob("*.jsonl"))


def read_codex_source(
    root: Path, match: WorkspaceMatcher, session_limit: int, max_files: int
) -> SourceRead:
    report = SourceReport(source=SourceName.CODEX.value, root=str(root))
    files = codex_session_files(root)
    if not files:
        report.status = SourceStatus.MISSING.value
        report.note = "no Codex CLI sessions"
        return SourceRead(report)

    def read(path: Path) -> tuple[list[UserTurn], int] | None:
        found, bad, ours = read_codex_file(path, match)
        return (found, bad) if ours else None

    return _read_newest_sessions(report, files, read, session_limit, max_files)


# ---------------------------------------------------------------- all sources

CODEX_MAX_FILES = 2000  # rollouts of every workspace share one tree: examine at most this many


def read_sources(
    layout: Layout,
    *,
    claude_root: Path,
    codex_root: Path,
    session_limit: int,
    mounts: Callable[[], list[tuple[str, str]] | None] = read_mount_table,
) -> list[SourceRead]:
    """Turns of this workspace from each source, newest sessions first, at most ``session_limit``
    sessions per source. A source root on a network file system is skipped (status unconfirmed)."""
    match = WorkspaceMatcher(layout.workspace)
    reads: list[SourceRead] = []
    reads.append(read_history_source(layout, match, session_limit))
    for name, root in ((SourceName.CLAUDE, claude_root), (SourceName.CODEX, codex_root)):
        fstype = network_filesystem(os.path.realpath(root), mounts) if root.exists() else None
        if fstype:
            reads.append(
                SourceRead(
                    SourceReport(
                        source=name.value,
                        root=str(root),
                        status=SourceStatus.UNCONFIRMED.value,
                        note=f"on a network file system ({fstype}); not read",
                    )
                )
            )
            continue
        if name is SourceName.CLAUDE:
            reads.append(read_claude_source(root, layout.workspace, match, session_limit))
        else:
            reads.append(read_codex_source(root, match, session_limit, CODEX_MAX_FILES))
    return reads
