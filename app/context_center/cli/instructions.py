"""Standing instructions on the command line.

* ``memory instructions [--target DIR] [--agent A] [--local-paths]``: the chain agent ``A``
  (``reasonix`` by default, ``claude-code``, ``codex``) loads, with precedence, scope, imports,
  sizes and diagnostics;
* ``memory instructions --compare [--diff A,B]``: every instruction file found, what each agent
  does with it, cross-agent diagnostics, each agent's exact text (or a diff between two);
* ``prefix [--target DIR] [--agent A]``: what a session starts with, the size of each part
  against its budget;
* ``instructions add NOTE [--scope user|project|local]``: a person's standing rule (``/remember``).

The workspace root for instructions is ``--workspace`` when given, else the nearest ancestor of
the target (default: the current directory) holding ``.git``, else the target itself. A
``--target`` that does not exist is refused (``target_not_found``). ``--user-home`` is the
home Claude Code and Codex read (default: yours).
"""

from __future__ import annotations

import argparse
import unicodedata
from pathlib import Path
from typing import Any

from context_center.cli.common import Output, add_command, json_parent, text_arg
from context_center.engine import (
    Comparison,
    Engine,
    InvalidRequest,
    Prefix,
    Resolution,
    RuleScope,
    compare_json,
    diff_texts,
    find_workspace_root,
    normalize_note,
    render_instructions_json,
)

AGENT_CHOICES = ("reasonix", "claude-code", "codex")


def _explicit_workspace(args: argparse.Namespace) -> Path | None:
    value = getattr(args, "workspace", None)
    return Path(value).expanduser().absolute() if value else None


def _engine(args: argparse.Namespace, engine: Engine) -> Engine:
    user_home = getattr(args, "user_home", None)
    if user_home:
        engine.user_home = user_home
    return engine


