"""`context-center approvals …`: review and decide the writes agents queued.

``approve`` is a person's act: it runs only when standard input AND standard output are an
interactive terminal, shows the item, and applies it only after the person types ``yes``.
Without a terminal it refuses — so an agent's non-interactive shell call cannot approve its
own write. There is deliberately no flag, environment variable or mode that skips this.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from typing import Any

from context_center.cli.common import (
    Output,
    add_command,
    json_object_arg,
    json_parent,
    read_text_arg,
)
from context_center.engine import (
    ApprovalRecord,
    ApprovalRefused,
    Engine,
    InvalidRequest,
    Operation,
    ProposedContent,
    Status,
    final_content,
)

CONFIRM_WORD = "yes"


def safe_text(text: str) -> str:
    """Make agent-supplied text harmless on a terminal: control and format characters (escape
    sequences, bidi overrides, zero-width characters) are shown as ``\\uXXXX``."""
    out = []
    for ch in text:
        if ch in "\n\t":
            out.append(ch)
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn") or ch in "\u2028\u2029":
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def _summary_line(record: ApprovalRecord) -> str:
    what = record.target_ref or f"{record.content.fact_scope.value}/{record.content.name}.md"
    codes = ", ".join(r.code for r in record.reasons) or "-"
    return safe_text(
        f"{record.id}  {record.operation.value:<6} {what}  by {record.agent} ({record.controller.value})  [{codes}]"
    )


def _content_lines(record: ApprovalRecord, content: ProposedContent) -> list[str]:
    if record.operation is Operation.CREATE:
        fact_type = (
            content.type.value if content.type else f"{content.fact_type.value} (type not given)"
        )
        return [
            f"name:        {content.fact_scope.value}/{content.name}.md",
            f"title:       {content.title or ''}",
            f"description: {content.description or ''}",
            f"type:        {fact_type}",
            "",
            "----- body -----",
            content.body or "",
            "----- end -----",
        ]
    if record.operation is Operation.UPDATE:
        lines = ["changes:"]
        for key, value in content.given().items():
            if key != "body":
                lines.append(f"  {key}: {value}")
        if content.has("body"):
            lines += ["----- new body -----", str(content.body), "----- end -----"]
        return lines
    return [f"forget {record.target_ref}: it moves to the archive (recoverable)"]


def render_record(record: ApprovalRecord, final: ProposedContent | None = None) -> str:
    content = final if final is not None else record.content
    lines = [
        f"item:        {record.id} ({record.status.value})",
        f"queued:      {record.created_at}",
        f"agent:       {record.agent} ({record.controller.value})",
        f"workspace:   {record.workspace}",
        f"operation:   {record.operation.value}",
    ]
    if record.target_ref:
        lines.append(
            f"target:      {record.target_ref} ({record.target_id}) at revision {record.expected_revision}"
        )
    lines.append("reasons:")
    lines.extend(f"  - {r.code}: {r.message}" for r in record.reasons)
    lines += _content_lines(record, content)
    if record.decision is not None:
        d = record.decision
        lines.append(
            f"decision:    {d.status.value} at {d.decided_at}"
            + (f" — {d.reason}" if d.reason else "")
        )
        if d.edited:
            lines.append("             (edited before approval)")
    return safe_text("\n".join(lines))


def cmd_list(args: argparse.Namespace, engine: Engine) -> Output:
    status = Status(args.status)
    records = engine.approval_records(status, this_workspace=args.this_workspace)
    data = {"status": status.value, "items": [r.summary() for r in records]}
    text = "\n".join(_summary_line(r) for r in records) or f"(no {status.value} items)"
    return Output(data, text)


def cmd_show(args: argparse.Namespace, engine: Engine) -> Output:
    record = engine.approval(args.id)
    return Output({"item": record.public_dict()}, render_record(record))


def _read_edited(value: str | None) -> dict[str, Any] | None:
    if value is None:
        return None
    if value == "-":
        raise InvalidRequest(
            "--edited needs a file: standard input is where you confirm the approval"
        )
    return json_object_arg(
        read_text_arg(value), "--edited", "--edited must be a JSON object of the fields to change"
    )


def require_terminal() -> None:
    """Refuse unless a person sits at an interactive terminal (stdin and stdout are TTYs)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise ApprovalRefused(
            "approving a memory write needs a person at an interactive terminal (or the Context "
            "Center window); standard input and output are not a terminal, so nothing was approved"
        )


def cmd_approve(args: argparse.Namespace, engine: Engine) -> Output:
    require_terminal()
    record = engine.approval(args.id)
    if record.status is not Status.PENDING:
        raise ApprovalRefused(
            f"approval item {record.id} was already {record.status.value}", code="already_decided"
        )
    edited = _read_edited(args.edited)
    final = final_content(record, edited) if edited else None  # checks the edit before asking
    # The review and the question go to the terminal; with --json they use stderr (also the
    # terminal) so that stdout carries only the JSON result.
    screen = sys.stderr if getattr(args, "json_out", False) else sys.stdout
    screen.write(render_record(record, final) + "\n")
    if edited:
        screen.write("(this is your edited version; it is what will be written)\n")
    screen.write(f"Type '{CONFIRM_WORD}' to approve this write: ")
    screen.flush()
    answer = sys.stdin.readline()
    if answer.strip() != CONFIRM_WORD:
        raise ApprovalRefused(
            "not approved: the confirmation was not given; the item stays pending",
            code="approval_cancelled",
        )
    changes = engine.approve(record.id, edited, expected_sha256=record.content_sha256)
    result = changes.value
    done = result.record
    data: dict[str, Any] = {"action": "approved", "item": done.summary()}
    if done.decision is not None:
        data["edited"] = done.decision.edited
        data["result"] = done.decision.result
    data["changes"] = changes.to_json()
    if result.fact is not None:
        text = f"approved {done.id}: {result.fact.ref} is now at revision {result.fact.revision}"
    else:
        text = f"approved {done.id}: forgot {done.target_ref}"
    return Output(data, text)


def cmd_reject(args: argparse.Namespace, engine: Engine) -> Output:
    changes = engine.reject(args.id, args.reason)
    record = changes.value
    return Output(
        {
            "action": "rejected",
            "item": record.summary(),
            "reason": args.reason,
            "changes": changes.to_json(),
        },
        f"rejected {record.id}",
    )


def register(subparsers: Any) -> None:
    approvals = subparsers.add_parser(
        "approvals",
        parents=[json_parent()],
        help="memory writes agents queued for a person",
        description="Review and decide the memory writes agents queued. Approving needs an "
        "interactive terminal and a typed confirmation.",
    )
    sub = approvals.add_subparsers(dest="approvals_command", metavar="SUBCOMMAND", required=True)

    p = add_command(sub, "list", cmd_list, "queued items (pending by default), oldest first")
    p.add_argument("--status", choices=[s.value for s in Status], default=Status.PENDING.value)
    p.add_argument(
        "--this-workspace", action="store_true", help="only items for the current workspace"
    )

    p = add_command(sub, "show", cmd_show, "one item with its full proposed content")
    p.add_argument("id")

    p = add_command(
        sub,
        "approve",
        cmd_approve,
        "show an item and apply it after you type 'yes' (interactive terminal only)",
    )
    p.add_argument("id")
    p.add_argument(
        "--edited", metavar="FILE", help="a JSON object of fields to change before approving"
    )

    p = add_command(sub, "reject", cmd_reject, "reject an item, keeping a record")
    p.add_argument("id")
    p.add_argument("--reason", metavar="TEXT")
