"""The real ``context-center mcp`` process over stdio, driven by the SDK's client: every tool
and resource, errors, a secret never echoed, writes by another process seen at once, the
workspace from MCP roots, and nothing but protocol on standard output."""

from __future__ import annotations

import json
import os
import queue
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from mcp.types import ListRootsResult, Root
from mcp_helpers import data

from context_center.engine import Engine, FactType
from mcp import Client, MCPError, StdioServerParameters

pytestmark = pytest.mark.anyio

SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


def _params(engine: Engine, *extra: str, workspace: bool = True) -> StdioServerParameters:
    script = shutil.which("context-center", path=str(Path(sys.executable).parent))
    command, prefix = (script, []) if script else (sys.executable, ["-m", "context_center"])
    args = [*prefix, "--home", str(engine.home)]
    if workspace:
        args += ["--workspace", str(engine.workspace)]
    return StdioServerParameters(
        command=command,
        args=[*args, "mcp", *extra],
        env=dict(os.environ),
        cwd=str(engine.workspace),
    )


async def test_every_tool_and_resource_over_stdio(seeded: Engine) -> None:
    async with Client(_params(seeded, "--agent", "tester"), read_timeout_seconds=60) as client:
        tools = {t.name for t in (await client.list_tools()).tools}
        listed = data(await client.call_tool("memory_list", {}))
        read = data(await client.call_tool("memory_read", {"ref": "project/release-branch.md"}))
        search = data(await client.call_tool("memory_search", {"query": "deploy window"}))
        turn = data(await client.call_tool("recall", {"message": "when is the deploy window?"}))
        chain = data(await client.call_tool("instructions", {}))
        prefix = data(await client.call_tool("prefix", {}))
        saved = data(
            await client.call_tool(
                "remember",
                {
                    "name": "on-call",
                    "title": "On-call rota",
                    "description": "Who is on call this quarter",
                    "type": "reference",
                    "body": "The rota lives in the team calendar.",
                },
            )
        )
        secret = await client.call_tool(
            "remember", {"name": "token", "type": "project", "description": "t", "body": SECRET}
        )
        forget = data(await client.call_tool("forget", {"ref": "project/deploy-window.md"}))
        status = data(
            await client.call_tool("approval_status", {"pending_id": forget["pending_id"]})
        )
        missing = await client.call_tool("memory_read", {"ref": "global/nope.md"})
        resource = await client.read_resource("memory://project/on-call")
        with pytest.raises(MCPError):
            await client.read_resource("memory://global/nope")
        after_errors = data(await client.call_tool("memory_list", {"scope": "global"}))
    assert len(tools) == 9
    assert listed["total"] == 4
    assert read["fact"]["title"] == "Release branch"
    assert search["hits"][0]["ref"] == "project/deploy-window.md"
    assert "project/deploy-window.md" in turn["block"]
    assert chain["documents"] == []
    assert "project/release-branch.md" in prefix["text"]
    assert saved["outcome"] == "applied" and saved["agent"] == "tester"
    assert data(secret)["outcome"] == "queued" and SECRET not in json.dumps(data(secret))
    assert status["status"] == "pending"
    assert missing.is_error and data(missing)["error"]["code"] == "not_found"
    assert "The rota lives in the team calendar." in resource.contents[0].text
    assert [f["ref"] for f in after_errors["facts"]] == ["global/prefers-pytest.md"]
    # The server logged to its state folder, never to stdout.
    assert (seeded.layout.state_dir / "mcp-server.log").exists()


async def test_writes_by_another_process_are_seen_at_once(seeded: Engine) -> None:
    async with Client(_params(seeded), read_timeout_seconds=60) as client:
        before = data(await client.call_tool("memory_list", {}))
        other = Engine(home=seeded.home, workspace=seeded.workspace)  # another process's engine
        other.create_fact(
            name="fresh-fact",
            title="Fresh fact",
            description="made elsewhere",
            type=FactType.PROJECT,
            body="Written by the CLI while the server ran: zanzibar.",
        )
        read = data(await client.call_tool("memory_read", {"ref": "project/fresh-fact.md"}))
        listed = data(await client.call_tool("memory_list", {}))
        found = data(await client.call_tool("memory_search", {"query": "zanzibar"}))
        other.update_fact("project/fresh-fact.md", expected_revision=1, body="Now: kilimanjaro.")
        updated = data(await client.call_tool("memory_read", {"ref": "project/fresh-fact.md"}))
        refound = data(await client.call_tool("memory_search", {"query": "kilimanjaro"}))
        other.forget_fact("project/fresh-fact.md")
        gone = await client.call_tool("memory_read", {"ref": "project/fresh-fact.md"})
        relisted = data(await client.call_tool("memory_list", {}))
    assert before["total"] == 4
    assert read["fact"]["body"].endswith("zanzibar.")
    assert listed["total"] == 5
    assert [h["ref"] for h in found["hits"]] == ["project/fresh-fact.md"]
    assert updated["fact"]["revision"] == 2 and updated["fact"]["body"] == "Now: kilimanjaro."
    assert [h["ref"] for h in refound["hits"]] == ["project/fresh-fact.md"]
    assert gone.is_error and data(gone)["error"]["code"] == "not_found"
    assert relisted["total"] == 4


