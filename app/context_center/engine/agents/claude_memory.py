"""Claude Code's auto-memory folder, routed through the write gate.

Claude Code keeps an auto memory per project in ``<config>/projects/<encoded>/memory/``
(``<config>`` is ``$CLAUDE_CONFIG_DIR``, else ``~/.claude``). ``<encoded>`` (``encode_project``)
is the project path with every UTF-16 code unit that is not an ASCII letter or digit replaced
by ``-`` (runs are not collapsed); a result longer than 200 characters keeps its first 200 and
gains ``-`` and a base-36 hash of the path. Which folder a working directory uses (the git
root, worktrees, ``autoMemoryDirectory``) is ``engine.claude_memory.location``'s to say.

A PreToolUse hook hands us the Write/Edit/MultiEdit aimed at that folder. We compute the file
the tool would leave, read it as a Claude memory file (frontmatter ``name``, ``description``,
``type``; then the body) and ask the gate (``evaluate``) about it as a project create:

* ``applied`` — a low-risk create of a file that does not exist yet: saved in Context Center's
  project store (create-only, as every low-risk agent write), where the session's memory
  index and recall carry it;
* anything else is queued for a person (a change to an existing file always is: reason
  ``claude_memory_edit``) or refused. An approved item is saved in the same store.

Either way the tool is denied with what happened, and nothing is written in Claude Code's
folder: a file there without a ``MEMORY.md`` line (which is never written for the agent either:
Context Center gives the session its index itself) would be seen by neither program, and one
saved in both places would be the same memory twice.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from context_center.engine.errors import EngineError

if TYPE_CHECKING:
    from context_center.engine.agents.caller import AgentCaller
    from context_center.engine.gate.decision import GateDecision

log = logging.getLogger(__name__)

WRITE_TOOLS = ("Write", "Edit", "MultiEdit")
INDEX_FILE = "MEMORY.md"
CLAUDE_MEMORY_EDIT = "claude_memory_edit"
MEMORY_INDEX = "memory_index"
EDIT_NOT_APPLICABLE = "edit_not_applicable"
OUTSIDE_FOLDER = "outside_memory_folder"
_LONG = 200


def _hash36(path: str) -> str:
    value = 0
    data = path.encode("utf-16-le", "surrogatepass")
    for i in range(0, len(data), 2):
        value = (value << 5) - value + (data[i] | data[i + 1] << 8)
        value = (value + 2**31) % 2**32 - 2**31  # JavaScript's ``| 0``
    number = abs(value)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if not number:
            return out


def encode_project(path: str) -> str:
    """Claude Code's folder name for a project path."""
    data = path.encode("utf-16-le", "surrogatepass")
    chars = []
    for i in range(0, len(data), 2):
        unit = data[i] | data[i + 1] << 8
        ch = chr(unit) if unit < 128 else ""
        chars.append(ch if ch.isalnum() else "-")
    encoded = "".join(chars)
    if len(encoded) <= _LONG:
        return encoded
    return f"{encoded[:_LONG]}-{_hash36(path)}"


def memory_file(tool_input: Mapping[str, Any], folders: Sequence[Path]) -> tuple[Path, Path] | None:
    """``(file, folder)``: the Markdown file a tool input writes inside one of ``folders``
    (the project's auto-memory folder, as ``engine.claude_memory.location`` finds it), or
    None when it writes anywhere else."""
    raw = tool_input.get("file_path") if isinstance(tool_input, Mapping) else None
    if not isinstance(raw, str) or not raw or "\0" in raw:
        return None
    path = Path(os.path.normpath(raw))
    if not path.is_absolute() or path.suffix.lower() != ".md":
        return None
    for folder in folders:
        for root in dict.fromkeys(
            (Path(os.path.normpath(os.path.abspath(folder))), Path(os.path.realpath(folder)))
        ):
            if path.is_relative_to(root) and path != root:
                return path, root
    return None


def _label(path: Path, folder: Path) -> str:
    """``memory/<file>`` — the provider-visible name of a file in the folder."""
    return "memory/" + path.relative_to(folder).as_posix()


def new_text(tool_name: str, tool_input: Mapping[str, Any], path: Path) -> str | None:
    """The file's text after the tool ran, or None when the edit cannot be applied."""
    if tool_name == "Write":
        content = tool_input.get("content")
        return content if isinstance(content, str) else None
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError):
        return None
    edits: Any = [tool_input] if tool_name == "Edit" else tool_input.get("edits")
    if not isinstance(edits, list):
        return None
    for edit in edits:
        if not isinstance(edit, Mapping):
            return None
        old, new = edit.get("old_string"), edit.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str) or not old or old not in text:
            return None
        text = text.replace(old, new) if edit.get("replace_all") else text.replace(old, new, 1)
    return text


