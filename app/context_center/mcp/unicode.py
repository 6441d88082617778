"""Text from an agent that is not Unicode: JSON may spell a lone surrogate (``"\\udcff"``),
which Python's parser accepts and nothing downstream can store, write or serialise. It is made
U+FFFD, as an invalid UTF-8 byte already is when a line is decoded."""

from __future__ import annotations

import re
from typing import Any

# A JSON escape of a surrogate (``\\udXXX``, X from 8); text without one has no lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def may_spell_surrogates(json_text: str) -> bool:
    """Whether ``json_text`` spells a surrogate or holds one (text decoded with
    ``surrogateescape``): cheap, and most messages do neither."""
    if _SURROGATE_ESCAPE.search(json_text) is not None:
        return True
    try:
        json_text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


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