def _width(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _pad(text: str, width: int) -> str:
    return text + " " * max(width - _width(text), 0)


def _size(n: int) -> str:
    return f"{n:,} B" if n < 10_000 else f"{n / 1024:,.1f} KiB"


def _document_lines(res: Resolution) -> list[str]:
    lines: list[str] = []
    for doc in res.documents:
        lines.append("")
        lines.append(
            f"[{doc.order}] {doc.label}  scope={doc.scope.value}  precedence={doc.precedence}  "
            f"applies to {doc.directory}"
        )
        for imp in doc.imports:
            status = imp.status.value + (f" ({imp.code})" if imp.code else "")
            if imp.loaded_as:
                status += f" as {imp.loaded_as}"
            lines.append(f"    import {imp.source}:{imp.line} -> {imp.target}  {status}")
        lines.extend("    | " + line for line in doc.body.splitlines())
    return lines


def _diagnostic_lines(res: Resolution) -> list[str]:
    lines = ["", "diagnostics:"] if res.diagnostics else []
    for diag in res.diagnostics:
        where = diag.source_path or diag.path
        if diag.line is not None:
            where += f":{diag.line}"
        mark = "" if diag.severity.value == "error" else f" [{diag.severity.value}]"
        lines.append(f"  {diag.code}{mark}  {where}: {diag.message}")
    return lines


def _instructions_text(res: Resolution) -> str:
    lines = [f"target: {res.target}"]
    if res.agent.value != "reasonix":
        lines.append(f"agent: {res.agent.value}")
    if not res.documents:
        lines.append("(no instruction files apply)")
    lines.extend(_document_lines(res))
    for dup in res.duplicates:
        lines.append(f"duplicate: {dup.label} has the same expanded body as {dup.kept} (kept)")
    if res.agent.value != "reasonix" and res.files:
        lines += ["", "files:"]
        for item in res.files:
            detail = f"  ({item.detail})" if item.detail else ""
            lines.append(f"  {item.state.value:<14} {item.label}  {_size(item.size)}{detail}")
    if res.cut is not None:
        cut = res.cut
        lines.append(
            f"cut: {cut.label} at byte {cut.byte_offset} (line {cut.line}, column "
            f"{cut.column}); project_doc_max_bytes = {cut.limit}"
        )
    lines.extend(_diagnostic_lines(res))
    return "\n".join(lines)


def _compare_text(cmp: Comparison, diff: tuple[str, str] | None) -> str:
    agents = [s.agent.value for s in cmp.summaries]
    width = max([_width(row.label) for row in cmp.rows] + [4]) + 2
    lines = [f"target: {cmp.target}", ""]
    lines.append(_pad("file", width) + _pad("size", 11) + "".join(_pad(a, 16) for a in agents))
    for row in cmp.rows:
        cells = "".join(_pad(row.agents[a].state.value.replace("_", " "), 16) for a in agents)
        lines.append(_pad(row.label, width) + _pad(_size(row.size), 11) + cells)
    lines += ["", "sizes:"]
    for summary in cmp.summaries:
        limits = ", ".join(f"{k} {v:,}" for k, v in summary.limits.items())
        lines.append(
            f"  {summary.agent.value}: {summary.documents} document(s), {summary.chars:,} "
            f"characters, {summary.bytes:,} bytes" + (f"; {limits}" if limits else "")
        )
    if cmp.diagnostics:
        lines += ["", "cross-agent diagnostics:"]
        lines.extend(f"  {d.code}  {d.message}" for d in cmp.diagnostics)
    if diff is not None:
        lines += ["", f"diff {diff[0]} -> {diff[1]}:", diff_texts(cmp, *diff) or "(identical)"]
    else:
        for agent in agents:
            lines += ["", f"=== {agent} ===", cmp.text_of(agent) or "(nothing)"]
    return "\n".join(lines)


def _diff_pair(value: str | None) -> tuple[str, str] | None:
    if not value:
        return None
    parts = [p.strip() for p in value.split(",")]
    if len(parts) != 2 or any(p not in AGENT_CHOICES for p in parts):
        raise InvalidRequest(
            f"--diff takes two agents separated by a comma, e.g. reasonix,codex (one of "
            f"{', '.join(AGENT_CHOICES)})",
            code="invalid_diff",
        )
    return parts[0], parts[1]


def cmd_memory_instructions(args: argparse.Namespace, engine: Engine) -> Output:
    engine = _engine(args, engine)
    target = getattr(args, "target", None)
    diff = _diff_pair(getattr(args, "diff", None))
    if args.compare or diff is not None:
        cmp = engine.compare_instructions(target)
        data: dict[str, Any] = compare_json(cmp)
        if diff is not None:
            data["diff"] = {"from": diff[0], "to": diff[1], "text": diff_texts(cmp, *diff)}
        return Output(data, _compare_text(cmp, diff))
    res = engine.instructions(target, agent=args.agent)
    return Output(
        render_instructions_json(res, local_paths=bool(args.local_paths)), _instructions_text(res)
    )


def _prefix_text(prefix: Prefix) -> str:
    text = prefix.text if prefix.text else "(the prefix is empty)"
    lines = [text, "", f"({prefix.length} characters)"]
    for part in prefix.parts:
        budget = f" of {part.budget:,}" if part.budget else ""
        shown = f", {part.shown} of {part.total} shown" if part.total != part.shown else ""
        lines.append(f"  {part.name}: {part.chars:,} characters{budget}{shown}")
    if prefix.agent.value == "reasonix" and any(
        p.name == "index" and p.total for p in prefix.parts
    ):
        lines.append(f"  memory index order: {prefix.index_order}")
    lines.extend(f"  warning: {w}" for w in prefix.warnings)
    return "\n".join(lines)


def cmd_prefix(args: argparse.Namespace, engine: Engine) -> Output:
    prefix = _engine(args, engine).prefix(getattr(args, "target", None), agent=args.agent)
    return Output(prefix.public_dict(), _prefix_text(prefix))


def cmd_instructions_add(args: argparse.Namespace, engine: Engine) -> Output:
    workspace = _explicit_workspace(args) or find_workspace_root(engine.workspace)
    note = text_arg(args.note, "NOTE")
    rule = "- " + normalize_note(note)
    done = engine.add_rule(note, args.scope, workspace=workspace)
    path = done.value
    label = ("user/" if args.scope == RuleScope.USER.value else "workspace/") + path.name
    data: dict[str, Any] = {
        "action": "added",
        "scope": args.scope,
        "label": label,
        "path": str(path),
        "rule": rule,
    }
    return Output(data, f"added to {label}: {rule}")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--target", metavar="DIR", help="the directory to resolve for (default: cwd)")
    p.add_argument(
        "--agent",
        choices=AGENT_CHOICES,
        default="reasonix",
        help="whose rules: reasonix (default), claude-code or codex",
    )
    p.add_argument(
        "--user-home",
        metavar="DIR",
        help="the home Claude Code (~/.claude) and Codex (~/.codex) read (default: yours)",
    )


def register_memory(subparsers: Any) -> None:
    p = add_command(
        subparsers,
        "instructions",
        cmd_memory_instructions,
        "resolved instruction files with precedence, scope, imports and diagnostics",
    )
    _common(p)
    p.add_argument(
        "--local-paths",
        action="store_true",
        help="also report absolute paths (local_* fields); never sent to a provider",
    )
    p.add_argument(
        "--compare",
        action="store_true",
        help="every instruction file and what Reasonix, Claude Code and Codex each load",
    )
    p.add_argument(
        "--diff",
        metavar="A,B",
        help="a unified diff of two agents' texts, e.g. reasonix,codex (implies --compare)",
    )


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers,
        "prefix",
        cmd_prefix,
        "what a session starts with: stable guidance, instructions, memory index (budgeted)",
    )
    _common(p)

    group = subparsers.add_parser(
        "instructions",
        help="standing rules in instruction files (AGENTS.md and friends)",
        parents=[json_parent()],
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
