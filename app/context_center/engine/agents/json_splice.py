"""Writing a changed JSON value back into the text it was read from, keeping that text for
every part of the value that did not change.

``json.dumps`` of an edited config reflows the whole file: a Prettier-formatted ``.mcp.json``
(short arrays on one line, ``"args": ["-y", "@scope/server"]``) comes back with every array
spread over lines, and a committed file shows a diff in entries nobody touched. ``splice``
instead walks the old and the new value together over the old text's syntax tree: an
unchanged member or element keeps its exact text, a changed object or array is laid out as
the original was (one line, or one member per line at the original's indentation), and only
new or changed values are serialised, in the file's indentation.

The standard library gives positions only one value at a time (``JSONDecoder.raw_decode``,
used here for strings and scalars), and the format-preserving JSON packages on PyPI are for
JSON5/JSONC or unmaintained, so the scanning of objects and arrays is written here;
``json.loads`` stays the judge of validity (a text it refuses never gets here), and the result
is checked to parse to exactly the new value (``None`` otherwise, and the caller serialises as
before).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_WS = re.compile(r"[ \t\n\r]*")
_LINE_LEAD = re.compile(r"[ \t]*")
_LOOK_AHEAD = 64  # how far an array's edit looks for an old element to keep the text of
_DECODER = json.JSONDecoder()


@dataclass
class Node:
    """A value's place in the text: ``[start, end)``, and for an object its members (key,
    where the key starts, the value's node), for an array its elements."""

    start: int
    end: int
    members: list[tuple[str, int, Node]] = field(default_factory=list)
    items: list[Node] = field(default_factory=list)


class _Unsupported(Exception):
    """Something this scanner does not handle (a duplicate key): serialise instead."""


def _parse(text: str, at: int) -> Node:
    at = _WS.match(text, at).end()  # type: ignore[union-attr]
    ch = text[at]
    if ch == "{":
        node = Node(at, at)
        seen: set[str] = set()
        at = _WS.match(text, at + 1).end()  # type: ignore[union-attr]
        if text[at] == "}":
            node.end = at + 1
            return node
        while True:
            key_at = at
            key, at = _DECODER.raw_decode(text, at)
            if key in seen:
                raise _Unsupported
            seen.add(key)
            at = _WS.match(text, at).end() + 1  # type: ignore[union-attr]  # the colon
            value = _parse(text, at)
            node.members.append((key, key_at, value))
            at = _WS.match(text, value.end).end()  # type: ignore[union-attr]
            if text[at] == "}":
                node.end = at + 1
                return node
            at = _WS.match(text, at + 1).end()  # type: ignore[union-attr]  # after the comma
    if ch == "[":
        node = Node(at, at)
        at = _WS.match(text, at + 1).end()  # type: ignore[union-attr]
        if text[at] == "]":
            node.end = at + 1
            return node
        while True:
            item = _parse(text, at)
            node.items.append(item)
            at = _WS.match(text, item.end).end()  # type: ignore[union-attr]
            if text[at] == "]":
                node.end = at + 1
                return node
            at = at + 1
    _, end = _DECODER.raw_decode(text, at)  # a string, a number, true, false or null
    return Node(at, end)


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values, types and key order included (``1``, ``1.0`` and ``true`` differ)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


