"""`context-center agent …`: an agent's memory writes, which always pass through the write gate.

``agent remember`` and ``agent forget`` print the gate's outcome — ``applied``, ``queued`` with
the pending id, or ``refused`` — and every reason. Exit code 0 for applied and queued, 1 for
refused. A person's own writes use ``memory save`` / ``memory forget`` instead.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from context_center.cli.common import (
    Output,
    add_command,
    json_object_arg,
    json_parent,
    read_text_arg,
)
from context_center.engine import CREATE_FIELDS, Changes, Controller, Engine, GateDecision, Outcome

CONTROLLERS = [c.value for c in Controller]
DEFAULT_AGENT = "agent"
INPUT_FIELDS = {"operation", "agent", *CREATE_FIELDS, "id", "ref", "expected_revision"}


def render_decision(decision: GateDecision) -> str:
    if decision.outcome is Outcome.APPLIED and decision.fact is not None:
        head = f"applied: created {decision.fact.ref} (revision {decision.fact.revision})"
    elif decision.outcome is Outcome.QUEUED:
        head = (
            f"queued for approval: {decision.pending_id}\n"
            "  a person approves or rejects it in Context Center or with "
            f"`context-center approvals show {decision.pending_id}`"
        )
    else:
        head = f"refused: the {decision.operation or 'write'} was not applied or queued"
    lines = [head]
    if decision.reasons:
        lines.append("reasons:")
        lines.extend(f"  - {r.code}: {r.message}" for r in decision.reasons)
    return "\n".join(lines)


def _output(done: Changes[GateDecision]) -> Output:
    decision = done.value
    if decision.outcome is Outcome.REFUSED:
        codes = ", ".join(r.code for r in decision.reasons) or "refused"
        sys.stderr.write(f"context-center: refused: {codes}\n")
    return Output(
        decision.public_dict() | {"changes": done.to_json()},
        render_decision(decision),
        exit_code=1 if decision.outcome is Outcome.REFUSED else 0,
    )


def _caller(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "controller": args.controller,
        "owns_store": not args.not_owner and args.controller != Controller.SUBAGENT.value,
    }


def cmd_remember(args: argparse.Namespace, engine: Engine) -> Output:
    loaded = json_object_arg(read_text_arg(args.json_input), "--json-input")
    request: dict[str, Any] = {"operation": "create", **loaded, **_caller(args)}
    if args.agent:
        request["agent"] = args.agent
    request.setdefault("agent", DEFAULT_AGENT)
    # Unknown keys stay in the request: the gate refuses them as invalid (fail closed).
    return _output(engine.agent_write(request))


def cmd_forget(args: argparse.Namespace, engine: Engine) -> Output:
    request: dict[str, Any] = {
        "operation": "forget",
        "ref": args.ref,
        "agent": args.agent or DEFAULT_AGENT,
        **_caller(args),
    }
    if args.expected_revision is not None:
        request["expected_revision"] = args.expected_revision
    return _output(engine.agent_write(request))


def _caller_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--controller",
        choices=CONTROLLERS,
        default=Controller.HEADLESS.value,
        help="who is asking: the interactive parent, a top-level headless run (default), or a subagent",
    )
    parser.add_argument(
        "--not-owner",
        action="store_true",
        help="the caller does not own this project's memory store (headless: refused; interactive: queued)",
    )
    parser.add_argument(
        "--agent",
        metavar="NAME",
        help=f"the agent's name for the record (default: {DEFAULT_AGENT})",
    )


def register(subparsers: Any) -> None:
    agent = subparsers.add_parser(
        "agent",
        parents=[json_parent()],
        help="an agent's memory writes, through the write gate",
        description="An agent's memory writes. Low-risk project facts are written at once; "
        "everything else waits for a person (`approvals`); subagents are refused.",
    )
    agent_sub = agent.add_subparsers(dest="agent_command", metavar="SUBCOMMAND", required=True)

    p = add_command(
        agent_sub,
        "remember",
        cmd_remember,
        "propose a fact (create, or update with id/ref); prints applied, queued or refused",
    )
    p.add_argument(
        "--json-input",
        metavar="FILE",
        required=True,
        help="a JSON object with name, title, description, type, scope, body "
        "(and id/ref/expected_revision for an update); a missing name is derived from the "
        "title; '-' reads stdin. Fields: " + ", ".join(sorted(INPUT_FIELDS)),
    )
    _caller_options(p)

    p = add_command(
        agent_sub, "forget", cmd_forget, "propose forgetting a fact (always waits for a person)"
    )
    p.add_argument("ref", help="project/<name>.md, global/<name>.md, a name or an id")
    p.add_argument("--expected-revision", type=int)
    _caller_options(p)
