"""What Claude Code loads at launch in a target directory (its memory files and imports).

Order (Claude Code's memory documentation, checked against public reports of 2.1.x):

1. the user's ``~/.claude/CLAUDE.md``, then ``~/.claude/rules/**/*.md`` (``~/.claude``:
   ``$CLAUDE_CONFIG_DIR`` when set);
2. every directory from the top of the filesystem (the root ``/`` itself excluded) down to the
   target: ``CLAUDE.md``, ``.claude/CLAUDE.md``, ``.claude/rules/**/*.md`` (a rule with a
   ``paths:`` frontmatter is not loaded at launch: Claude Code adds it when it reads a file
   one of its globs matches; ``claude_rules.py`` says whether files in the target can), then
   ``CLAUDE.local.md``. ``AGENTS.md`` is read in ``CLAUDE.md``'s place in each of those
   directories when none of them holds a ``CLAUDE.md``, ``.claude/CLAUDE.md`` or
   ``CLAUDE.local.md`` (Claude Code 2.1.277 and later, its default); otherwise only when a file
   imports it. A file a
   ``claudeMdExcludes`` glob matches is skipped (``claude_excludes.py``).

Imports: ``@path`` anywhere in Markdown text (a sentence, a list item, a blockquote), never in
code or an HTML comment (``markdown.py``); ``./x``, ``x/y``, ``~/x`` and ``/abs`` forms,
relative to the importing file; ``\\ `` escapes a space and ``#anchor`` is dropped; at most
``MAX_IMPORT_DEPTH`` levels below the file a chain starts from; every file once per session. A
missing file is skipped silently (a note here); ``@name`` without ``/`` or ``.`` that names no
file is a mention, not an import. An import whose real path is outside the working directory
(the target) is *external*: Claude Code asks once per project before loading it, and keeps the
answer in ``~/.claude.json``; until then it is shown as ``needs_approval`` and not read.

The text is what Claude Code puts in context, file by file, each file's content exact (secrets
withheld, local paths replaced by labels) under a ``Contents of <label> (<kind>):`` heading;
each imported file follows the file that imports it.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from context_center.engine.claude_memory.location import config_dir
from context_center.engine.instructions import fsread, model
from context_center.engine.instructions.model import (
    FileState,
    InstructionDiagnostic,
    InstructionDocument,
    InstructionScope,
    Resolution,
    Severity,
)
from context_center.engine.instructions.profiles.claude_excludes import excluded_by, read_excludes
from context_center.engine.instructions.profiles.claude_imports import (
    KIND,
    MAX_IMPORT_DEPTH,
    Doc,
    Session,
    approval_granted,
    entry,
    file_status,
    follow,
    provider_text,
)
from context_center.engine.instructions.profiles.claude_rules import parse_rule, reaches, rule_files
from context_center.engine.instructions.redact import redactor_for
from context_center.engine.instructions.resolve import clamp_target


@dataclass(frozen=True)
class _Spec:
    path: Path
    scope: InstructionScope
    directory: Path
    user_level: bool = False
    rule_base: Path | None = None  # rules: the folder their paths: globs are relative to


_CLAUDE_NAMES = ("CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
# "Large CLAUDE.md will impact performance (42.5k chars > 40.0k)", as Claude Code says it
LARGE_FILE_CHARS = 40_000


def _specs(
    claude: Path, root: Path, target: Path, ceiling: Path | None, session: Session
) -> list[_Spec]:
    """``claude``: Claude Code's own folder (``$CLAUDE_CONFIG_DIR``, else ``~/.claude``)."""
    specs = [_Spec(claude / "CLAUDE.md", InstructionScope.USER, claude, True)]
    specs += _rule_specs(session, claude / "rules", claude, root, True)
    chain = [target, *target.parents]
    chain = [d for d in chain if len(d.parts) > 1]  # the filesystem root itself is not read
    if ceiling is not None:
        chain = [d for d in chain if fsread.within(d, ceiling)]
    # Claude Code 2.1.277+: with no CLAUDE.md (nor .claude/CLAUDE.md, CLAUDE.local.md) in the
    # working directory or above it, it reads AGENTS.md in its place
    agents_md = not any(os.path.lexists(d / name) for d in chain for name in _CLAUDE_NAMES)
    for directory in reversed(chain):
        if fsread.within(directory, root):
            scope = InstructionScope.PROJECT if directory == root else InstructionScope.ANCESTOR
        else:
            scope = InstructionScope.ABOVE
        if agents_md:
            specs.append(_Spec(directory / "AGENTS.md", scope, directory))
        specs.append(_Spec(directory / "CLAUDE.md", scope, directory))
        specs.append(_Spec(directory / ".claude" / "CLAUDE.md", scope, directory))
        specs += _rule_specs(session, directory / ".claude" / "rules", directory, directory)
        specs.append(_Spec(directory / "CLAUDE.local.md", InstructionScope.LOCAL, directory))
    return specs


def _warn(session: Session, code: str, label: str, message: str, path: Path) -> None:
    session.diagnostics.append(
        InstructionDiagnostic(
            code=code, path=label, severity=Severity.WARNING, message=message, local_path=path
        )
    )


def _rule_specs(
    session: Session, rules: Path, directory: Path, base: Path, user_level: bool = False
) -> list[_Spec]:
    if not os.path.isdir(rules):
        return []
    found, truncated = rule_files(rules)
    if truncated:
        label = session.labeller(rules)
        _warn(
            session,
            model.CLAUDE_RULES_TRUNCATED,
            label,
            f"{label} holds more rule files or folders than are read here; "
            "only the first ones are shown",
            rules,
        )
    return [_Spec(p, InstructionScope.RULE, directory, user_level, base) for p in found]


