"""Standing instructions: which instruction files apply to a target directory, and what they import.

``resolve_instructions`` walks ``<home>`` (user-global files) and then every directory from the
workspace root down to the target, loads ``REASONIX.md``, ``AGENTS.md``, ``CLAUDE.md`` and their
``.local.md`` variants, expands ``@relative/path`` imports inside the directory that owns each
top-level document, and reports every refusal as a diagnostic instead of raising.

The result is plain, frozen data. Provider-visible fields carry only stable labels
(``user/<file>``, ``workspace/<relative path>``); absolute paths live in ``local_*`` fields that
are excluded from ``model_dump`` and never rendered into a prompt.

Safety rules for imports (all enforced before a single byte is read):

* the path is relative (no ``/``, drive letter or ``~`` prefix) and, resolved against the
  importing file, stays lexically inside the owner directory (``import_outside_source``);
* every directory on the way and the file itself have a real path inside the owner's real path
  (``import_symlink_escape``);
* the file is a regular file, checked with ``os.stat`` before it is opened, so a FIFO or a
  device never blocks (``import_unreadable``); it is opened with ``O_NONBLOCK`` as a belt;
* no file is entered twice on one import chain (``import_cycle``), nesting stops after
  ``MAX_IMPORT_DEPTH`` levels (``import_depth``), and a file imported a second time in the same
  document is replaced by a note instead of being included again.

Lines inside fenced code blocks (``` and ~~~) and inline code spans are never imports.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
import stat
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

DOCUMENT_NAMES: tuple[str, ...] = ("REASONIX.md", "AGENTS.md", "CLAUDE.md")
LOCAL_DOCUMENT_NAMES: tuple[str, ...] = ("REASONIX.local.md", "AGENTS.local.md", "CLAUDE.local.md")
MAX_IMPORT_DEPTH = 5
MAX_FILE_BYTES = 1024 * 1024  # an instruction file larger than this is refused, not read

USER_PRECEDENCE = 0

# Diagnostic codes (part of the CLI's JSON contract).
TARGET_OUTSIDE_WORKSPACE = "target_outside_workspace"
DOCUMENT_SYMLINK_ESCAPE = "document_symlink_escape"
DOCUMENT_UNREADABLE = "document_unreadable"
DOCUMENT_UNDECODABLE = "document_undecodable"
DOCUMENT_TOO_LARGE = "document_too_large"
IMPORT_OUTSIDE_SOURCE = "import_outside_source"  # a relative path whose `..` leaves the owner
IMPORT_ABSOLUTE_PATH = "import_absolute_path"  # `/abs/path.md`, `C:\\x.md`
IMPORT_HOME_PATH = "import_home_path"  # `~/x.md`, `~user/x.md`
IMPORT_SYMLINK_ESCAPE = "import_symlink_escape"
IMPORT_UNREADABLE = "import_unreadable"
IMPORT_UNDECODABLE = "import_undecodable"
IMPORT_TOO_LARGE = "import_too_large"
IMPORT_CYCLE = "import_cycle"
IMPORT_DEPTH = "import_depth"


class InstructionScope(StrEnum):
    USER = "user"
    PROJECT = "project"  # the workspace root directory
    ANCESTOR = "ancestor"  # a directory below the root, down to the target
    LOCAL = "local"  # a .local.md variant in any workspace directory


class ImportStatus(StrEnum):
    LOADED = "loaded"
    ALREADY_LOADED = "already_loaded"  # diamond: included once, the second place gets a note
    REJECTED = "rejected"


class InstructionImport(BaseModel):
    """One ``@path`` line found in a document or in one of its imports."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source: str  # label of the file holding the line
    target: str  # label of the imported file, or the path as written when it has no label
    line: int  # 1-based line in the source file
    depth: int  # nesting level: 1 for a line in the top-level document
    status: ImportStatus
    code: str | None = None  # the diagnostic code when rejected
    local_path: Path | None = Field(default=None, exclude=True, repr=False)


