"""The History page's Details column in the window's language.

``HistoryRow.detail`` (engine/facade/history.py) joins its parts with ", ": for a revision,
what it changed ("name: a → b", "type: user → project", "title", "description", "text"); for an
approval event, the gate's reason codes and "reason: …", "error: …", "requeued from: …",
"requeued as: …". ``history_detail`` reads those parts back, translates each one's words (a
gate reason code becomes its sentence, in English too; names, ids and a person's own reason
stay as written) and joins them again. A part this
module does not know is kept as written, joined to the part before it (it may hold a comma).
"""

from __future__ import annotations

import functools
import re

from context_center.ui.engine_text import Forms
from context_center.ui.gate_text import REASONS as GATE_REASONS
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts, current_language
from context_center.ui.terms import type_label

PARTS = Forms(
    "HistoryText",
    {
        "name": QT_TRANSLATE_NOOP("HistoryText", "name: {before} → {after}"),
        "type": QT_TRANSLATE_NOOP("HistoryText", "type: {before} → {after}"),
        "reason": QT_TRANSLATE_NOOP("HistoryText", "reason: {text}"),
        "error": QT_TRANSLATE_NOOP("HistoryText", "error: {code}"),
        "requeued_from": QT_TRANSLATE_NOOP("HistoryText", "requeued from: {id}"),
        "requeued_as": QT_TRANSLATE_NOOP("HistoryText", "requeued as: {id}"),
        "title": QT_TRANSLATE_NOOP("HistoryText", "title"),
        "description": QT_TRANSLATE_NOOP("HistoryText", "description"),
        "text": QT_TRANSLATE_NOOP("HistoryText", "text"),
    },
)
TEXT = Texts("HistoryText", {"sep": QT_TRANSLATE_NOOP("HistoryText", ", ")})

_STARTS = tuple(source.split("{", 1)[0] for key, source in PARTS.source.items() if "{" in source)
_BARE = frozenset(source for source in PARTS.source.values() if "{" not in source)
_CODE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")  # a reason code: words joined by _


def _starts_part(piece: str) -> bool:
    return piece.startswith(_STARTS) or piece in _BARE or _CODE.fullmatch(piece) is not None


def _segments(detail: str) -> list[str]:
    out: list[str] = []
    for piece in detail.split(", "):
        if out and not _starts_part(piece):
            out[-1] += ", " + piece
        else:
            out.append(piece)
    return out


def _part(piece: str) -> str:
    if piece in GATE_REASONS.source:
        return GATE_REASONS[piece]
    found = PARTS.parse(piece)
    if found is None:
        return piece
    key, values = found
    if key == "type":
        values = {name: type_label(value) for name, value in values.items()}
    return PARTS.render(key, values)


def history_detail(detail: str) -> str:
    """A history row's details in the window's language (the table asks for every visible
    cell on every paint: each text is worked out once per language)."""
    return _detail(current_language(), detail) if detail else detail


@functools.lru_cache(maxsize=4096)
def _detail(_language: str, detail: str) -> str:
    return TEXT["sep"].join(_part(piece) for piece in _segments(detail))
