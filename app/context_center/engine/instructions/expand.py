"""Reasonix import expansion: ``@relative/path`` alone on a line, inside the owning directory.

Safety rules for imports (all enforced before a single byte is read):

* the path is relative (no ``/``, drive letter or ``~`` prefix) and, resolved against the
  importing file, stays lexically inside the owner directory (``import_outside_source``);
* every directory on the way and the file itself have a real path inside the owner's real path
  (``import_symlink_escape``);
* the file is a regular file, checked with ``os.stat`` before it is opened, so a FIFO or a
  device never blocks (``import_unreadable``); it is opened with ``O_NONBLOCK`` as a belt;
* no file is entered twice on one import chain (``import_cycle``), nesting stops after
  ``MAX_IMPORT_DEPTH`` levels (``import_depth``).

Each file is included once: a second import in the same document, an import of a file an
earlier document already carries, and an import of a document of the chain itself (the common
``CLAUDE.md`` holding ``@AGENTS.md`` next to ``AGENTS.md``) are replaced by a note saying where
it is already loaded. Code (fenced or indented), inline code and HTML comments hold no imports.
"""

from __future__ import annotations

import html
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from context_center.engine.instructions import fsread, model
from context_center.engine.instructions.markdown import find_mentions
from context_center.engine.instructions.model import (
    IMPORT_ABSOLUTE_PATH,
    IMPORT_CYCLE,
    IMPORT_DEPTH,
    IMPORT_HOME_PATH,
    IMPORT_OUTSIDE_SOURCE,
    IMPORT_SYMLINK_ESCAPE,
    IMPORT_TOO_LARGE,
    IMPORT_UNDECODABLE,
    IMPORT_UNREADABLE,
    REASONS,
    ImportStatus,
    InstructionDiagnostic,
    InstructionImport,
)
from context_center.engine.instructions.sources import Source, SourceCache, looks_like_package

Identity = tuple[int, int]

_DRIVE_RE = re.compile(r"^[A-Za-z]:")
_NOTES = {
    IMPORT_OUTSIDE_SOURCE: "the path leaves the directory that owns this instruction file",
    IMPORT_ABSOLUTE_PATH: "absolute paths are not allowed; import relative to this file",
    IMPORT_HOME_PATH: "home-directory (~) paths are not allowed; import relative to this file",
    IMPORT_SYMLINK_ESCAPE: "a symbolic link on the way leads outside the owning directory",
    IMPORT_UNREADABLE: "the file cannot be read",
    IMPORT_UNDECODABLE: "the file is neither UTF-8 nor GB18030",
    IMPORT_TOO_LARGE: "the file is too large",
    IMPORT_CYCLE: "the file is already being imported on this chain",
    IMPORT_DEPTH: f"imports nest at most {model.MAX_IMPORT_DEPTH} levels deep",
}
_READ_CODES = {"too_large": IMPORT_TOO_LARGE, "undecodable": IMPORT_UNDECODABLE}

REJECTED_NOTE_RE = re.compile(r" <!-- instruction import rejected \((?P<code>[a-z_]+)\): [^>]*-->$")
SKIPPED_NOTE = " <!-- instruction import skipped: already loaded {where} -->"


def rejected_line(line: str, code: str) -> str:
    return f"{line.rstrip()} <!-- instruction import rejected ({code}): {_NOTES[code]} -->"


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


def import_lines(text: str) -> dict[int, str]:
    """0-based line index -> path, for each import line of ``text`` (Reasonix rules)."""
    lines = text.split("\n")
    found: dict[int, str] = {}
    for mention in find_mentions(text):
        if mention.alone and mention.line not in found:
            target = parse_import_target(lines[mention.line])
            if target is not None:
                found[mention.line] = target
    return found


@dataclass
class DocContext:
    """State while expanding one top-level document."""

    owner: Path  # lexical directory of the top-level document
    real_owner: Path
    label_root: Path  # labels are relative to this (workspace root or home)
    label_prefix: str  # "workspace" or "user"
    doc_label: str
    cache: SourceCache
    chain: dict[Identity, str] = field(default_factory=dict)  # chain documents -> label
    elsewhere: dict[Identity, str] = field(default_factory=dict)  # loaded by earlier docs
    imports: list[InstructionImport] = field(default_factory=list)
    diagnostics: list[InstructionDiagnostic] = field(default_factory=list)
    active: set[Identity] = field(default_factory=set)
    expanded: set[Identity] = field(default_factory=set)
    track: bool = True  # record what reaches the agent (off for the dedup pass)

    def used(self, source: Source, label: str, path: Path) -> None:
        if self.track:
            self.cache.used(source, label, path)

    def label(self, path: Path) -> str:
        return fsread.rel_label(self.label_prefix, path, self.label_root)


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
    def identity(self) -> Identity | None:
        return fsread.identity(self.stat) if self.stat is not None else None


