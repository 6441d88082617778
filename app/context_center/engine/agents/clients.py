"""Wiring an agent to Context Center: where each client keeps its MCP config, what we add.

========== ======== ==========================================================================
agent      scope    files (and what goes in them)
========== ======== ==========================================================================
claude-code project ``.mcp.json`` ``mcpServers.context-center``; hooks in ``.claude/settings.json``
claude-code user    ``~/.claude.json`` ``mcpServers.context-center``; hooks in ``~/.claude/settings.json``
                    (with ``$CLAUDE_CONFIG_DIR`` set: ``$CLAUDE_CONFIG_DIR/.claude.json`` and
                    ``$CLAUDE_CONFIG_DIR/settings.json``, where Claude Code then reads both)
codex      user     ``$CODEX_HOME/config.toml`` (``~/.codex``) ``[mcp_servers.context-center]``
codex      project  ``.codex/config.toml`` (Codex reads it for trusted projects)
cursor     project  ``.cursor/mcp.json`` ``mcpServers.context-center``
cursor     user     ``~/.cursor/mcp.json``
========== ======== ==========================================================================

The server runs as ``context-center [--home H] mcp --controller interactive --agent AGENT``
(``--home`` only when the home is not the default one); the Claude Code hooks as
``context-center [--home H] hook claude-code EVENT`` for UserPromptSubmit, SessionStart and
PreToolUse (matcher ``Write|Edit|MultiEdit``). ``disconnect`` removes exactly these entries
(and containers they leave empty); everything else in the files stays as it was.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from context_center.engine.agents.config_files import (
    ConfigUnreadable,
    FileEdit,
    edit_json,
    edit_toml,
)
from context_center.engine.agents.toml_servers import expected, server_change
from context_center.engine.errors import InvalidRequest

AGENTS = ("claude-code", "codex", "cursor")
SCOPES = ("project", "user")
DEFAULT_SCOPE = {"claude-code": "project", "codex": "user", "cursor": "project"}
SERVER = "context-center"
HOOK_EVENTS = {
    "UserPromptSubmit": None,
    "SessionStart": None,
    "PreToolUse": "Write|Edit|MultiEdit",
}


@dataclass(frozen=True)
class Target:
    """The files of one agent at one scope."""

    agent: str
    scope: str
    server_file: Path
    server_display: str
    hooks_file: Path | None = None
    hooks_display: str | None = None

    @property
    def toml(self) -> bool:
        return self.server_file.suffix == ".toml"


def _home_display(path: Path) -> str:
    home = Path.home()
    try:
        return "~/" + path.relative_to(home).as_posix()
    except ValueError:
        return os.fspath(path)


def target(agent: str, scope: str | None, workspace: Path) -> Target:
    if agent not in AGENTS:
        raise InvalidRequest(f"agent {agent!r} is not one of {', '.join(AGENTS)}")
    scope = scope or DEFAULT_SCOPE[agent]
    if scope not in SCOPES:
        raise InvalidRequest(f"scope {scope!r} is not one of {', '.join(SCOPES)}")
    home = Path.home()
    if agent == "claude-code":
        configured = os.environ.get("CLAUDE_CONFIG_DIR", "").strip()
        config = Path(configured).expanduser() if configured else home / ".claude"
        if scope == "project":
            return Target(
                agent,
                scope,
                workspace / ".mcp.json",
                ".mcp.json",
                workspace / ".claude" / "settings.json",
                ".claude/settings.json",
            )
        # Claude Code keeps its global config (user-scope MCP servers) in the config folder
        # when CLAUDE_CONFIG_DIR is set, and ignores ~/.claude.json then.
        claude_json = (config if configured else home) / ".claude.json"
        return Target(
            agent,
            scope,
            claude_json,
            _home_display(claude_json),
            config / "settings.json",
            _home_display(config / "settings.json"),
        )
    if agent == "codex":
        if scope == "project":
            return Target(agent, scope, workspace / ".codex" / "config.toml", ".codex/config.toml")
        codex = Path(os.environ.get("CODEX_HOME") or home / ".codex") / "config.toml"
        return Target(agent, scope, codex, _home_display(codex))
    if scope == "project":
        return Target(agent, scope, workspace / ".cursor" / "mcp.json", ".cursor/mcp.json")
    cursor = home / ".cursor" / "mcp.json"
    return Target(agent, scope, cursor, _home_display(cursor))


# --------------------------------------------------------------------------- what we write


def launcher(home: Path | None) -> list[str]:
    """How a client starts this program: ``context-center`` when it is on PATH, else this
    interpreter with ``-m context_center``; ``--home`` only for a non-default home."""
    found = shutil.which("context-center")
    base = ["context-center"] if found else [sys.executable, "-m", "context_center"]
    if home is not None:
        base += ["--home", os.fspath(home)]
    return base


def server_entry(agent: str, base: list[str]) -> dict[str, Any]:
    entry: dict[str, Any] = {}
    if agent == "claude-code":
        entry["type"] = "stdio"
    entry["command"] = base[0]
    entry["args"] = [*base[1:], "mcp", "--controller", "interactive", "--agent", agent]
    return entry


def hook_command(base: list[str], event: str) -> str:
    return shlex.join([*base, "hook", "claude-code", event])


def _runs_us(words: list[str]) -> int:
    """How many leading words of a command line start this program (``context-center``, or
    a Python with ``-m context_center``; 0: something else), its ``--home H`` included."""
    first = Path(words[0]).name if words else ""
    if first == "context-center":
        n = 1
    elif first.startswith("python") and words[1:3] == ["-m", "context_center"]:
        n = 3
    else:
        return 0
    if words[n : n + 1] == ["--home"] and len(words) > n + 1:
        n += 2
    return n


def _is_ours(entry: Any) -> bool:
    """An MCP server entry ``connect`` writes: this program, its ``mcp`` command."""
    if not isinstance(entry, dict):
        return False
    words = [str(entry.get("command", "")), *map(str, entry.get("args") or [])]
    n = _runs_us(words)
    return n > 0 and words[n : n + 1] == ["mcp"]


# --------------------------------------------------------------------------- JSON servers


def _set_server(data: dict[str, Any], entry: dict[str, Any] | None, display: str) -> None:
    servers = data.get("mcpServers")
    if servers is None:
        if entry is None:
            return
        servers = data["mcpServers"] = {}
    if not isinstance(servers, dict):
        raise ConfigUnreadable(f"mcpServers in {display} is not an object; nothing was written")
    current = servers.get(SERVER)
    if current is not None and not _is_ours(current):
        raise InvalidRequest(
            f"{display} already has a server named {SERVER!r} that does not run Context "
            "Center; nothing was written"
        )
    if entry is None:
        if SERVER not in servers:
            return  # not wired here: the file stays as it is
        servers.pop(SERVER)
        if not servers and len(data) == 1:
            data.pop("mcpServers")  # nothing else in the file: connect made it
    else:
        # keys the person added to our entry (``env``, a timeout) stay; ours are set
        servers[SERVER] = {**current, **entry} if isinstance(current, dict) else entry


def _set_hooks(data: dict[str, Any], base: list[str] | None, display: str) -> None:
    hooks = data.get("hooks")
    if hooks is None:
        if base is None:
            return
        hooks = data["hooks"] = {}
    if not isinstance(hooks, dict):
        raise ConfigUnreadable(f"hooks in {display} is not an object; nothing was written")
    if base is None and not any(
        isinstance(hooks.get(e), list) and _without_ours(hooks[e], e) != hooks[e]
        for e in HOOK_EVENTS
    ):
        return  # none of ours here: the file stays as it is
    for event, matcher in HOOK_EVENTS.items():
        groups = hooks.get(event)
        if groups is None:
            groups = []
        if not isinstance(groups, list):
            raise ConfigUnreadable(f"hooks.{event} in {display} is not a list; nothing was written")
        kept = _without_ours(groups, event)
        if base is not None:
            kept = _with_ours(groups, kept, event, matcher, hook_command(base, event))
        if kept:
            hooks[event] = kept
        else:
            hooks.pop(event, None)
    if not hooks:
        data.pop("hooks")


def _with_ours(
    groups: list[Any], kept: list[Any], event: str, matcher: str | None, command: str
) -> list[Any]:
    """``groups`` with our hook for ``event`` running ``command`` (``kept``: the groups
    without ours). Our own group, where it is the only one, is updated in its place, with
    the keys the person added to it or to its hook (a ``timeout``) kept; else ours goes last."""
    own = [
        i
        for i, g in enumerate(groups)
        if isinstance(g, dict)
        and isinstance(g.get("hooks"), list)
        and len(g["hooks"]) == 1
        and _ours_hook(g["hooks"][0], event)
    ]
    if len(own) == 1 and len(kept) == len(groups) - 1:
        i = own[0]
        old = groups[i]
        group = {**old, "hooks": [{**old["hooks"][0], "type": "command", "command": command}]}
        if matcher:
            group["matcher"] = matcher
        return [*groups[:i], group, *groups[i + 1 :]]
    group = {"matcher": matcher} if matcher else {}
    group["hooks"] = [{"type": "command", "command": command}]
    return [*kept, group]


def _without_ours(groups: list[Any], event: str) -> list[Any]:
    out = []
    for group in groups:
        if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
            out.append(group)
            continue
        rest = [h for h in group["hooks"] if not _ours_hook(h, event)]
        if len(rest) == len(group["hooks"]):
            out.append(group)
        elif rest:
            out.append({**group, "hooks": rest})
    return out


def _ours_hook(hook: Any, event: str) -> bool:
    """A hook ``connect`` writes for ``event``: this program's ``hook claude-code EVENT``."""
    if not isinstance(hook, dict) or not isinstance(hook.get("command"), str):
        return False
    try:
        words = shlex.split(hook["command"])
    except ValueError:
        return False
    n = _runs_us(words)
    return n > 0 and words[n:] == ["hook", "claude-code", event]


