"""Editing an agent's own config file without disturbing anything else in it.

JSON files are parsed strictly (a file that is not a JSON object is refused, never
rewritten) and written back with the text of every unchanged part kept as it was
(``json_splice``; new parts in the file's own indentation, keys in order); TOML files go
through tomlkit, which keeps comments, ordering and formatting. Every edit is a ``FileEdit``:
the text before, the text after (None: the file goes away), and a unified diff. Applying one
backs the old file up next to it (``<name>.context-center-backup``, 0600) and replaces the
file atomically, keeping its permission bits.
"""

from __future__ import annotations

import contextlib
import difflib
import json
import os
import stat
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from context_center.engine.agents.json_splice import same, splice
from context_center.engine.errors import InvalidRequest, StoreUnavailable
from context_center.engine.store import atomic

BACKUP_SUFFIX = ".context-center-backup"
MAX_CONFIG_BYTES = 64 * 1024 * 1024


class ConfigUnreadable(InvalidRequest):
    """An agent config that cannot be parsed: nothing is written."""

    code = "config_unreadable"


@dataclass(frozen=True)
class FileEdit:
    path: Path
    display: str  # how the person sees the path (``~/.codex/config.toml``, ``.mcp.json``)
    before: str | None  # None: the file does not exist
    after: str | None  # None: the file is removed

    @property
    def changed(self) -> bool:
        return self.before != self.after

    def diff(self) -> str:
        if not self.changed:
            return ""
        old = (self.before or "").splitlines(keepends=True)
        new = (self.after or "").splitlines(keepends=True)
        lines = difflib.unified_diff(
            old,
            new,
            fromfile=self.display if self.before is not None else "/dev/null",
            tofile=self.display if self.after is not None else "/dev/null",
        )
        return "".join(
            line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
            for line in lines
        )


def read_text(path: Path, display: str) -> str | None:
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreUnavailable(f"cannot read {display}: {exc.strerror}") from exc
    if not stat.S_ISREG(st.st_mode):
        raise ConfigUnreadable(f"{display} is not a regular file; nothing was written")
    if st.st_size > MAX_CONFIG_BYTES:
        raise ConfigUnreadable(
            f"{display} is larger than {MAX_CONFIG_BYTES} bytes; nothing was written"
        )
    try:
        return path.read_bytes().decode("utf-8")  # line endings as written (CRLF kept)
    except UnicodeDecodeError as exc:
        raise ConfigUnreadable(f"{display} is not valid UTF-8; nothing was written") from exc
    except OSError as exc:
        raise StoreUnavailable(f"cannot read {display}: {exc.strerror}") from exc


# --------------------------------------------------------------------------- JSON


def _indent_of(text: str) -> int | str:
    for line in text.splitlines()[1:]:
        stripped = line.lstrip(" \t")
        if stripped and stripped != line:
            lead = line[: len(line) - len(stripped)]
            return "\t" if lead.startswith("\t") else len(lead)
    return 2


def edit_json(path: Path, display: str, change: Callable[[dict[str, Any]], None]) -> FileEdit:
    """``change`` edits the parsed object in place; an object left empty removes the file."""
    raw = read_text(path, display)
    before = _lf(raw)
    data: dict[str, Any] = {}
    indent: int | str = 2
    trailing_newline = True
    if before is not None and before.strip():
        try:
            loaded = json.loads(before, object_pairs_hook=_unique, parse_constant=_not_json)
        except _Ambiguous as exc:
            raise ConfigUnreadable(f"{display} {exc}; nothing was written") from exc
        except json.JSONDecodeError as exc:
            raise ConfigUnreadable(
                f"{display} is not valid JSON ({exc.msg}, line {exc.lineno}); nothing was written"
            ) from exc
        except RecursionError as exc:  # nested deeper than the parser goes
            raise ConfigUnreadable(
                f"{display} is not valid JSON (nested too deeply); nothing was written"
            ) from exc
        if not isinstance(loaded, dict):
            raise ConfigUnreadable(f"{display} does not hold a JSON object; nothing was written")
        data = loaded
        indent = _indent_of(before)
        trailing_newline = before.endswith("\n")
    old = json.loads(before) if before is not None and before.strip() else None
    change(data)
    spliced = splice(before, old, data, indent) if before is not None and data else None
    if not data:
        after = None
    elif spliced is not None:
        after = spliced  # the text of everything unchanged kept as it was written
    else:
        try:
            after = json.dumps(data, indent=indent, ensure_ascii=False, allow_nan=False)
        except ValueError as exc:  # a number past a double's range, read as infinity
            raise ConfigUnreadable(
                f"{display} holds a number this edit cannot write back; nothing was written"
            ) from exc
        after += "\n" if trailing_newline else ""
    if raw is not None and old is not None and old == data:
        return FileEdit(path, display, raw, raw)  # the data did not change: leave the file
    after = _endings_of(raw, after)
    if after is not None:
        after = _as_backed_up(path, after)
        try:
            after.encode("utf-8")
        except UnicodeEncodeError as exc:  # a lone surrogate escape (``"\ud800"``) rewritten
            raise ConfigUnreadable(
                f"{display} holds a string that is not valid Unicode; nothing was written"
            ) from exc
    return FileEdit(path, display, raw, after)