class InstructionDocument(BaseModel):
    """One top-level instruction file with its imports expanded."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str  # user/<file> or workspace/<relative path>
    scope: InstructionScope
    directory: str  # label of the directory it applies to: "user", "workspace", "workspace/a/b"
    precedence: int  # higher wins: user 0; depth d below the root: plain 10+2d, local 11+2d
    order: int  # position in the resolved list (after dedup), 0-based
    imports: tuple[InstructionImport, ...] = ()
    body: str  # expanded body, trimmed
    local_path: Path = Field(exclude=True, repr=False)
    local_directory: Path = Field(exclude=True, repr=False)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.body.encode("utf-8")).hexdigest()


class InstructionDiagnostic(BaseModel):
    """A refusal or problem, naming the file and line. Never part of the provider prefix."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str
    path: str  # label of the file concerned (or the import path as written)
    reason: str | None = None  # machine-readable detail, a key of REASONS
    source_path: str | None = None  # label of the file holding the offending line
    line: int | None = None
    message: str  # never contains an absolute path
    local_path: Path | None = Field(default=None, exclude=True, repr=False)
    local_source_path: Path | None = Field(default=None, exclude=True, repr=False)


class DuplicateDocument(BaseModel):
    """A document dropped because a more specific one has a byte-identical expanded body."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    label: str
    kept: str


class Resolution(BaseModel):
    """The instruction chain for one (home, workspace, target)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    target: str  # label of the directory resolved for ("workspace", "workspace/services/api")
    documents: tuple[InstructionDocument, ...] = ()
    diagnostics: tuple[InstructionDiagnostic, ...] = ()
    duplicates: tuple[DuplicateDocument, ...] = ()
    local_home: Path = Field(exclude=True, repr=False)
    local_workspace: Path = Field(exclude=True, repr=False)
    local_target: Path = Field(exclude=True, repr=False)


# --------------------------------------------------------------------------- paths


def _abspath(path: Path | str) -> Path:
    return Path(os.path.abspath(os.fspath(path)))


def _within(path: Path | str, root: Path | str) -> bool:
    path_s, root_s = os.fspath(path), os.fspath(root)
    try:
        return os.path.commonpath([path_s, root_s]) == root_s
    except ValueError:  # different drives
        return False


def _realpath(path: Path | str) -> Path:
    return Path(os.path.realpath(os.fspath(path)))


def find_workspace_root(target: Path) -> Path:
    """The nearest ancestor of ``target`` (inclusive) holding ``.git``, else ``target``."""
    target = _abspath(target)
    for candidate in (target, *target.parents):
        if os.path.lexists(candidate / ".git"):
            return candidate
    return target


def _label(prefix: str, path: Path, root: Path) -> str:
    rel = os.path.relpath(path, root)
    if rel == ".":
        return prefix
    return prefix + "/" + Path(rel).as_posix()


# --------------------------------------------------------------------------- reading


# Machine-readable detail of a refusal (the diagnostic's ``reason``) and its wording.
REASONS: dict[str, str] = {
    "absolute": "absolute paths are not allowed",
    "home": "paths starting with ~ are not allowed",
    "parent_escape": "the path leaves the directory that owns the instruction file",
    "symlink": "a symbolic link on the way leads outside the owning directory",
    "missing": "it does not exist",
    "permission_denied": "permission denied",
    "directory": "it is a directory",
    "not_regular_file": "it is not a regular file (FIFO, device or socket)",
    "os_error": "it cannot be read",
    "changed": "it changed while being read",
    "too_large": f"it is larger than {MAX_FILE_BYTES} bytes",
    "undecodable": "it is neither valid UTF-8 nor valid GB18030",
    "cycle": "it is already being imported on this chain",
    "depth": f"imports nest at most {MAX_IMPORT_DEPTH} levels deep",
}


class _ReadError(Exception):
    def __init__(self, kind: Literal["unreadable", "undecodable", "too_large"], reason: str):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason  # a key of REASONS