# --------------------------------------------------------------------------- TOML servers


def _plain(value: Any) -> Any:
    unwrap = getattr(value, "unwrap", None)
    return unwrap() if callable(unwrap) else value


# --------------------------------------------------------------------------- plans


def plan(
    agent: str, scope: str | None, workspace: Path, home: Path | None, *, connect: bool
) -> list[FileEdit]:
    """The edits ``connect`` (or, with ``connect=False``, ``disconnect``) makes."""
    where = target(agent, scope, workspace)
    base = launcher(home)
    entry = server_entry(agent, base) if connect else None
    if where.toml:
        entry_toml = {k: v for k, v in (entry or {}).items() if k != "type"} if entry else None
        edits = [
            edit_toml(
                where.server_file,
                where.server_display,
                server_change(SERVER, entry_toml, where.server_display, _is_ours),
                expected(SERVER, entry_toml),
            )
        ]
    else:
        edits = [
            edit_json(
                where.server_file,
                where.server_display,
                lambda data: _set_server(data, entry, where.server_display),
            )
        ]
    if where.hooks_file is not None and where.hooks_display is not None:
        hooks_display = where.hooks_display
        edits.append(
            edit_json(
                where.hooks_file,
                hooks_display,
                lambda data: _set_hooks(data, base if connect else None, hooks_display),
            )
        )
    return edits


