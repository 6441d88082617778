"""Tool results as the contract has them: the JSON object both as structured content and as
one text block; a failure is an ``isError`` result whose object is
``{"error": {"code", "message"}}`` (the engine's code and message)."""

from __future__ import annotations

import json
from typing import Any

from mcp.types import CallToolResult, TextContent

from context_center.engine import EngineError


def ok(data: dict[str, Any], *, is_error: bool = False) -> CallToolResult:
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return CallToolResult(
        content=[TextContent(type="text", text=text)], structured_content=data, is_error=is_error
    )


def error(code: str, message: str) -> CallToolResult:
    return ok({"error": {"code": code, "message": " ".join(message.split())}}, is_error=True)


def engine_error(exc: EngineError) -> CallToolResult:
    return error(exc.code, str(exc))


def invalid_arguments(fields: list[str]) -> CallToolResult:
    """Arguments that do not match the schema: the fields are named, their values never (a
    value may be a secret)."""
    where = ", ".join(fields) or "the arguments"
    return error("invalid_request", f"invalid argument(s): {where}")
