"""Decoders for secrets written so that a plain scan misses them.

Each decoder builds a ``View`` on the normalised text and the detectors run on it again; a
finding is reported at the original characters it came from (``View.span``):

- **URL-encoded**: ``%XX`` escapes are decoded (``api_key%3D…``, ``ghp%5F…``); every detector
  runs on the decoded copy.
- **Base64** (standard or URL-safe, 20+ characters) and **hex** (24+ digits, 8+ ``\\xNN``
  escapes, or 12+ bytes separated by spaces or colons): a run that decodes to printable UTF-8
  text is scanned by every detector, and a finding covers the whole encoded run. A run that
  decodes to ``user:password`` alone (docker's ``"auth"``, HTTP Basic) is a credential too.
  Binary (a hash, an image) is not text and is skipped, so a SHA-256 or a logo never counts.
- **Split across lines or strings**: ``"ghp_AbCd" + "EfGh…"``, Python's implicit
  concatenation over two lines, a ``\\`` line continuation, a bare line break between two
  token characters, and a run of single characters spaced out (``g h p _ A 1 …``) are
  joined; only the detectors of service-token shapes run on the joined copy, and only a
  token that crosses a join is reported (the rest was found already).

Look-alike letters and invisible characters are handled by normalisation itself
(``normalise``). Decoding is one level deep: base64 inside base64 is not opened.
"""

from __future__ import annotations

import base64
import binascii
import re
from bisect import bisect_left
from collections.abc import Callable, Iterator

from context_center.engine.gate.secrets import prefilter
from context_center.engine.gate.secrets.assignments import value_runs
from context_center.engine.gate.secrets.kinds import BASIC_CREDENTIALS
from context_center.engine.gate.secrets.lazy import lazy_compile
from context_center.engine.gate.secrets.normalise import (
    View,
    decoded_view,
    edited_text,
    edited_view,
)
from context_center.engine.gate.secrets.values import stated_value

Raw = tuple[str, int, int]
Detector = Callable[[str], Iterator[Raw]]

PERCENT_RUN = lazy_compile(r"(?:%[0-9A-Fa-f]{2})++")
BASE64_RUN = lazy_compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{20,}+={0,2}+")
HEX_RUN = lazy_compile(r"(?<![A-Za-z0-9])(?:[0-9a-fA-F]{2}){12,}+(?![A-Za-z0-9])")
HEX_ESCAPES = lazy_compile(r"(?:\\x[0-9a-fA-F]{2}){8,}+")
# A failed attempt must not restart at the next pair or letter of the same run (that would be
# quadratic), so neither may start right after a lone pair or letter and its separator.
HEX_BYTES = lazy_compile(
    r"(?<![A-Za-z0-9:])(?<!(?<![A-Za-z0-9])[0-9a-fA-F]{2}[ :])"
    r"[0-9a-fA-F]{2}(?:[ :][0-9a-fA-F]{2}){11,}+(?![A-Za-z0-9])"
)
# Eight or more single characters separated by single spaces (``g h p _ A 1 b 2 …``), the last
# one possibly the start of a longer word.
SPACED_LETTERS = lazy_compile(r"(?<![!-~])(?<!(?<![!-~])[!-~] )(?:[!-~] ){7,}+[!-~]?+")
# ``user:password`` as a whole decoded run (what HTTP Basic and docker's config.json hold).
USER_PASSWORD = lazy_compile(r"[^\s:]{1,64}+:(?P<password>[^\s]{4,}+)")
# The first character of each form first (so the search skips to quotes, backslashes and
# line breaks), then the form that character starts, in the order the forms are tried: a
# quote then a line break or ``+`` then a quote (``"ghp_AbCd" + "EfGh…"``, Python's implicit
# concatenation over two lines), a ``\\`` line continuation, a bare line break between two
# token characters.
JOIN = lazy_compile(
    r"[\"'`\\\r\n]"
    r"(?:(?<=[\"'`])(?:[ \t]*+\+?+[ \t]*+\\?+\r?\n[ \t]*+\+?+[ \t]*+[\"'`]|[ \t]*+\+[ \t]*+[\"'`])"
    r"|(?<=\\)\r?\n[ \t]*+"
    r"|(?<=[A-Za-z0-9_\-]\n|[A-Za-z0-9_\-]\r)\n?+[ \t]*+(?=[A-Za-z0-9_\-]))"
)
_RUN = lazy_compile(r"\S++")
ANCHORED = (PERCENT_RUN, HEX_ESCAPES, JOIN, USER_PASSWORD, _RUN)
SCANNING = (BASE64_RUN, HEX_RUN, HEX_BYTES, SPACED_LETTERS)

_PRINTABLE_CONTROLS = frozenset("\n\r\t")


def _is_text(data: bytes) -> str | None:
    try:
        decoded = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not decoded.strip() or any(
        not c.isprintable() and c not in _PRINTABLE_CONTROLS for c in decoded
    ):
        return None
    return decoded


def percent_decoded(base: View) -> View | None:
    text = base.text
    if "%" not in text:
        return None
    edits: list[tuple[int, int, str]] = []
    for m in PERCENT_RUN.finditer(text):
        data = bytes.fromhex(m.group().replace("%", ""))
        if data.isascii():  # one character per escape, each mapped to its own three
            edits.extend(
                (m.start() + 3 * i, m.start() + 3 * i + 3, chr(b)) for i, b in enumerate(data)
            )
        else:
            decoded = data.decode("utf-8", errors="replace")
            edits.append((m.start(), m.end(), decoded))
    return edited_view(base, edits) if edits else None


