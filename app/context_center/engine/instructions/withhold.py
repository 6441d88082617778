"""Secrets in instruction text never reach a model: each span is withheld with a marker.

Instruction files are scanned with the write gate's rules (``gate.secrets.find_sensitive``), so
``@.env`` imported into ``AGENTS.md`` puts ``[withheld: …]`` into the agent's text instead of
the password, and the resolution carries an ``instruction_secret_withheld`` diagnostic naming
the file and line. E-mail addresses are left as written: instruction files name maintainers
and commit trailers on purpose (``Co-Authored-By: … <noreply@…>``), and an address is not a
credential.
"""

from __future__ import annotations

from dataclasses import dataclass

KEPT_KINDS = frozenset({"email"})
MARKER = "[withheld: {label}]"


@dataclass(frozen=True)
class Finding:
    line: int  # 1-based
    kind: str
    label: str


def withhold(text: str) -> tuple[str, tuple[Finding, ...]]:
    """``text`` with every sensitive span replaced by a marker, and what was withheld."""
    if not text:
        return text, ()
    from context_center.engine.gate.secrets import find_sensitive  # the gate's own rules

    spans = [s for s in find_sensitive(text) if s.kind not in KEPT_KINDS]
    if not spans:
        return text, ()
    parts: list[str] = []
    findings: list[Finding] = []
    cursor = 0
    for span in spans:  # sorted by start, longest first at one start
        if span.start < cursor:  # overlaps the span just withheld: widen it
            cursor = max(cursor, span.end)
            continue
        parts.append(text[cursor : span.start])
        parts.append(MARKER.format(label=span.label))
        findings.append(Finding(text.count("\n", 0, span.start) + 1, span.kind, span.label))
        cursor = span.end
    parts.append(text[cursor:])
    return "".join(parts), tuple(findings)
