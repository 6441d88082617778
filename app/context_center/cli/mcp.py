"""`context-center mcp`: serve this home's memory to an agent over stdio (the MCP protocol).

A client (Claude Code, Codex, Cursor, any MCP client) starts it as a subprocess; standard
output carries only the protocol. ``connect AGENT`` writes the client's config for it.
"""

from __future__ import annotations

import argparse
from typing import Any

from context_center.cli.common import Output, json_parent
from context_center.engine import Controller, Engine

CONTROLLERS = [Controller.HEADLESS.value, Controller.INTERACTIVE.value, Controller.SUBAGENT.value]


def cmd_mcp(args: argparse.Namespace, engine: Engine) -> Output:
    from context_center.mcp.server import run
    from context_center.mcp.state import ServerOptions

    options = ServerOptions(
        home=getattr(args, "home", None),
        workspace=getattr(args, "workspace", None),
        controller=Controller(args.controller),
        not_owner=args.not_owner,
        agent=args.agent,
        log_to_file=True,
    )
    return Output(None, "", exit_code=run(options))


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "mcp",
        parents=[json_parent()],  # accepted like everywhere; the protocol is the output
        help="serve memory to an agent over stdio (MCP)",
        description="Run the MCP server on standard input and output: memory tools "
        "(memory_list, memory_read, memory_search, recall, instructions, prefix, remember, "
        "forget, approval_status) and memory:// resources. The workspace is --workspace, else "
        "the client's MCP roots, else the current directory.",
    )
    p.add_argument(
        "--controller",
        choices=CONTROLLERS,
        default=Controller.HEADLESS.value,
        help="what the connection is to the write gate: headless (default), interactive (a "
        "client a person drives; set in its config by `connect`), or subagent (writes refused)",
    )
    p.add_argument(
        "--not-owner",
        action="store_true",
        help="the client does not own this project's memory store (headless: writes refused; "
        "interactive: queued)",
    )
    p.add_argument(
        "--agent", metavar="NAME", help="the agent's name in records (default: the client's name)"
    )
    p.set_defaults(handler=cmd_mcp)