class _Writer:
    def __init__(self, text: str, indent: int | str) -> None:
        self.text = text
        self.unit = indent if isinstance(indent, str) else " " * indent

    def dumps(self, value: Any, lead: str) -> str:
        """``value`` serialised, its inner lines indented one ``unit`` per level past ``lead``."""
        out = json.dumps(value, indent=self.unit, ensure_ascii=False)
        return out.replace("\n", "\n" + lead)

    def _lead(self, at: int) -> str:
        """The white space that starts the line ``at`` is on."""
        line = self.text.rfind("\n", 0, at) + 1
        return _LINE_LEAD.match(self.text, line).group()  # type: ignore[union-attr]

    def render(self, node: Node, old: Any, new: Any) -> str:
        if same(old, new):
            return self.text[node.start : node.end]
        lead = self._lead(node.start)
        # on one line: what is new in it is written on one line too
        compact = _one_line(self.text[node.start : node.end], node)
        if isinstance(old, dict) and isinstance(new, dict):
            parts = []
            members = {m[0]: m for m in node.members}
            colon = self._colon(node)
            for key, value in new.items():
                kept = members.get(key)
                if kept is None or key not in old:
                    text = self._new(value, node, lead, compact)
                    parts.append(f"{json.dumps(key, ensure_ascii=False)}{colon}{text}")
                else:
                    _, key_at, child = kept
                    head = self.text[key_at : child.start]
                    parts.append(head + self.render(child, old[key], value))
            return self._layout(node, parts, "{", "}", lead)
        if isinstance(old, list) and isinstance(new, list):
            parts, j = [], 0
            for value in new:
                # an element kept in place is found at once; one moved far is written anew
                near = range(j, min(len(old), j + _LOOK_AHEAD))
                k = next((k for k in near if same(old[k], value)), None)
                if k is None:
                    parts.append(self._new(value, node, lead, compact))
                else:
                    item = node.items[k]
                    parts.append(self.text[item.start : item.end])
                    j = k + 1
            return self._layout(node, parts, "[", "]", lead)
        return self.dumps(new, lead)

    def _colon(self, node: Node) -> str:
        """How the object writes ``"key": value`` (``": "``, or ``":"`` in a minified file)."""
        if not node.members:
            return ": "
        key_at, child = node.members[0][1], node.members[0][2]
        _, key_end = _DECODER.raw_decode(self.text, key_at)
        return "".join(self.text[key_end : child.start].split()) + (
            " " if self.text[child.start - 1].isspace() else ""
        )

    def _separator(self, node: Node) -> str:
        """Between the members of a one-line object or array: as between its first two."""
        starts = [m[1] for m in node.members] or [i.start for i in node.items]
        if len(starts) < 2:  # one member: spaced as its colon is (a minified file: none)
            return ", " if not node.members or self._colon(node) == ": " else ","
        return "," + (" " if self.text[starts[1] - 1].isspace() else "")

    def _new(self, value: Any, node: Node, lead: str, compact: bool) -> str:
        if compact:
            spaced = self._separator(node) == ", " and self._colon(node) == ": "
            return json.dumps(value, ensure_ascii=False, separators=None if spaced else (",", ":"))
        return self.dumps(value, self._inner(node, lead))

    def _inner(self, node: Node, lead: str) -> str:
        """The indentation of a member or element of ``node``: its first one's, else one
        unit deeper than the line it opens on."""
        first = node.members[0][1] if node.members else node.items[0].start if node.items else None
        if first is not None and "\n" in self.text[node.start : first]:
            return self._lead(first)
        return lead + self.unit

    def _layout(self, node: Node, parts: list[str], open_: str, close: str, lead: str) -> str:
        if not parts:
            return open_ + close
        if _one_line(self.text[node.start : node.end], node):
            # it was on one line: it stays on one, its members apart as they were
            return open_ + self._separator(node).join(parts) + close
        inner = self._inner(node, lead)
        return f"{open_}\n{inner}" + f",\n{inner}".join(parts) + f"\n{lead}{close}"


def _one_line(original: str, node: Node) -> bool:
    """An object or array written on one line (an empty one takes the file's layout)."""
    return "\n" not in original and bool(node.members or node.items)


def splice(before: str, old: Any, new: Any, indent: int | str) -> str | None:
    """``new`` written into ``before`` (the text ``old`` was parsed from), keeping the text of
    everything unchanged; None when the text is beyond this scanner or the result would not
    read back as ``new`` (the caller serialises instead)."""
    try:
        root = _parse(before, 0)
        out = before[: root.start] + _Writer(before, indent).render(root, old, new)
        out += before[root.end :]
    except (_Unsupported, ValueError, IndexError, RecursionError):
        return None
    try:
        return out if same(json.loads(out), new) else None
    except (ValueError, RecursionError):
        return None
