"""Pasted material is not a statement.

A person often pastes what they are talking about: a fenced code block, a traceback or stack
trace, a file's contents. Such a turn may well contain "always" or "never" (in a comment, a log
line, a README), but it is not the person stating a rule. So:

* a turn that starts like a pasted file (a Markdown heading, or YAML front matter, followed by
  more lines) is pasted as a whole;
* otherwise the pasted spans are the fenced blocks (```` ``` ```` or ``~~~``; an opening fence
  with no closing one runs to the end of the turn), and outside them the tracebacks and stack
  traces: a header (``Traceback (most recent call last):``, ``Exception in thread …``,
  ``thread '…' panicked at``, ``goroutine N [running]:``) with the frame and indented lines
  after it and the closing exception line, or two or more frame lines in a row; and single
  lines that are somebody else's words or a program's output: a ``>`` quote, a log line led by
  a timestamp or a level (``2026-01-10 12:00:01 WARN …``, ``ERROR: …``), a shell prompt
  (``$ pytest -q``), a test runner's outcome line (``FAILED tests/a.py::t``), a compiler's
  ``--> file:line``;
* a turn is *mostly pasted* when the pasted spans hold at least half of its non-space
  characters: it yields no candidate. In any other turn, a marker inside a pasted span never
  counts (``without_pasted`` blanks those spans).
"""

from __future__ import annotations

import re

PASTED_SHARE = 0.5

_FENCE_RE = re.compile(r"```|~~~")
_HEADING_RE = re.compile(r"^#{1,6}[ \t]+\S")
_SETEXT_RE = re.compile(r"^(?:=+|-+)[ \t]*$")
_FRONT_KEY_RE = re.compile(r"^[A-Za-z_][\w-]*:")
_TRACE_HEAD_RE = re.compile(
    r"Traceback \(most recent call last\):|Exception in thread \"|^\s*thread '.*' panicked at"
    r"|^goroutine \d+ \[|^\s*Caused by: "
)
_FRAME_RE = re.compile(
    r"^\s*File \".*\", line \d+"  # Python
    r"|^\s+at .+[(:]\S*\d+\)?\s*$"  # JavaScript, Java, C#
    r"|^\s*\d+: (?:0x[0-9a-f]+ - )?\S+::"  # Rust backtrace
    r"|^\s+\S+\.go:\d+"  # Go
)
_EXCEPTION_LINE_RE = re.compile(r"^[\w.$]+(?:Error|Exception|Warning|Exit|Interrupt)\b")
# A line that is somebody else's words or a program's output, pasted on its own: a quote
# (``> …``), a log line led by a timestamp or a level, a shell prompt, a test runner's outcome
# line, a compiler's location arrow.
_FOREIGN_LINE_RE = re.compile(
    r"^\s*>"
    r"|^\s*\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}"
    r"|^\s*\[?(?i:trace|debug|info|warn|warning|error|fatal|critical)\b(?:\[\w+\])?[\]:]?\s"
    r"|^\s*[$#] \S"
    r"|^(?:FAILED|ERROR|PASSED|XFAIL|XPASS) \S+::"
    r"|^\s*--> \S+:\d+"
)
_HINTS = ("```", "~~~", "\n", "Traceback", "Exception in thread", ">")


def _weight(text: str) -> int:
    return sum(1 for ch in text if not ch.isspace())


def looks_like_a_file(text: str) -> bool:
    """A Markdown heading or YAML front matter first, with more lines after it."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) < 2:
        return False
    first = lines[0].strip()
    if _HEADING_RE.match(first):
        return True
    if first == "---" and _FRONT_KEY_RE.match(lines[1].strip()):
        return True
    raw = text.strip().splitlines()
    return len(lines) > 2 and len(raw) > 1 and bool(_SETEXT_RE.match(raw[1].strip()))


def _fenced(text: str) -> list[tuple[int, int]]:
    spans = []
    marks = [m.start() for m in _FENCE_RE.finditer(text)]
    for i in range(0, len(marks), 2):
        end = marks[i + 1] + 3 if i + 1 < len(marks) else len(text)
        spans.append((marks[i], end))
    return spans


def _trace_spans(text: str, fenced: list[tuple[int, int]]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    run: list[tuple[int, int]] = []  # frame lines in a row outside a header-started trace
    in_trace = False
    offset = 0

    def close_run() -> None:
        if len(run) >= 2:  # a lone frame-like line is no trace
            spans.extend(run)
        run.clear()

    for line in text.splitlines(keepends=True):
        start, offset = offset, offset + len(line)
        if any(a <= start < b for a, b in fenced):
            in_trace = False
            close_run()
            continue
        head = _TRACE_HEAD_RE.search(line)
        if head:
            close_run()
            in_trace = True
            spans.append((start + head.start(), offset))
            continue
        if in_trace:
            if line.strip() and (line[:1].isspace() or _FRAME_RE.match(line)):
                spans.append((start, offset))
                continue
            in_trace = False
            if _EXCEPTION_LINE_RE.match(line):
                spans.append((start, offset))
                continue
        if _FRAME_RE.match(line):
            run.append((start, offset))
        else:
            close_run()
            if _FOREIGN_LINE_RE.match(line):
                spans.append((start, offset))
    close_run()
    return spans


def pasted_spans(text: str) -> list[tuple[int, int]]:
    """The (start, end) spans of ``text`` that were pasted, in order."""
    if not any(hint in text for hint in _HINTS):
        return []
    if looks_like_a_file(text):
        return [(0, len(text))]
    fenced = _fenced(text)
    return sorted(fenced + _trace_spans(text, fenced))


def mostly_pasted(text: str, spans: list[tuple[int, int]] | None = None) -> bool:
    spans = pasted_spans(text) if spans is None else spans
    if not spans:
        return False
    total = _weight(text)
    pasted = _weight("".join(text[a:b] for a, b in spans))
    return total > 0 and pasted >= total * PASTED_SHARE


def without_pasted(text: str, spans: list[tuple[int, int]], mark: str = "\n") -> str:
    """``text`` with each pasted span replaced by ``mark`` (a break no sentence runs across)."""
    out: list[str] = []
    last = 0
    for a, b in spans:
        if a >= last:
            out.append(text[last:a])
            out.append(mark)
            last = b
        else:
            last = max(last, b)
    out.append(text[last:])
    return "".join(out)
