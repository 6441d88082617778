"""Engine text in the window's language: a table of the English forms the engine writes.

The engine writes its explanations (diagnostics, refusals, a suggestion's notes) in English:
the CLI and MCP outputs are contracts, and agents read them. A ``Forms`` table holds those
forms as Qt sources whose ``{name}`` parts are what the engine fills in (a path, a ref, a
number); the window shows a text in its language by finding the form it was written from and
filling the translation with the same parts. A part may itself be engine text (a reason after a
colon): ``parts`` translates it with another table. A text matches a form only when the form,
filled with the parts read back, is exactly what the engine wrote, so a text this window does
not know (or an engine that changed its wording) is shown as written, never misread.
"""

from __future__ import annotations

import re
import string
from collections.abc import Callable, Iterable, Mapping
from functools import cached_property

from context_center.ui.i18n import ENGLISH, Texts, current_language

Part = Callable[[str], str]


def _pattern(source: str) -> re.Pattern[str]:
    """``source`` as a regular expression: literal text as itself, each ``{name}`` a group (a
    name used twice must read the same both times)."""
    out: list[str] = []
    seen: set[str] = set()
    for literal, name, _spec, _conversion in string.Formatter().parse(source):
        out.append(re.escape(literal))
        if name is None:
            continue
        if name in seen:
            out.append(f"(?P={name})")
        else:
            seen.add(name)
            out.append(f"(?P<{name}>.+?)")
    return re.compile("".join(out), re.DOTALL)


class Forms(Texts):
    """A ``Texts`` table of engine forms: ``source`` the English templates, ``[key]`` the
    translated ones (the same ``{name}`` parts)."""

    @cached_property
    def patterns(self) -> dict[str, re.Pattern[str]]:
        return {key: _pattern(source) for key, source in self.source.items()}

    def parse(
        self, message: str, keys: Iterable[str] | None = None
    ) -> tuple[str, dict[str, str]] | None:
        """(the form's key, its parts) of the first form ``message`` was written from."""
        for key in self.source if keys is None else keys:
            pattern = self.patterns.get(key)
            m = pattern.fullmatch(message) if pattern is not None else None
            if m is not None and self.source[key].format(**m.groupdict()) == message:
                return key, m.groupdict()
        return None

    def render(self, key: str, parts: Mapping[str, str]) -> str:
        return self[key].format(**parts)

    def shown(
        self,
        message: str,
        keys: Iterable[str] | None = None,
        parts: Mapping[str, Part] | None = None,
    ) -> str:
        """``message`` in the window's language (as written when no form fits)."""
        if current_language() == ENGLISH:
            return message
        found = self.parse(message, keys)
        if found is None:
            return message
        key, values = found
        for name, part in (parts or {}).items():
            if name in values:
                values[name] = part(values[name])
        return self.render(key, values)

    def part(self, keys: Iterable[str] | None = None) -> Part:
        """This table as a ``parts`` translator for another table."""
        chosen = tuple(keys) if keys is not None else None
        return lambda text: self.shown(text, chosen)


def shown_by_code(
    code: str,
    message: str,
    by_code: Mapping[str, tuple[str, ...]],
    forms: Forms,
    parts: Mapping[str, Part] | None = None,
) -> str:
    """``message`` through the forms its ``code`` is written in (as written for a code
    ``by_code`` does not list)."""
    keys = by_code.get(code)
    return message if keys is None else forms.shown(message, keys, parts)
