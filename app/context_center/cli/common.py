"""What every command shares: JSON/text output, error mapping, the engine for the parsed args."""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from context_center.engine import Engine, EngineError

_SURROGATE = re.compile("[\ud800-\udfff]")


@dataclass
class Output:
    """A command's result: ``data`` is the stable JSON contract, ``text`` the human rendering."""

    data: Any
    text: str = ""
    exit_code: int = 0
    extra: dict[str, Any] = field(default_factory=dict)


Handler = Callable[[argparse.Namespace, "Engine"], Output]


def json_parent() -> argparse.ArgumentParser:
    parent = argparse.ArgumentParser(add_help=False)
    parent.add_argument(
        "--json",
        action="store_true",
        dest="json_out",
        default=argparse.SUPPRESS,
        help="print the result as JSON (the stable contract)",
    )
    return parent


def add_command(
    subparsers: Any, name: str, handler: Handler, help: str, **kwargs: Any
) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        name, help=help, description=help, parents=[json_parent()], **kwargs
    )
    parser.set_defaults(handler=handler, command_parser=parser)
    return parser


# Set by `serve` (cli/serve.py): ``warm_engine(command, home, workspace)`` is an engine it
# keeps warm between requests for that command (``recall``, the ``UserPromptSubmit`` hook),
# or None for a fresh one.
warm_engine: Callable[[str, str | None, str | None], Engine | None] | None = None


# The cold per-turn commands, whose recall cache rewrites go to a detached child; tests set
# ``CONTEXT_CENTER_NO_DETACH=1`` (the rewrite then happens in the process, as in a library).
DETACHED_CACHE_COMMANDS = frozenset({"recall", "hook"})
NO_DETACH_ENV = "CONTEXT_CENTER_NO_DETACH"


def engine_of(command: str, home: str | None, workspace: str | None) -> Engine:
    """The engine a command runs with: the warm server's kept one when it keeps one for
    ``command`` (``warm_engine``), else a new one."""
    if warm_engine is not None:
        kept = warm_engine(command, home, workspace)
        if kept is not None:
            return kept
    from context_center.engine import Engine

    engine = Engine(home=home, workspace=workspace)
    first = command.split(" ", 1)[0]
    if first in DETACHED_CACHE_COMMANDS and os.environ.get(NO_DETACH_ENV) != "1":
        engine.write_recall_cache_elsewhere()  # a turn never waits for the cache's rewrite
    return engine


def engine_for(args: argparse.Namespace) -> Engine:
    """The engine for ``--home``/``--workspace``; a workspace that does not exist is refused
    before anything is read or written."""
    engine = engine_of(
        str(getattr(args, "command", "")),
        getattr(args, "home", None),
        getattr(args, "workspace", None),
    )
    engine.require_workspace()
    return engine


def display_width(text: str) -> int:
    """Terminal columns ``text`` takes: wide and full-width characters (CJK) count two,
    combining marks and zero-width characters none, everything else one."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def pad(text: str, width: int) -> str:
    """``text`` left-aligned in ``width`` terminal columns, as ``f"{text:<width}"`` would be
    if every character took one column."""
    return text + " " * max(0, width - display_width(text))


# Characters JSON may carry raw (ensure_ascii=False) that still act on a terminal or reorder
# text: DEL, the C1 controls, bidi controls, line/paragraph separators. Written as \u escapes
# (the same JSON value), so `--json` piped to a terminal shows what the bytes are. Lone
# surrogates too (a path's bytes that are not UTF-8, as Python names them): raw, they would
# make the output invalid UTF-8 (or fail to print at all).
_JSON_RAW_CONTROLS = re.compile("[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def json_text(data: Any, *, indent: int | None = 2) -> str:
    """``data`` as JSON text safe to print: non-ASCII kept readable, controls escaped."""
    dumped = json.dumps(data, ensure_ascii=False, indent=indent, default=str)
    return _JSON_RAW_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", dumped)


def terminal_text(text: str) -> str:
    """Text for a terminal: every control character shown as its escape (``\\x1b``), so no
    fact, instruction file or agent's text can drive the terminal (one place for all
    commands' text output)."""
    from context_center.engine import escape_controls

    return escape_controls(text)


