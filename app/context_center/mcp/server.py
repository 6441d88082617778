"""``context-center mcp``: the stdio MCP server on the official SDK (``MCPServer``).

Standard output carries the protocol only: while it serves, the SDK points file descriptor 1
at standard error, and this module logs to standard error and to ``mcp-server.log`` in the
workspace's state folder. The stores and the recall index are loaded once, in the background
at start, and followed on every request by one ``stat`` per store (``Engine.agent_view``).

Resources: ``memory://project/<name>`` and ``memory://global/<name>``, a fact as Markdown
with its frontmatter, listed from the active facts (paginated).
"""

from __future__ import annotations

import contextlib
import logging
import threading
import warnings
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ResourceNotFoundError, ToolError
from mcp.shared.exceptions import MCPError
from mcp.types import (
    INVALID_PARAMS,
    CallToolResult,
    InputRequiredResult,
    ListResourcesResult,
    NotificationParams,
    PaginatedRequestParams,
    Resource,
)
from pydantic import ValidationError

from context_center import __version__
from context_center.engine import Engine, EngineError
from context_center.mcp import results, tools
from context_center.mcp.state import ServerOptions, ServerState, client_name

log = logging.getLogger(__name__)

NAME = "context-center"
INSTRUCTIONS = (
    "Context Center holds this project's memory (background facts, project and global scope) "
    "and its standing instructions. At the start of a turn call recall with the user's "
    "message and read the block it returns; look facts up with memory_search and "
    "memory_read. Facts may be stale: verify before relying on them. Save what is worth "
    "keeping with remember: low-risk project facts are saved at once, anything else waits "
    "for a person (check approval_status later). Never ask to approve your own writes."
)
RESOURCE_PAGE = 200


class ContextCenterServer(MCPServer[Any]):
    """``MCPServer`` with the contract's error shape and a paginated resource list."""

    def __init__(self, state: ServerState) -> None:
        super().__init__(
            name=NAME,
            title="Context Center",
            instructions=INSTRUCTIONS,
            version=__version__,
            log_level="WARNING",
        )
        self.state = state
        # Roots changed: ask the client again on the next request (a 2.x internal, pinned <3).
        self._lowlevel_server.add_notification_handler(
            "notifications/roots/list_changed", NotificationParams, self._on_roots_changed
        )

    async def _on_roots_changed(self, ctx: Any, params: Any) -> None:
        self.state.roots_changed()

    async def run_stdio_async(self) -> None:
        """Serve over stdio through thread-free pipe streams (``transport.py``) when the
        standard streams are pipes, else through the SDK's own."""
        from mcp.server.stdio import stdio_server

        from context_center.mcp.transport import AnswerUnreadable, pipe_streams

        async with pipe_streams() as streams:
            stdin, stdout = streams if streams is not None else (None, None)
            async with stdio_server(stdin, stdout) as (read_stream, write_stream):
                if stdin is not None:
                    read_stream = AnswerUnreadable(read_stream, write_stream, stdin)
                lowlevel = self._lowlevel_server
                await lowlevel.run(
                    read_stream, write_stream, lowlevel.create_initialization_options()
                )

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context[Any, Any] | None = None
    ) -> CallToolResult | InputRequiredResult:
        broken = sorted(_not_unicode(arguments))
        if broken:  # a lone surrogate cannot be stored, searched or written back on the wire
            return results.invalid_arguments(broken)
        schema = self._tool_input_schema(name)  # a 2.x internal: the tool's argument schema
        if schema is None:
            return results.error(
                "not_found", f"unknown tool {results.visible_message(name)!r}: see tools/list"
            )
        unknown = sorted(set(arguments) - set(schema.get("properties", {})))
        if unknown:  # refused, never ignored: {"approved": true} must not look accepted
            return results.invalid_arguments(unknown, "unknown")
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError):
                fields = sorted({".".join(str(p) for p in err["loc"]) for err in cause.errors()})
                return results.invalid_arguments(fields)
            raise

    async def _handle_read_resource(self, ctx: Any, params: Any) -> Any:  # a 2.x internal
        """The SDK's read, with its error's message and ``data.uri`` made provider-visible:
        it quotes the requested URI back as it came (a path, a token)."""
        try:
            return await super()._handle_read_resource(ctx, params)
        except MCPError as exc:
            engine: Engine | None = None
            with contextlib.suppress(EngineError):
                engine = self.state.engine()
            error = exc.error
            data = error.data
            if isinstance(data, dict) and isinstance(data.get("uri"), str):
                data = {**data, "uri": results.visible_message(data["uri"], engine)}
            raise MCPError(
                code=error.code, message=results.visible_message(error.message, engine), data=data
            ) from exc

    async def _handle_list_resources(  # a 2.x internal: MCPServer lists in one page only
        self, ctx: Any, params: PaginatedRequestParams | None
    ) -> ListResourcesResult:
        cursor = params.cursor if params is not None else None
        engine = await self.engine_for(None)
        try:
            page = engine.agent_list(cursor=cursor, limit=RESOURCE_PAGE)
        except EngineError as exc:
            raise MCPError(code=INVALID_PARAMS, message=str(exc), data={"code": exc.code}) from exc
        resources = [
            Resource(
                uri=f"memory://{f['scope']}/{f['name']}",
                name=f["ref"],
                title=f["title"] or None,
                description=f["description"] or None,
                mime_type="text/markdown",
            )
            for f in page["facts"]
        ]
        return ListResourcesResult(resources=resources, next_cursor=page["next_cursor"])

    async def engine_for(self, ctx: Context[Any, Any] | None) -> Engine:
        """The connection's engine for a resource request, which has no tool arguments to
        carry the roots: on a connection with a back-channel they are asked directly."""
        state = self.state
        if not state.needs_roots:
            return state.engine()
        uris: list[str] | None = None
        session = getattr(ctx, "session", None) if ctx is not None else None
        caps = getattr(session, "client_capabilities", None)
        if session is not None and caps is not None and caps.roots is not None:
            with contextlib.suppress(Exception), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                found = await session.list_roots()
                uris = [str(r.uri) for r in found.roots]
        return state.settle(uris)