def decode_instruction_bytes(data: bytes) -> str | None:
    """UTF-8 (a BOM is dropped), else GB18030 when the bytes are valid GB18030, else None."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError:
        return None


def _stat_regular(path: Path) -> os.stat_result:
    """Stat (following links) and insist on a regular file, before anything opens it."""
    try:
        st = os.stat(path)
    except FileNotFoundError as exc:
        raise _ReadError("unreadable", "missing") from exc
    except PermissionError as exc:
        raise _ReadError("unreadable", "permission_denied") from exc
    except OSError as exc:
        raise _ReadError("unreadable", "os_error") from exc
    if stat.S_ISDIR(st.st_mode):
        raise _ReadError("unreadable", "directory")
    if not stat.S_ISREG(st.st_mode):
        raise _ReadError("unreadable", "not_regular_file")
    if st.st_size > MAX_FILE_BYTES:
        raise _ReadError("too_large", "too_large")
    return st


def _read_text(path: Path, expected: os.stat_result) -> str:
    """Read a file already vetted by ``_stat_regular``; newlines are normalised to LF."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except PermissionError as exc:
        raise _ReadError("unreadable", "permission_denied") from exc
    except OSError as exc:
        raise _ReadError("unreadable", "os_error") from exc
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (st.st_dev, st.st_ino) != (
            expected.st_dev,
            expected.st_ino,
        ):
            raise _ReadError("unreadable", "changed")
        chunks: list[bytes] = []
        total = 0
        while True:
            try:
                chunk = os.read(fd, 65536)
            except OSError as exc:
                raise _ReadError("unreadable", "os_error") from exc
            if not chunk:
                break
            total += len(chunk)
            if total > MAX_FILE_BYTES:
                raise _ReadError("too_large", "too_large")
            chunks.append(chunk)
    finally:
        os.close(fd)
    text = decode_instruction_bytes(b"".join(chunks))
    if text is None:
        raise _ReadError("undecodable", "undecodable")
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --------------------------------------------------------------------------- import lines

_FENCE_OPEN_RE = re.compile(r"^ {0,3}(`{3,}|~{3,})(.*)$")
_BACKTICKS_RE = re.compile(r"`+")
_DRIVE_RE = re.compile(r"^[A-Za-z]:")


def parse_import_target(line: str) -> str | None:
    """``@path`` alone on a line (trimmed), no whitespace, path with ``/``, ``\\`` or ``.``."""
    text = line.strip()
    if len(text) < 2 or not text.startswith("@"):
        return None
    if any(ch.isspace() for ch in text):
        return None
    target = text[1:]
    if not any(ch in target for ch in "/\\."):
        return None
    return target


def _code_lines(lines: list[str]) -> set[int]:
    """Indices of lines inside fenced code blocks or entirely inside a multi-line code span."""
    hidden: set[int] = set()
    paragraph: list[int] = []

    def flush() -> None:
        if paragraph:
            hidden.update(_lines_in_code_spans(lines, paragraph))
            paragraph.clear()

    fence: tuple[str, int] | None = None
    for index, line in enumerate(lines):
        if fence is not None:
            hidden.add(index)
            stripped = line.strip()
            char, size = fence
            if stripped and set(stripped) == {char} and len(stripped) >= size:
                fence = None
            continue
        match = _FENCE_OPEN_RE.match(line)
        if match and not (match.group(1)[0] == "`" and "`" in match.group(2)):
            flush()
            fence = (match.group(1)[0], len(match.group(1)))
            hidden.add(index)
            continue
        if line.strip():
            paragraph.append(index)
        else:
            flush()
    flush()
    return hidden


def _lines_in_code_spans(lines: list[str], indices: list[int]) -> set[int]:
    """Lines of one paragraph that lie inside an inline code span (CommonMark matching)."""
    starts: list[int] = []
    text_parts: list[str] = []
    offset = 0
    for index in indices:
        starts.append(offset)
        text_parts.append(lines[index])
        offset += len(lines[index]) + 1
    text = "\n".join(text_parts)
    runs = [(m.start(), m.end()) for m in _BACKTICKS_RE.finditer(text)]
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(runs):
        start, end = runs[i]
        size = end - start
        closer = next((j for j in range(i + 1, len(runs)) if runs[j][1] - runs[j][0] == size), None)
        if closer is None:
            i += 1  # an unmatched run is literal text
            continue
        spans.append((end, runs[closer][0]))
        i = closer + 1
    inside: set[int] = set()
    for index, line_start in zip(indices, starts, strict=True):
        line_end = line_start + len(lines[index])
        if any(s <= line_start and line_end <= e for s, e in spans):
            inside.add(index)
    return inside


