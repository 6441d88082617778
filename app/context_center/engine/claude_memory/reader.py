"""Claude Code's memory folder as Claude Code reads it: the memory files, the ``MEMORY.md``
index, and exactly what of the index it loads into every conversation. Read-only.

A memory file is Markdown with front matter ``name``, ``description`` and ``type`` (one of
``user``, ``feedback``, ``project``, ``reference``), then the memory itself. ``MEMORY.md`` is
the index, one line per memory (``- [Title](file.md) — one-line hook``); Claude Code loads it at
the start of every conversation, cut the way its ``truncateEntrypointContent`` cuts it: the text
is trimmed; if it has more than 200 lines only the first 200 are kept; if what is kept is still
longer than 25,000 characters (counted as JavaScript counts them, in UTF-16 code units; Claude
Code calls them bytes) it is cut at the last line break before that, and a warning naming the
limit is appended. The other files are not loaded; Claude reads them when it needs them.

Only the folder's own ``*.md`` files are read (no subfolders, no links, at most 256 KB each).
"""

from __future__ import annotations

import os
import re
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field

from context_center.engine.claude_memory.location import MemoryLocation
from context_center.engine.kinds import FactType, format_time

INDEX_FILE = "MEMORY.md"
MAX_INDEX_LINES = 200
MAX_INDEX_UNITS = 25_000
MAX_FILE_BYTES = 256 * 1024
TYPES = {t.value: t for t in FactType}  # user, feedback, project, reference: the same four
_LINK_RE = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
_KEY_LINE_RE = re.compile(r"^([A-Za-z_][\w-]*)\s*:\s*(.*)$")


class ClaudeMemoryFile(BaseModel):
    """One memory file as Claude Code would read it."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    file: str  # the file name inside the memory folder
    name: str  # front matter ``name``, else the file name without .md
    description: str = ""
    type: str | None = None  # as written
    fact_type: FactType | None = None  # the type when it is one of the four
    body: str = ""
    size: int = 0
    modified: str | None = None
    front_matter: bool = True  # False: a plain topic file (name from the file name, no type)
    indexed: bool = False  # a line of MEMORY.md links to it
    index_loaded: bool = False  # … and that line is within what Claude Code loads
    problem: str | None = None  # why it could not be read (then name is the file name)


class IndexLine(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True)

    number: int  # 1-based, in the trimmed text Claude Code cuts
    text: str
    loaded: bool
    target: str | None = None  # the file a Markdown link on the line points to
    target_exists: bool = False


class IndexLoad(BaseModel):
    """What Claude Code loads of ``MEMORY.md``."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    lines: int  # lines of the trimmed text
    units: int  # its length in UTF-16 code units (what Claude Code compares with 25,000)
    loaded_lines: int
    cut_by: Literal["none", "lines", "size", "lines and size"]
    text: str  # exactly what is loaded, warning included
    warning: str | None = None


class ClaudeMemoryView(BaseModel):
    """Claude Code's memory for one workspace, read-only. ``folder`` is a local path for the
    person (the window, the CLI); it is never put in front of a model."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    workspace: str
    project_root: str
    folder: str
    folder_label: str  # ~/.claude/projects/<encoded>/memory when it is under the home
    exists: bool
    from_settings: bool = False
    disabled: bool = False
    tried: list[str] = Field(default_factory=list)
    memories: list[ClaudeMemoryFile] = Field(default_factory=list)
    index_exists: bool = False
    index: list[IndexLine] = Field(default_factory=list)
    load: IndexLoad | None = None
    notes: list[str] = Field(default_factory=list)


# ---------------------------------------------------------------- what Claude Code loads


def _units(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _cut_at_units(text: str, limit: int) -> str:
    """``text`` cut like ``text.slice(0, text.lastIndexOf('\\n', limit))`` in JavaScript (or at
    ``limit`` when there is no earlier line break)."""
    count = 0
    last_break = -1
    for index, ch in enumerate(text):
        if count > limit:
            break
        if ch == "\n":
            last_break = index
        count += 2 if ord(ch) > 0xFFFF else 1
    if last_break > 0:
        return text[:last_break]
    count = 0
    for index, ch in enumerate(text):
        count += 2 if ord(ch) > 0xFFFF else 1
        if count > limit:
            return text[:index]
    return text


def file_size(units: int) -> str:
    """Claude Code's ``formatFileSize``: bytes, then KB and MB of 1024, one decimal."""
    kb = units / 1024
    if kb < 1:
        return f"{units} bytes"
    if kb < 1024:
        return f"{kb:.1f}".removesuffix(".0") + "KB"
    return f"{kb / 1024:.1f}".removesuffix(".0") + "MB"


def index_load(raw: str) -> IndexLoad:
    """What Claude Code puts in front of the model of this ``MEMORY.md`` text."""
    trimmed = raw.strip()
    lines = trimmed.split("\n")
    units = _units(trimmed)
    by_lines = len(lines) > MAX_INDEX_LINES
    by_size = units > MAX_INDEX_UNITS
    if not by_lines and not by_size:
        return IndexLoad(
            lines=len(lines), units=units, loaded_lines=len(lines), cut_by="none", text=trimmed
        )
    kept = "\n".join(lines[:MAX_INDEX_LINES]) if by_lines else trimmed
    if _units(kept) > MAX_INDEX_UNITS:
        kept = _cut_at_units(kept, MAX_INDEX_UNITS)
    if by_size and not by_lines:
        reason = (
            f"{file_size(units)} (limit: {file_size(MAX_INDEX_UNITS)}) — index entries are too long"
        )
    elif by_lines and not by_size:
        reason = f"{len(lines)} lines (limit: {MAX_INDEX_LINES})"
    else:
        reason = f"{len(lines)} lines and {file_size(units)}"
    warning = (
        f"> WARNING: {INDEX_FILE} is {reason}. Only part of it was loaded. Keep index entries to "
        "one line under ~200 chars; move detail into topic files."
    )
    cut: Literal["lines", "size", "lines and size"] = (
        "lines and size" if by_lines and by_size else "lines" if by_lines else "size"
    )
    return IndexLoad(
        lines=len(lines),
        units=units,
        loaded_lines=len(kept.split("\n")),
        cut_by=cut,
        text=f"{kept}\n\n{warning}",
        warning=warning,
    )