def _not_unicode(value: object, where: str = "") -> set[str]:
    """The argument fields (dotted) whose text holds a lone surrogate, which JSON can spell
    (``"\\udcff"``) but is no Unicode text."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return {where or "the arguments"}
        return set()
    found: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            found |= _not_unicode(key, where) if isinstance(key, str) else set()
            found |= _not_unicode(item, f"{where}.{key}" if where else str(key))
    elif isinstance(value, list | tuple):
        for i, item in enumerate(value):
            found |= _not_unicode(item, f"{where}.{i}" if where else str(i))
    return found


def _register_resources(server: ContextCenterServer) -> None:
    async def read(scope: str, name: str, ctx: Context[Any, Any]) -> str:
        engine = await server.engine_for(ctx)
        caller = server.state.caller(client_name(ctx))
        uri = f"memory://{scope}/{name}"
        try:
            engine.require_workspace()
            return engine.agent_resource(scope, name, caller=caller)
        except EngineError as exc:
            message = results.visible_message(str(exc), engine)
            if exc.code == "not_found":
                raise ResourceNotFoundError(message) from exc
            raise MCPError(  # made provider-visible by _handle_read_resource, as every error
                code=INVALID_PARAMS, message=message, data={"code": exc.code, "uri": uri}
            ) from exc

    @server.resource(
        "memory://project/{name}",
        name="project fact",
        description="A project fact as Markdown with its frontmatter",
        mime_type="text/markdown",
    )
    async def project_fact(name: str, ctx: Context[Any, Any]) -> str:
        return await read("project", name, ctx)

    @server.resource(
        "memory://global/{name}",
        name="global fact",
        description="A global fact as Markdown with its frontmatter",
        mime_type="text/markdown",
    )
    async def global_fact(name: str, ctx: Context[Any, Any]) -> str:
        return await read("global", name, ctx)


def build_server(options: ServerOptions | ServerState) -> ContextCenterServer:
    state = options if isinstance(options, ServerState) else ServerState(options)
    server = ContextCenterServer(state)
    tools.register(server, state)
    _register_resources(server)
    return server


def run(options: ServerOptions) -> int:
    """Serve one client over stdio until it closes the connection."""
    from context_center.mcp import logs

    logs.to_stderr()
    state = ServerState(options)
    server = build_server(state)
    engine = state.warm_engine()
    warm = threading.Thread(target=state.warm, args=(engine,), name="warm-up", daemon=True)
    warm.start()
    log.info("context-center mcp %s serving over stdio", __version__)
    from context_center.warmchild import start_child, stop_child

    # Per-turn hook and CLI processes of this home are answered warm while the client runs.
    warm_server = start_child(options.home)
    try:
        server.run("stdio")
    except KeyboardInterrupt:
        pass
    finally:
        stop_child(warm_server, options.home)
        state.close()
        logs.close_files()
    return 0