# --------------------------------------------------------------------------- expansion


@dataclass
class _DocContext:
    """State while expanding one top-level document."""

    owner: Path  # lexical directory of the top-level document
    real_owner: Path
    label_root: Path  # labels are relative to this (workspace root or home)
    label_prefix: str  # "workspace" or "user"
    imports: list[InstructionImport] = field(default_factory=list)
    diagnostics: list[InstructionDiagnostic] = field(default_factory=list)
    active: set[tuple[int, int]] = field(default_factory=set)
    expanded: set[tuple[int, int]] = field(default_factory=set)

    def label(self, path: Path) -> str:
        return _label(self.label_prefix, path, self.label_root)


_NOTES = {
    IMPORT_OUTSIDE_SOURCE: "the path leaves the directory that owns this instruction file",
    IMPORT_ABSOLUTE_PATH: "absolute paths are not allowed; import relative to this file",
    IMPORT_HOME_PATH: "home-directory (~) paths are not allowed; import relative to this file",
    IMPORT_SYMLINK_ESCAPE: "a symbolic link on the way leads outside the owning directory",
    IMPORT_UNREADABLE: "the file cannot be read",
    IMPORT_UNDECODABLE: "the file is neither UTF-8 nor GB18030",
    IMPORT_TOO_LARGE: "the file is too large",
    IMPORT_CYCLE: "the file is already being imported on this chain",
    IMPORT_DEPTH: f"imports nest at most {MAX_IMPORT_DEPTH} levels deep",
}
_READ_CODES = {"too_large": IMPORT_TOO_LARGE, "undecodable": IMPORT_UNDECODABLE}


REJECTED_NOTE_RE = re.compile(r" <!-- instruction import rejected \((?P<code>[a-z_]+)\): [^>]*-->$")


def _rejected_line(line: str, code: str) -> str:
    return f"{line.rstrip()} <!-- instruction import rejected ({code}): {_NOTES[code]} -->"


@dataclass
class _Target:
    """What one import line points at, and why it is refused (``code`` empty when fine)."""

    label: str
    lexical: Path | None = None
    code: str = ""
    reason: str | None = None
    stat: os.stat_result | None = None

    def refuse(self, code: str, reason: str) -> None:
        self.code, self.reason = code, reason

    @property
    def identity(self) -> tuple[int, int] | None:
        return (self.stat.st_dev, self.stat.st_ino) if self.stat is not None else None


def _locate_import(raw: str, source_dir: Path, ctx: _DocContext) -> _Target:
    """Check the path lexically, then every component physically, then stat the file."""
    spec = raw.replace("\\", "/")
    if spec.startswith("~"):
        return _Target(label=raw, code=IMPORT_HOME_PATH, reason="home")
    if spec.startswith("/") or _DRIVE_RE.match(spec):
        return _Target(label=raw, code=IMPORT_ABSOLUTE_PATH, reason="absolute")
    lexical = Path(os.path.normpath(source_dir / spec))
    if not _within(lexical, ctx.owner):
        return _Target(
            label=raw, lexical=lexical, code=IMPORT_OUTSIDE_SOURCE, reason="parent_escape"
        )
    target = _Target(label=ctx.label(lexical), lexical=lexical)
    current = ctx.owner
    for part in lexical.relative_to(ctx.owner).parts:
        current = current / part
        if not os.path.lexists(current):
            break
        if not _within(_realpath(current), ctx.real_owner):
            target.refuse(IMPORT_SYMLINK_ESCAPE, "symlink")
            return target
    try:
        target.stat = _stat_regular(_realpath(lexical))
    except _ReadError as err:
        target.refuse(_READ_CODES.get(err.kind, IMPORT_UNREADABLE), err.reason)
    return target


