"""Sensitive-content detection for the write gate, the window's highlighting and every
provider-visible text.

``find_sensitive(text)`` returns every credential, secret, private key or email address found,
as spans into the ORIGINAL text; ``is_sensitive(text)`` says whether there is any.

The pieces, one module each:

- ``kinds`` — ``SensitiveSpan`` and the stable kind codes with their labels;
- ``normalise`` — the matching copy (NFKC, invisible characters dropped, look-alike letters
  folded) and the offset map back to the original (``View``);
- ``plugins`` — the detect-secrets patterns in use, and why the others are not;
- ``values`` — whether a key names a credential and whether its value is one;
- ``assignments`` — ``KEY=value``, headers, Chinese keys, XML;
- ``tokens`` — service tokens by shape, JWTs, private keys, URLs with passwords, email;
- ``statements`` — secrets said in a sentence (English and Chinese), on a command line, or in
  a ``.pgpass``/``.netrc`` line;
- ``obfuscation`` — URL-encoded, base64, hex and split-across-lines secrets.

Linear time. Every pattern is written so that a match attempt can start only at the beginning of
a run (a negative look-behind on the run's own character class, or a literal prefix), and every
unbounded repeat is possessive (``++``/``*+``, Python 3.11), so an attempt never backtracks and
each character is examined a bounded number of times; the decoders visit each run once.
``bench/bench_secrets.py`` measures 100 KB against 1 MB adversarial inputs and prints the
labelled corpus figures; ``tests/engine/test_secrets.py`` checks the pattern structure.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from context_center.engine.gate.secrets import (
    assignments,
    obfuscation,
    prefilter,
    statements,
    tokens,
)
from context_center.engine.gate.secrets import values as _values
from context_center.engine.gate.secrets.kinds import KINDS, SensitiveSpan
from context_center.engine.gate.secrets.normalise import (
    DEFAULT_IGNORABLE_RANGES,
    base_view,
    is_default_ignorable,
    normalise_for_matching,
    without_controls,
)
from context_center.engine.gate.secrets.plugins import plugin_patterns

__all__ = [
    "ANCHORED_PATTERNS",
    "BOUNDED_PATTERNS",
    "DEFAULT_IGNORABLE_RANGES",
    "KINDS",
    "OWN_PATTERNS",
    "SCANNING_PATTERNS",
    "SensitiveSpan",
    "find_sensitive",
    "is_default_ignorable",
    "is_sensitive",
    "normalise_for_matching",
    "plugin_patterns",
]

Raw = tuple[str, int, int]

# Every pattern written here; tests/engine/test_secrets.py walks their structure. Scanning
# patterns are searched for anywhere (each must start at a run boundary or a literal); anchored
# ones only ever match at a given position or inside a bounded window.
SCANNING_PATTERNS: tuple[re.Pattern[str], ...] = (
    *assignments.SCANNING,
    *tokens.SCANNING,
    *statements.SCANNING,
    *obfuscation.SCANNING,
)
ANCHORED_PATTERNS: tuple[re.Pattern[str], ...] = (
    *_values.ANCHORED,
    *assignments.ANCHORED,
    *tokens.ANCHORED,
    *statements.ANCHORED,
    *obfuscation.ANCHORED,
)
# The pre-checks (``prefilter``): each searched anywhere, each of a bounded width.
BOUNDED_PATTERNS: tuple[re.Pattern[str], ...] = prefilter.PATTERNS
OWN_PATTERNS = SCANNING_PATTERNS + ANCHORED_PATTERNS + BOUNDED_PATTERNS

_DETECTORS = (
    tokens.private_keys,
    assignments.assignments,
    tokens.bearer_and_jwt,
    tokens.service_tokens,
    tokens.urls,
    tokens.emails,
    statements.statements,
    statements.commands,
    statements.credential_files,
)


def _everything(text: str) -> Iterator[Raw]:
    for detector in _DETECTORS:
        yield from detector(text)


def find_sensitive(text: str) -> list[SensitiveSpan]:
    """Every sensitive span in ``text``, sorted by position; offsets are into ``text``.

    Spans of different kinds may overlap (``Authorization: Bearer eyJ…`` is a header, a
    bearer token and a JWT); each (kind, start, end) appears once.
    """
    if not text:
        return []
    base = without_controls(base_view(text))
    if not prefilter.may_hold(base.text):
        return []  # the common case: nothing a detector or decoder needs is there
    found: set[tuple[str, int, int]] = set()
    for kind, start, end in _everything(base.text):
        if end > start:
            found.add((kind, *base.span(start, end)))
    ends: dict[tuple[str, int], int] = {}  # the longest base-view finding of each kind and start
    for kind, start, end in found:
        ends[kind, start] = max(end, ends.get((kind, start), end))
    for view, (kind, start, end) in obfuscation.hidden(base, _everything, tokens.service_tokens):
        if end > start:
            span = view.span(start, end)
            if not _next_line_word(text, ends.get((kind, span[0])), span[1]):
                found.add((kind, *span))
    return [
        SensitiveSpan(kind=kind, start=start, end=end, label=KINDS[kind])
        for kind, start, end in sorted(found, key=lambda f: (f[1], -f[2], f[0]))
    ]


# What follows a line break when a joined token only glued the next line's first word on.
_PROSE_WORD = re.compile(r"\r?\n[ \t]*+[A-Z]?[a-z]++")


def _next_line_word(text: str, whole_end: int | None, end: int) -> bool:
    """Whether a joined finding ending at ``end`` is a token the base view already found whole
    on its own line (ending at ``whole_end``) plus the next line's first word (``token: ghp_…``
    then ``Never commit it.``): withholding that too would take the line break and the word out
    of the text. A continuation that looks like a token (digits, mixed case) is still taken as
    the rest of a wrapped secret."""
    return (
        whole_end is not None
        and whole_end < end
        and _PROSE_WORD.fullmatch(text, whole_end, end) is not None
    )


def is_sensitive(text: str) -> bool:
    """Whether ``text`` contains anything ``find_sensitive`` reports."""
    return bool(find_sensitive(text))
