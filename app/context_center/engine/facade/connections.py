"""Wiring agents to this home: ``connect``/``disconnect`` edit the agent's own config files
(engine/agents/clients.py), and the Connections view asks whether each still points here."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from context_center.engine.changes import Changes
from context_center.engine.facade.core import EngineCore


def _default_home() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("context-center", "context-center")).absolute()


@contextlib.contextmanager
def _configs_held() -> Iterator[None]:
    """One ``connect``/``disconnect`` at a time for this user, whatever the home: each reads
    the agent's files, then writes them one by one, and two at once (two homes) could leave
    the MCP server wired and the hooks not. The lock is in the cache folder; where that
    cannot be made, the edit goes ahead unlocked (each file is still replaced whole)."""
    from context_center.engine.errors import StoreUnavailable
    from context_center.engine.store import locking
    from context_center.engine.store.paths import cache_root
    from context_center.engine.store.private import ensure_private_dir

    root = cache_root()
    try:
        ensure_private_dir(root, "the cache folder")
    except StoreUnavailable:
        yield
        return
    lock = locking.file_lock(root / "connect.lock", timeout=locking.LOG_TIMEOUT_S, mode=0o600)
    with locking.hold(lock, "the agents' config files"):
        yield


class ConnectionsAPI(EngineCore):
    def _connect_home(self) -> Path | None:
        """The ``--home`` a client must pass: none for the default home."""
        return None if self.home == _default_home() else self.home

    def connect_agent(
        self, agent: str, scope: str | None = None, *, dry_run: bool = False, connect: bool = True
    ) -> Changes[dict[str, Any]]:
        """Write (or, ``connect=False``, remove) this program's entries in ``agent``'s config:
        the MCP server and, for Claude Code, its hooks. Every other key and comment stays;
        each changed file is backed up first. ``dry_run`` only reports the diff."""
        from context_center.engine.agents import clients, config_files

        where = clients.target(agent, scope, self.workspace)
        files: list[dict[str, Any]] = []
        with _configs_held():
            edits = clients.plan(
                agent, where.scope, self.workspace, self._connect_home(), connect=connect
            )
            if not dry_run:
                config_files.check_writable(edits)
            for edit in edits:
                if not edit.changed:
                    action = "unchanged"
                elif edit.before is None:
                    action = "created"
                elif edit.after is None:
                    action = "removed"
                else:
                    action = "updated"
                backup = None if dry_run else config_files.apply_one(edit, files, back_up=connect)
                files.append({"file": edit.display, "action": action, "backup": backup})
        value = {
            "agent": agent,
            "scope": where.scope,
            "action": "connect" if connect else "disconnect",
            "dry_run": dry_run,
            "files": files,
            "diff": "".join(edit.diff() for edit in edits),
        }
        return Changes(value)

    def disconnect_agent(
        self, agent: str, scope: str | None = None, *, dry_run: bool = False
    ) -> Changes[dict[str, Any]]:
        """Undo ``connect_agent``: remove exactly the entries it adds."""
        return self.connect_agent(agent, scope, dry_run=dry_run, connect=False)

    def agent_connections(self) -> list[dict[str, Any]]:
        """Every agent at every scope: ``connected`` (points here), ``differs``,
        ``not_connected`` or ``unreadable``, with the config file's name."""
        from context_center.engine.agents import clients

        home = self._connect_home()
        return [
            clients.status(agent, scope, self.workspace, home)
            for agent in clients.AGENTS
            for scope in clients.SCOPES
        ]
