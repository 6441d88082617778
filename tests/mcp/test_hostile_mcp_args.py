"""The MCP tools called with what a hostile or confused client may send: every answer is a
result or an error, the server goes on, and an error message quotes nothing private — no
local path, no secret, no raw control character — of what it was sent."""

from __future__ import annotations

import json
import os
import selectors
import subprocess
import sys
import time
from typing import Any

import pytest
from mcp_helpers import connected, data

from context_center.engine import Engine
from context_center.mcp.server import build_server
from context_center.mcp.state import ServerOptions
from mcp import MCPError

pytestmark = pytest.mark.anyio

SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
CONTROLS = ("\x00", "\x1b", "\x07", "\u202e")
CLI = [sys.executable, "-m", "context_center"]
INIT = {
    "protocolVersion": "2025-06-18",
    "capabilities": {},
    "clientInfo": {"name": "t", "version": "1"},
}


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
        with pytest.raises(MCPError) as token:
            await client.read_resource(f"memory://project/{SECRET}")
    _clean(raised.value.error.message, seeded)
    _clean(json.dumps([token.value.error.message, token.value.error.data]), seeded)


async def test_an_argument_named_by_a_path_is_not_echoed(seeded: Engine) -> None:
    name = f"{os.fspath(seeded.workspace)}/y"
    async with connected(_server(seeded)) as client:
        result = await client.call_tool("memory_read", {"ref": "x", name: 1})
    message = data(result)["error"]["message"]
    assert result.is_error and message == "unknown argument(s): …", message
    _clean(json.dumps(data(result)), seeded)


def test_a_request_the_sdk_cannot_read_is_answered(seeded: Engine) -> None:
    """The real process (the pipe transport): a batch, ``params`` that is not an object and
    arguments nested deeper than the SDK's parser goes each get an invalid-request error
    (with the id when it can be read); a notification gets nothing; the server goes on."""
    deep = "[" * 5000 + "]" * 5000
    lines = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": INIT},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        [{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}],
        {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": "memory_list"},
        {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": 5},
        {"jsonrpc": "2.0", "id": 5, "method": "tools/list"},
    ]
    text = "\n".join(json.dumps(line) for line in lines[:5])
    text += '\n{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"recall",'
    text += f'"arguments":{{"message":{deep}}}}}}}\n' + "{not json\n" + json.dumps(lines[5]) + "\n"
    proc = subprocess.Popen(
        [*CLI, "--home", str(seeded.home), "--workspace", str(seeded.workspace), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        bufsize=0,
    )
    assert proc.stdin is not None and proc.stdout is not None
    replies: list[dict[str, Any]] = []
    wire = b""
    try:
        proc.stdin.write(text.encode())
        with selectors.DefaultSelector() as ready:
            ready.register(proc.stdout, selectors.EVENT_READ)
            deadline = time.monotonic() + 60
            while not any(r.get("id") == 5 for r in replies):
                assert ready.select(deadline - time.monotonic()), f"no answer to 5: {replies}"
                chunk = os.read(proc.stdout.fileno(), 65536)
                assert chunk, f"the server stopped: {replies}"
                *lines_read, wire = (wire + chunk).split(b"\n")
                replies += [json.loads(line) for line in lines_read]
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
        proc.stdout.close()
    errors = [r for r in replies if "error" in r]
    assert [r["id"] for r in errors] == [None, 3, None, None], replies
    # a line that is no JSON: JSON-RPC's parse error; the others: invalid requests
    assert [r["error"]["code"] for r in errors] == [-32600, -32600, -32600, -32700]
    assert [r["id"] for r in replies if "result" in r] == [1, 5]


async def test_unknown_tools_and_arguments_are_refused_and_long_quotes_are_cut(
    seeded: Engine,
) -> None:
    """An outside review: an unknown argument was silently ignored (``{"approved": true}``
    looked accepted), an unknown tool answered in plain text, and an error quoted a
    2,000,000-character ref back whole."""
    async with connected(_server(seeded)) as client:
        extra = await client.call_tool(
            "remember",
            {
                "type": "project",
                "title": "Zanzibar window",
                "description": "when deploys happen",
                "body": "Deploys happen on Tuesdays.",
                "approved": True,
                f"status\x1b{SECRET}": "approved",
            },
        )
        unknown = await client.call_tool("approve", {"pending_id": "apr-x"})
        huge = await client.call_tool("memory_read", {"ref": "x" * 2_000_000})
    error = data(extra)["error"]
    assert extra.is_error and error["code"] == "invalid_request"
    assert error["message"].startswith("unknown argument(s): approved, status")
    _clean(json.dumps(data(extra)), seeded)
    assert seeded.pending_approvals() == [] and "zanzibar-window" not in json.dumps(
        [f.ref for f in seeded.open().facts]
    )
    assert unknown.is_error and data(unknown)["error"]["code"] == "not_found"
    assert "approve" in data(unknown)["error"]["message"]
    message = data(huge)["error"]["message"]
    assert huge.is_error and len(message) < 1_100 and message.endswith("more characters)")