async def test_workspace_from_mcp_roots(seeded: Engine, tmp_path: Path) -> None:
    elsewhere = tmp_path / "not-the-workspace"
    elsewhere.mkdir()

    async def roots(context: object) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=seeded.workspace.as_uri(), name="repo")])

    params = _params(seeded, workspace=False)
    params = params.model_copy(update={"cwd": str(elsewhere)})
    async with Client(
        params, list_roots_callback=roots, mode="legacy", read_timeout_seconds=60
    ) as client:
        listed = data(await client.call_tool("memory_list", {}))
        resource = await client.read_resource("memory://project/release-branch")
    assert listed["total"] == 4  # the seeded workspace's facts, not the cwd's (none)
    assert "release/*" in resource.contents[0].text


async def test_a_root_that_is_no_folder_leaves_nothing_in_the_home(
    seeded: Engine, tmp_path: Path
) -> None:
    """A client-chosen root that does not exist gets workspace_not_found, and no project
    folder, state folder or log appears in the home for it (an outside review found the
    server's log written there)."""
    missing = tmp_path / "nonexistent"

    async def roots(context: object) -> ListRootsResult:
        return ListRootsResult(roots=[Root(uri=missing.as_uri(), name="gone")])

    before = sorted(p.relative_to(seeded.home) for p in seeded.home.rglob("*"))
    params = _params(seeded, workspace=False)
    async with Client(
        params, list_roots_callback=roots, mode="legacy", read_timeout_seconds=60
    ) as client:
        listed = await client.call_tool("memory_list", {})
    assert listed.is_error and data(listed)["error"]["code"] == "workspace_not_found"
    after = sorted(p.relative_to(seeded.home) for p in seeded.home.rglob("*"))
    assert [p for p in after if p not in before and "nonexistent" in str(p)] == []


def test_stdout_is_protocol_only(seeded: Engine) -> None:
    """Raw JSON-RPC over a pipe: every stdout line is a JSON-RPC message."""
    params = _params(seeded)
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "raw-test", "version": "1"},
            },
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {
            "jsonrpc": "2.0",
            "id": 2,
            "method": "tools/call",
            "params": {"name": "memory_read", "arguments": {"ref": "project/release-branch.md"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 3,
            "method": "tools/call",
            "params": {"name": "memory_read", "arguments": {"ref": 12}},
        },
        {  # JSON may spell a lone surrogate; the SDK's parser refuses it without an answer
            "jsonrpc": "2.0",
            "id": 4,
            "method": "tools/call",
            "params": {"name": "recall", "arguments": {"message": "release branch \udcff"}},
        },
        {
            "jsonrpc": "2.0",
            "id": 5,
            "method": "tools/call",
            "params": {"name": "memory_search", "arguments": {"query": "release \ud800"}},
        },
    ]
    proc = subprocess.Popen(
        [params.command, *params.args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=params.env,
        cwd=params.cwd,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
    proc.stdin.flush()
    received: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: [received.put(x) for x in proc.stdout], daemon=True)
    reader.start()
    lines = []
    while len([x for x in lines if '"id"' in x]) < 5:  # answers to requests 1 to 5
        try:
            lines.append(received.get(timeout=60))
        except queue.Empty:
            proc.kill()
            pytest.fail(f"no answer to every request within 60 s; got {lines}")
    proc.stdin.close()  # end of the session: the server exits
    reader.join(timeout=60)
    while not received.empty():
        lines.append(received.get())
    proc.wait(timeout=60)
    assert proc.stderr is not None
    proc.stderr.close()
    proc.stdout.close()
    lines = [line for line in lines if line.strip()]
    messages = [json.loads(line) for line in lines]
    assert all(m.get("jsonrpc") == "2.0" for m in messages)
    by_id = {m["id"]: m for m in messages if "id" in m}
    assert by_id[1]["result"]["serverInfo"]["name"] == "context-center"
    assert by_id[2]["result"]["structuredContent"]["fact"]["ref"] == "project/release-branch.md"
    assert by_id[3]["result"]["isError"] is True
    assert by_id[4]["result"]["isError"] is False  # answered, the surrogate read as U+FFFD
    assert by_id[4]["result"]["structuredContent"]["trace"]["query"] == "release branch \ufffd"
    assert by_id[5]["result"]["isError"] is False
    assert proc.returncode == 0