def status(agent: str, scope: str | None, workspace: Path, home: Path | None) -> dict[str, Any]:
    """Whether ``agent`` is wired at ``scope`` and still points here (same command, same
    home): ``connected``, ``differs`` (wired, but to another home or program),
    ``not_connected``, or ``unreadable``."""
    from context_center.engine.errors import EngineError

    where = target(agent, scope, workspace)
    wanted = server_entry(agent, launcher(home))
    info: dict[str, Any] = {"agent": agent, "scope": where.scope, "file": where.server_display}
    try:
        found = _read_entry(where)
    except EngineError as exc:
        return info | {"state": "unreadable", "message": str(exc)}
    if found is None:
        return info | {"state": "not_connected"}
    same = {k: v for k, v in found.items() if k in ("command", "args")} == {
        k: v for k, v in wanted.items() if k in ("command", "args")
    }
    info["state"] = "connected" if same else "differs"
    info["command"] = shlex.join(
        [str(found.get("command", "")), *map(str, found.get("args") or [])]
    )
    if where.hooks_file is not None:
        info["hooks"] = _hooks_present(where)
    return info


def _read_entry(where: Target) -> dict[str, Any] | None:
    from context_center.engine.agents.config_files import read_text

    found: dict[str, Any] | None = None

    def capture(data: Any) -> None:
        nonlocal found
        servers = data.get("mcp_servers" if where.toml else "mcpServers")
        entry = servers.get(SERVER) if hasattr(servers, "get") else None
        found = _plain(entry) if entry is not None else None

    if read_text(where.server_file, where.server_display) is None:
        return None
    if where.toml:
        edit_toml(where.server_file, where.server_display, capture)
    else:
        edit_json(where.server_file, where.server_display, capture)
    return found if isinstance(found, dict) else None


def _hooks_present(where: Target) -> list[str]:
    present: list[str] = []

    def capture(data: dict[str, Any]) -> None:
        hooks = data.get("hooks")
        if not isinstance(hooks, dict):
            return
        for event in HOOK_EVENTS:
            groups = hooks.get(event)
            if isinstance(groups, list) and _without_ours(groups, event) != groups:
                present.append(event)

    from context_center.engine.errors import EngineError

    assert where.hooks_file is not None and where.hooks_display is not None
    try:
        edit_json(where.hooks_file, where.hooks_display, capture)
    except EngineError:
        return []
    return present
