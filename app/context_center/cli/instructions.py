"""Standing instructions on the command line.

* ``memory instructions [--target DIR] [--local-paths]``: the resolved chain with precedence,
  scope, imports and diagnostics;
* ``prefix [--target DIR]``: the provider-visible stable prefix and its length in characters;
* ``instructions add NOTE [--scope user|project|local]``: a person's standing rule (``/remember``).

The workspace root for instructions is ``--workspace`` when given, else the nearest ancestor of
the target (default: the current directory) holding ``.git``, else the target itself.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from context_center.cli.common import Output, add_command
from context_center.engine import (
    Engine,
    Resolution,
    RuleScope,
    add_rule,
    find_workspace_root,
    normalize_note,
    render_instructions_json,
)


def _explicit_workspace(args: argparse.Namespace) -> Path | None:
    value = getattr(args, "workspace", None)
    return Path(value).expanduser().absolute() if value else None


def _resolve(args: argparse.Namespace, engine: Engine) -> Resolution:
    return engine.instructions(getattr(args, "target", None))


def _instructions_text(res: Resolution) -> str:
    lines = [f"target: {res.target}"]
    if not res.documents:
        lines.append("(no instruction files apply)")
    for doc in res.documents:
        lines.append("")
        lines.append(
            f"[{doc.order}] {doc.label}  scope={doc.scope.value}  precedence={doc.precedence}  "
            f"applies to {doc.directory}"
        )
        for imp in doc.imports:
            status = imp.status.value + (f" ({imp.code})" if imp.code else "")
            lines.append(f"    import {imp.source}:{imp.line} -> {imp.target}  {status}")
        lines.extend("    | " + line for line in doc.body.splitlines())
    for dup in res.duplicates:
        lines.append(f"duplicate: {dup.label} has the same expanded body as {dup.kept} (kept)")
    if res.diagnostics:
        lines.append("")
        lines.append("diagnostics:")
    for diag in res.diagnostics:
        where = diag.source_path or diag.path
        if diag.line is not None:
            where += f":{diag.line}"
        lines.append(f"  {diag.code}  {where}: {diag.message}")
    return "\n".join(lines)


def cmd_memory_instructions(args: argparse.Namespace, engine: Engine) -> Output:
    res = _resolve(args, engine)
    data = render_instructions_json(res, local_paths=bool(args.local_paths))
    return Output(data, _instructions_text(res))


def cmd_prefix(args: argparse.Namespace, engine: Engine) -> Output:
    prefix = engine.prefix(getattr(args, "target", None))
    text = prefix.text if prefix.text else "(the prefix is empty)"
    return Output(prefix.public_dict(), text + f"\n\n({prefix.length} characters)")


def cmd_instructions_add(args: argparse.Namespace, engine: Engine) -> Output:
    workspace = _explicit_workspace(args) or find_workspace_root(engine.workspace)
    rule = "- " + normalize_note(args.note)
    path = add_rule(engine.home, workspace, args.note, args.scope)
    label = ("user/" if args.scope == RuleScope.USER.value else "workspace/") + path.name
    data: dict[str, Any] = {
        "action": "added",
        "scope": args.scope,
        "label": label,
        "path": str(path),
        "rule": rule,
    }
    return Output(data, f"added to {label}: {rule}")


def register_memory(subparsers: Any) -> None:
    p = add_command(
        subparsers,
        "instructions",
        cmd_memory_instructions,
        "resolved instruction files with precedence, scope, imports and diagnostics",
    )
    p.add_argument("--target", metavar="DIR", help="the directory to resolve for (default: cwd)")
    p.add_argument(
        "--local-paths",
        action="store_true",
        help="also report absolute paths (local_* fields); never sent to a provider",
    )


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers,
        "prefix",
        cmd_prefix,
        "the provider-visible stable prefix: stable guidance, instructions, memory index",
    )
    p.add_argument("--target", metavar="DIR", help="the directory to resolve for (default: cwd)")

    group = subparsers.add_parser(
        "instructions", help="standing rules in instruction files (AGENTS.md and friends)"
    )
    group_sub = group.add_subparsers(
        dest="instructions_command", metavar="SUBCOMMAND", required=True
    )
    p = add_command(
        group_sub,
        "add",
        cmd_instructions_add,
        "append a standing rule as a bullet to the scope's instruction file",
    )
    p.add_argument("note", metavar="NOTE", help="the rule, one line (whitespace is collapsed)")
    p.add_argument(
        "--scope",
        choices=[s.value for s in RuleScope],
        default=RuleScope.PROJECT.value,
        help="user: <home>/AGENTS.md…; project (default): <workspace>/AGENTS.md…; "
        "local: <workspace>/AGENTS.local.md…",
    )
