"""Claude Code command hooks: ``context-center hook claude-code EVENT``.

Claude Code runs the command with one JSON object on standard input (``session_id``,
``transcript_path``, ``cwd``, ``hook_event_name``, and ``prompt`` for UserPromptSubmit,
``source`` for SessionStart, ``tool_name``/``tool_input`` for PreToolUse; ``agent_id`` when
the hook fires inside a subagent). On exit 0, what UserPromptSubmit and SessionStart put in
``hookSpecificOutput.additionalContext`` reaches the model; a PreToolUse
``permissionDecision`` of ``deny`` blocks the tool and shows its reason to the model.

* UserPromptSubmit: recall on the raw prompt for the ``cwd``'s workspace; the block (nothing
  for a generic turn). The trace is recorded like any turn's.
* SessionStart: the stable guidance and memory index part of the prefix (Claude Code loads
  the instruction files itself).
* PreToolUse on Write/Edit/MultiEdit into Claude Code's auto-memory folder: through the write
  gate (``Engine.claude_memory_write``); the tool is denied with the outcome as its reason.

A hook never breaks the agent on our failure: on any error it prints nothing, exits 0 and
logs the error (standard error and ``hooks.log`` in the workspace's state folder).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import IO, Any

from context_center.mcp.unicode import may_spell_surrogates, replace_lone_surrogates

log = logging.getLogger(__name__)

EVENTS = ("UserPromptSubmit", "SessionStart", "PreToolUse")
WRITE_TOOLS = ("Write", "Edit", "MultiEdit")
AGENT = "claude-code"
LOG_FILE = "hooks.log"
MAX_INPUT_BYTES = 16 * 1024 * 1024


def _engine(home: str | None, workspace: str | None, cwd: Any, event: str = "") -> Any:
    from context_center.engine import Engine, find_workspace_root

    if not workspace:
        if not isinstance(cwd, str) or not Path(cwd).is_absolute():
            raise ValueError("the hook input has no absolute cwd")
        if not Path(cwd).is_dir():  # nothing is written for a folder that is not there
            raise ValueError("the hook input's cwd is not a folder")
        workspace = str(find_workspace_root(Path(cwd)))
    if event == "UserPromptSubmit":  # a warm server keeps this one (cli/serve.py)
        from context_center.cli.common import engine_of

        return engine_of(f"hook {event}", home, workspace)
    return Engine(home=home, workspace=workspace)


def _caller(payload: dict[str, Any]) -> Any:
    from context_center.engine import AgentCaller, Controller

    subagent = bool(payload.get("agent_id"))
    return AgentCaller(
        agent=AGENT,
        controller=Controller.SUBAGENT if subagent else Controller.HEADLESS,
        client=AGENT,
        via="hook",
    )


def _context(event: str, text: str) -> dict[str, Any]:
    return {"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}


def _reasons(result: dict[str, Any]) -> str:
    return "; ".join(f"{r['code']}: {r['message']}" for r in result.get("reasons", [])) or "-"


def denial(result: dict[str, Any]) -> str:
    """What the model is told about a memory write the gate handled."""
    file = result.get("file", "the memory file")
    outcome = result.get("outcome")
    if outcome == "applied":
        return (
            f"Context Center saved this memory as {result.get('ref', file)} in its own memory "
            "(a low-risk new memory, saved create-only with exactly this content): each "
            "session's memory index and recall carry it. Nothing was written to "
            f"{file}; do not write it again."
        )
    if outcome == "queued":
        return (
            f"Context Center did not save {file} yet: the write waits for a person's approval "
            f"as {result.get('pending_id')} (reasons: {_reasons(result)}). Once approved it is "
            "kept in Context Center's memory and recalled when relevant. Do not retry the write."
        )
    return f"Context Center refused this memory write to {file} (reasons: {_reasons(result)})."


def handle(
    event: str, payload: dict[str, Any], *, home: str | None, workspace: str | None
) -> dict[str, Any] | None:
    """The hook's JSON answer for one event, or None to print nothing."""
    engine = _engine(home, workspace, payload.get("cwd"), event)
    from context_center.mcp import logs

    logs.to_file(engine.layout.state_dir, LOG_FILE)
    caller = _caller(payload)
    if event == "UserPromptSubmit":
        prompt = payload.get("prompt")
        if not isinstance(prompt, str):
            raise ValueError("UserPromptSubmit input has no prompt")
        block = engine.agent_recall(prompt, caller=caller, one_shot=True)["block"]
        return _context(event, block) if block else None
    if event == "SessionStart":
        text = engine.session_context(caller=caller)
        return _context(event, text) if text.strip() else None
    if event == "PreToolUse":
        tool, tool_input = payload.get("tool_name"), payload.get("tool_input")
        if tool not in WRITE_TOOLS or not isinstance(tool_input, dict):
            return None
        changes = engine.claude_memory_write(
            tool, tool_input, cwd=payload.get("cwd", ""), caller=caller
        )
        if changes is None:
            return None
        return {
            "hookSpecificOutput": {
                "hookEventName": event,
                "permissionDecision": "deny",
                "permissionDecisionReason": denial(changes.value),
            }
        }
    raise ValueError(f"unknown Claude Code hook event {event!r}")


def _one_line(text: str) -> str:
    """``text`` for the one line the hook logs: a newline, a terminal escape or another
    control character (an argument or an input can hold them) is spelled as an escape."""
    return text if text.isprintable() else repr(text)[1:-1]


def run(
    agent: str,
    event: str,
    *,
    home: str | None,
    workspace: str | None,
    stdin: IO[str],
    stdout: IO[str],
) -> int:
    """Read the hook input, answer on ``stdout``; always exit 0."""
    from context_center.mcp import logs

    if not logging.getLogger().handlers:
        logs.to_stderr(logging.WARNING)
    try:
        if agent != AGENT:
            raise ValueError(f"hooks exist for {AGENT} only, not {agent!r}")
        raw = stdin.read(MAX_INPUT_BYTES + 1)
        if len(raw) > MAX_INPUT_BYTES:
            raise ValueError("the hook input is too large")
        payload = json.loads(raw.removeprefix("\ufeff"))  # a BOM some shells' pipes add
        if may_spell_surrogates(raw):  # only then walk the payload (a Write's content can be big)
            payload = replace_lone_surrogates(payload)
        if not isinstance(payload, dict):
            raise ValueError("the hook input is not a JSON object")
        answer = handle(event, payload, home=home, workspace=workspace)
        if answer is not None:
            stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
            stdout.flush()
    except Exception as exc:  # never break the agent on our failure
        log.error(
            "context-center hook %s %s failed: %s: %s",
            *map(_one_line, (agent, event, type(exc).__name__, str(exc))),
        )
    finally:
        logs.close_files()
    return 0
