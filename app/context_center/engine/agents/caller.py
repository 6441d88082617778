"""Who is calling: an agent as the gate and the access log see it."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Controller(StrEnum):
    """Who answers a write's approval: a person at the window, nobody (headless) or a
    subagent (which fails closed). The gate's records keep it (``gate/proposal.py``)."""

    INTERACTIVE = "interactive"
    HEADLESS = "headless"
    SUBAGENT = "subagent"


DEFAULT_AGENT = "agent"


@dataclass(frozen=True)
class AgentCaller:
    """An agent connection (an MCP client, a hook). ``controller`` is what the person wired
    (``headless`` unless they configured ``interactive``; a subagent always fails closed);
    the client's own claims never raise it. ``client`` is the client's self-reported name,
    for the record only."""

    agent: str = DEFAULT_AGENT
    controller: Controller = Controller.HEADLESS
    not_owner: bool = False
    client: str = ""
    via: str = "mcp"

    @property
    def owns_store(self) -> bool:
        return not self.not_owner and self.controller is not Controller.SUBAGENT

    def gate_fields(self) -> dict[str, object]:
        return {
            "agent": self.agent or DEFAULT_AGENT,
            "controller": self.controller.value,
            "owns_store": self.owns_store,
        }
