"""``context-center import claude-code [--dry-run] [--scope project|global]``: copy Claude Code's
own auto memories of this workspace into the store.

Importing is the person's explicit action, so facts are written at once (nothing is queued).
A memory whose name or title a fact already has is reported as a duplicate and skipped, so a
second import imports nothing; ``--dry-run`` reports what would happen and writes nothing.
Claude Code's folder (``--claude-root``, else ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``) is
only read.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from context_center.cli.common import Output, add_command, json_parent
from context_center.engine import Engine, ImportReport, Scope

_VERB = {
    "imported": "imported",
    "would_import": "would import",
    "duplicate": "duplicate",
    "skipped": "skipped",
}


def render_import(report: ImportReport) -> str:
    if not report.exists:
        return f"no Claude Code memory for this workspace (looked in {report.source})"
    if not report.items:
        return f"Claude Code's memory folder {report.source} holds no memories"
    lines = [f"Claude Code memory from {report.source} into the {report.scope.value} store:"]
    for item in report.items:
        target = f" -> {item.ref}" if item.ref and item.action != "duplicate" else ""
        why = f" ({item.reason})" if item.reason else ""
        lines.append(f"  {_VERB[item.action]:<12} {item.file}{target}{why}")
    counts = ", ".join(
        f"{report.count(action)} {_VERB[action]}"
        for action in ("imported", "would_import", "duplicate", "skipped")
        if report.count(action)
    )
    lines.append(counts + (" (dry run: nothing was written)" if report.dry_run else ""))
    return "\n".join(lines)


def cmd_import_claude_code(args: argparse.Namespace, engine: Engine) -> Output:
    if not args.dry_run:
        engine.open(migrate=True)
    root = Path(args.claude_root).expanduser() if args.claude_root else None
    done = engine.import_claude_memory(
        dry_run=args.dry_run, scope=Scope(args.scope), claude_root=root
    )
    data = done.value.public_dict() | {"changes": done.to_json()}
    return Output(data, render_import(done.value))


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "import",
        parents=[json_parent()],
        help="copy memories another agent keeps into the store",
        description="copy memories another agent keeps into the store",
    )
    sources = p.add_subparsers(dest="import_source", metavar="SOURCE", required=True)
    c = add_command(
        sources,
        "claude-code",
        cmd_import_claude_code,
        "Claude Code's auto memory of this workspace, as new facts (duplicates are skipped)",
    )
    c.add_argument(
        "--dry-run", action="store_true", help="say what would be imported; write nothing"
    )
    c.add_argument(
        "--scope",
        choices=[Scope.PROJECT.value, Scope.GLOBAL.value],
        default=Scope.PROJECT.value,
        help="the store to import into (default project)",
    )
    c.add_argument(
        "--claude-root",
        metavar="DIR",
        help="Claude Code's data folder (default $CLAUDE_CONFIG_DIR, else ~/.claude)",
    )