def emit(out: Output, as_json: bool) -> int:
    """Print a result. ``data`` None means the command wrote its own output (a hook's answer,
    the MCP protocol): nothing is added to it, not even with --json."""
    if as_json:
        if out.data is not None:
            sys.stdout.write(json_text(out.data) + "\n")
    elif out.text:
        sys.stdout.write(terminal_text(out.text.rstrip("\n")) + "\n")
    return out.exit_code


def emit_error(exc: EngineError, as_json: bool) -> int:
    message = terminal_text(" ".join(str(exc).split()))
    sys.stderr.write(f"context-center: {message}\n")
    if as_json:
        error = {"error": {"code": exc.code, "message": message}}
        sys.stdout.write(json_text(error, indent=None) + "\n")
    return 1


def text_arg(value: str, what: str) -> str:
    """A text argument as given: bytes that are not UTF-8 (Python hands them over as lone
    surrogates) are refused here, before anything reads or writes them."""
    if _SURROGATE.search(value):
        from context_center.engine import InvalidRequest

        raise InvalidRequest(f"{what} is not valid UTF-8; nothing was written")
    return value


# Arguments that name files or folders: a path's bytes need not be UTF-8 on Linux, so these
# are handed to the file system as given; every other text argument must be UTF-8.
PATH_METAVARS = frozenset({"FILE", "DIR", "PATH"})
PATH_DESTS = frozenset({"home", "workspace", "path", "claude_root", "codex_root", "user_home"})


def refuse_undecodable(args: argparse.Namespace, *parsers: argparse.ArgumentParser) -> None:
    """Refuse (InvalidRequest, naming the argument) a text argument whose bytes are not
    UTF-8, before any command reads or writes with it: a name, a title, a body, a reference
    (paths are exempt, see ``PATH_METAVARS``)."""
    for parser in parsers:
        for action in parser._actions:
            value = getattr(args, action.dest, None)
            if not isinstance(value, str) or action.dest in PATH_DESTS:
                continue
            if action.metavar in PATH_METAVARS:
                continue
            label = action.option_strings[0] if action.option_strings else action.dest.upper()
            text_arg(value, label)


def read_stdin_text() -> str:
    """All of standard input as UTF-8 text (refused, not a traceback, when it is not)."""
    try:
        data = sys.stdin.read()
    except UnicodeDecodeError:
        data = "\udcff"  # a strict stream: the same refusal as a surrogate-escaped one
    return text_arg(data, "standard input")


def read_text_arg(value: str) -> str:
    """A FILE argument where ``-`` means standard input."""
    if value == "-":
        return read_stdin_text()
    try:
        with open(value, encoding="utf-8") as handle:
            return handle.read()
    except OSError as exc:
        from context_center.engine import InvalidRequest

        raise InvalidRequest(f"cannot read {value}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        from context_center.engine import InvalidRequest

        raise InvalidRequest(f"{value} is not valid UTF-8") from exc


def json_object_arg(raw: str, option: str, not_object: str = "") -> dict[str, Any]:
    """``raw`` (the text an ``option`` gave) parsed as a JSON object; InvalidRequest naming the
    option when it is not JSON, or ``not_object`` (default "<option> must be a JSON object")
    when it is JSON but not an object."""
    from context_center.engine import InvalidRequest

    try:
        loaded = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise InvalidRequest(f"{option} is not valid JSON: {exc}") from exc
    if not isinstance(loaded, dict):
        raise InvalidRequest(not_object or f"{option} must be a JSON object")
    # JSON may spell a lone surrogate ("\udcff"): no text field can hold one
    text_arg(json.dumps(loaded, ensure_ascii=False), f"a text in {option}")
    return loaded