class _Ambiguous(ValueError):
    """JSON that a rewrite could not keep as it is."""


def _unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are unique: a duplicate key (which parsers read differently, the
    last one winning here) is refused rather than collapsed by the rewrite."""
    out = dict(pairs)
    if len(out) != len(pairs):
        twice = next(k for k, n in Counter(k for k, _ in pairs).items() if n > 1)
        raise _Ambiguous(f"has the key {twice!r} twice in one object")
    return out


def _not_json(word: str) -> Any:
    """NaN and Infinity are not JSON (Python's parser reads them; Claude Code's does not)."""
    raise _Ambiguous(f"holds {word}, which is not JSON")


def _lf(text: str | None) -> str | None:
    """The text with Windows line breaks as ``\n`` (edits are made on this form)."""
    return text.replace("\r\n", "\n") if text is not None else None


def _endings_of(raw: str | None, after: str | None) -> str | None:
    """``after`` (made from ``_lf(raw)``) with the line breaks ``raw`` used: a file written
    with CRLF keeps CRLF on every line, the new ones included."""
    if raw is None or after is None or "\r\n" not in raw:
        return after
    return after.replace("\n", "\r\n")


def _as_backed_up(path: Path, after: str, alike: Callable[[str, str], bool] | None = None) -> str:
    """The backup's own text when it holds exactly what is about to be written (``alike``:
    the same JSON data, by default): undoing an edit then gives the file back byte for byte,
    whatever its formatting was."""
    backup = path.with_name(path.name + BACKUP_SUFFIX)
    try:
        text = (
            backup.read_bytes().decode("utf-8") if backup.stat().st_size < MAX_CONFIG_BYTES else ""
        )
    except (OSError, UnicodeDecodeError):
        return after
    return text if text and (alike or _same_json)(text, after) else after


def _same_but_blank_lines(a: str, b: str) -> bool:
    """The same lines, blank ones and the last line break aside: a TOML text tomlkit wrote
    back differs from the one it read only so (comments are lines, and they must match)."""
    return [line for line in a.splitlines() if line.strip()] == [
        line for line in b.splitlines() if line.strip()
    ]


def _same_json(a: str, b: str) -> bool:
    """The same data, told apart as JSON tells it: ``true`` is not ``1``, and key order
    counts (``json_splice.same``)."""
    try:
        return same(json.loads(a), json.loads(b))
    except (ValueError, RecursionError):
        return False


# --------------------------------------------------------------------------- TOML


def edit_toml(
    path: Path,
    display: str,
    change: Callable[[Any], None],
    expect: Callable[[dict[str, Any], dict[str, Any]], bool] | None = None,
) -> FileEdit:
    """``change`` edits the tomlkit document in place (comments and layout are kept).

    ``expect`` tells, from the file's data as parsed before and after, whether the edited text
    means what the edit should. tomlkit places a table by the document's layout, and some
    valid layouts (dotted keys such as ``mcp_servers.a.command = …`` before top-level keys,
    inline tables) would give a text whose keys land in another table, or it fails on them:
    such an edit is refused, nothing is written."""
    import tomllib

    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    raw = read_text(path, display)
    before = _lf(raw)
    try:
        doc = tomlkit.parse(before or "")
        old = tomllib.loads(before or "")
    except (TOMLKitError, tomllib.TOMLDecodeError) as exc:
        raise ConfigUnreadable(f"{display} is not valid TOML ({exc}); nothing was written") from exc
    try:
        change(doc)
        text = tomlkit.dumps(doc)
        same_data = expect is None or expect(old, tomllib.loads(text))
    except InvalidRequest:
        raise
    except (TOMLKitError, tomllib.TOMLDecodeError, AttributeError, TypeError, ValueError) as exc:
        raise ConfigUnreadable(_layout(display)) from exc
    if not same_data:
        raise ConfigUnreadable(_layout(display))
    if text == before:
        return FileEdit(path, display, raw, raw)
    after: str | None = text
    if not text.strip():
        after = None if before is None or before.strip() else before  # nothing left: remove it
    elif text.endswith("\n\n") and not (before or "").endswith("\n\n"):
        after = text.rstrip("\n") + "\n"  # no blank line left dangling at the end
    after = _endings_of(raw, after)
    if after is not None:
        after = _as_backed_up(path, after, _same_but_blank_lines)
    return FileEdit(path, display, raw, after)


def _layout(display: str) -> str:
    return (
        f"{display} is laid out in a way this edit cannot keep exactly (dotted or inline "
        "mcp_servers tables); nothing was written: add or remove the [mcp_servers.context-center] "
        "table by hand"
    )


# --------------------------------------------------------------------------- applying


def apply(edit: FileEdit, *, back_up: bool = True) -> str | None:
    """Write one edit: back the old file up, then replace (or remove) it. Returns the
    backup's display path, or None when there was nothing to back up.

    ``back_up=False`` (``disconnect``) writes no backup: the old file holds our entries, and
    with them this home's path, which must not be left beside a config in a repository. A
    backup ``connect`` wrote is removed once the file is back to exactly its text."""
    if not edit.changed:
        return None
    # a linked config (dotfiles): the link stays, its target is written; the backup is kept
    # beside the link, where the person looks
    path = Path(os.path.realpath(edit.path)) if edit.path.is_symlink() else edit.path
    backup = edit.path.with_name(edit.path.name + BACKUP_SUFFIX)
    backup_display = None
    mode = 0o644
    if edit.before is not None:
        try:
            mode = stat.S_IMODE(os.stat(path).st_mode)
        except OSError:
            mode = 0o600
        if back_up:
            atomic.write_bytes(backup, edit.before.encode("utf-8"), mode=0o600)
            os.chmod(backup, 0o600)
            backup_display = edit.display + BACKUP_SUFFIX
    after = edit.after
    if after is None and path != edit.path:
        # emptied through a link (dotfiles): the link's target stays, with nothing in it
        after = "" if edit.path.suffix == ".toml" else "{}\n"
    if after is None:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return backup_display
    atomic.write_bytes(path, after.encode("utf-8"), mode=mode)
    if edit.before is not None:
        with contextlib.suppress(FileNotFoundError):  # another process may have removed it
            os.chmod(path, mode)  # the temp file was created under the umask
    if not back_up:
        _drop_if_restored(backup, after)
    return backup_display


def _drop_if_restored(backup: Path, text: str) -> None:
    """Remove ``backup`` when the file now holds exactly its text (it has served)."""
    try:
        if backup.is_symlink() or backup.stat().st_size >= MAX_CONFIG_BYTES:
            return
        if backup.read_bytes() == text.encode("utf-8"):
            backup.unlink()
    except OSError:
        return  # a backup left in place loses nothing


def check_writable(edits: list[FileEdit]) -> None:
    """Refuse, before anything is written, an edit of a file its owner made read-only (the
    write replaces the file, which the folder's permissions alone would allow)."""
    for edit in edits:
        if not edit.changed or edit.before is None:
            continue
        try:
            mode = os.stat(edit.path).st_mode
        except OSError:
            continue
        if not mode & stat.S_IWUSR:
            raise InvalidRequest(
                f"{edit.display} is read-only; nothing was written (make it writable, or "
                "add the entries by hand)"
            )


def apply_one(edit: FileEdit, done: list[dict[str, Any]], *, back_up: bool = True) -> str | None:
    """``apply``, with a failure to write told as an error that names the files already
    written (``done``: their results so far) rather than raised as an OS error."""
    try:
        return apply(edit, back_up=back_up)
    except OSError as exc:
        written = [f["file"] for f in done if f["action"] != "unchanged"]
        already = f"; already written: {', '.join(written)}" if written else "; nothing was written"
        raise StoreUnavailable(
            f"cannot write {edit.display}: {exc.strerror or exc}{already}"
        ) from exc
