"""`context-center recall`, `memory recall` and `memory search`: auto-recall from the command line.

* ``recall "MESSAGE"`` runs recall for one turn over both stores, prints the block and the
  trace, and persists the trace (as a real turn would).
* ``memory recall`` shows the last persisted trace of this workspace.
* ``memory search QUERY`` is the read-only memory tool's search: same ranking, no
  distinctive-match gate, no budget, nothing suppressed; archived facts are never searched.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from context_center.cli.common import Output, add_command, pad, read_text_arg, text_arg
from context_center.engine import (
    DEFAULT_MAX_CHARS,
    DEFAULT_MAX_FACTS,
    MAX_MAX_FACTS,
    MIN_MAX_CHARS,
    Engine,
    FactType,
    Scope,
    escape_controls,
)

if TYPE_CHECKING:
    from context_center.engine import RecallTrace

TYPES = [t.value for t in FactType]
SCOPES = [s.value for s in Scope]


def trace_text(trace: RecallTrace) -> str:
    """A person's rendering of a trace (the JSON form is ``trace.model_dump(mode="json")``)."""
    lines = [
        trace.summary(),
        f"query:   {trace.query}",
        f"terms:   {', '.join(trace.terms) or '-'}",
        f"budget:  {trace.chars_used}/{trace.char_budget} characters, at most {trace.max_facts} "
        f"facts; {trace.candidates} distinctive match(es), {trace.omitted} omitted",
    ]
    if trace.selected:
        lines.append("selected:")
        for s in trace.selected:
            short = ", shortened" if s.shortened else ""
            lines.append(
                f"  {s.ref}  id={s.id} r{s.revision} score={s.score:.3f} {s.freshness.value}"
                f"{short} — {s.reason}"
            )
    if trace.suppressed:
        lines.append("suppressed:")
        for x in trace.suppressed:
            what = f"{x.ref} (score {x.score:.3f})" if x.ref and x.score is not None else "turn"
            lines.append(f"  {x.reason.value:<22} {what}: {x.message}")
        if trace.suppressed_more:
            lines.append(f"  … and {trace.suppressed_more} more")
    return "\n".join(lines)


def positive_int(value: str) -> int:
    """An argparse type: a whole number of at least 1 (0 or less is a usage error, exit 2)."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {value!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def cmd_recall(args: argparse.Namespace, engine: Engine) -> Output:
    # A message piped in ends with a newline that is no part of it.
    if args.message == "-":
        message = read_text_arg("-").rstrip("\r\n")
    else:
        message = text_arg(args.message, "MESSAGE")
    result = engine.recall(message, max_facts=args.max_facts, max_chars=args.max_chars)
    data = {"block": result.block, "trace": result.trace.model_dump(mode="json")}
    text = (result.block + "\n\n" if result.block else "") + trace_text(result.trace)
    return Output(data, escape_controls(text))


def cmd_memory_recall(args: argparse.Namespace, engine: Engine) -> Output:
    trace = engine.last_trace()
    if trace is None:
        return Output({"trace": None}, "no recall has run in this workspace yet")
    return Output({"trace": trace.model_dump(mode="json")}, escape_controls(trace_text(trace)))


def cmd_search(args: argparse.Namespace, engine: Engine) -> Output:
    view = engine.open(persist_cache=True)
    hits = engine.search(
        text_arg(args.query, "QUERY"), scope=args.scope, type=args.type, limit=args.limit, view=view
    )
    data: dict[str, Any] = {"query": args.query, "hits": [h.public_dict() for h in hits]}
    lines = [
        f"{pad(h.fact.ref, 40)} {h.score:7.3f}  {h.freshness.value:<7} {h.fact.display_title}"
        f"  [{', '.join(h.matched)}]"
        for h in hits
    ] or ["(no matching facts)"]
    return Output(data, escape_controls("\n".join(lines)))


def register(subparsers: Any) -> None:
    p = add_command(
        subparsers,
        "recall",
        cmd_recall,
        "run auto-recall for one user message: print the block and its trace (the trace is "
        "kept as the workspace's last recall)",
    )
    p.add_argument("message", metavar="MESSAGE", help="the user message ('-' reads stdin)")
    p.add_argument(
        "--max-facts",
        type=positive_int,
        default=DEFAULT_MAX_FACTS,
        metavar="N",
        help=f"facts in the block (default {DEFAULT_MAX_FACTS}; more than {MAX_MAX_FACTS} "
        f"counts as {MAX_MAX_FACTS})",
    )
    p.add_argument(
        "--max-chars",
        type=positive_int,
        default=DEFAULT_MAX_CHARS,
        metavar="N",
        help=f"characters for the whole block (default {DEFAULT_MAX_CHARS}; less than "
        f"{MIN_MAX_CHARS} counts as {MIN_MAX_CHARS})",
    )


def register_memory(subparsers: Any) -> None:
    add_command(subparsers, "recall", cmd_memory_recall, "the last auto-recall trace")
    p = add_command(
        subparsers,
        "search",
        cmd_search,
        "search active facts (the memory tool's search: BM25, best first, no budget)",
    )
    p.add_argument("query", metavar="QUERY")
    p.add_argument("--scope", choices=SCOPES)
    p.add_argument("--type", choices=TYPES)
    p.add_argument(
        "--limit", type=positive_int, default=20, metavar="N", help="at most N hits (20)"
    )
