"""Suggestions and the history log on the command line.

* ``suggestions [--claude-root DIR] [--codex-root DIR]``: scan (writes nothing) and list memory
  and skill candidates with their evidence, per-source counts and skipped malformed lines;
* ``suggestions accept ID [--edited FILE]``: apply a candidate as the person's explicit action;
  FILE (``-`` for stdin) is a JSON object of fields to change (name, title, description, type,
  scope, body; for skills name, description, steps, body) or Markdown with those fields in YAML
  front matter and the body below it;
* ``suggestions dismiss ID``: never propose it again;
  ``--claude-root`` / ``--codex-root`` may be written before or after the action;
* ``history append TEXT [--session ID]``: log one user turn for this workspace (``-`` reads the
  text from stdin), so any agent or script can feed suggestions.

Claude Code and Codex CLI data are read from ``--claude-root`` / ``--codex-root``, else
``$CLAUDE_CONFIG_DIR`` / ``$CODEX_HOME``, else ``~/.claude`` / ``~/.codex``.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import frontmatter
from pydantic import ValidationError

from context_center.cli.common import (
    Output,
    add_command,
    json_object_arg,
    json_parent,
    read_text_arg,
    text_arg,
)
from context_center.engine import (
    CandidateEdit,
    Engine,
    InvalidRequest,
    MemoryCandidate,
    ScanResult,
    SkillCandidate,
    default_roots,
    format_time,
    remote_reason,
)


def _roots(args: argparse.Namespace) -> dict[str, Path]:
    claude, codex = default_roots()
    given_claude = getattr(args, "claude_root", None)
    given_codex = getattr(args, "codex_root", None)
    return {
        "claude_root": Path(given_claude).expanduser() if given_claude else claude,
        "codex_root": Path(given_codex).expanduser() if given_codex else codex,
    }


def run_scan(args: argparse.Namespace, engine: Engine) -> ScanResult:
    """Scan with the active facts and loaded instruction bodies; nothing is written (no store
    cache either), and a remote workspace reads no local memory at all."""
    roots = _roots(args)
    return engine.scan_suggestions(claude_root=roots["claude_root"], codex_root=roots["codex_root"])


def _evidence_lines(candidate: MemoryCandidate | SkillCandidate) -> list[str]:
    lines = []
    for e in candidate.evidence:
        quote = e.quote if len(e.quote) <= 100 else e.quote[:99] + "…"
        lines.append(f"      {e.source} {e.session} {e.time or '-'}: “{quote}”")
    return lines


def render_scan(result: ScanResult) -> str:
    if not result.available:
        return f"no suggestions: {result.explanation}"
    lines: list[str] = []
    lines.append(
        f"memory candidates ({len(result.memories)}):"
        if result.memories
        else "no memory candidates"
    )
    for m in result.memories:
        lines.append(f"  {m.id}  {m.type.value:<9} {m.scope.value:<7} {m.name}")
        lines.append(f"      {m.title}")
        if m.redacted:
            lines.append(f"      (taken out: {', '.join(m.redacted)})")
        lines.extend(_evidence_lines(m))
    lines.append(
        f"skill candidates ({len(result.skills)}):" if result.skills else "no skill candidates"
    )
    for s in result.skills:
        lines.append(
            f"  {s.id}  {s.name}  ({s.turns} requests in {s.sessions} sessions) -> {s.path}"
        )
        lines.extend(f"      {i}. {step}" for i, step in enumerate(s.steps, 1))
        lines.extend(_evidence_lines(s))
    lines.append(
        f"scanned {result.turns_scanned} turns in {result.sessions_scanned} sessions "
        f"(the last {result.session_limit})"
    )
    for src in result.sources:
        extra = f", {src.malformed} malformed line(s) skipped" if src.malformed else ""
        if src.agent_sessions:
            extra += f", {src.agent_sessions} session(s) an agent started not read"
        note = f" ({src.note})" if src.note and src.status != "ok" else ""
        lines.append(
            f"  {src.source:<8} {src.status}: {src.sessions} sessions, {src.turns} turns{extra}{note}"
        )
    lines.extend(f"note: {n}" for n in result.notes)
    lines.append("accept with: context-center suggestions accept ID; dismiss with: … dismiss ID")
    return "\n".join(lines)


def cmd_suggestions(args: argparse.Namespace, engine: Engine) -> Output:
    result = run_scan(args, engine)
    return Output(result.public_dict(), render_scan(result))


def _read_edit(value: str | None) -> CandidateEdit | None:
    if value is None:
        return None
    raw = read_text_arg(value)
    fields: dict[str, Any]
    if raw.lstrip().startswith("{"):
        fields = json_object_arg(raw, "--edited", "--edited must hold a JSON object")
    else:
        try:
            post = frontmatter.loads(raw)
        except Exception as exc:  # yaml errors come in several types
            raise InvalidRequest(f"--edited has unreadable front matter: {exc}") from exc
        fields = dict(post.metadata)
        if post.content.strip():
            fields["body"] = post.content
    try:
        return CandidateEdit.model_validate(fields)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(p) for p in err['loc']) or 'edit'}: {err['msg']}"
            for err in exc.errors()
        )
        raise InvalidRequest(f"--edited: {problems}") from exc


def cmd_accept(args: argparse.Namespace, engine: Engine) -> Output:
    edit = _read_edit(args.edited)
    if not remote_reason(engine.workspace):
        engine.open(migrate=True)
    done = engine.accept_suggestion(args.id, edit, **_roots(args))
    result = done.value
    data = {"action": "accepted"} | result.model_dump(mode="json") | {"changes": done.to_json()}
    where = result.path if result.kind == "skill" else result.ref
    return Output(data, f"accepted {result.id}: wrote {where}")


def cmd_dismiss(args: argparse.Namespace, engine: Engine) -> Output:
    done = engine.dismiss_suggestion(args.id, **_roots(args))
    decision = done.value
    shown = decision.model_dump(mode="json", exclude={"statement"})
    data = {"action": "dismissed"} | shown | {"changes": done.to_json()}
    return Output(data, f"dismissed {decision.id}; it will not be proposed again")


def cmd_index(args: argparse.Namespace, engine: Engine) -> Output:
    added = engine.index_fact_phrases(**_roots(args))
    text = f"phrase index: {added} facts added" if added else "phrase index: nothing to add"
    return Output({"action": "indexed", "facts_added": added}, text)


def cmd_history_append(args: argparse.Namespace, engine: Engine) -> Output:
    text = read_text_arg("-").rstrip("\n") if args.text == "-" else text_arg(args.text, "TEXT")
    # the log is JSON in UTF-8 and each line names the workspace: a path that is not UTF-8
    # cannot be written there
    text_arg(str(engine.workspace), "the workspace path")
    entry = engine.append_history(text, session=args.session).value
    # No storage path here: the README keeps those to `memory archived` / `forget`.
    data = {
        "action": "appended",
        "entry": {
            "v": entry.v,
            "session": entry.session,
            "time": format_time(entry.time),
            "role": entry.role,
            "text": entry.text,
            "cwd": entry.cwd,
        },
    }
    return Output(data, f"logged one turn in session {entry.session}")


def _add_roots(parser: argparse.ArgumentParser, *, action: bool = False) -> None:
    """``--claude-root`` / ``--codex-root``. The copies on ``accept`` / ``dismiss`` default to
    SUPPRESS: argparse applies a sub-parser's defaults over the namespace its parent filled, so
    a plain ``None`` default there would erase roots given before the action."""
    extra: dict[str, Any] = {"default": argparse.SUPPRESS} if action else {}
    parser.add_argument(
        "--claude-root",
        metavar="DIR",
        help="Claude Code's data folder (default ~/.claude)",
        **extra,
    )
    parser.add_argument(
        "--codex-root",
        metavar="DIR",
        help="Codex CLI's data folder (default ~/.codex)",
        **extra,
    )


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers,
        "suggestions",
        cmd_suggestions,
        "memory and skill candidates mined from recent sessions (scanning writes nothing)",
    )
    _add_roots(p)
    actions = p.add_subparsers(dest="suggestions_command", metavar="ACTION")
    a = add_command(actions, "accept", cmd_accept, "apply a candidate as your explicit action")
    a.add_argument("id")
    a.add_argument(
        "--edited",
        metavar="FILE",
        help="fields to change first: a JSON object or Markdown with front matter ('-' for stdin)",
    )
    _add_roots(a, action=True)
    d = add_command(actions, "dismiss", cmd_dismiss, "never propose this candidate again")
    d.add_argument("id")
    _add_roots(d, action=True)
    i = add_command(
        actions,
        "index",
        cmd_index,
        "bring the phrase index scans read up to date (maintenance; the window runs it)",
    )
    _add_roots(i, action=True)

    h = subparsers.add_parser(
        "history", help="this workspace's own session log", parents=[json_parent()]
    )
    hist = h.add_subparsers(dest="history_command", metavar="ACTION", required=True)
    ap = add_command(hist, "append", cmd_history_append, "log one user turn ('-' reads stdin)")
    ap.add_argument("text", help="the turn as typed, or '-' to read it from stdin")
    ap.add_argument(
        "--session",
        metavar="ID",
        help="the session it belongs to (default: $CONTEXT_CENTER_SESSION, else one per day)",
    )
