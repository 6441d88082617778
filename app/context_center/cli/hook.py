"""`context-center hook claude-code EVENT`: Claude Code's command hooks (UserPromptSubmit,
SessionStart, PreToolUse). Reads the hook's JSON on standard input; prints the answer (or
nothing) and always exits 0 — a hook never breaks the agent on our failure."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from context_center.cli.common import Output, json_parent
from context_center.engine import Engine


def cmd_hook(args: argparse.Namespace, engine: Engine | None) -> Output:
    from context_center.mcp.hooks import run

    workspace = getattr(args, "workspace", None)
    if workspace is not None and not Path(workspace).expanduser().is_dir():
        # As every command refuses it (workspace_not_found, remote_workspace), but a hook
        # exits 0: nothing is read, recalled or written (no state folder for a folder that
        # is not there), and the agent sees nothing.
        sys.stderr.write(
            f"context-center hook: workspace {workspace} is not a local folder; nothing done\n"
        )
        return Output(None, "", exit_code=0)
    run(
        args.agent_kind,
        args.event,
        home=getattr(args, "home", None),
        workspace=workspace,
        stdin=sys.stdin,
        stdout=sys.stdout,
    )
    return Output(None, "", exit_code=0)


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "hook",
        parents=[json_parent()],  # accepted; a hook's answer is JSON either way
        help="an agent's hook (Claude Code: UserPromptSubmit, SessionStart, PreToolUse)",
        description="Run as a Claude Code command hook: reads the hook input JSON on standard "
        "input and answers on standard output. Always exits 0; errors are logged, never "
        "shown to the model. `connect claude-code` wires these.",
    )
    # Free-form on purpose: a wrong word is logged and ignored (exit 0), never a usage error
    # that would surface in the agent.
    p.add_argument("agent_kind", metavar="AGENT", help="claude-code")
    p.add_argument("event", metavar="EVENT", help="UserPromptSubmit, SessionStart or PreToolUse")
    p.set_defaults(handler=cmd_hook, needs_engine=False)