def _expand(text: str, source: Path, depth: int, ctx: _DocContext) -> str:
    """Expand import lines of ``text`` (the content of ``source``, at nesting ``depth``)."""
    lines = text.split("\n")
    hidden = _code_lines(lines)
    source_label = ctx.label(source)
    out: list[str] = []
    for index, line in enumerate(lines):
        raw = None if index in hidden else parse_import_target(line)
        if raw is None:
            out.append(line)
            continue
        level = depth + 1
        target = _locate_import(raw, source.parent, ctx)
        status = ImportStatus.LOADED
        if not target.code and target.identity in ctx.active:
            target.refuse(IMPORT_CYCLE, "cycle")
        elif not target.code and target.identity in ctx.expanded:
            status = ImportStatus.ALREADY_LOADED
        elif not target.code and level > MAX_IMPORT_DEPTH:
            target.refuse(IMPORT_DEPTH, "depth")
        body = ""
        if not target.code and status is ImportStatus.LOADED:
            assert target.lexical is not None and target.stat is not None
            try:
                body = _read_text(_realpath(target.lexical), target.stat)
            except _ReadError as err:
                target.refuse(_READ_CODES.get(err.kind, IMPORT_UNREADABLE), err.reason)
        if target.code:
            status = ImportStatus.REJECTED
        ctx.imports.append(
            InstructionImport(
                source=source_label,
                target=target.label,
                line=index + 1,
                depth=level,
                status=status,
                code=target.code or None,
                local_path=target.lexical,
            )
        )
        if status is ImportStatus.ALREADY_LOADED:
            out.append(f"{line.rstrip()} <!-- instruction import skipped: already loaded above -->")
            continue
        if status is ImportStatus.REJECTED:
            ctx.diagnostics.append(
                InstructionDiagnostic(
                    code=target.code,
                    reason=target.reason,
                    path=target.label,
                    source_path=source_label,
                    line=index + 1,
                    message=f"import of {target.label!r} refused ({target.code}): "
                    + REASONS[target.reason or "os_error"],
                    local_path=target.lexical,
                    local_source_path=source,
                )
            )
            out.append(_rejected_line(line, target.code))
            continue
        identity = target.identity
        assert identity is not None and target.lexical is not None
        ctx.active.add(identity)
        inner = _expand(body, target.lexical, level, ctx).strip("\n")
        ctx.active.discard(identity)
        ctx.expanded.add(identity)
        attr = html.escape(target.label, quote=True)
        out.append(f'<instruction-import path="{attr}">\n{inner}\n</instruction-import>')
    return "\n".join(out)


# --------------------------------------------------------------------------- resolution


@dataclass
class _Candidate:
    doc: InstructionDocument
    seq: int


@dataclass(frozen=True)
class _Origin:
    """Where a group of top-level documents comes from: the home or the workspace."""

    boundary_real: Path  # a top-level document's real path must stay inside this
    label_root: Path
    label_prefix: str  # "user" or "workspace"


def _load_document(
    path: Path,
    origin: _Origin,
    *,
    scope: InstructionScope,
    directory_label: str,
    precedence: int,
    diagnostics: list[InstructionDiagnostic],
) -> InstructionDocument | None:
    if not os.path.lexists(path):
        return None
    label = _label(origin.label_prefix, path, origin.label_root)

    def refuse(code: str, reason: str, message: str) -> None:
        diagnostics.append(
            InstructionDiagnostic(
                code=code, reason=reason, path=label, message=message, local_path=path
            )
        )

    real = _realpath(path)
    if not _within(real, origin.boundary_real):
        where = "home" if origin.label_prefix == "user" else "workspace"
        refuse(
            DOCUMENT_SYMLINK_ESCAPE,
            "symlink",
            f"{label} was not loaded: its real path is outside the {where}",
        )
        return None
    try:
        st = _stat_regular(real)
        text = _read_text(real, st)
    except _ReadError as err:
        code = {"too_large": DOCUMENT_TOO_LARGE, "undecodable": DOCUMENT_UNDECODABLE}.get(
            err.kind, DOCUMENT_UNREADABLE
        )
        refuse(code, err.reason, f"{label} was not loaded: {REASONS[err.reason]}")
        return None
    ctx = _DocContext(
        owner=path.parent,
        real_owner=_realpath(path.parent),
        label_root=origin.label_root,
        label_prefix=origin.label_prefix,
    )
    ctx.active.add((st.st_dev, st.st_ino))
    body = _expand(text, path, 0, ctx).strip()
    diagnostics.extend(ctx.diagnostics)
    if not body:
        return None
    return InstructionDocument(
        label=label,
        scope=scope,
        directory=directory_label,
        precedence=precedence,
        order=0,
        imports=tuple(ctx.imports),
        body=body,
        local_path=path,
        local_directory=path.parent,
    )