def _decode_base64(run: str) -> bytes | None:
    body = run.rstrip("=")
    urlsafe = "-" in body or "_" in body
    if urlsafe and ("+" in body or "/" in body):
        return None
    padded = body + "=" * (-len(body) % 4)
    try:
        if urlsafe:
            return base64.urlsafe_b64decode(padded)
        return base64.b64decode(padded, validate=True)
    except (binascii.Error, ValueError):
        return None


def _hex_escapes(run: str) -> bytes:
    return bytes.fromhex(run.replace("\\x", ""))


def _hex_bytes(run: str) -> bytes:
    return bytes.fromhex(run.replace(":", " "))


def decoded_runs(base: View) -> Iterator[View]:
    """A view for each base64 or hex run of ``base`` that decodes to text."""
    text = base.text
    # HEX_RUN and BASE64_RUN match only inside a value run (their characters are value
    # characters, and a run is whole: the character after it is none, so an end look-ahead
    # answers the same as in the whole text); the others anywhere.
    runs = value_runs(text)
    whole = ((0, len(text)),)
    for pattern, decode, spans in (
        (HEX_RUN, bytes.fromhex, runs),
        (HEX_ESCAPES, _hex_escapes, whole if "\\x" in text else ()),  # each starts so
        (HEX_BYTES, _hex_bytes, whole if prefilter.may_hex_bytes(text) else ()),
        (BASE64_RUN, _decode_base64, runs),
    ):
        for start, end in spans:
            yield from _decoded(base, pattern, decode, start, end)


def _decoded(
    base: View,
    pattern: re.Pattern[str],
    decode: Callable[[str], bytes | None],
    start: int,
    end: int,
) -> Iterator[View]:
    for m in pattern.finditer(base.text, start, end):
        if pattern is BASE64_RUN and HEX_RUN.fullmatch(m.group()):
            continue  # already read as hex
        data = decode(m.group())
        decoded = _is_text(data) if data else None
        if decoded is not None:
            yield decoded_view(base, m.start(), m.end(), decoded)


def _joins(text: str) -> list[tuple[int, int, str]]:
    edits = (
        [(m.start(), m.end(), "") for m in JOIN.finditer(text)] if prefilter.may_join(text) else []
    )
    if prefilter.may_space_out(text):
        for m in SPACED_LETTERS.finditer(text):
            edits.extend((i, i + 1, "") for i in range(m.start() + 1, m.end(), 2))
    edits.sort()
    return edits


def joined(base: View) -> tuple[View, list[int]] | None:
    """The text with split strings and lines joined, and where the joins are (view offsets)."""
    edits = _joins(base.text)
    if not edits:
        return None
    return edited_view(base, edits), _join_points(edits)


def _join_points(edits: list[tuple[int, int, str]]) -> list[int]:
    joins: list[int] = []
    removed = 0
    for start, end, _ in edits:
        joins.append(start - removed)
        removed += end - start
    return joins


def _crosses(joins: list[int], start: int, end: int) -> bool:
    i = bisect_left(joins, start + 1)
    return i < len(joins) and joins[i] < end


def _joined_tokens(text: str, joins: list[int], tokens: Detector) -> Iterator[Raw]:
    """Tokens crossing a join: a token has no whitespace, so only the runs of non-space
    characters that contain a join are scanned, gathered into one text (space-separated)."""
    runs: list[tuple[int, int]] = []
    for j in joins:
        if j >= len(text) or (runs and j < runs[-1][1]):
            continue
        start = j
        floor = runs[-1][1] if runs else 0
        while start > floor and not text[start - 1].isspace():
            start -= 1
        run = _RUN.match(text, j)
        runs.append((start, run.end() if run else j))
    if not runs:
        return
    offsets: list[int] = []  # where each run starts in the gathered text
    pieces: list[str] = []
    at = 0
    for start, end in runs:
        offsets.append(at)
        pieces.append(text[start:end])
        at += end - start + 1
    for kind, s, e in tokens(" ".join(pieces)):
        i = bisect_left(offsets, s + 1) - 1
        shift = runs[i][0] - offsets[i]
        if _crosses(joins, s + shift, e + shift):
            yield kind, s + shift, e + shift


def basic_credentials(view: View) -> Raw | None:
    """A decoded run that is all ``user:password`` (a password that looks like one)."""
    m = USER_PASSWORD.fullmatch(view.text.strip())
    if m is None or not stated_value(m["password"], "", token_only=False):
        return None
    return BASIC_CREDENTIALS, 0, len(view.text)


def hidden(base: View, everything: Detector, tokens: Detector) -> Iterator[tuple[View, Raw]]:
    """Findings in the decoded and joined views of ``base``, each with its view."""
    percent = percent_decoded(base)
    if percent is not None:
        for raw in everything(percent.text):
            yield percent, raw
    for view in decoded_runs(base):
        for raw in everything(view.text):
            yield view, raw
        basic = basic_credentials(view)
        if basic is not None:
            yield view, basic
    edits = _joins(base.text)
    if edits:  # the joined view's offset map is built only for a finding
        joined_view: View | None = None
        for raw in _joined_tokens(edited_text(base.text, edits), _join_points(edits), tokens):
            if joined_view is None:
                joined_view = edited_view(base, edits)
            yield joined_view, raw
