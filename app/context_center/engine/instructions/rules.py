"""A person's standing rule: append ``- NOTE`` to an instruction file (the spec's ``/remember``).

This is an explicit human action, not the agents' memory tool. ``add_rule`` picks the first
existing instruction file of the requested scope —

* ``user``: ``<home>/REASONIX.md``, ``AGENTS.md``, ``CLAUDE.md``; else creates ``<home>/AGENTS.md``;
* ``project``: the same names in the workspace root; else creates ``<workspace>/AGENTS.md``;
* ``local``: ``<workspace>/REASONIX.local.md``, ``AGENTS.local.md``, ``CLAUDE.local.md``; else
  creates ``<workspace>/AGENTS.local.md`` —

and appends one bullet through ``engine/atomic.py``. The file keeps its encoding (UTF-8, UTF-8
with a BOM, or GB18030) and its line endings (CRLF stays CRLF); a missing final newline is added
before the bullet. A rule is one line: whitespace runs in the note (newlines included) collapse
to single spaces, and one leading list marker (``-``, ``*``, ``+``) is dropped so the file never
gets ``- - note``. An empty note, one longer than ``MAX_NOTE_CHARS``, or a file that is neither
UTF-8 nor GB18030 is refused with ``InvalidRequest``. A symbolic link is followed (so
``CLAUDE.md -> AGENTS.md`` stays a link) only when its real path stays inside the scope's
directory.
"""

from __future__ import annotations

import os
import re
import stat
from enum import StrEnum
from pathlib import Path

from context_center.engine.errors import InvalidRequest
from context_center.engine.instructions.resolve import DOCUMENT_NAMES, LOCAL_DOCUMENT_NAMES
from context_center.engine.store import atomic
from context_center.engine.store.guarded import read_regular

MAX_NOTE_CHARS = 2000
_MAX_ATTEMPTS = 5
_MAX_READ_BYTES = 64 * 1024 * 1024
_LIST_MARKER = re.compile(r"^[-*+]\s+")
_UTF8_BOM = b"\xef\xbb\xbf"


class RuleScope(StrEnum):
    USER = "user"
    PROJECT = "project"
    LOCAL = "local"


def normalize_note(note: str) -> str:
    """One line: whitespace collapsed, one leading list marker dropped. Refuses empty/huge."""
    text = " ".join(note.split())
    text = _LIST_MARKER.sub("", text, count=1).strip()
    if not text or text in {"-", "*", "+"}:
        raise InvalidRequest("the note is empty", code="empty_note")
    from context_center.engine.gate.control import describe_controls, has_controls

    if has_controls(text):
        raise InvalidRequest(
            f"the note holds control characters ({describe_controls(text)}); a standing rule "
            "is plain text, so nothing was written",
            code="control_characters",
        )
    if len(text) > MAX_NOTE_CHARS:
        raise InvalidRequest(
            f"the note is {len(text)} characters; a standing rule is at most {MAX_NOTE_CHARS}",
            code="note_too_long",
        )
    return text


def rule_candidates(home: Path, workspace: Path, scope: RuleScope) -> tuple[Path, tuple[Path, ...]]:
    """(directory, candidate files in lookup order) for ``scope``; the default is AGENTS*.md."""
    if scope is RuleScope.USER:
        return home, tuple(home / name for name in DOCUMENT_NAMES)
    if scope is RuleScope.PROJECT:
        return workspace, tuple(workspace / name for name in DOCUMENT_NAMES)
    return workspace, tuple(workspace / name for name in LOCAL_DOCUMENT_NAMES)


def _default_file(directory: Path, scope: RuleScope) -> Path:
    return directory / ("AGENTS.local.md" if scope is RuleScope.LOCAL else "AGENTS.md")


