"""What Codex loads: its global ``AGENTS.md`` and one project doc per directory, cut at a byte limit.

Matched against openai/codex ``codex-rs/core/src/agents_md.rs`` (the ``read_agents_md`` /
``agents_md_paths`` loader) and the "Custom instructions with AGENTS.md" guide:

* global: in the Codex home (``$CODEX_HOME``, else ``~/.codex``) the first *non-empty* of
  ``AGENTS.override.md`` and ``AGENTS.md``, trimmed; it does not count against the limit;
* project: the root is the nearest ancestor of the target holding one of
  ``project_root_markers`` (default ``[".git"]``; an empty list means the target only; no
  marker found means the target only); from the root down to the target, in each directory the
  first of ``AGENTS.override.md``, ``AGENTS.md`` and ``project_doc_fallback_filenames`` that is
  a file (links followed);
* no imports: ``@path`` is plain text to Codex;
* the project docs are read as bytes and cut where their running total reaches
  ``project_doc_max_bytes`` (32 KiB by default; 0 turns project docs off); a file that is only
  whitespace costs nothing; every file after the cut never reaches Codex; bytes are decoded as
  lossy UTF-8 (a GB18030 file arrives as replacement characters);
* text: the global doc, ``"\\n\\n--- project-doc ---\\n\\n"``, then the project docs joined by
  blank lines.

``config.toml`` in the Codex home is read with ``tomllib`` for those three keys.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from context_center.engine.instructions import fsread, model
from context_center.engine.instructions.model import (
    CodexCut,
    FileState,
    FileStatus,
    InstructionDiagnostic,
    InstructionDocument,
    InstructionScope,
    Resolution,
    Severity,
)
from context_center.engine.instructions.redact import redactor_for
from context_center.engine.instructions.resolve import clamp_target
from context_center.engine.instructions.sources import secret_diagnostic
from context_center.engine.instructions.withhold import withhold

DEFAULT_MAX_BYTES = 32 * 1024
OVERRIDE_NAME = "AGENTS.override.md"
DEFAULT_NAME = "AGENTS.md"
SEPARATOR = "\n\n--- project-doc ---\n\n"
MAX_CONFIG_BYTES = 1024 * 1024
MAX_READ_BYTES = 4 * 1024 * 1024  # never read more than this of one file, whatever the limit
MAX_DROPPED_LINES = 50


@dataclass(frozen=True)
class CodexConfig:
    max_bytes: int = DEFAULT_MAX_BYTES
    fallback_names: tuple[str, ...] = ()
    root_markers: tuple[str, ...] = (".git",)
    problems: tuple[str, ...] = ()

    def candidate_names(self) -> list[str]:
        names = [OVERRIDE_NAME, DEFAULT_NAME]
        for name in self.fallback_names:
            if name and name not in names:
                names.append(name)
        return names


def codex_home_for(user_home: Path, environ: dict[str, str] | None = None) -> Path:
    """``$CODEX_HOME`` when set and not empty, else ``<user_home>/.codex``."""
    env = os.environ if environ is None else environ
    value = env.get("CODEX_HOME", "")
    return Path(value).expanduser() if value else user_home / ".codex"


def _string_list(data: dict[str, object], key: str, problems: list[str]) -> tuple[str, ...] | None:
    value = data.get(key)
    if value is None:
        return None
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    problems.append(f"{key} must be a list of strings")
    return None


def read_config(codex_home: Path) -> CodexConfig:
    path = codex_home / "config.toml"
    if not os.path.lexists(path):
        return CodexConfig()
    problems: list[str] = []
    try:
        st = fsread.stat_regular(fsread.realpath(path), MAX_CONFIG_BYTES)
        raw = fsread.read_bytes(fsread.realpath(path), st, MAX_CONFIG_BYTES)
        data = tomllib.loads(raw.decode("utf-8"))
    except (fsread.ReadError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        return CodexConfig(problems=(f"config.toml was not read: {exc}",))
    except RecursionError:  # tomllib's answer to arrays or tables nested deeper than it goes
        return CodexConfig(problems=("config.toml was not read: it is nested too deeply",))
    max_bytes = data.get("project_doc_max_bytes", DEFAULT_MAX_BYTES)
    if not isinstance(max_bytes, int) or isinstance(max_bytes, bool) or max_bytes < 0:
        problems.append("project_doc_max_bytes must be a non-negative integer")
        max_bytes = DEFAULT_MAX_BYTES
    fallback = _string_list(data, "project_doc_fallback_filenames", problems) or ()
    markers = _string_list(data, "project_root_markers", problems)
    return CodexConfig(
        max_bytes=max_bytes,
        fallback_names=fallback,
        root_markers=(".git",) if markers is None else markers,
        problems=tuple(problems),
    )


def codex_root(target: Path, markers: tuple[str, ...]) -> Path | None:
    if not markers:
        return None
    for candidate in (target, *target.parents):
        for marker in markers:
            try:
                if os.path.lexists(candidate / marker):
                    return candidate
            except (OSError, ValueError):
                continue
    return None


def _is_file(path: Path) -> bool:
    try:
        return os.path.isfile(path)
    except (OSError, ValueError):
        return False


def _read(path: Path, limit: int) -> tuple[bytes, int]:
    """Up to ``limit`` bytes of ``path`` and its size; raises ``fsread.ReadError``."""
    real = fsread.realpath(path)
    st = fsread.stat_regular(real, 1 << 62)
    if st.st_size <= limit:
        return fsread.read_bytes(real, st, 1 << 62), st.st_size
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(real, flags)
    except OSError as exc:
        raise fsread.ReadError("unreadable", "os_error") from exc
    try:
        chunks, total = [], 0
        while total < limit:
            chunk = os.read(fd, min(65536, limit - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise fsread.ReadError("unreadable", "os_error") from exc
    finally:
        os.close(fd)
    return b"".join(chunks), st.st_size


@dataclass
class _Run:
    labeller: fsread.Labeller
    root: Path
    diagnostics: list[InstructionDiagnostic] = field(default_factory=list)
    files: list[FileStatus] = field(default_factory=list)

    def diag(
        self,
        code: str,
        label: str,
        message: str,
        severity: Severity,
        path: Path | None,
        line: int | None = None,
    ) -> None:
        self.diagnostics.append(
            InstructionDiagnostic(
                code=code,
                path=label,
                message=message,
                severity=severity,
                line=line,
                source_path=label if line is not None else None,
                local_path=path,
                local_source_path=path if line is not None else None,
            )
        )


def _decode(run: _Run, data: bytes, label: str, path: Path) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start < len(data) - 3:  # not just a character split by the byte limit
            run.diag(
                model.DOCUMENT_NOT_UTF8,
                label,
                f"{label} is not valid UTF-8: Codex reads it with replacement characters",
                Severity.WARNING,
                path,
            )
        return data.decode("utf-8", errors="replace")


def _global(run: _Run, codex_home: Path) -> tuple[str, InstructionDocument | None]:
    for name in (OVERRIDE_NAME, DEFAULT_NAME):
        path = codex_home / name
        if not os.path.lexists(path):
            continue
        label = run.labeller(path)
        try:
            data, size = _read(path, MAX_READ_BYTES)
        except fsread.ReadError as err:
            if err.reason != "directory":
                run.diag(
                    model.DOCUMENT_UNREADABLE,
                    label,
                    f"{label} was not loaded: {model.REASONS[err.reason]}",
                    Severity.ERROR,
                    path,
                )
            continue
        text = _decode(run, data, label, path).strip()
        if not text:
            run.files.append(
                FileStatus(
                    label=label,
                    state=FileState.NOT_LOADED,
                    size=size,
                    detail="empty",
                    local_path=path,
                )
            )
            continue
        run.files.append(
            FileStatus(
                label=label,
                state=FileState.LOADED,
                size=size,
                loaded_bytes=len(data),
                local_path=path,
            )
        )
        doc = InstructionDocument(
            label=label,
            scope=InstructionScope.USER,
            directory=run.labeller(codex_home),
            precedence=0,
            order=0,
            body=text,
            size=size,
            local_path=path,
            local_directory=codex_home,
        )
        return text, doc
    return "", None


def _candidates(run: _Run, target: Path, config: CodexConfig) -> list[tuple[Path, Path]]:
    """(directory, file) for each directory from the Codex root down to the target."""
    root = codex_root(target, config.root_markers)
    dirs = (
        [target]
        if root is None
        else [d for d in (target, *target.parents) if fsread.within(d, root)]
    )
    found = []
    for directory in reversed(dirs):
        for name in config.candidate_names():
            if _is_file(directory / name):
                found.append((directory, directory / name))
                break
    return found


def _cut(data: bytes, keep: int, label: str, limit: int) -> tuple[CodexCut, list[str]]:
    kept = data[:keep].decode("utf-8", errors="replace")
    last = kept.rsplit("\n", 1)[-1]
    line = kept.count("\n") + 1
    rest = data[keep:].decode("utf-8", errors="replace").split("\n")
    if rest and rest[0].strip() and last.strip():
        rest[0] = "…" + rest[0].lstrip()  # the end of a line the cut falls inside
    dropped = [ln.strip() for ln in rest if ln.strip()][:MAX_DROPPED_LINES]
    return CodexCut(
        label=label, byte_offset=keep, line=line, column=len(last) + 1, limit=limit
    ), dropped


def _not_reached(
    run: _Run, label: str, path: Path, size: int, detail: str, why: str | None = None
) -> None:
    run.files.append(
        FileStatus(
            label=label, state=FileState.NOT_REACHED, size=size, detail=detail, local_path=path
        )
    )
    run.diag(
        model.DOCUMENT_NOT_REACHED,
        label,
        f"{label} never reaches Codex: {why or detail}",
        Severity.WARNING,
        path,
    )


def _warn_if_linked_out(run: _Run, label: str, path: Path, directory: Path, root: Path) -> None:
    """A warning for a file that is a link to a file outside the workspace (Codex follows
    it); a plain file in a folder above the workspace (the git root is higher) is no link."""
    real = fsread.realpath(path)
    if real != fsread.realpath(directory) / path.name and not fsread.within(
        real, fsread.realpath(root)
    ):
        run.diag(
            model.DOCUMENT_SYMLINK_ESCAPE,
            label,
            f"{label} is a link to a file outside the workspace; Codex follows it",
            Severity.WARNING,
            path,
        )


def _how_much(
    run: _Run,
    label: str,
    path: Path,
    sizes: tuple[int, int],
    remaining: int,
    config: CodexConfig,
) -> tuple[FileState, int, CodexCut | None]:
    """(its state, the bytes Codex reads of it, the cut when project_doc_max_bytes falls
    inside it) for a file of which ``sizes`` = (bytes read here, its size)."""
    read, size = sizes
    if size <= read:
        return FileState.LOADED, read, None
    if read < remaining:  # our read cap, not Codex's limit: Codex reads it to the budget
        taken = min(size, remaining)
        run.diag(
            model.DOCUMENT_TOO_LARGE,
            label,
            f"{label} is {size} bytes: Codex reads {taken} of them; only the first "
            f"{read} are shown here",
            Severity.NOTE,
            path,
        )
        return FileState.LOADED, taken, None
    full, _ = _read(path, min(size, MAX_READ_BYTES))
    cut, dropped = _cut(full, read, label, config.max_bytes)
    preview = "; ".join(dropped[:3])
    run.diag(
        model.DOCUMENT_CUT_OFF,
        label,
        f"project_doc_max_bytes ({config.max_bytes}) cuts {label} at byte "
        f"{cut.byte_offset} (line {cut.line}, column {cut.column}): "
        f"{size - cut.byte_offset} bytes, {len(dropped)} non-empty lines never "
        f"reach Codex" + (f", from: {preview}" if preview else ""),
        Severity.WARNING,
        path,
        cut.line,
    )
    return FileState.CUT_OFF, read, cut


def resolve_codex(
    workspace: Path, target: Path, *, codex_home: Path, user_home: Path, cc_home: Path | None = None
) -> Resolution:
    """What Codex assembles when started in ``target`` (``cc_home`` is redacted). No raise."""
    root = fsread.abspath(workspace)
    target = fsread.abspath(target)
    if os.path.isfile(target):
        target = target.parent
    target, outside = clamp_target(target, root)
    codex_home = fsread.abspath(codex_home)
    user_home = fsread.abspath(user_home)
    roots = (
        (codex_home, "$CODEX_HOME")
        if not fsread.within(codex_home, user_home)
        else (codex_home, "~/" + fsread.rel_label("", codex_home, user_home).lstrip("/")),
        (user_home, "~"),
    )
    run = _Run(labeller=fsread.Labeller(root, roots), root=root)
    if outside is not None:
        run.diagnostics.append(outside)
    config = read_config(codex_home)
    for problem in config.problems:
        run.diag(
            model.CODEX_CONFIG_INVALID,
            run.labeller(codex_home / "config.toml"),
            f"config.toml: {problem}; the default is used",
            Severity.WARNING,
            codex_home / "config.toml",
        )
    global_text, global_doc = _global(run, codex_home)
    documents = [global_doc] if global_doc else []
    texts: list[str] = []
    remaining = config.max_bytes
    cut: CodexCut | None = None
    candidates = _candidates(run, target, config) if config.max_bytes > 0 else []
    for depth, (directory, path) in enumerate(candidates):
        label = run.labeller(path)
        if remaining == 0:
            _not_reached(
                run,
                label,
                path,
                fsread.try_size(path),
                f"project_doc_max_bytes ({config.max_bytes}) was used up before this file",
                f"the {config.max_bytes}-byte project_doc_max_bytes was used up before it",
            )
            continue
        try:
            data, size = _read(path, min(remaining, MAX_READ_BYTES))
        except fsread.ReadError as err:
            run.files.append(
                FileStatus(
                    label=label, state=FileState.REFUSED, size=0, detail=err.reason, local_path=path
                )
            )
            run.diag(
                model.DOCUMENT_UNREADABLE,
                label,
                f"{label} was not loaded: {model.REASONS[err.reason]}",
                Severity.ERROR,
                path,
            )
            continue
        _warn_if_linked_out(run, label, path, directory, root)
        text = _decode(run, data, label, path)
        if not text.strip() and size > len(data) and len(data) == remaining:
            # the budget left ends inside its leading whitespace: Codex skips it as empty
            _not_reached(
                run,
                label,
                path,
                size,
                f"project_doc_max_bytes ({config.max_bytes}) left {remaining} bytes for it, "
                "only whitespace",
            )
            continue
        if not text.strip():
            run.files.append(
                FileStatus(
                    label=label,
                    state=FileState.NOT_LOADED,
                    size=size,
                    detail="empty",
                    local_path=path,
                )
            )
            continue
        state, taken, this_cut = _how_much(run, label, path, (len(data), size), remaining, config)
        cut = this_cut or cut
        remaining -= taken
        shown, findings = withhold(text)
        for finding in findings:
            run.diagnostics.append(secret_diagnostic(label, path, finding))
        texts.append(shown)
        run.files.append(
            FileStatus(label=label, state=state, size=size, loaded_bytes=taken, local_path=path)
        )
        scope = InstructionScope.PROJECT if directory == root else InstructionScope.ANCESTOR
        documents.append(
            InstructionDocument(
                label=label,
                scope=scope,
                directory=run.labeller(directory),
                precedence=10 + depth,
                order=len(documents),
                body=shown,
                size=size,
                local_path=path,
                local_directory=directory,
            )
        )
    global_shown, findings = withhold(global_text)
    if global_doc is not None:
        for finding in findings:
            run.diagnostics.append(
                secret_diagnostic(global_doc.label, global_doc.local_path, finding)
            )
        documents[0] = global_doc.model_copy(update={"body": global_shown})
    project = "\n\n".join(texts)
    text = global_shown + (SEPARATOR if global_shown and project else "") + project
    redact = redactor_for(root, user_home, codex_home, *filter(None, [cc_home]))
    return Resolution(
        target=fsread.rel_label("workspace", target, root),
        documents=tuple(d.model_copy(update={"body": redact(d.body)}) for d in documents),
        diagnostics=tuple(run.diagnostics),
        agent=model.Agent.CODEX,
        files=tuple(run.files),
        text=redact(text),
        limits={
            "project_doc_max_bytes": config.max_bytes,
            "project_bytes_used": config.max_bytes - remaining,
        },
        cut=cut,
        local_home=codex_home,
        local_workspace=root,
        local_target=target,
    )
