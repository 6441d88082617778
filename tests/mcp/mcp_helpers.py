"""Helpers for the MCP tests (imported as ``mcp_helpers``)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any


def data(result: Any) -> dict[str, Any]:
    """A tool result's JSON: the structured content, which the text block repeats."""
    assert result.content and result.content[0].type == "text"
    assert json.loads(result.content[0].text) == result.structured_content
    return dict(result.structured_content)


@asynccontextmanager
async def connected(server: Any) -> AsyncIterator[Any]:
    from mcp import Client

    try:
        async with Client(server, raise_exceptions=True) as client:
            yield client
    finally:
        server.state.close()  # stop the access log's writer thread, write what it holds


def run_cli(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """``context-center ARGV`` in this process with ``stdin``; (exit code, stdout, stderr)."""
    import contextlib
    import io
    import sys

    from context_center.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = sys.stdin
    sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
    finally:
        sys.stdin = saved
    return code, out.getvalue(), err.getvalue()