# ---------------------------------------------------------------- files


def _front_matter(text: str) -> tuple[dict[str, Any], str]:
    """(fields, body). YAML first; where YAML refuses a value Claude Code's own reader keeps
    (``description: a: b``), each ``key: value`` line is taken as written."""
    if not text.startswith("---"):
        return {}, text
    head, sep, rest = text[3:].partition("\n---")
    if not sep:
        return {}, text
    body = rest.split("\n", 1)[1] if "\n" in rest else ""
    try:
        loaded = yaml.safe_load(head)
    except (yaml.YAMLError, RecursionError):  # nested deeper than the parser goes
        loaded = None
    if isinstance(loaded, dict):
        return {str(k): v for k, v in loaded.items()}, body
    fields: dict[str, Any] = {}
    for line in head.splitlines():
        found = _KEY_LINE_RE.match(line.strip())
        if found:
            fields[found.group(1)] = found.group(2).strip().strip("\"'")
    return fields, body


def _text_of(value: object) -> str:
    return str(value).strip() if isinstance(value, str | int | float) else ""


def read_memory_file(path: Path, data: bytes, modified: datetime | None) -> ClaudeMemoryFile:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return ClaudeMemoryFile(file=path.name, name=path.stem, problem="not UTF-8 text")
    fields, body = _front_matter(text.replace("\r\n", "\n"))
    kind = _text_of(fields.get("type")) or None
    return ClaudeMemoryFile(
        file=path.name,
        name=_text_of(fields.get("name")) or path.stem,
        description=" ".join(_text_of(fields.get("description")).split()),
        type=kind,
        fact_type=TYPES.get(kind.lower()) if kind else None,
        body=body.strip("\n"),
        size=len(data),
        modified=format_time(modified) if modified else None,
        front_matter=bool(fields),
    )


def _read_regular(path: Path) -> tuple[bytes, datetime] | str:
    """The bytes and mtime of a regular file no larger than the limit, or why not."""
    try:
        st = os.lstat(path)
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    if stat.S_ISLNK(st.st_mode):
        return "a link (not followed)"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_size > MAX_FILE_BYTES:
        return f"larger than {MAX_FILE_BYTES // 1024} KB"
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        return f"unreadable ({exc.strerror})"
    return data, datetime.fromtimestamp(st.st_mtime, tz=UTC)


def _index_lines(raw: str, load: IndexLoad, folder: Path) -> list[IndexLine]:
    out = []
    for number, line in enumerate(raw.strip().split("\n"), 1):
        link = _LINK_RE.search(line)
        target = link.group(2) if link else None
        inside = target is not None and "/" not in target and "\\" not in target
        out.append(
            IndexLine(
                number=number,
                text=line,
                loaded=number <= load.loaded_lines,
                target=target,
                target_exists=inside and (folder / str(target)).is_file(),
            )
        )
    return out


def _label(folder: Path, home: Path | None) -> str:
    base = Path.home() if home is None else Path(home)
    try:
        return "~/" + folder.relative_to(base).as_posix()
    except ValueError:
        return str(folder)


def read_view(
    location: MemoryLocation, workspace: Path, home: Path | None = None
) -> ClaudeMemoryView:
    """Everything in the memory folder, read-only: nothing is created, changed or touched."""
    folder = location.folder
    common: dict[str, Any] = {
        "workspace": str(workspace),
        "project_root": str(location.project_root),
        "folder": str(folder),
        "folder_label": _label(folder, home),
        "exists": location.exists,
        "from_settings": location.from_settings,
        "disabled": location.disabled,
        "tried": [str(p) for p in location.tried],
    }
    if not location.exists:
        return ClaudeMemoryView(**common)
    notes: list[str] = []
    index: list[IndexLine] = []
    load: IndexLoad | None = None
    raw_index = _read_regular(folder / INDEX_FILE) if os.path.lexists(folder / INDEX_FILE) else None
    if isinstance(raw_index, str):
        notes.append(f"{INDEX_FILE} was not read: {raw_index}")
    elif raw_index is not None:
        text = raw_index[0].decode("utf-8", errors="replace")
        load = index_load(text)
        index = _index_lines(text, load, folder)
    linked = {line.target: line.loaded for line in index if line.target_exists}
    memories = []
    try:
        paths = sorted(folder.glob("*.md"), key=lambda p: p.name)
    except OSError as exc:
        paths = []
        notes.append(f"the memory folder could not be listed ({exc.strerror})")
    for path in paths:
        if path.name == INDEX_FILE or path.name.startswith("."):
            continue
        got = _read_regular(path)
        if isinstance(got, str):
            memories.append(ClaudeMemoryFile(file=path.name, name=path.stem, problem=got))
            continue
        item = read_memory_file(path, *got)
        memories.append(
            item.model_copy(
                update={
                    "indexed": path.name in linked,
                    "index_loaded": linked.get(path.name, False),
                }
            )
        )
    return ClaudeMemoryView(
        **common,
        memories=memories,
        index_exists=raw_index is not None,
        index=index,
        load=load,
        notes=notes,
    )