def _locate_import(raw: str, source_dir: Path, ctx: DocContext) -> _Target:
    """Check the path lexically, then every component physically, then stat the file."""
    spec = raw.replace("\\", "/")
    if spec.startswith("~"):
        return _Target(label=raw, code=IMPORT_HOME_PATH, reason="home")
    if spec.startswith("/") or _DRIVE_RE.match(spec):
        return _Target(label=raw, code=IMPORT_ABSOLUTE_PATH, reason="absolute")
    lexical = Path(os.path.normpath(source_dir / spec))
    if not fsread.within(lexical, ctx.owner):
        return _Target(
            label=raw, lexical=lexical, code=IMPORT_OUTSIDE_SOURCE, reason="parent_escape"
        )
    target = _Target(label=ctx.label(lexical), lexical=lexical)
    current = ctx.owner
    for part in lexical.relative_to(ctx.owner).parts:
        current = current / part
        if not os.path.lexists(current):
            break
        if not fsread.within(fsread.realpath(current), ctx.real_owner):
            target.refuse(IMPORT_SYMLINK_ESCAPE, "symlink")
            return target
    try:
        target.stat = fsread.stat_regular(fsread.realpath(lexical))
    except fsread.ReadError as err:
        reason = err.reason
        if reason == "missing" and looks_like_package(raw, source_dir):
            reason = "package"
        target.refuse(_READ_CODES.get(err.kind, IMPORT_UNREADABLE), reason)
    return target


def _classify(target: _Target, level: int, ctx: DocContext) -> tuple[ImportStatus, str | None, str]:
    """Status of a located import; when it is skipped, the label that carries it already and
    the wording of the note ("as workspace/AGENTS.md", "above", "in workspace/AGENTS.md")."""
    identity = target.identity
    if target.code or identity is None:
        return ImportStatus.REJECTED, None, ""
    if identity in ctx.active:
        target.refuse(IMPORT_CYCLE, "cycle")
        return ImportStatus.REJECTED, None, ""
    if identity in ctx.chain:
        return ImportStatus.ALREADY_LOADED, ctx.chain[identity], f"as {ctx.chain[identity]}"
    if identity in ctx.expanded:
        return ImportStatus.ALREADY_LOADED, None, "above"
    if identity in ctx.elsewhere:
        label = ctx.elsewhere[identity]
        return ImportStatus.ALREADY_LOADED, label, f"in {label}"
    if level > model.MAX_IMPORT_DEPTH:
        target.refuse(IMPORT_DEPTH, "depth")
        return ImportStatus.REJECTED, None, ""
    return ImportStatus.LOADED, None, ""


def _rejection(
    target: _Target, source_label: str, line: int, source: Path
) -> InstructionDiagnostic:
    return InstructionDiagnostic(
        code=target.code,
        reason=target.reason,
        path=target.label,
        source_path=source_label,
        line=line,
        message=f"import of {target.label!r} refused ({target.code}): "
        + REASONS[target.reason or "os_error"],
        local_path=target.lexical,
        local_source_path=source,
    )


def expand(text: str, source: Path, depth: int, ctx: DocContext) -> str:
    """Expand import lines of ``text`` (the content of ``source``, at nesting ``depth``)."""
    imports = import_lines(text)
    if not imports:
        return text
    lines = text.split("\n")
    source_label = ctx.label(source)
    out: list[str] = []
    for index, line in enumerate(lines):
        raw = imports.get(index)
        if raw is None:
            out.append(line)
            continue
        level = depth + 1
        target = _locate_import(raw, source.parent, ctx)
        status, loaded_as, where = _classify(target, level, ctx)
        body = ""
        if status is ImportStatus.LOADED:
            assert target.lexical is not None and target.stat is not None
            try:
                loaded = ctx.cache.read(target.lexical, target.stat)
                ctx.used(loaded, target.label, target.lexical)
                body = loaded.text
            except fsread.ReadError as err:
                target.refuse(_READ_CODES.get(err.kind, IMPORT_UNREADABLE), err.reason)
                status = ImportStatus.REJECTED
        ctx.imports.append(
            InstructionImport(
                source=source_label,
                target=target.label,
                line=index + 1,
                depth=level,
                status=status,
                code=target.code or None,
                loaded_as=loaded_as,
                local_path=target.lexical,
            )
        )
        if status is ImportStatus.ALREADY_LOADED:
            out.append(line.rstrip() + SKIPPED_NOTE.format(where=where))
            continue
        if status is ImportStatus.REJECTED:
            ctx.diagnostics.append(_rejection(target, source_label, index + 1, source))
            out.append(rejected_line(line, target.code))
            continue
        identity = target.identity
        assert identity is not None and target.lexical is not None
        ctx.active.add(identity)
        inner = expand(body, target.lexical, level, ctx).strip("\n")
        ctx.active.discard(identity)
        ctx.expanded.add(identity)
        attr = html.escape(target.label, quote=True)
        out.append(f'<instruction-import path="{attr}">\n{inner}\n</instruction-import>')
    return "\n".join(out)
