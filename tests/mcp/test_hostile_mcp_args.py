"""The MCP tools called with what a hostile or confused client may send: every answer is a
result or an error, the server goes on, and an error message quotes nothing private — no
local path, no secret, no raw control character — of what it was sent."""

from __future__ import annotations

import os

import pytest
from mcp_helpers import connected, data

from context_center.engine import Engine
from context_center.mcp.server import build_server
from context_center.mcp.state import ServerOptions
from mcp import MCPError

pytestmark = pytest.mark.anyio

SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
CONTROLS = ("\x00", "\x1b", "\x07", "\u202e")


def _server(engine: Engine):  # type: ignore[no-untyped-def]
    return build_server(ServerOptions(home=str(engine.home), workspace=str(engine.workspace)))


def _clean(text: str, engine: Engine) -> None:
    assert os.fspath(engine.home) not in text and os.fspath(engine.workspace) not in text
    assert SECRET not in text
    assert not any(c in text for c in CONTROLS), repr(text)


def _strings(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


CALLS = [
    ("memory_read", {"ref": "<store>/release-branch.md"}),
    ("memory_read", {"ref": f"project/{SECRET}.md"}),
    ("memory_read", {"ref": "\x1b]0;pwned\x07\u202e"}),
    ("forget", {"ref": "<workspace>/notes.md"}),
    ("instructions", {"target": "a\x00b"}),
    ("prefix", {"target": "\x1b[31mred"}),
    ("approval_status", {"pending_id": f"apr-{SECRET}\x1b"}),
]


@pytest.mark.parametrize(
    ("tool", "args"), CALLS, ids=[f"{t}-{i}" for i, (t, _) in enumerate(CALLS)]
)
async def test_error_messages_quote_no_path_secret_or_control(
    seeded: Engine, tool: str, args: dict[str, str]
) -> None:
    places = {"<store>": seeded.layout.project_store, "<workspace>": seeded.workspace}
    args = {
        k: next((v.replace(m, os.fspath(p)) for m, p in places.items() if m in v), v)
        for k, v in args.items()
    }
    async with connected(_server(seeded)) as client:
        result = await client.call_tool(tool, args)
        alive = data(await client.call_tool("memory_list", {"limit": 1}))
    assert result.is_error
    answer = data(result)
    assert "error" in answer or answer["outcome"] == "refused", answer
    _clean(result.content[0].text, seeded)
    _clean(" ".join(_strings(answer)), seeded)  # as the client reads it: escapes undone
    assert alive["total"] == 4


async def test_a_resource_error_quotes_no_control(seeded: Engine) -> None:
    async with connected(_server(seeded)) as client:
        with pytest.raises(MCPError) as raised:
            await client.read_resource("memory://project/\x1b[31mred\u202e")
    _clean(raised.value.error.message, seeded)
