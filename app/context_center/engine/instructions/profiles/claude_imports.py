"""Claude Code imports: ``@path`` anywhere in Markdown text, followed the way Claude Code does.

``./x``, ``x/y``, ``~/x`` and ``/abs`` forms, relative to the importing file; ``\\ `` escapes a
space and ``#anchor`` is dropped; trailing sentence punctuation is not part of the path; at most
``MAX_IMPORT_DEPTH`` levels below the file a chain starts from; every file once per session. A
missing file is skipped silently (a note here); ``@name`` without ``/`` or ``.`` that names no
file is a mention, not an import. An import whose real path is outside the working directory
(the target) is *external*: Claude Code asks once per project before loading it and keeps the
answer in ``~/.claude.json`` (``hasClaudeMdExternalIncludesApproved``); until then it is shown
as ``needs_approval`` and not read. Imports from the user's own ``~/.claude`` files are not
external.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from context_center.engine.instructions import fsread, model
from context_center.engine.instructions.markdown import (
    Mention,
    find_mentions,
    strip_trailing_punctuation,
    without_block_comments,
)
from context_center.engine.instructions.model import (
    FileState,
    FileStatus,
    ImportStatus,
    InstructionDiagnostic,
    InstructionImport,
    InstructionScope,
    Severity,
)
from context_center.engine.instructions.redact import Redactor
from context_center.engine.instructions.sources import Source, SourceCache, looks_like_package

MAX_IMPORT_DEPTH = 4
MAX_SETTINGS_BYTES = 64 * 1024 * 1024
APPROVAL_KEY = "hasClaudeMdExternalIncludesApproved"
KIND = {
    InstructionScope.USER: "user's private global instructions for all projects",
    InstructionScope.ABOVE: "project instructions, checked into the codebase",
    InstructionScope.PROJECT: "project instructions, checked into the codebase",
    InstructionScope.ANCESTOR: "project instructions, checked into the codebase",
    InstructionScope.LOCAL: "user's private project instructions, not checked in",
    InstructionScope.RULE: "project rule",
}
_ABS_MENTION_RE = re.compile(r"(?<!\S)@(?:/|[A-Za-z]:[\\/])\S*")

Identity = tuple[int, int]


@dataclass
class Session:
    labeller: fsread.Labeller
    user_home: Path
    target: Path
    target_real: Path
    approved: bool
    redact: Redactor
    cache: SourceCache = field(default_factory=SourceCache)
    seen: dict[Identity, str] = field(default_factory=dict)
    diagnostics: list[InstructionDiagnostic] = field(default_factory=list)
    files: list[FileStatus] = field(default_factory=list)
    # claudeMdExcludes: (pattern, label of its settings file) (``claude_excludes.py``)
    excludes: tuple[tuple[re.Pattern[str], str], ...] = ()


@dataclass
class Doc:
    label: str
    scope: InstructionScope
    directory: str
    path: Path
    user_level: bool
    imports: list[InstructionImport] = field(default_factory=list)
    entries: list[str] = field(default_factory=list)


def approval_granted(user_home: Path, *projects: Path) -> bool:
    """Whether ``~/.claude.json`` records "allow external imports" for one of ``projects``.
    With ``$CLAUDE_CONFIG_DIR`` set, Claude Code keeps that file there instead (and ignores
    ``~/.claude.json``), as ``agents/clients.py`` writes it."""
    configured = os.environ.get("CLAUDE_CONFIG_DIR", "").strip()
    path = (Path(configured).expanduser() if configured else user_home) / ".claude.json"
    try:
        st = fsread.stat_regular(fsread.realpath(path), MAX_SETTINGS_BYTES)
        data = json.loads(fsread.read_bytes(fsread.realpath(path), st, MAX_SETTINGS_BYTES))
    except (fsread.ReadError, ValueError, RecursionError):
        return False
    table = data.get("projects") if isinstance(data, dict) else None
    if not isinstance(table, dict):
        return False
    keys = {os.fspath(p) for p in projects} | {os.fspath(fsread.realpath(p)) for p in projects}
    return any(isinstance(table.get(k), dict) and table[k].get(APPROVAL_KEY) is True for k in keys)


def entry(label: str, kind: str, text: str) -> str:
    return f"Contents of {label} ({kind}):\n\n{text.strip()}"


def provider_text(session: Session, text: str) -> str:
    """A memory file's text as it reaches the model: block-level HTML comments stripped (as
    Claude Code does), local paths labelled, absolute ``@`` paths named but not spelled."""
    shown = session.redact(without_block_comments(text))
    return _ABS_MENTION_RE.sub("@<path outside the workspace>", shown)


def _note(
    session: Session,
    code: str,
    reason: str,
    target: str,
    source: str,
    line: int,
    message: str,
    severity: Severity,
    local: Path | None,
    local_source: Path,
) -> None:
    session.diagnostics.append(
        InstructionDiagnostic(
            code=code,
            reason=reason,
            path=target,
            source_path=source,
            line=line,
            message=message,
            severity=severity,
            local_path=local,
            local_source_path=local_source,
        )
    )


def _resolve_mention(session: Session, mention: Mention, base: Path) -> tuple[Path, str] | None:
    """The lexical path an import names and the form written, or None for an @mention."""
    written = mention.path
    candidates = [written]
    stripped = strip_trailing_punctuation(written)
    if stripped and stripped != written:
        candidates.append(stripped)
    resolved: list[Path] = []
    for spec in candidates:
        if spec.startswith("~/"):
            resolved.append(fsread.abspath(session.user_home / spec[2:]))
        elif os.path.isabs(spec) or re.match(r"^[A-Za-z]:[\\/]", spec):
            resolved.append(fsread.abspath(spec))
        else:
            resolved.append(Path(os.path.normpath(base / spec.replace("\\", "/"))))
    for spec, path in zip(candidates, resolved, strict=True):
        try:
            if os.path.lexists(path):
                return path, spec
        except (OSError, ValueError):
            continue
    final = candidates[-1]
    if not final or not any(ch in final for ch in "/\\."):
        return None  # @alice, @here: a mention, not a file
    return resolved[-1], final


def follow(
    session: Session,
    doc: Doc,
    text: str,
    source: Path,
    depth: int,
    offset: int,
) -> None:
    """Every import in ``text`` (the content of ``source`` at nesting ``depth``), in order."""
    source_label = session.labeller(source)
    for mention in find_mentions(text):
        located = _resolve_mention(session, mention, source.parent)
        if located is None:
            continue
        path, written = located
        label = session.labeller(path)
        line = mention.line + 1 + offset
        status, code, loaded_as, loaded = _classify(
            session, doc, path, written, label, source, source_label, line, depth
        )
        doc.imports.append(
            InstructionImport(
                source=source_label,
                target=label,
                line=line,
                depth=depth + 1,
                status=status,
                code=code,
                loaded_as=loaded_as,
                local_path=path,
            )
        )
        if loaded is not None:
            session.seen[loaded.identity] = label
            session.cache.used(loaded, label, path)
            doc.entries.append(
                entry(label, f"imported by {source_label}", provider_text(session, loaded.text))
            )
            session.files.append(
                file_status(label, FileState.IMPORTED, loaded, path, f"imported by {source_label}")
            )
            follow(session, doc, loaded.text, path, depth + 1, 0)


def _classify(
    session: Session,
    doc: Doc,
    path: Path,
    written: str,
    label: str,
    source: Path,
    source_label: str,
    line: int,
    depth: int,
) -> tuple[ImportStatus, str | None, str | None, Source | None]:
    def note(code: str, reason: str, message: str, severity: Severity) -> None:
        _note(session, code, reason, label, source_label, line, message, severity, path, source)

    if not os.path.lexists(path):
        reason = "package" if looks_like_package(written, source.parent) else "missing"
        note(
            model.IMPORT_MISSING,
            reason,
            f"@{written} names no file; Claude Code skips it without a word"
            + (" (it looks like a package name)" if reason == "package" else ""),
            Severity.NOTE,
        )
        return ImportStatus.MISSING, model.IMPORT_MISSING, None, None
    real = fsread.realpath(path)
    try:
        st = fsread.stat_regular(real)
    except fsread.ReadError as err:
        code = model.IMPORT_TOO_LARGE if err.kind == "too_large" else model.IMPORT_UNREADABLE
        note(
            code,
            err.reason,
            f"import of {label!r} refused: {model.REASONS[err.reason]}",
            Severity.ERROR,
        )
        return ImportStatus.REJECTED, code, None, None
    key = fsread.identity(st)
    if key in session.seen:
        return ImportStatus.ALREADY_LOADED, None, session.seen[key], None
    if depth + 1 > MAX_IMPORT_DEPTH:
        note(
            model.IMPORT_DEPTH,
            "depth",
            f"Claude Code follows imports at most {MAX_IMPORT_DEPTH} levels deep; "
            f"{label} is not loaded",
            Severity.NOTE,
        )
        return ImportStatus.REJECTED, model.IMPORT_DEPTH, None, None
    external = not doc.user_level and not fsread.within(real, session.target_real)
    if external and not session.approved:
        note(
            model.IMPORT_NEEDS_APPROVAL,
            "external",
            f"{label} is outside the working directory: Claude Code asks once per project "
            "before loading external imports, and loads nothing from them until you agree",
            Severity.NOTE,
        )
        session.files.append(
            FileStatus(
                label=label,
                state=FileState.NEEDS_APPROVAL,
                size=st.st_size,
                detail=f"imported by {source_label}",
                local_path=path,
            )
        )
        return ImportStatus.NEEDS_APPROVAL, model.IMPORT_NEEDS_APPROVAL, None, None
    try:
        loaded = session.cache.read(real, st)
    except fsread.ReadError as err:
        code = model.IMPORT_UNDECODABLE if err.kind == "undecodable" else model.IMPORT_UNREADABLE
        note(
            code,
            err.reason,
            f"import of {label!r} refused: {model.REASONS[err.reason]}",
            Severity.ERROR,
        )
        return ImportStatus.REJECTED, code, None, None
    return ImportStatus.LOADED, None, None, loaded


def file_status(
    label: str,
    state: FileState,
    source: Source | None,
    path: Path,
    detail: str = "",
) -> FileStatus:
    size = source.stat.st_size if source is not None else fsread.try_size(path)
    loaded = (
        len(source.text.encode("utf-8"))
        if source is not None and state in (FileState.LOADED, FileState.IMPORTED)
        else 0
    )
    return FileStatus(
        label=label, state=state, size=size, loaded_bytes=loaded, detail=detail, local_path=path
    )
