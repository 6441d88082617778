"""The MCP tools: one Engine call each. Names, arguments and result JSON are a contract (README,
"MCP tools").

Read tools are annotated read-only. ``remember`` and ``forget`` go through the write gate as
``agent remember``/``agent forget`` do; a refused write is an ``isError`` result carrying the
gate's decision. There is no approve tool: approval is a person's act in the window or at a
terminal.
"""

# No ``from __future__ import annotations``: the SDK reads these signatures (including the
# ``Resolve`` of the workspace roots) at registration.

from collections.abc import Callable, Iterable
from typing import Annotated, Any, Literal

from mcp.server.mcpserver import Context, ListRoots, MCPServer, Resolve
from mcp.types import CallToolResult, ListRootsResult, ToolAnnotations
from pydantic import Field

from context_center.engine import AgentCaller, Engine, EngineError, FactType, Scope
from context_center.mcp import results
from context_center.mcp.state import ServerState, client_name

ScopeName = Literal["project", "global"]
AgentName = Literal["reasonix", "claude-code", "codex"]
TypeName = Literal["user", "feedback", "project", "reference"]
# Arguments two tools share (the SDK builds each tool's schema from these annotations).
TargetArg = Annotated[
    str | None, Field(description="a folder relative to the workspace root (default: the root)")
]
AgentArg = Annotated[AgentName | None, Field(description="whose loading rules (default: reasonix)")]

READ_ONLY = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False
)
RECORDS_TRACE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
PROPOSES_WRITE = ToolAnnotations(
    read_only_hint=False, destructive_hint=False, idempotent_hint=False, open_world_hint=False
)
PROPOSES_FORGET = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=False
)

Work = Callable[[Engine, AgentCaller], dict[str, Any]]


def _one_of(values: Iterable[str]) -> Callable[[dict[str, Any]], None]:
    """A schema hook: an optional string argument's string branch lists ``values`` (null
    stays allowed: the argument may be left out)."""
    allowed = list(values)

    def hook(schema: dict[str, Any]) -> None:
        for branch in schema.get("anyOf", [schema]):
            if branch.get("type") == "string":
                branch["enum"] = allowed

    return hook