def read_memory_text(text: str, stem: str) -> dict[str, Any]:
    """A Claude memory file's fields: frontmatter ``name``, ``description``, ``type`` (also
    ``metadata.type``), the rest the body. No frontmatter: the file name and the whole text."""
    import yaml

    meta: dict[str, Any] = {}
    body = text
    if text.startswith("---"):
        head, sep, rest = text[3:].partition("\n---")
        if sep:
            try:
                loaded = yaml.safe_load(head)
            except (yaml.YAMLError, RecursionError):  # nested deeper than the parser goes
                loaded = None
            if isinstance(loaded, dict):
                meta = loaded
                body = rest.split("\n", 1)[1] if "\n" in rest else ""
    nested = meta.get("metadata")
    kind = meta.get("type", nested.get("type") if isinstance(nested, dict) else None)

    def text_of(value: Any) -> str | None:
        return str(value).strip() if isinstance(value, str | int | float) else None

    name = text_of(meta.get("name")) or stem
    return {
        "name": name,
        "title": text_of(meta.get("title")) or name,
        "description": text_of(meta.get("description")) or "",
        "type": text_of(kind),
        "body": body.strip("\n"),
    }


def _escalate(decision: GateDecision, code: str, message: str) -> GateDecision:
    from context_center.engine.gate.decision import GateReason, Outcome

    reasons = [*decision.reasons, GateReason(code=code, message=message)]
    return decision.model_copy(update={"outcome": Outcome.QUEUED, "reasons": reasons})


def _refusal(code: str, message: str, label: str) -> dict[str, Any]:
    return {
        "outcome": "refused",
        "operation": "create",
        "file": label,
        "reasons": [{"code": code, "message": message}],
    }


def route(
    engine: Any,
    tool_name: str,
    tool_input: Mapping[str, Any],
    target: tuple[Path, Path],
    caller: AgentCaller,
) -> dict[str, Any]:
    """Ask the gate about the write and act on it; the result names the file as
    ``memory/<file>``, never by its path."""
    from context_center.engine.gate.decision import Controller, Outcome, evaluate

    path, folder = target
    label = _label(path, folder)
    if path.name.lower() == INDEX_FILE.lower() and path.parent == folder:
        return _refusal(
            MEMORY_INDEX,
            "MEMORY.md is Claude Code's index of this folder; Context Center gives each session "
            "the memory index itself, so the index is not written",
            label,
        )
    if not Path(os.path.realpath(path)).is_relative_to(os.path.realpath(folder)):
        # A symbolic link inside the folder (to a subfolder or a file) leads elsewhere, e.g.
        # into Context Center's own store: nothing is read or written through it.
        return _refusal(
            OUTSIDE_FOLDER,
            "the file leads outside Claude Code's auto-memory folder through a symbolic link; "
            "nothing is written there",
            label,
        )
    exists = os.path.lexists(path)
    text = new_text(tool_name, tool_input, path)
    if text is None:
        return _refusal(EDIT_NOT_APPLICABLE, "the edit cannot be applied to the file", label)
    fields = read_memory_text(text, path.stem)
    request = {"operation": "create", "scope": "project", **fields, **caller.gate_fields()}
    decision = evaluate(request, engine.memory)
    if decision.outcome is Outcome.APPLIED and exists:
        decision = _escalate(
            decision,
            CLAUDE_MEMORY_EDIT,
            "the write changes a file already in Claude Code's auto-memory folder; only a new "
            "file is saved without a person",
        )
    queue = engine.approvals
    result: dict[str, Any] = {"operation": "create", "file": label}
    if decision.outcome is Outcome.APPLIED:
        from context_center.engine.gate.decision import apply_low_risk

        decision = apply_low_risk(decision, engine.memory)
        if decision.fact is not None:
            result["ref"] = decision.fact.ref
            result["id"] = decision.fact.id
    elif decision.outcome is Outcome.QUEUED and decision.proposal is not None:
        record = queue.enqueue(
            proposal=decision.proposal,
            agent=decision.agent,
            controller=Controller(decision.controller),
            workspace=engine.workspace,
            reasons=decision.reasons,
        )
        result["pending_id"] = record.id
    if decision.outcome is not Outcome.QUEUED:
        try:
            queue.audit_gate(decision, workspace=engine.workspace)
        except (EngineError, OSError) as exc:  # the outcome stands, as in the gate itself
            log.warning("could not record the gate's outcome in the audit log: %s", exc)
    result["outcome"] = decision.outcome.value
    result.setdefault("reasons", [r.model_dump() for r in decision.reasons])
    return result
