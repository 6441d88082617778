"""`context-center connect AGENT` / `disconnect AGENT`: wire an agent to this home.

``connect`` writes the agent's own config for the MCP server (and, for Claude Code, its
hooks), keeping every other key and comment, backing each changed file up first and
printing the diff; ``--dry-run`` only prints the diff. ``disconnect`` removes exactly what
``connect`` adds. A config file that cannot be parsed is refused; nothing is written.
"""

from __future__ import annotations

import argparse
from typing import Any

from context_center.cli.common import Output, add_command
from context_center.engine import Engine

AGENTS = ["claude-code", "codex", "cursor"]
SCOPES = ["project", "user"]


def _render(data: dict[str, Any]) -> str:
    lines = []
    if data["diff"]:
        lines.append(data["diff"].rstrip("\n"))
    verb = "would be" if data["dry_run"] else "was"
    for f in data["files"]:
        if f["action"] == "unchanged":
            lines.append(f"{f['file']}: unchanged")
        else:
            backup = f" (backup: {f['backup']})" if f.get("backup") else ""
            lines.append(f"{f['file']}: {verb} {f['action']}{backup}")
    if data["dry_run"]:
        lines.append("dry run: nothing was written")
    return "\n".join(lines)


def cmd_connect(args: argparse.Namespace, engine: Engine) -> Output:
    changes = engine.connect_agent(args.agent, args.scope, dry_run=args.dry_run)
    return Output(changes.value, _render(changes.value))


def cmd_disconnect(args: argparse.Namespace, engine: Engine) -> Output:
    changes = engine.disconnect_agent(args.agent, args.scope, dry_run=args.dry_run)
    return Output(changes.value, _render(changes.value))


def _options(p: argparse.ArgumentParser) -> None:
    p.add_argument("agent", metavar="AGENT", choices=AGENTS, help=", ".join(AGENTS))
    p.add_argument(
        "--scope",
        choices=SCOPES,
        help="project: the workspace's config (default for claude-code and cursor); user: "
        "your own config (default for codex)",
    )
    p.add_argument("--dry-run", action="store_true", help="print the diff; write nothing")


def register(subparsers: Any) -> None:
    _options(
        add_command(
            subparsers,
            "connect",
            cmd_connect,
            "write an agent's config (MCP server; Claude Code hooks) to use this home",
        )
    )
    _options(
        add_command(
            subparsers,
            "disconnect",
            cmd_disconnect,
            "remove exactly what `connect` wrote to an agent's config",
        )
    )