def register(server: MCPServer[Any], state: ServerState) -> None:
    async def workspace_roots(ctx: Context) -> ListRoots | ListRootsResult:
        """Ask the client for its roots once, when the workspace is not settled yet and the
        client has roots at all."""
        caps = ctx.client_capabilities
        if not state.needs_roots or caps is None or caps.roots is None:
            return ListRootsResult(roots=[])
        return ListRoots()

    Roots = Annotated[ListRootsResult, Resolve(workspace_roots)]

    def serve(ctx: Context, roots: ListRootsResult, work: Work) -> CallToolResult:
        engine: Engine | None = None
        try:
            if state.needs_roots:
                engine = state.settle([str(r.uri) for r in roots.roots])
            else:
                engine = state.engine()
            engine.require_workspace()  # deleted, unmounted or never there: an error, per call
            data = work(engine, state.caller(client_name(ctx)))
        except EngineError as exc:
            return results.engine_error(exc, engine)
        return results.ok(data)

    def gate(ctx: Context, roots: ListRootsResult, work: Work) -> CallToolResult:
        result = serve(ctx, roots, work)
        data = result.structured_content or {}
        if data.get("outcome") == "refused":
            result.is_error = True
        return result

    @server.tool(
        name="memory_list",
        title="List memory",
        annotations=READ_ONLY,
        description="List active facts of this project's memory (project and global scope), "
        "without bodies: ref, id, revision, name, title, description, type, scope, freshness, "
        "times. Paginated: pass next_cursor back as cursor.",
    )
    async def memory_list(
        ctx: Context,
        roots: Roots,
        scope: Annotated[ScopeName | None, Field(description="only this scope")] = None,
        type: Annotated[TypeName | None, Field(description="only this type")] = None,
        cursor: Annotated[str | None, Field(description="next_cursor of the previous page")] = None,
        limit: Annotated[int, Field(ge=1, le=200, description="facts per page")] = 50,
    ) -> CallToolResult:
        return serve(
            ctx,
            roots,
            lambda e, c: e.agent_list(scope=scope, type=type, cursor=cursor, limit=limit, caller=c),
        )

    @server.tool(
        name="memory_read",
        title="Read a fact",
        annotations=READ_ONLY,
        description="Read one active fact with its body, by reference (project/<name>.md, "
        "global/<name>.md), name or id.",
    )
    async def memory_read(
        ctx: Context,
        roots: Roots,
        ref: Annotated[
            str, Field(description="project/<name>.md, global/<name>.md, a name or an id")
        ],
    ) -> CallToolResult:
        return serve(ctx, roots, lambda e, c: e.agent_read(ref, caller=c))

    @server.tool(
        name="memory_search",
        title="Search memory",
        annotations=READ_ONLY,
        description="Search active facts (BM25 over title, description and body; English and "
        "Chinese), best first, with a snippet and the matched terms.",
    )
    async def memory_search(
        ctx: Context,
        roots: Roots,
        query: Annotated[str, Field(description="words to look for")],
        limit: Annotated[int, Field(ge=1, le=50, description="at most this many hits")] = 20,
        scope: Annotated[ScopeName | None, Field(description="only this scope")] = None,
        type: Annotated[TypeName | None, Field(description="only this type")] = None,
    ) -> CallToolResult:
        return serve(
            ctx,
            roots,
            lambda e, c: e.agent_search(query, limit=limit, scope=scope, type=type, caller=c),
        )

    @server.tool(
        name="recall",
        title="Recall for this turn",
        annotations=RECORDS_TRACE,
        description="Auto-recall for the user's message: the block of relevant background "
        "facts to read before answering (empty for a generic turn) and the trace of why. The "
        "trace is kept as this project's last recall.",
    )
    async def recall(
        ctx: Context,
        roots: Roots,
        message: Annotated[str, Field(description="the user's message, as written")],
        max_facts: Annotated[int | None, Field(ge=1, description="facts in the block (4)")] = None,
        max_chars: Annotated[int | None, Field(ge=1, description="characters (2400)")] = None,
    ) -> CallToolResult:
        return serve(
            ctx,
            roots,
            lambda e, c: e.agent_recall(
                message, max_facts=max_facts, max_chars=max_chars, caller=c
            ),
        )

    @server.tool(
        name="instructions",
        title="Instruction chain",
        annotations=READ_ONLY,
        description="The standing instructions that apply to a folder of the workspace, "
        "broadest first, with their labels, precedence, imports and diagnostics.",
    )
    async def instructions(
        ctx: Context,
        roots: Roots,
        target: TargetArg = None,
        agent: AgentArg = None,
    ) -> CallToolResult:
        return serve(ctx, roots, lambda e, c: e.agent_instructions(target, agent=agent, caller=c))

    @server.tool(
        name="prefix",
        title="Stable prefix",
        annotations=READ_ONLY,
        description="The provider-visible stable prefix for a folder: stable guidance, the "
        "instructions and the memory index, and its length in characters.",
    )
    async def prefix(
        ctx: Context,
        roots: Roots,
        target: TargetArg = None,
        agent: AgentArg = None,
    ) -> CallToolResult:
        return serve(ctx, roots, lambda e, c: e.agent_prefix(target, agent=agent, caller=c))

    @server.tool(
        name="remember",
        title="Propose a fact",
        annotations=PROPOSES_WRITE,
        description="Save a fact through the write gate. A low-risk project/reference fact is "
        "applied at once; anything else is queued for a person (the result has pending_id: "
        "check it with approval_status) or refused with every reason. To update a fact pass "
        "ref (or id) and expected_revision with the fields that change.",
    )
    async def remember(
        ctx: Context,
        roots: Roots,
        name: Annotated[
            str | None, Field(description="file name (default: from the title)")
        ] = None,
        title: Annotated[str | None, Field(description="one line")] = None,
        description: Annotated[str | None, Field(description="one line: when it matters")] = None,
        type: Annotated[
            str | None,
            Field(
                description="user, feedback, project or reference",
                json_schema_extra=_one_of(t.value for t in FactType),
            ),
        ] = None,
        scope: Annotated[
            str | None,
            Field(
                description="project (default) or global",
                json_schema_extra=_one_of(s.value for s in Scope),
            ),
        ] = None,
        body: Annotated[str | None, Field(description="the fact, in Markdown")] = None,
        ref: Annotated[str | None, Field(description="the fact to update")] = None,
        id: Annotated[str | None, Field(description="the fact to update, by id")] = None,
        expected_revision: Annotated[
            int | None, Field(ge=1, description="the revision you read (updates)")
        ] = None,
    ) -> CallToolResult:
        fields = {
            "name": name,
            "title": title,
            "description": description,
            "type": type,
            "scope": scope,
            "body": body,
            "ref": ref,
            "id": id,
            "expected_revision": expected_revision,
        }
        return gate(ctx, roots, lambda e, c: e.agent_remember(fields, caller=c).value)

    @server.tool(
        name="forget",
        title="Propose forgetting a fact",
        annotations=PROPOSES_FORGET,
        description="Ask to forget (archive) a fact. Always waits for a person: the result has "
        "the pending_id to check with approval_status.",
    )
    async def forget(
        ctx: Context,
        roots: Roots,
        ref: Annotated[
            str, Field(description="project/<name>.md, global/<name>.md, a name or an id")
        ],
        expected_revision: Annotated[
            int | None, Field(ge=1, description="the revision you read (refused if it moved)")
        ] = None,
    ) -> CallToolResult:
        return gate(
            ctx,
            roots,
            lambda e, c: e.agent_forget(ref, expected_revision=expected_revision, caller=c).value,
        )

    @server.tool(
        name="approval_status",
        title="Approval status",
        annotations=READ_ONLY,
        description="Whether a queued write is pending, approved or rejected, and once approved "
        "the resulting fact's ref.",
    )
    async def approval_status(
        ctx: Context,
        roots: Roots,
        pending_id: Annotated[str, Field(description="the pending_id remember or forget returned")],
    ) -> CallToolResult:
        return serve(ctx, roots, lambda e, c: e.approval_status(pending_id, caller=c))
