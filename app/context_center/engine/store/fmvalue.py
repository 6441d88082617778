"""Frontmatter values written so that both readers of a fact file get back exactly what was saved.

A fact file has two readers. We parse its frontmatter as YAML; Reasonix splits it into lines
(``key: value``; the value trimmed and stripped of every ``"`` and ``'`` at either end; no
unescaping; see REFERENCE.md). A value is therefore written in the first of these forms that
both read back unchanged:

1. plain (``title: Release branch``), when YAML reads it as that very string;
2. double-quoted (``title: "Ana's rule: always rebase"``), when it holds no ``"`` or ``\\``
   (YAML would unescape those, Reasonix would not);
3. single-quoted (``title: 'say "hi": twice'``), when it holds no ``'`` (YAML doubles it).

Some values have no such form, and saving them is refused with ``InvalidRequest`` (code
``unrepresentable_value``) and a message naming the field: a line break, tab or other control
character (the line reader cuts at the end of the line); leading or trailing whitespace (it
trims); a quote mark at either end (it strips those); and a value that needs quoting but holds
both ``'`` and ``"`` or a backslash.
"""

from __future__ import annotations

import re
import unicodedata

import yaml

from context_center.engine.errors import InvalidRequest

UNREPRESENTABLE = "unrepresentable_value"
_QUOTES = "\"'"
# YAML indicators that cannot start a plain scalar (or start one only in some contexts).
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
# Characters YAML treats as line breaks or refuses, beyond the C0/C1 controls.
_BREAKS = frozenset("\x85\u2028\u2029\ufeff\ufffe\uffff")
_RESOLVER = yaml.resolver.Resolver()
_STR_TAG = "tag:yaml.org,2002:str"
_PLAIN_CHUNK = re.compile(r"^[^\s].*[^\s:]$|^[^\s:]$", re.DOTALL)


class UnrepresentableValue(InvalidRequest):
    code = UNREPRESENTABLE


def problem(value: str) -> str | None:
    """Why ``value`` cannot be written so that both readers read it back, or None."""
    for ch in value:
        if ch in _BREAKS or unicodedata.category(ch) in ("Cc", "Cs"):
            if ch in "\n\r\x85\u2028\u2029":
                return "contains a line break (frontmatter values are one line)"
            return f"contains the control character U+{ord(ch):04X}"
    if value != value.strip():
        return "starts or ends with whitespace, which Reasonix trims"
    if value and (value[0] in _QUOTES or value[-1] in _QUOTES):
        return "starts or ends with a quote mark, which Reasonix strips"
    return None


def _plain_safe(value: str) -> bool:
    if not value or value[0] in _INDICATORS or not _PLAIN_CHUNK.match(value):
        return False
    if ": " in value or " #" in value:
        return False
    # YAML must read it as a string (so `true`, `12`, `null` or `~` are quoted for readers
    # that type their scalars; ours reads every scalar as text either way).
    tag = _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))  # type: ignore[no-untyped-call]
    return bool(tag == _STR_TAG)


def _quoted(value: str) -> str:
    """The start of a refused value, for its error message: secrets withheld over the whole
    value first (a cut could leave a token too short for the scanner to know)."""
    from context_center.engine.instructions.withhold import withhold

    return repr(withhold(value)[0][:60])


def render_value(field: str, value: str) -> str:
    """The text after ``<field>: `` on a frontmatter line. Raises UnrepresentableValue."""
    why = problem(value)
    if why is not None:
        raise UnrepresentableValue(f"the {field} {_quoted(value)} cannot be saved: it {why}")
    if not value:
        return '""'
    if _plain_safe(value):
        return value
    if '"' not in value and "\\" not in value:
        return f'"{value}"'
    if "'" not in value:
        return f"'{value}'"
    raise UnrepresentableValue(
        f"the {field} {_quoted(value)} cannot be saved: it needs quoting (it holds YAML "
        "punctuation such as ': ' or ' #') and contains both a single quote and a double "
        "quote or backslash, which Reasonix would read back differently; drop one of them"
    )
