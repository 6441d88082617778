"""The front door: no subcommand opens the window; subcommands drive the engine headless.

Exit codes: 0 success, 1 a refused or failed operation (message on stderr; with --json an
``{"error": {"code", "message"}}`` object on stdout), 2 usage errors (argparse).

Command groups live in sibling modules. Each may define ``register(subparsers)`` for top-level
commands and ``register_memory(subparsers)`` for ``memory …`` commands.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
import time
from collections.abc import Sequence
from types import ModuleType

import context_center
from context_center import APP_DISPLAY_NAME
from context_center.argwords import command_words
from context_center.cli.common import emit, emit_error, engine_for, json_parent, refuse_undecodable
from context_center.engine import EngineError

GROUPS = (
    "memory",
    "instructions",
    "recall",
    "agent",
    "approvals",
    "suggestions",
    "importer",
    "mcp",
    "hook",
    "connect",
    "serve",
)


# Which modules register each top-level command. A process imports only the modules of the
# command it runs (an agent's per-turn `recall` does not pay for the suggestion miner or the
# MCP SDK); tests/cli/test_entry.py checks that this table matches the full parser.
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "memory": ("memory", "instructions", "recall"),
    "recall": ("recall",),
    "prefix": ("instructions",),
    "instructions": ("instructions",),
    "agent": ("agent",),
    "approvals": ("approvals",),
    "suggestions": ("suggestions",),
    "history": ("suggestions",),
    "import": ("importer",),
    "mcp": ("mcp",),
    "hook": ("hook",),
    "connect": ("connect",),
    "disconnect": ("connect",),
    "serve": ("serve",),
}


# `memory` subcommands registered by another module than cli/memory.py.
MEMORY_SUBCOMMAND_MODULES = {"instructions": "instructions", "recall": "recall", "search": "recall"}
MEMORY_SUBCOMMANDS = frozenset(
    {"list", "read", "save", "revisions", "restore", "forget", "archived", "recover", "migrate"}
    | set(MEMORY_SUBCOMMAND_MODULES)
)


def command_word(argv: Sequence[str]) -> str | None:
    """The first word after the global options (None: no command, or only options)."""
    words = command_words(argv, 1)
    return words[0] if words else None


def _modules(command: str | None = None, sub: str | None = None) -> list[ModuleType]:
    names = COMMAND_MODULES.get(command or "") or GROUPS
    if command == "memory" and sub in MEMORY_SUBCOMMANDS:  # a known one: only its module
        names = (MEMORY_SUBCOMMAND_MODULES.get(sub, "memory"),)
    found = []
    for name in GROUPS:
        full = f"context_center.cli.{name}"
        if name in names and importlib.util.find_spec(full) is not None:
            found.append(importlib.import_module(full))
    return found


def build_parser(
    command: str | None = None, subcommand: str | None = None
) -> argparse.ArgumentParser:
    """The parser; with ``command``, only that command's modules are imported and registered
    (an unknown command gets the full parser, so argparse can list every choice)."""
    parser = argparse.ArgumentParser(
        prog="context-center",
        description=f"{APP_DISPLAY_NAME}: see, edit and govern what AI coding agents carry between turns. "
        "Without a command, opens the window.",
    )
    parser.add_argument(
        "--version",
        action="store_true",
        help='print the version and exit (with --json: {"version": …})',
    )
    parser.add_argument(
        "--home",
        metavar="DIR",
        help="the home (default: $CONTEXT_CENTER_HOME, else the user data dir)",
    )
    parser.add_argument(
        "--workspace",
        metavar="DIR",
        help="the workspace (default: the nearest ancestor of the current directory holding .git, "
        "else the current directory)",
    )
    parser.add_argument(
        "--json", action="store_true", dest="json_out", help="print results as JSON"
    )
    parser.add_argument(
        "--demo",
        action="store_true",
        help="open the window on a generated sample home and workspace",
    )
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open the window, report the time until it is painted, and exit (for packaging checks)",
    )
    parser.add_argument(
        "--language",
        choices=("system", "en", "zh_CN"),
        help="the window's language for this run (default: $CONTEXT_CENTER_LANGUAGE, else the "
        "View → Language setting, else the system locale)",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    memory = sub.add_parser(
        "memory",
        help="facts, instructions, recall trace, revisions and the archive",
        parents=[json_parent()],  # `memory --json list` as well as `memory list --json`
    )
    memory_sub = memory.add_subparsers(dest="memory_command", metavar="SUBCOMMAND", required=True)
    for module in _modules(command, subcommand):
        if hasattr(module, "register_memory"):
            module.register_memory(memory_sub)
        if hasattr(module, "register"):
            module.register(sub)
    return parser


MAIN_STARTED_AT: float | None = None  # for --smoke-test's launch-to-paint figure


def main(argv: Sequence[str] | None = None) -> int:
    global MAIN_STARTED_AT
    MAIN_STARTED_AT = time.perf_counter()
    argv = list(sys.argv[1:] if argv is None else argv)
    words = command_words(argv)
    parser = build_parser(*words[:2])
    args, extras = parser.parse_known_args(argv)
    if extras:  # the usage of the command that was given, not the top-level one
        command_parser = getattr(args, "command_parser", None) or parser
        command_parser.error(f"unrecognized arguments: {' '.join(extras)}")
    as_json = bool(getattr(args, "json_out", False))
    if args.version:
        if as_json:
            sys.stdout.write(json.dumps({"version": context_center.__version__}) + "\n")
        else:
            sys.stdout.write(f"context-center {context_center.__version__}\n")
        return 0
    handler = getattr(args, "handler", None)
    if handler is None:
        if args.command:
            parser.parse_args([args.command, "--help"])
        from context_center.ui.launch import launch

        return launch(args, started_at=MAIN_STARTED_AT)
    try:
        # A hook makes its own engine for the hook's cwd and must never fail the agent, so
        # it is handed none (and no workspace check runs for it).
        needs_engine = getattr(args, "needs_engine", True)
        if needs_engine:  # a hook reads its input itself and never fails the agent
            refuse_undecodable(args, parser, getattr(args, "command_parser", None) or parser)
        engine = engine_for(args) if needs_engine else None
        return emit(handler(args, engine), as_json)
    except EngineError as exc:
        return emit_error(exc, as_json)
    except KeyboardInterrupt:
        sys.stderr.write("context-center: interrupted\n")
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
