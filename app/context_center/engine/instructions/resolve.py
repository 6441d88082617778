"""Reasonix standing instructions: which files apply to a target directory, and what they import.

``resolve_instructions`` walks ``<home>`` (user-global files) and then every directory from the
workspace root down to the target, loads ``REASONIX.md``, ``AGENTS.md``, ``CLAUDE.md`` and their
``.local.md`` variants, expands ``@relative/path`` imports inside the directory that owns each
top-level document (``expand.py``), and reports every refusal as a diagnostic instead of raising.

Each file reaches the agent once. Documents whose expanded bodies are byte-identical are shown
once, keeping the most specific; a document of the chain imported by another (``CLAUDE.md``
holding ``@AGENTS.md``) is not repeated inside it, and a file imported by two documents is
included by the first only. Secrets in any file are withheld (``withhold.py``).

The data model lives in ``model.py``; its names are re-exported here for older imports.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from context_center.engine.instructions import fsread
from context_center.engine.instructions.expand import (
    REJECTED_NOTE_RE,
    DocContext,
    expand,
    parse_import_target,
)
from context_center.engine.instructions.fsread import decode_instruction_bytes, find_workspace_root
from context_center.engine.instructions.model import (
    DOCUMENT_SYMLINK_ESCAPE,
    DOCUMENT_TOO_LARGE,
    DOCUMENT_UNDECODABLE,
    DOCUMENT_UNREADABLE,
    IMPORT_ABSOLUTE_PATH,
    IMPORT_CYCLE,
    IMPORT_DEPTH,
    IMPORT_HOME_PATH,
    IMPORT_OUTSIDE_SOURCE,
    IMPORT_SYMLINK_ESCAPE,
    IMPORT_TOO_LARGE,
    IMPORT_UNDECODABLE,
    IMPORT_UNREADABLE,
    MAX_FILE_BYTES,
    MAX_IMPORT_DEPTH,
    REASONS,
    TARGET_OUTSIDE_WORKSPACE,
    DuplicateDocument,
    FileState,
    FileStatus,
    ImportStatus,
    InstructionDiagnostic,
    InstructionDocument,
    InstructionImport,
    InstructionScope,
    Resolution,
)
from context_center.engine.instructions.sources import Source, SourceCache

DOCUMENT_NAMES: tuple[str, ...] = ("REASONIX.md", "AGENTS.md", "CLAUDE.md")
LOCAL_DOCUMENT_NAMES: tuple[str, ...] = ("REASONIX.local.md", "AGENTS.local.md", "CLAUDE.local.md")
USER_PRECEDENCE = 0
LIMITS = {"max_import_depth": MAX_IMPORT_DEPTH, "max_file_bytes": MAX_FILE_BYTES}

Identity = tuple[int, int]

__all__ = [
    "DOCUMENT_NAMES",
    "DOCUMENT_SYMLINK_ESCAPE",
    "DOCUMENT_TOO_LARGE",
    "DOCUMENT_UNDECODABLE",
    "DOCUMENT_UNREADABLE",
    "IMPORT_ABSOLUTE_PATH",
    "IMPORT_CYCLE",
    "IMPORT_DEPTH",
    "IMPORT_HOME_PATH",
    "IMPORT_OUTSIDE_SOURCE",
    "IMPORT_SYMLINK_ESCAPE",
    "IMPORT_TOO_LARGE",
    "IMPORT_UNDECODABLE",
    "IMPORT_UNREADABLE",
    "LIMITS",
    "LOCAL_DOCUMENT_NAMES",
    "MAX_FILE_BYTES",
    "MAX_IMPORT_DEPTH",
    "REASONS",
    "REJECTED_NOTE_RE",
    "TARGET_OUTSIDE_WORKSPACE",
    "USER_PRECEDENCE",
    "DuplicateDocument",
    "FileState",
    "FileStatus",
    "ImportStatus",
    "InstructionDiagnostic",
    "InstructionDocument",
    "InstructionImport",
    "InstructionScope",
    "Resolution",
    "clamp_target",
    "decode_instruction_bytes",
    "directory_chain",
    "find_workspace_root",
    "parse_import_target",
    "resolve_instructions",
]


@dataclass(frozen=True)
class _Origin:
    """Where a group of top-level documents comes from: the home or the workspace."""

    boundary_real: Path  # a top-level document's real path must stay inside this
    label_root: Path
    label_prefix: str  # "user" or "workspace"


@dataclass
class _Candidate:
    path: Path
    origin: _Origin
    scope: InstructionScope
    directory_label: str
    precedence: int
    label: str
    source: Source | None = None
    diagnostics: list[InstructionDiagnostic] = field(default_factory=list)
    doc: InstructionDocument | None = None


def directory_chain(root: Path, target: Path) -> list[Path]:
    """Root, then each directory down to ``target`` (which must be inside ``root``)."""
    chain = [root]
    current = root
    for part in target.relative_to(root).parts:
        current = current / part
        chain.append(current)
    return chain


def _candidates(home: Path, root: Path, target: Path) -> list[_Candidate]:
    out: list[_Candidate] = []

    def add(
        origin: _Origin,
        directory: Path,
        names: tuple[str, ...],
        scope: InstructionScope,
        precedence: int,
    ) -> None:
        directory_label = fsread.rel_label(origin.label_prefix, directory, origin.label_root)
        for name in names:
            path = directory / name
            if os.path.lexists(path):
                label = fsread.rel_label(origin.label_prefix, path, origin.label_root)
                out.append(_Candidate(path, origin, scope, directory_label, precedence, label))

    user = _Origin(fsread.realpath(home), home, "user")
    add(user, home, DOCUMENT_NAMES + LOCAL_DOCUMENT_NAMES, InstructionScope.USER, USER_PRECEDENCE)
    ws = _Origin(fsread.realpath(root), root, "workspace")
    for depth, directory in enumerate(directory_chain(root, target)):
        scope = InstructionScope.PROJECT if depth == 0 else InstructionScope.ANCESTOR
        add(ws, directory, DOCUMENT_NAMES, scope, 10 + 2 * depth)
        add(ws, directory, LOCAL_DOCUMENT_NAMES, InstructionScope.LOCAL, 11 + 2 * depth)
    return out


def _read_candidate(cand: _Candidate, cache: SourceCache) -> None:
    def refuse(code: str, reason: str, message: str) -> None:
        cand.diagnostics.append(
            InstructionDiagnostic(
                code=code, reason=reason, path=cand.label, message=message, local_path=cand.path
            )
        )

    real = fsread.realpath(cand.path)
    if not fsread.within(real, cand.origin.boundary_real):
        where = "home" if cand.origin.label_prefix == "user" else "workspace"
        refuse(
            DOCUMENT_SYMLINK_ESCAPE,
            "symlink",
            f"{cand.label} was not loaded: its real path is outside the {where}",
        )
        return
    try:
        cand.source = cache.read(real)
    except fsread.ReadError as err:
        code = {"too_large": DOCUMENT_TOO_LARGE, "undecodable": DOCUMENT_UNDECODABLE}.get(
            err.kind, DOCUMENT_UNREADABLE
        )
        refuse(code, err.reason, f"{cand.label} was not loaded: {REASONS[err.reason]}")


def _expand_candidate(
    cand: _Candidate,
    cache: SourceCache,
    chain: dict[Identity, str],
    elsewhere: dict[Identity, str],
    *,
    track: bool,
) -> tuple[InstructionDocument | None, DocContext]:
    assert cand.source is not None
    ctx = DocContext(
        owner=cand.path.parent,
        real_owner=fsread.realpath(cand.path.parent),
        label_root=cand.origin.label_root,
        label_prefix=cand.origin.label_prefix,
        doc_label=cand.label,
        cache=cache,
        chain={k: v for k, v in chain.items() if k != cand.source.identity},
        elsewhere=elsewhere,
        track=track,
    )
    ctx.active.add(cand.source.identity)
    if track:
        cache.used(cand.source, cand.label, cand.path)
    body = expand(cand.source.text, cand.path, 0, ctx).strip()
    if not body:
        return None, ctx
    doc = InstructionDocument(
        label=cand.label,
        scope=cand.scope,
        directory=cand.directory_label,
        precedence=cand.precedence,
        order=0,
        imports=tuple(ctx.imports),
        body=body,
        size=cand.source.stat.st_size,
        local_path=cand.path,
        local_directory=cand.path.parent,
    )
    return doc, ctx


def _winners(cands: list[_Candidate]) -> dict[str, _Candidate]:
    """Byte-identical expanded bodies: keep the most specific source, i.e. the highest
    precedence and, within one directory's plain (or local) files, the later one (unless it
    is only a symlink to the earlier file, which is then the source)."""
    winners: dict[str, _Candidate] = {}
    for cand in cands:
        assert cand.doc is not None
        best = winners.get(cand.doc.sha256)
        if (
            best is None
            or cand.precedence > best.precedence
            or (
                cand.precedence == best.precedence
                and fsread.realpath(cand.path) != fsread.realpath(best.path)
            )
        ):
            winners[cand.doc.sha256] = cand
    return winners


def clamp_target(target: Path, root: Path) -> tuple[Path, InstructionDiagnostic | None]:
    """``target`` inside ``root`` (through a link if need be), else ``root`` and a diagnostic
    naming the target by a label (``above/2/elsewhere``), never a ``../..`` path."""
    if fsread.within(target, root):
        return target, None
    real_target, real_root = fsread.realpath(target), fsread.realpath(root)
    if fsread.within(real_target, real_root):
        return root / real_target.relative_to(real_root), None
    label = fsread.Labeller(root)(target)
    diag = InstructionDiagnostic(
        code=TARGET_OUTSIDE_WORKSPACE,
        path=label,
        message=(
            f"the target directory ({label}) is outside the workspace; "
            "resolved for the workspace root instead"
        ),
        local_path=target,
    )
    return root, diag


def resolve_instructions(home: Path, workspace: Path | None, target: Path) -> Resolution:
    """Resolve the Reasonix instruction chain for ``target``. Never raises for a hostile tree."""
    home = fsread.abspath(home)
    target = fsread.abspath(target)
    if os.path.isfile(target):
        target = target.parent
    root = fsread.abspath(workspace) if workspace is not None else find_workspace_root(target)
    target, outside = clamp_target(target, root)
    diagnostics: list[InstructionDiagnostic] = [outside] if outside else []

    cache = SourceCache()
    cands = _candidates(home, root, target)
    for cand in cands:
        _read_candidate(cand, cache)
    chain = {c.source.identity: c.label for c in cands if c.source is not None}
    loaded: list[_Candidate] = []
    for cand in cands:
        if cand.source is not None:
            cand.doc, ctx = _expand_candidate(cand, cache, chain, {}, track=False)
            cand.diagnostics.extend(ctx.diagnostics)
            if cand.doc is not None:
                loaded.append(cand)
    winners = _winners(loaded)
    keeper = {c.label: winners[c.doc.sha256].label for c in loaded if c.doc is not None}
    chain = {key: keeper.get(label, label) for key, label in chain.items()}

    # Second pass over the documents kept: a file an earlier document carries is not repeated.
    documents: list[InstructionDocument] = []
    duplicates: list[DuplicateDocument] = []
    files: list[FileStatus] = []
    elsewhere: dict[Identity, str] = {}
    for cand in cands:
        if cand.doc is not None and winners[cand.doc.sha256] is not cand:
            duplicates.append(DuplicateDocument(label=cand.label, kept=keeper[cand.label]))
            files.append(_file(cand, FileState.DUPLICATE, f"same text as {keeper[cand.label]}"))
        elif cand.doc is not None:
            doc, ctx = _expand_candidate(cand, cache, chain, elsewhere, track=True)
            cand.diagnostics[:] = [d for d in cand.diagnostics if d.source_path is None]
            cand.diagnostics.extend(ctx.diagnostics)
            for key in ctx.expanded:
                elsewhere.setdefault(key, cand.label)
            if doc is not None:
                documents.append(doc.model_copy(update={"order": len(documents)}))
                files.append(_file(cand, FileState.LOADED))
                files.extend(_import_files(doc))
        else:
            files.append(
                _file(
                    cand,
                    FileState.REFUSED if cand.diagnostics else FileState.NOT_LOADED,
                    "empty" if not cand.diagnostics else cand.diagnostics[0].message,
                )
            )
        diagnostics.extend(cand.diagnostics)
    diagnostics.extend(cache.secret_diagnostics())
    return Resolution(
        target=fsread.rel_label("workspace", target, root),
        documents=tuple(documents),
        diagnostics=tuple(diagnostics),
        duplicates=tuple(duplicates),
        files=tuple(files),
        limits=dict(LIMITS),
        local_home=home,
        local_workspace=root,
        local_target=target,
    )


def _file(cand: _Candidate, state: FileState, detail: str = "") -> FileStatus:
    size = cand.source.stat.st_size if cand.source is not None else 0
    loaded = size if state is FileState.LOADED else 0
    return FileStatus(
        label=cand.label,
        state=state,
        size=size,
        loaded_bytes=loaded,
        detail=detail,
        local_path=cand.path,
    )


def _import_files(doc: InstructionDocument) -> list[FileStatus]:
    out = []
    for imp in doc.imports:
        if imp.status.value == "loaded" and imp.local_path is not None:
            size = fsread.try_size(imp.local_path)
            out.append(
                FileStatus(
                    label=imp.target,
                    state=FileState.IMPORTED,
                    size=size,
                    loaded_bytes=size,
                    detail=f"imported by {imp.source}",
                    local_path=imp.local_path,
                )
            )
    return out