def directory_chain(root: Path, target: Path) -> list[Path]:
    """Root, then each directory down to ``target`` (which must be inside ``root``)."""
    chain = [root]
    current = root
    for part in target.relative_to(root).parts:
        current = current / part
        chain.append(current)
    return chain


def _relative_or_name(path: Path, root: Path) -> str:
    """``path`` relative to ``root`` (``../x``) for a diagnostic; never an absolute path."""
    try:
        return Path(os.path.relpath(path, root)).as_posix()
    except ValueError:  # another drive
        return path.name


def resolve_instructions(home: Path, workspace: Path | None, target: Path) -> Resolution:
    """Resolve the instruction chain for ``target``. Never raises for a hostile tree."""
    home = _abspath(home)
    target = _abspath(target)
    if os.path.isfile(target):
        target = target.parent
    root = _abspath(workspace) if workspace is not None else find_workspace_root(target)
    diagnostics: list[InstructionDiagnostic] = []
    if not _within(target, root):
        real_target, real_root = _realpath(target), _realpath(root)
        if _within(real_target, real_root):
            target = root / real_target.relative_to(real_root)
        else:
            diagnostics.append(
                InstructionDiagnostic(
                    code=TARGET_OUTSIDE_WORKSPACE,
                    path=_relative_or_name(target, root),
                    message=(
                        "the target directory is outside the workspace; "
                        "resolved for the workspace root instead"
                    ),
                    local_path=target,
                )
            )
            target = root

    candidates: list[_Candidate] = []

    def add_dir(
        origin: _Origin,
        directory: Path,
        names: tuple[str, ...],
        scope: InstructionScope,
        precedence: int,
    ) -> None:
        directory_label = _label(origin.label_prefix, directory, origin.label_root)
        for name in names:
            doc = _load_document(
                directory / name,
                origin,
                scope=scope,
                directory_label=directory_label,
                precedence=precedence,
                diagnostics=diagnostics,
            )
            if doc is not None:
                candidates.append(_Candidate(doc=doc, seq=len(candidates)))

    user = _Origin(boundary_real=_realpath(home), label_root=home, label_prefix="user")
    add_dir(
        user, home, DOCUMENT_NAMES + LOCAL_DOCUMENT_NAMES, InstructionScope.USER, USER_PRECEDENCE
    )
    ws = _Origin(boundary_real=_realpath(root), label_root=root, label_prefix="workspace")
    for depth, directory in enumerate(directory_chain(root, target)):
        scope = InstructionScope.PROJECT if depth == 0 else InstructionScope.ANCESTOR
        add_dir(ws, directory, DOCUMENT_NAMES, scope, 10 + 2 * depth)
        add_dir(ws, directory, LOCAL_DOCUMENT_NAMES, InstructionScope.LOCAL, 11 + 2 * depth)

    # Byte-identical expanded bodies: keep the most specific source, i.e. the highest
    # precedence and, within one directory's plain (or local) files, the later one (unless it
    # is only a symlink to the earlier file, which is then the source).
    winners: dict[str, _Candidate] = {}
    for cand in candidates:
        key = cand.doc.sha256
        best = winners.get(key)
        if (
            best is None
            or cand.doc.precedence > best.doc.precedence
            or (
                cand.doc.precedence == best.doc.precedence
                and _realpath(cand.doc.local_path) != _realpath(best.doc.local_path)
            )
        ):
            winners[key] = cand
    documents: list[InstructionDocument] = []
    duplicates: list[DuplicateDocument] = []
    for cand in candidates:
        winner = winners[cand.doc.sha256]
        if winner is not cand:
            duplicates.append(DuplicateDocument(label=cand.doc.label, kept=winner.doc.label))
            continue
        documents.append(cand.doc.model_copy(update={"order": len(documents)}))

    return Resolution(
        target=_label("workspace", target, root),
        documents=tuple(documents),
        diagnostics=tuple(diagnostics),
        duplicates=tuple(duplicates),
        local_home=home,
        local_workspace=root,
        local_target=target,
    )
