"""Tool results as the contract has them: the JSON object both as structured content and as
one text block; a failure is an ``isError`` result whose object is
``{"error": {"code", "message"}}`` (the engine's code and message)."""

from __future__ import annotations

import json
from typing import Any

from mcp.types import CallToolResult, TextContent

from context_center.engine import Engine, EngineError


def ok(data: dict[str, Any], *, is_error: bool = False) -> CallToolResult:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=data, is_error=is_error
    )


# An error message quotes what the request named (a ref, a folder, an id): bounded, so a huge
# argument does not come back whole into the agent's context.
MESSAGE_MAX = 1_000


def bounded(message: str) -> str:
    """``message`` on one line, cut to ``MESSAGE_MAX`` characters with a count of the rest
    (cut after it was made provider-visible: nothing withheld can reappear)."""
    text = " ".join(message.split())
    if len(text) <= MESSAGE_MAX:
        return text
    return f"{text[:MESSAGE_MAX]}… ({len(text) - MESSAGE_MAX:,} more characters)"


def error(code: str, message: str) -> CallToolResult:
    return ok({"error": {"code": code, "message": bounded(message)}}, is_error=True)


def visible_message(text: str, engine: Engine | None = None) -> str:
    """An engine error's message as a model may see it: what it quotes of the request (a ref,
    a target folder) with local paths redacted, secrets withheld and control characters
    escaped, as in every result (the engine's paths when it is known, else the OS home)."""
    from context_center.engine import visible_text

    if engine is None:
        return visible_text(text)
    return visible_text(text, home=engine.home, workspace=engine.workspace, cc_home=engine.home)


def engine_error(exc: EngineError, engine: Engine | None = None) -> CallToolResult:
    return error(exc.code, visible_message(str(exc), engine))


def _field_name(field: str) -> str:
    """An argument name as the error shows it: escaped, cut to 64 characters, and from its
    first path separator on (no tool takes such a name; a caller's path is not echoed, where
    no engine knows the workspace to redact it by) shown as ``…``."""
    cut = min((i for i in (field.find("/"), field.find("\\")) if i >= 0), default=len(field))
    shown = field[: min(cut, 64)]
    return visible_message(shown + ("…" if len(shown) < len(field) else ""))


def invalid_arguments(fields: list[str], what: str = "invalid") -> CallToolResult:
    """Arguments that do not match the schema (``what``: "invalid", or "unknown" for names the
    tool does not take): the fields are named (escaped, each cut to 64 characters), their
    values never (a value may be a secret)."""
    names = [_field_name(f) for f in fields]
    where = ", ".join(names) or "the arguments"
    return error("invalid_request", f"{what} argument(s): {where}")
