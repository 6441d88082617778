"""The MCP server through the SDK's in-memory client: every tool, the resources, every kind of
bad request, the contract's JSON, and that nothing private reaches a result."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from mcp_helpers import connected, data

from context_center.engine import Controller, Engine, FactType
from context_center.mcp.server import build_server
from context_center.mcp.state import ServerOptions
from mcp import MCPError

pytestmark = pytest.mark.anyio

TOOLS = {
    "memory_list",
    "memory_read",
    "memory_search",
    "recall",
    "instructions",
    "prefix",
    "remember",
    "forget",
    "approval_status",
}
SECRET = "AKIAIOSFODNN7EXAMPLE"


def _server(engine: Engine, **options: object):  # type: ignore[no-untyped-def]
    return build_server(
        ServerOptions(home=str(engine.home), workspace=str(engine.workspace), **options)  # type: ignore[arg-type]
    )


def _no_local_paths(text: str, *paths: Path) -> None:
    for path in paths:
        assert os.fspath(path) not in text


async def test_tools_listed_with_read_only_annotations(seeded: Engine) -> None:
    async with connected(_server(seeded)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    assert "approve" not in " ".join(tools)
    for name in (
        "memory_list",
        "memory_read",
        "memory_search",
        "instructions",
        "prefix",
        "approval_status",
    ):
        assert tools[name].annotations.read_only_hint is True, name
    for name in ("remember", "forget", "recall"):
        assert tools[name].annotations.read_only_hint is False, name
    assert tools["forget"].annotations.destructive_hint is True
    assert "roots" not in json.dumps(tools["memory_read"].input_schema)  # the resolver is hidden
    # remember's type and scope list their values (and may still be left out)
    props = tools["remember"].input_schema["properties"]
    assert props["type"]["anyOf"] == [
        {"enum": ["user", "feedback", "project", "reference"], "type": "string"},
        {"type": "null"},
    ]
    assert props["scope"]["anyOf"][0]["enum"] == ["project", "global"]
    assert tools["forget"].input_schema["properties"]["expected_revision"]["description"]


async def test_list_paginates_and_filters(seeded: Engine) -> None:
    async with connected(_server(seeded)) as client:
        first = data(await client.call_tool("memory_list", {"limit": 2}))
        second = data(
            await client.call_tool("memory_list", {"limit": 2, "cursor": first["next_cursor"]})
        )
        only_global = data(await client.call_tool("memory_list", {"scope": "global"}))
        only_ref = data(await client.call_tool("memory_list", {"type": "reference"}))
    assert first["total"] == 4 and len(first["facts"]) == 2 and first["next_cursor"]
    assert second["next_cursor"] is None and "total" not in second
    refs = [f["ref"] for f in first["facts"] + second["facts"]]
    assert refs == [
        "project/deploy-window.md",
        "project/release-branch.md",
        "project/数据库迁移.md",
        "global/prefers-pytest.md",
    ]
    assert all("body" not in f and "path" not in f for f in first["facts"])
    assert [f["ref"] for f in only_global["facts"]] == ["global/prefers-pytest.md"]
    assert [f["ref"] for f in only_ref["facts"]] == ["project/deploy-window.md"]


async def test_read_by_ref_name_and_id(seeded: Engine) -> None:
    fact_id = seeded.read_fact("project/release-branch.md").fact.id
    async with connected(_server(seeded)) as client:
        by_ref = data(await client.call_tool("memory_read", {"ref": "project/release-branch.md"}))
        by_id = data(await client.call_tool("memory_read", {"ref": fact_id}))
        by_name = data(await client.call_tool("memory_read", {"ref": "数据库迁移"}))
    assert by_ref == by_id
    assert by_ref["fact"]["body"].startswith("We cut every release")
    assert set(by_ref["fact"]) >= {"ref", "id", "revision", "title", "description", "type", "scope"}
    assert by_name["fact"]["ref"] == "project/数据库迁移.md"
    _no_local_paths(json.dumps(by_ref), seeded.home, seeded.workspace)


async def test_search_and_recall(seeded: Engine) -> None:
    async with connected(_server(seeded)) as client:
        hits = data(
            await client.call_tool("memory_search", {"query": "release branch", "limit": 5})
        )
        zh = data(await client.call_tool("memory_search", {"query": "数据库迁移"}))
        turn = data(
            await client.call_tool("recall", {"message": "how do we cut a release branch?"})
        )
        generic = data(await client.call_tool("recall", {"message": "continue"}))
    assert hits["hits"][0]["ref"] == "project/release-branch.md"
    assert {"score", "matched", "snippet", "freshness"} <= set(hits["hits"][0])
    assert zh["hits"][0]["ref"] == "project/数据库迁移.md"
    assert "project/release-branch.md" in turn["block"]
    assert [s["ref"] for s in turn["trace"]["selected"]] == ["project/release-branch.md"]
    assert generic["block"] == ""
    # The trace is kept as the workspace's last recall.
    last = seeded.last_trace()
    assert last is not None and last.query == "continue"


async def test_instructions_and_prefix(seeded: Engine) -> None:
    (seeded.workspace / "AGENTS.md").write_text("Run the tests before committing.\n")
    (seeded.workspace / "api").mkdir()
    async with connected(_server(seeded)) as client:
        chain = data(await client.call_tool("instructions", {}))
        sub = data(await client.call_tool("instructions", {"target": "api"}))
        prefix = data(await client.call_tool("prefix", {}))
        outside = await client.call_tool("instructions", {"target": "../.."})
    assert [d["label"] for d in chain["documents"]] == ["workspace/AGENTS.md"]
    assert sub["target"] == "workspace/api"
    assert "Run the tests before committing." in prefix["text"]
    assert "project/release-branch.md" in prefix["text"]
    assert prefix["length"] == len(prefix["text"])
    assert outside.is_error and data(outside)["error"]["code"] == "invalid_request"
    _no_local_paths(json.dumps(chain) + json.dumps(prefix), seeded.home, seeded.workspace)


async def test_remember_applied_queued_and_status(seeded: Engine) -> None:
    async with connected(_server(seeded)) as client:
        applied = data(
            await client.call_tool(
                "remember",
                {
                    "name": "ci-cache",
                    "title": "CI cache key",
                    "description": "The CI cache key includes the lockfile hash",
                    "type": "project",
                    "body": "Cache key: hash of uv.lock plus the Python version.",
                },
            )
        )
        queued = data(
            await client.call_tool(
                "remember",
                {"name": "likes-tabs", "type": "user", "description": "x", "body": "Tabs."},
            )
        )
        status = data(
            await client.call_tool("approval_status", {"pending_id": queued["pending_id"]})
        )
        seeded.approve(queued["pending_id"])
        approved = data(
            await client.call_tool("approval_status", {"pending_id": queued["pending_id"]})
        )
        read_back = data(await client.call_tool("memory_read", {"ref": "project/ci-cache.md"}))
    assert applied["outcome"] == "applied" and applied["fact"]["ref"] == "project/ci-cache.md"
    assert "body" not in applied["fact"]
    assert queued["outcome"] == "queued" and queued["pending_id"].startswith("apr-")
    assert "type_needs_confirmation" in [r["code"] for r in queued["reasons"]]
    assert status["status"] == "pending" and status["operation"] == "create"
    assert approved["status"] == "approved" and approved["result_ref"] == "project/likes-tabs.md"
    assert "workspace" not in status and "content" not in status
    assert read_back["fact"]["body"].startswith("Cache key")


async def test_update_and_forget_are_queued(seeded: Engine) -> None:
    async with connected(_server(seeded)) as client:
        update = data(
            await client.call_tool(
                "remember",
                {"ref": "project/release-branch.md", "expected_revision": 1, "body": "Changed."},
            )
        )
        stale = await client.call_tool(
            "remember", {"ref": "project/release-branch.md", "expected_revision": 7, "body": "x"}
        )
        forget = data(await client.call_tool("forget", {"ref": "project/deploy-window.md"}))
    assert update["outcome"] == "queued" and update["target_ref"] == "project/release-branch.md"
    assert "update_needs_confirmation" in [r["code"] for r in update["reasons"]]
    assert stale.is_error and data(stale)["outcome"] == "refused"
    assert "revision_conflict" in [r["code"] for r in data(stale)["reasons"]]
    assert forget["outcome"] == "queued" and forget["operation"] == "forget"
    assert seeded.read_fact("project/release-branch.md").fact.revision == 1  # nothing written


async def test_secret_is_queued_and_never_echoed(seeded: Engine) -> None:
    body = f"deploy with key {SECRET} and secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    async with connected(_server(seeded)) as client:
        result = await client.call_tool(
            "remember",
            {
                "name": "deploy-key",
                "title": "Deploy key",
                "description": "k",
                "type": "project",
                "body": body,
            },
        )
        wrong = await client.call_tool("remember", {"name": SECRET, "body": 5})
        status = await client.call_tool(
            "approval_status", {"pending_id": data(result)["pending_id"]}
        )
    answer = data(result)
    assert answer["outcome"] == "queued"
    assert "sensitive_content" in [r["code"] for r in answer["reasons"]]
    for shown in (result, wrong, status):
        assert SECRET not in json.dumps(shown.model_dump(mode="json"))
    assert wrong.is_error and data(wrong)["error"]["code"] == "invalid_request"
    log = (
        (seeded.layout.state_dir / "access-log.jsonl").read_text()
        if (seeded.layout.state_dir / "access-log.jsonl").exists()
        else ""
    )
    assert SECRET not in log


async def test_subagent_and_not_owner_fail_closed(seeded: Engine) -> None:
    fields = {
        "name": "x-fact",
        "title": "X fact",
        "description": "d",
        "type": "project",
        "body": "b",
    }
    async with connected(_server(seeded, controller=Controller.SUBAGENT)) as client:
        sub = await client.call_tool("remember", fields)
    async with connected(_server(seeded, not_owner=True)) as client:
        headless = await client.call_tool("remember", fields)
    async with connected(
        _server(seeded, not_owner=True, controller=Controller.INTERACTIVE)
    ) as client:
        interactive = data(await client.call_tool("remember", fields))
    assert sub.is_error and "subagent" in [r["code"] for r in data(sub)["reasons"]]
    assert headless.is_error and "headless_not_owner" in [
        r["code"] for r in data(headless)["reasons"]
    ]
    assert interactive["outcome"] == "queued" and interactive["controller"] == "interactive"


async def test_bad_requests_are_errors_and_the_server_keeps_serving(seeded: Engine) -> None:
    huge = "x" * (1024 * 1024 + 1)  # over the fact file cap
    async with connected(_server(seeded)) as client:
        unknown = await client.call_tool("memory_read", {"ref": "project/nope.md"})
        not_a_ref = await client.call_tool("memory_read", {"ref": "a/b/c"})
        wrong_type = await client.call_tool("memory_search", {"query": 7})
        bad_cursor = await client.call_tool("memory_list", {"cursor": "page-2"})
        too_big = await client.call_tool(
            "remember", {"name": "big", "type": "project", "description": "d", "body": huge}
        )
        no_item = await client.call_tool("approval_status", {"pending_id": "apr-nope"})
        still = data(await client.call_tool("memory_read", {"ref": "project/release-branch.md"}))
    assert data(unknown)["error"] == {
        "code": "not_found",
        "message": "project/nope.md does not exist",
    }
    assert data(not_a_ref)["error"]["code"] == "invalid_request"
    assert data(wrong_type)["error"]["code"] == "invalid_request"
    assert data(bad_cursor)["error"]["code"] == "invalid_request"
    assert too_big.is_error and "body_too_large" in [r["code"] for r in data(too_big)["reasons"]]
    assert data(no_item)["error"]["code"] == "invalid_request"
    assert all(r.is_error for r in (unknown, not_a_ref, wrong_type, bad_cursor, too_big, no_item))
    assert still["fact"]["revision"] == 1
    assert not (seeded.memory.project.root / "big.md").exists()


async def test_resources_listed_and_read(seeded: Engine) -> None:
    async with connected(_server(seeded)) as client:
        listed = await client.list_resources()
        templates = await client.list_resource_templates()
        project = await client.read_resource("memory://project/release-branch")
        global_ = await client.read_resource("memory://global/prefers-pytest")
        with pytest.raises(MCPError) as missing:
            await client.read_resource("memory://project/nope")
    uris = [str(r.uri) for r in listed.resources]
    assert "memory://project/release-branch" in uris and "memory://global/prefers-pytest" in uris
    assert {str(t.uri_template) for t in templates.resource_templates} == {
        "memory://project/{name}",
        "memory://global/{name}",
    }
    text = project.contents[0].text
    assert (
        text.startswith("---\n") and "name: release-branch" in text and "release/* branch" in text
    )
    assert "pytest fixtures" in global_.contents[0].text
    assert missing.value.error.code == -32602


async def test_a_hand_written_value_the_writer_refuses_can_still_be_read(seeded: Engine) -> None:
    """A listed resource can be read even when a hand edit left a control character or a
    quote mark at an end in its frontmatter (an outside review found it refused with
    "cannot be saved"): those values are YAML double-quoted scalars, escapes spelled out."""
    store = seeded.layout.project_store
    (store / "hand-edit.md").write_text(
        "---\nname: hand-edit\ntitle: \"'quoted' title\"\n"
        'description: "hand \\x1b[31m written"\ntype: project\n---\nA body.\n'
    )
    async with connected(_server(seeded)) as client:
        uris = [str(r.uri) for r in (await client.list_resources()).resources]
        read = await client.read_resource("memory://project/hand-edit")
    assert "memory://project/hand-edit" in uris
    text = read.contents[0].text
    assert "\x1b" not in text and "\x07" not in text
    assert 'description: "hand \\u001b[31m written"' in text
    assert "title: \"'quoted' title\"" in text and text.rstrip().endswith("A body.")


async def test_resource_list_pages(seeded: Engine) -> None:
    from context_center.engine import Fact, FactType, Scope
    from context_center.engine.store.factfile import render_fact

    for i in range(205):  # written as files (as another program would): fast
        fact = Fact(
            id=f"mem-{i:032x}",
            revision=1,
            created_at=None,
            updated_at=None,
            name=f"bulk-{i:03d}",
            title=f"Bulk {i}",
            description="",
            type=FactType.PROJECT,
            scope=Scope.PROJECT,
            body=f"bulk {i}",
        )
        (seeded.memory.project.root / f"bulk-{i:03d}.md").write_bytes(render_fact(fact))
    async with connected(_server(seeded)) as client:
        first = await client.list_resources()
        second = await client.list_resources(cursor=first.next_cursor)
    assert len(first.resources) == 200 and first.next_cursor
    assert len(second.resources) == 209 - 200 and second.next_cursor is None


async def test_home_paths_in_fact_text_are_redacted(seeded: Engine, user_home: Path) -> None:
    body = f"logs live in {seeded.workspace}/logs and {user_home}/.cache and /home/ann/x"
    seeded.create_fact(
        name="paths", title="Paths", description="where", type=FactType.PROJECT, body=body
    )
    async with connected(_server(seeded)) as client:
        read = data(await client.call_tool("memory_read", {"ref": "project/paths.md"}))
    assert read["fact"]["body"] == (
        "logs live in <workspace>/logs and <local-home>/.cache and <local-home>/x"
    )


async def test_access_log_is_content_free(seeded: Engine) -> None:
    async with connected(_server(seeded)) as client:
        await client.call_tool("memory_search", {"query": "release branch secret words"})
        await client.call_tool("memory_read", {"ref": "project/release-branch.md"})
        await client.call_tool("memory_read", {"ref": "project/nope.md"})
    engine = Engine(home=seeded.home, workspace=seeded.workspace)
    import time

    deadline = time.monotonic() + 5
    entries = engine.access_log()
    while len(entries) < 3 and time.monotonic() < deadline:  # the server's writer thread
        time.sleep(0.02)
        entries = engine.access_log()
    tools = [e["tool"] for e in entries]
    assert tools[:3] == ["memory_read", "memory_read", "memory_search"]
    error, read, search = entries[:3]
    assert error["outcome"] == "error" and error["error"] == "not_found"
    assert read["refs"] == ["project/release-branch.md"] and read["outcome"] == "ok"
    assert search["query"]["length"] == len("release branch secret words")
    raw = (seeded.layout.state_dir / "access-log.jsonl").read_text()
    assert "secret words" not in raw and "never main" not in raw
    assert search["agent"] == search["client"] or search["agent"] == "mcp"


async def test_no_workspace_no_roots_means_the_current_directory(
    seeded: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    sub = seeded.workspace / "src"
    sub.mkdir()
    monkeypatch.chdir(sub)
    server = build_server(ServerOptions(home=str(seeded.home)))
    async with connected(server) as client:
        listed = data(await client.call_tool("memory_list", {}))
    assert listed["total"] == 4  # found from src/ as the CLI does (the .git ancestor)


async def test_a_missing_workspace_is_an_error_and_the_server_keeps_serving(
    seeded: Engine, tmp_path: Path
) -> None:
    gone = tmp_path / "gone"
    gone.mkdir()
    server = build_server(ServerOptions(home=str(seeded.home), workspace=str(gone)))
    async with connected(server) as client:
        gone.rmdir()
        missing = await client.call_tool("memory_list", {})
        gone.mkdir()
        back = data(await client.call_tool("memory_list", {}))
    assert missing.is_error and data(missing)["error"]["code"] == "workspace_not_found"
    assert back["total"] == 1  # the global fact; no project facts in this workspace
