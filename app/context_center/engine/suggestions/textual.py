"""Text helpers both miners share: evidence, keys, names, ids and ASCII word boundaries."""

from __future__ import annotations

import hashlib
import re
import zlib
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from context_center.engine.kinds import format_time

if TYPE_CHECKING:
    from context_center.engine.suggestions.turns import UserTurn

MIN_TURN_CHARS = 8
MAX_TURN_CHARS = 420
MAX_QUOTES = 3
EPOCH = datetime.min.replace(tzinfo=UTC)

# ASCII word boundaries. Python's \b treats CJK characters as word characters, so "修复lint"
# would hide "lint"; these only look at ASCII letters and digits. In the patterns given to
# ``rx`` a \b before a letter or group starts a word and any other \b ends one.
_START = r"(?<![A-Za-z0-9_])"  # a word inside an identifier (test_never_empty) is no word
_END = r"(?![A-Za-z0-9_])"
_SPACE_RE = re.compile(r"\s+")
# What a terminal draws with and a pasted transcript carries along: CSI sequences (colours,
# cursor moves), OSC sequences (window titles, links) and other escapes, then any control
# character left. None of it is text a person said, and a fact cannot hold it.
_TERMINAL_RE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?")
# control characters, lone surrogates, and the bidirectional overrides, embeddings and
# isolates (U+202A–U+202E, U+2066–U+2069, and the marks U+200E/U+200F), which reorder what a
# reader sees of the text around them
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def rx(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    parts = pattern.split(r"\b")
    out = parts[0]
    for part in parts[1:]:
        out += (_START if part[:1].isalnum() or part[:1] == "(" else _END) + part
    return re.compile(out, flags)


def one_line(text: str) -> str:
    """``text`` on one line: runs of whitespace one space, terminal escape sequences and
    control characters gone."""
    if "\x1b" in text:
        text = _TERMINAL_RE.sub("", text)
    return _CONTROL_RE.sub("", _SPACE_RE.sub(" ", text)).strip()


def normalize_key(text: str) -> str:
    """Case-, space- and punctuation-insensitive key for exact duplicate detection."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


def hash32(text: str) -> str:
    return f"{zlib.crc32(text.encode('utf-8', 'surrogatepass')) & 0xFFFFFFFF:08x}"


def stable_id(prefix: str, *parts: str) -> str:
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()
    return f"{prefix}-{digest[:16]}"


def sort_time(turn: UserTurn) -> tuple[datetime, int]:
    return (turn.time or EPOCH, turn.index)


@dataclass(frozen=True, slots=True)
class Evidence:
    source: str
    session: str
    time: datetime | None
    quote: str

    def public_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "session": self.session,
            "time": format_time(self.time) if self.time else None,
            "quote": self.quote,
        }


_CJK_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af\uf900-\ufaff]")


def is_cjk_text(text: str) -> bool:
    """Whether ``text`` has Chinese, Japanese or Korean letters (then a suggestion's own
    sentences are written in Chinese)."""
    return _CJK_RE.search(text) is not None
