"""The instruction operations behind the ``Engine`` (its ``instructions`` mixin calls these).

``check_target`` refuses a target folder that does not exist (``target_not_found``) instead of
resolving a phantom chain; ``resolve_for`` runs one agent's profile; ``compare_for`` runs all
three; ``prefix_for`` renders what that agent starts with.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from context_center.engine.errors import InvalidRequest, NotFound
from context_center.engine.instructions import fsread
from context_center.engine.instructions.compare import Comparison, compare
from context_center.engine.instructions.model import Agent, Resolution
from context_center.engine.instructions.prefix import (
    Prefix,
    agent_prefix,
    build_prefix,
    instructions_section,
)
from context_center.engine.instructions.profiles.claude_code import resolve_claude_code
from context_center.engine.instructions.profiles.codex import codex_home_for, resolve_codex
from context_center.engine.instructions.resolve import resolve_instructions
from context_center.engine.model import Conflict, Fact

AGENTS: tuple[Agent, ...] = (Agent.REASONIX, Agent.CLAUDE_CODE, Agent.CODEX)


@dataclass(frozen=True)
class Places:
    """Where one resolution looks: the Context Center home, the workspace and the user home."""

    home: Path
    workspace: Path | None  # the explicit workspace, else None (nearest .git of the target)
    user_home: Path  # Claude Code's ~ (and Codex's, unless $CODEX_HOME is set)
    codex_home: Path | None = None  # None: $CODEX_HOME, else <user_home>/.codex
    ceiling: Path | None = None  # Claude Code walks no higher than this (None: the root)


def parse_agent(value: str | Agent) -> Agent:
    try:
        return Agent(value)
    except ValueError:
        names = ", ".join(a.value for a in AGENTS)
        raise InvalidRequest(
            f"unknown agent {value!r}; one of {names}", code="unknown_agent"
        ) from None


def check_target(target: Path, workspace: Path) -> Path:
    """``target`` (absolute) if it exists, else ``NotFound`` naming it by a label."""
    try:
        exists = os.path.exists(target)
    except (OSError, ValueError):
        exists = False
    if not exists:
        label = fsread.Labeller(workspace)(target)
        raise NotFound(f"the target folder {label} does not exist", code="target_not_found")
    return target


def _root(places: Places, target: Path) -> Path:
    if places.workspace is not None:
        return fsread.abspath(places.workspace)
    where = target.parent if os.path.isfile(target) else target
    return fsread.find_workspace_root(where)


def resolve_for(agent: Agent | str, places: Places, target: Path) -> Resolution:
    agent = parse_agent(agent)
    root = _root(places, target)
    if agent is Agent.REASONIX:
        res = resolve_instructions(places.home, places.workspace, target)
        return res.model_copy(update={"text": instructions_section(res)})
    if agent is Agent.CLAUDE_CODE:
        return resolve_claude_code(
            root, target, user_home=places.user_home, ceiling=places.ceiling, cc_home=places.home
        )
    codex_home = places.codex_home or codex_home_for(places.user_home)
    return resolve_codex(
        root, target, codex_home=codex_home, user_home=places.user_home, cc_home=places.home
    )


def compare_for(places: Places, target: Path) -> Comparison:
    return compare([resolve_for(agent, places, target) for agent in AGENTS])


def prefix_for(
    resolution: Resolution,
    facts: Sequence[Fact],
    conflicts: Sequence[Conflict],
    *,
    store_paths: Sequence[Path] = (),
) -> Prefix:
    if resolution.agent is Agent.REASONIX:
        return build_prefix(resolution, facts, conflicts, store_paths=store_paths)
    return agent_prefix(resolution)
