"""Read the user turns people already have, matched to one workspace, from three sources.

- ``history``: this workspace's own log (``history.py``);
- ``claude``: Claude Code transcripts (``claude_source.py``);
- ``codex``: Codex CLI rollouts, both formats (``codex_source.py``).

A source that is missing is skipped; a malformed line is skipped and counted; nothing here ever
raises for bad input (``turns.py`` says what a malformed line is). A turn counts for the
workspace only when its recorded working directory, resolved, equals the resolved workspace
path. Sessions are read newest first and reading stops once ``session_limit`` sessions of the
workspace were found in that source. A source root on a network file system is not read
(status ``unconfirmed``). Nothing here writes.
"""

from __future__ import annotations

import os
from collections import Counter
from datetime import datetime
from pathlib import Path

from context_center.engine.store.paths import Layout
from context_center.engine.suggestions.claude_source import (
    claude_folder_names,
    person_text,
    read_claude_file,
    read_claude_source,
)
from context_center.engine.suggestions.codex_source import (
    CODEX_MAX_FILES,
    codex_session_files,
    is_agent_session,
    read_codex_file,
    read_codex_source,
)
from context_center.engine.suggestions.history import history_path, parse_fields
from context_center.engine.suggestions.remote import (
    Mounts,
    network_filesystem,
    read_mount_table,
    remote_reason,
)
from context_center.engine.suggestions.turns import (
    FileRead,
    SourceName,
    SourceRead,
    SourceReport,
    SourceStatus,
    UserTurn,
    WorkspaceMatcher,
    parse_time,
    read_lines,
)

__all__ = [
    "CODEX_MAX_FILES",
    "FileRead",
    "SourceName",
    "SourceRead",
    "SourceReport",
    "SourceStatus",
    "UserTurn",
    "WorkspaceMatcher",
    "claude_folder_names",
    "codex_session_files",
    "is_agent_session",
    "network_filesystem",
    "parse_time",
    "read_claude_file",
    "read_codex_file",
    "read_history_source",
    "read_mount_table",
    "read_sources",
    "remote_reason",
]


def read_history_source(layout: Layout, match: WorkspaceMatcher, session_limit: int) -> SourceRead:
    path = history_path(layout)
    report = SourceReport(source=SourceName.HISTORY.value, root=str(path))
    lines = read_lines(path) if path.exists() else None
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
        text = person_text(text)  # a hook may hand over the prompt as the agent built it
        if not text:
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


def _unconfirmed(name: SourceName, root: Path, fstype: str) -> SourceRead:
    return SourceRead(
        SourceReport(
            source=name.value,
            root=str(root),
            status=SourceStatus.UNCONFIRMED.value,
            note=f"on a network file system ({fstype}); not read",
        )
    )


def read_sources(
    layout: Layout,
    *,
    claude_root: Path,
    codex_root: Path,
    session_limit: int,
    mounts: Mounts = read_mount_table,
) -> list[SourceRead]:
    """Turns of this workspace from each source, newest sessions first, at most ``session_limit``
    sessions per source. A source root on a network file system is skipped (status unconfirmed)."""
    match = WorkspaceMatcher(layout.workspace)
    reads = [read_history_source(layout, match, session_limit)]
    for name, root in ((SourceName.CLAUDE, claude_root), (SourceName.CODEX, codex_root)):
        fstype = network_filesystem(os.path.realpath(root), mounts) if root.exists() else None
        if fstype:
            reads.append(_unconfirmed(name, root, fstype))
        elif name is SourceName.CLAUDE:
            reads.append(read_claude_source(root, layout.workspace, match, session_limit))
        else:
            reads.append(read_codex_source(root, match, session_limit, CODEX_MAX_FILES))
    return reads