def _detect_encoding(data: bytes, path: Path) -> tuple[str, str]:
    """(codec, decoded text). A BOM is kept by using the ``utf-8-sig`` codec on write."""
    if data.startswith(_UTF8_BOM):
        try:
            return "utf-8-sig", data.decode("utf-8-sig")
        except UnicodeDecodeError:
            pass
    else:
        try:
            return "utf-8", data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    try:
        return "gb18030", data.decode("gb18030")
    except UnicodeDecodeError as exc:
        raise InvalidRequest(
            f"{path.name} is neither UTF-8 nor GB18030; not changing it",
            code="instruction_file_undecodable",
        ) from exc


def _newline_of(text: str) -> str:
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    return "\r\n" if crlf and crlf >= lf else "\n"


def appended(data: bytes, note: str, path: Path) -> bytes:
    """The bytes of ``data`` with ``- note`` appended, in the file's own encoding and newlines."""
    codec, text = _detect_encoding(data, path)
    newline = _newline_of(text)
    if text and not text.endswith(("\n", "\r")):
        text += newline
    text += f"- {note}{newline}"
    return text.encode(codec)


def _writable_target(path: Path, directory: Path) -> Path:
    """The regular file to rewrite for ``path`` (a link is followed if it stays inside)."""
    real = Path(os.path.realpath(path))
    root = os.path.realpath(directory)
    if path.is_symlink() and os.path.commonpath([os.fspath(real), root]) != root:
        raise InvalidRequest(
            f"{path.name} is a symbolic link leading outside {directory.name or 'its directory'}",
            code="instruction_symlink_escape",
        )
    try:
        st = os.stat(real)
    except OSError as exc:
        raise InvalidRequest(
            f"cannot use {path.name}: {exc.strerror}", code="instruction_unwritable"
        ) from exc
    if not stat.S_ISREG(st.st_mode):
        raise InvalidRequest(f"{path.name} is not a regular file", code="instruction_unwritable")
    return real


def _read(path: Path) -> bytes:
    """The real file's bytes through the store's guarded read (regular file, no link followed:
    ``path`` is already the resolved target, a bounded size)."""
    return read_regular(path, max_bytes=_MAX_READ_BYTES)[0]


def _uncreatable(target: Path, directory: Path, exc: OSError | None) -> InvalidRequest:
    """The refusal when ``target`` cannot be created: its folder is missing and cannot be made,
    is not a folder (a file stands in its place), or refuses writes."""
    if exc is None or (os.path.lexists(directory) and not os.path.isdir(directory)):
        reason = f"{directory.name or 'its folder'} is not a folder"
    else:
        reason = exc.strerror or str(exc)
    return InvalidRequest(f"cannot create {target.name}: {reason}", code="instruction_unwritable")


def add_rule(home: Path, workspace: Path, note: str, scope: RuleScope | str) -> Path:
    """Append ``- note`` to the scope's instruction file; return the path written (as listed)."""
    scope = RuleScope(scope)
    text = normalize_note(note)
    directory, candidates = rule_candidates(Path(home), Path(workspace), scope)
    for _ in range(_MAX_ATTEMPTS):
        existing = next((p for p in candidates if os.path.lexists(p)), None)
        if existing is None:
            target = _default_file(directory, scope)
            try:
                atomic.create_exclusive(target, f"- {text}\n".encode())
            except FileExistsError:
                if os.path.isdir(directory):
                    continue  # someone created it a moment ago: append to it instead
                raise _uncreatable(target, directory, None) from None  # a file holds its place
            except OSError as exc:
                raise _uncreatable(target, directory, exc) from exc
            return target
        real = _writable_target(existing, directory)
        try:
            before = _read(real)
        except OSError as exc:
            raise InvalidRequest(
                f"cannot read {existing.name}: {exc.strerror}", code="instruction_unwritable"
            ) from exc
        data = appended(before, text, existing)
        if _read(real) != before:
            continue  # changed under us (another writer): start again from the new content
        mode = stat.S_IMODE(os.stat(real).st_mode)
        atomic.write_bytes(real, data, mode=mode)
        return existing
    raise InvalidRequest(
        "the instruction file kept changing while the rule was being added; try again",
        code="instruction_busy",
    )
