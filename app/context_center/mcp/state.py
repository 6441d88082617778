"""One server connection's state: its options, its caller identity, its Engine.

The workspace is ``--workspace`` when given; otherwise the client's first MCP root (a
``file://`` URI), asked once per connection and again after ``roots/list_changed``; otherwise
the current directory as the CLI finds it (the nearest ancestor holding ``.git``). One Engine
per workspace stays warm for the life of the process.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from context_center.engine import AgentCaller, Controller, Engine

log = logging.getLogger(__name__)

DEFAULT_AGENT = "mcp"
LOG_FILE = "mcp-server.log"


@dataclass(frozen=True)
class ServerOptions:
    home: str | None = None
    workspace: str | None = None
    controller: Controller = Controller.HEADLESS
    not_owner: bool = False
    agent: str | None = None
    log_to_file: bool = False


def root_path(uri: str) -> Path | None:
    """The local folder of a ``file://`` root, or None."""
    parsed = urlparse(uri)
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    path = Path(unquote(parsed.path))
    return path if path.is_absolute() else None


class ServerState:
    def __init__(self, options: ServerOptions) -> None:
        self.options = options
        self._engines: dict[str, Engine] = {}
        self._current: Engine | None = None
        self._roots_known = bool(options.workspace)
        self._lock = threading.Lock()

    # -- the caller --------------------------------------------------------------------------

    def caller(self, client_name: str | None) -> AgentCaller:
        client = (client_name or "").strip()[:100]
        return AgentCaller(
            agent=self.options.agent or client or DEFAULT_AGENT,
            controller=self.options.controller,
            not_owner=self.options.not_owner,
            client=client,
            via="mcp",
        )

    # -- the workspace -----------------------------------------------------------------------

    @property
    def needs_roots(self) -> bool:
        """True until the workspace is settled (no ``--workspace`` and roots not asked yet)."""
        return not self._roots_known

    def settle(self, roots: list[str] | None) -> Engine:
        """Fix the workspace from the client's root URIs (None: the client has none)."""
        with self._lock:
            if not self._roots_known or self._current is None:
                workspace = self.options.workspace
                if not workspace and roots:
                    found = next((p for p in map(root_path, roots) if p is not None), None)
                    workspace = str(found) if found is not None else None
                self._current = self._engine(workspace)
                self._roots_known = True
            return self._current

    def engine(self) -> Engine:
        """The connection's engine (the ``--workspace`` or current-directory one until roots
        are known)."""
        if self._current is None:
            return self.settle(None)
        return self._current

    def _engine(self, workspace: str | None) -> Engine:
        key = workspace or ""
        engine = self._engines.get(key)
        if engine is None and workspace:
            # The warm current-directory engine serves a root that is the same folder.
            found = self._engines.get("")
            if found is not None and found.workspace == Path(workspace).expanduser().absolute():
                engine = found
        if engine is None:
            engine = Engine(home=self.options.home, workspace=workspace)
            engine.start_agent_session()
            self._engines[key] = engine
            if self.options.log_to_file and engine.workspace.is_dir():
                # a root that is not a folder here gets workspace_not_found, and nothing of
                # it may appear in the home (not even its log)
                from context_center.mcp import logs

                logs.to_file(engine.layout.state_dir, LOG_FILE)
            log.info("serving workspace %s", engine.workspace.name or "/")
        return engine

    def roots_changed(self) -> None:
        """The client's roots changed: ask again on the next request."""
        with self._lock:
            if not self.options.workspace:
                self._roots_known = False

    def warm_engine(self) -> Engine:
        """The engine to warm at start: the ``--workspace`` one, else the current
        directory's (reused when the client's root is the same folder)."""
        with self._lock:
            engine = self._engine(self.options.workspace)
            if self.options.workspace:
                self._current = engine
            engine.recaller  # noqa: B018 - made here, so the warm-up thread and a request share it
            return engine

    @staticmethod
    def warm(engine: Engine) -> None:
        """Load the stores and the recall index ahead of the first request (a thread)."""
        try:
            engine.agent_search("warm up", limit=1)
        except Exception as exc:  # a warm-up failure is reported by the first real request
            log.warning("warm-up failed: %s", exc)

    def close(self) -> None:
        for engine in self._engines.values():
            engine.close_agent_session()


def client_name(ctx: Any) -> str | None:
    """The client's self-reported name (for the record only; it grants nothing)."""
    try:
        params = ctx.session.client_params
        return str(params.client_info.name) if params is not None else None
    except Exception:
        return None