def _load(session: Session, spec: _Spec, order: int) -> InstructionDocument | None:
    label = session.labeller(spec.path)
    if not os.path.lexists(spec.path):
        return None
    settings = excluded_by(session.excludes, spec.path)
    if settings is not None:
        session.files.append(
            file_status(
                label, FileState.NOT_LOADED, None, spec.path, f"claudeMdExcludes in {settings}"
            )
        )
        return None
    try:
        source = session.cache.read(spec.path)
    except fsread.ReadError as err:
        code = {
            "too_large": model.DOCUMENT_TOO_LARGE,
            "undecodable": model.DOCUMENT_UNDECODABLE,
        }.get(err.kind, model.DOCUMENT_UNREADABLE)
        session.diagnostics.append(
            InstructionDiagnostic(
                code=code,
                reason=err.reason,
                path=label,
                local_path=spec.path,
                message=f"{label} was not loaded: {model.REASONS[err.reason]}",
            )
        )
        session.files.append(file_status(label, FileState.REFUSED, None, spec.path, err.reason))
        return None
    if source.identity in session.seen:
        session.files.append(
            file_status(
                label,
                FileState.DUPLICATE,
                source,
                spec.path,
                f"already loaded as {session.seen[source.identity]}",
            )
        )
        return None
    text, offset = source.text, 0
    if spec.scope is InstructionScope.RULE:
        rule = parse_rule(source.text)
        if rule.problem:
            _warn(
                session, model.CLAUDE_RULE_FRONTMATTER, label, f"{label}: {rule.problem}", spec.path
            )
        if rule.paths is not None:
            base = spec.rule_base or spec.directory
            rel = (
                fsread.rel_label("", session.target, base).lstrip("/")
                if fsread.within(session.target, base)
                else None
            )
            # not at launch: Claude Code adds it when it reads a file a glob matches
            here = rel is not None and any(reaches(p, rel) for p in rule.paths)
            session.files.append(
                file_status(
                    label,
                    FileState.NOT_LOADED,
                    source,
                    spec.path,
                    "paths: "
                    + ", ".join(rule.paths)
                    + " (loads when Claude reads a matching file"
                    + ("; files in the target directory can match)" if here else ")"),
                )
            )
            return None
        text, offset = rule.body, rule.offset
    session.seen[source.identity] = label
    if not text.strip():
        session.files.append(file_status(label, FileState.NOT_LOADED, source, spec.path, "empty"))
        return None
    session.cache.used(source, label, spec.path)
    session.files.append(file_status(label, FileState.LOADED, source, spec.path))
    if len(text) > LARGE_FILE_CHARS:  # Claude Code's own start-up warning, per file
        _warn(
            session,
            model.CLAUDE_MD_LARGE,
            label,
            f"{label} has {len(text):,} characters: Claude Code warns at start-up that a "
            f"memory file over {LARGE_FILE_CHARS:,} will impact performance",
            spec.path,
        )
    kind = (
        KIND[spec.scope]
        if not (spec.user_level and spec.scope is InstructionScope.RULE)
        else "user rule"
    )
    doc = Doc(label, spec.scope, session.labeller(spec.directory), spec.path, spec.user_level)
    doc.entries.append(entry(label, kind, provider_text(session, text)))
    follow(session, doc, text, spec.path, 0, offset)
    return InstructionDocument(
        label=label,
        scope=spec.scope,
        directory=doc.directory,
        precedence=order,
        order=order,
        imports=tuple(doc.imports),
        body="\n\n".join(doc.entries),
        size=source.stat.st_size,
        local_path=spec.path,
        local_directory=spec.directory,
    )


def resolve_claude_code(
    workspace: Path,
    target: Path,
    *,
    user_home: Path,
    ceiling: Path | None = None,
    cc_home: Path | None = None,
) -> Resolution:
    """The files Claude Code loads when started in ``target``. Never raises for a hostile tree.
    ``ceiling``: walk no higher than this folder (tests; default: the filesystem root).
    ``cc_home``: this program's home, redacted as ``<local-home>`` like the user's."""
    root = fsread.abspath(workspace)
    target = fsread.abspath(target)
    if os.path.isfile(target):
        target = target.parent
    target, outside = clamp_target(target, root)
    user_home = fsread.abspath(user_home)
    claude = fsread.abspath(config_dir(user_home))
    label = "~/.claude" if claude == user_home / ".claude" else "$CLAUDE_CONFIG_DIR"
    session = Session(
        labeller=fsread.Labeller(root, ((claude, label), (user_home, "~"))),
        user_home=user_home,
        target=target,
        target_real=fsread.realpath(target),
        approved=approval_granted(user_home, target, root),
        redact=redactor_for(root, user_home, *([cc_home] if cc_home is not None else [])),
    )
    if outside is not None:
        session.diagnostics.append(outside)
    session.excludes = read_excludes(
        [
            claude / "settings.json",
            root / ".claude" / "settings.json",
            root / ".claude" / "settings.local.json",
        ],
        session.labeller,
    )
    documents: list[InstructionDocument] = []
    for spec in _specs(claude, root, target, ceiling, session):
        doc = _load(session, spec, len(documents))
        if doc is not None:
            documents.append(doc)
    session.diagnostics.extend(session.cache.secret_diagnostics())
    return Resolution(
        target=fsread.rel_label("workspace", target, root),
        documents=tuple(documents),
        diagnostics=tuple(session.diagnostics),
        agent=model.Agent.CLAUDE_CODE,
        files=tuple(session.files),
        text="\n\n".join(doc.body for doc in documents),
        limits={"max_import_depth": MAX_IMPORT_DEPTH, "max_file_bytes": model.MAX_FILE_BYTES},
        local_home=user_home,
        local_workspace=root,
        local_target=target,
    )
