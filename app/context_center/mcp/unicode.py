"""Text from an agent that is not Unicode: JSON may spell a lone surrogate (``"\\udcff"``),
which Python's parser accepts and nothing downstream can store, write or serialise. It is made
U+FFFD, as an invalid UTF-8 byte already is when a line is decoded."""

from __future__ import annotations

from typing import Any


def replace_lone_surrogates(value: Any) -> Any:
    """``value`` (parsed JSON) with each lone surrogate in its strings made U+FFFD (pairs
    spelled as two escapes become the character they spell)."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, list):
        return [replace_lone_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {replace_lone_surrogates(k): replace_lone_surrogates(v) for k, v in value.items()}
    return value
