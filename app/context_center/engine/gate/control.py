"""Control characters: what the write gate refuses and what every text output escapes.

A control character makes a terminal or a renderer show something other than the bytes: ANSI
and OSC escape sequences (colours, hidden text with SGR 8, screen clears, window titles,
hyperlinks) start with ESC; BEL rings; a lone carriage return moves back over what was shown;
bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) reorder what follows
(Trojan Source, CVE-2021-42574). So the person would read one text while the model gets
another.

Counted as control characters (``is_control``): every C0 control U+0000-U+001F except tab and
line feed, a carriage return that is not part of a CRLF line break, DEL U+007F, every C1
control U+0080-U+009F, and the nine bidi controls above.

``escape_controls`` makes each one visible as its Python-style escape: ``\\x1b``, ``\\x07``,
``\\r``, ``\\x9b``, ``\\u202e``; and, in what it shows (not in what the gate refuses), the
invisible format characters that hide or reorder text without a control: zero-width space
U+200B, the marks LRM/RLM U+200E/U+200F and ALM U+061C, the line and paragraph separators
U+2028/U+2029, word joiner and invisible operators U+2060-U+2064, a BOM U+FEFF, and the tag
characters U+E0000-U+E007F, which spell ASCII no renderer shows ("ASCII smuggling": an
instruction a person cannot see, read by the model) -- ``\\u200b``, ``\\U000e0069``. The
zero-width joiners U+200C/U+200D stay: emoji and Indic and Persian words need them. The escape is plain text (a backslash and letters), so what is
shown is never interpreted; a text that already contains the four characters ``\\x1b`` looks
the same, which is harmless: nothing is hidden either way. Tabs, line feeds and CRLF line
breaks are kept.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

BIDI_CONTROLS = frozenset(chr(cp) for cp in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)))
# One control character; a CR directly before an LF is a line break, not a control.
CONTROL_RE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]|\r(?!\n)")
# What ``escape_controls`` shows as escapes besides the controls (see the module's text).
INVISIBLE = "\u200b\u200e\u200f\u061c\u2028\u2029\u2060-\u2064\ufeff\U000e0000-\U000e007f"
_SHOWN_RE = re.compile(f"{CONTROL_RE.pattern}|[{INVISIBLE}]")
ESCAPE_SEQUENCE = re.compile(r"\x1b(?:\[[0-?]*+[ -/]*+[@-~]|\][^\x07\x1b]*+|[@-Z\\-_])")
_SHORT = {"\r": "\\r", "\x0b": "\\x0b", "\x0c": "\\x0c"}


@dataclass(frozen=True, slots=True)
class ControlFinding:
    """One control character at ``offset`` of the original text, and its name."""

    offset: int
    char: str

    @property
    def name(self) -> str:
        return control_name(self.char)


def control_name(ch: str) -> str:
    """``ESC``, ``BEL``, ``U+202E RIGHT-TO-LEFT OVERRIDE`` …: how a message names it."""
    names = {"\x1b": "ESC", "\x07": "BEL", "\r": "CR", "\x08": "BS", "\x00": "NUL"}
    if ch in names:
        return names[ch]
    label = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X}" + (f" {label}" if label else "")


def is_control(ch: str) -> bool:
    """Whether ``ch`` on its own is a control character (a CR counts; see ``find_controls``)."""
    return ch == "\r" or CONTROL_RE.fullmatch(ch) is not None


def find_controls(text: str) -> list[ControlFinding]:
    """Every control character in ``text``, in order."""
    return [ControlFinding(m.start(), m.group()) for m in CONTROL_RE.finditer(text)]


def has_controls(text: str) -> bool:
    return CONTROL_RE.search(text) is not None


def describe_controls(text: str, limit: int = 4) -> str:
    """The kinds of control characters in ``text``, for a message (never the text itself):
    ``"ESC (terminal escape sequence), U+202E RIGHT-TO-LEFT OVERRIDE"``."""
    seen: dict[str, None] = {}
    for finding in find_controls(text):
        name = finding.name
        if finding.char == "\x1b" and ESCAPE_SEQUENCE.match(text, finding.offset):
            name = "ESC (terminal escape sequence)"
        seen.setdefault(name, None)
    names = list(seen)
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def _escape(ch: str) -> str:
    if ch in _SHORT:
        return _SHORT[ch]
    cp = ord(ch)
    if cp < 0x100:
        return f"\\x{cp:02x}"
    return f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def escape_controls(text: str) -> str:
    """``text`` with every control character shown as its escape (``\\x1b``, ``\\u202e``),
    and every invisible format character (``INVISIBLE``) too."""
    if not text or _SHOWN_RE.search(text) is None:
        return text
    return _SHOWN_RE.sub(lambda m: _escape(m.group()), text)
