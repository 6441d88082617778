"""Table models of the Activity tab: what a recall selected, and what it left out and why.

A recalled fact's score is shown exactly as the block the model sees writes it (the trace
keeps the score rounded to four places, the block to three: formatting the trace's value
again could differ from the block in the last digit), so the two never disagree.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from context_center.engine import SelectedFact, Suppression
from context_center.ui.i18n import QT_TRANSLATE_NOOP, translate
from context_center.ui.models.row_table import Column, RowTableModel
from context_center.ui.recall_text import why_not, why_selected
from context_center.ui.style import tone
from context_center.ui.terms import freshness_label

_BLOCK_ENTRY = re.compile(r"^- ref=\S+ id=(\S+) .*?\bscore=([0-9.]+)", re.MULTILINE)


def block_scores(block: str) -> dict[str, str]:
    """Fact id → the score text the recall block shows for it."""
    return {m.group(1): m.group(2) for m in _BLOCK_ENTRY.finditer(block)}


def score_text(score: float | None) -> str:
    return "" if score is None else f"{score:.3f}"


def freshness_colour(value: str) -> str | None:
    return tone(value) if value in ("fresh", "stale") else None


def _hit_tooltip(h: SelectedFact) -> str:
    shortened = "\n" + translate("Activity", "shortened to fit the budget") if h.shortened else ""
    return f"{h.title}\n{h.ref}\n{h.id}{shortened}"


class HitsModel(RowTableModel[SelectedFact]):
    """The facts a recall put into the block, best first (``ROW_ROLE`` gives the SelectedFact)."""

    def __init__(self, parent: Any = None) -> None:
        self._scores: dict[str, str] = {}
        super().__init__(
            [
                Column(QT_TRANSLATE_NOOP("Columns", "Fact"), lambda h: h.ref, tooltip=_hit_tooltip),
                Column(QT_TRANSLATE_NOOP("Columns", "Score"), self._score, numeric=True),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Freshness"),
                    lambda h: freshness_label(h.freshness.value),
                    colour=lambda h: freshness_colour(h.freshness.value),
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Rev"), lambda h: str(h.revision), numeric=True
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Why"),
                    lambda h: why_selected(h.reason),  # the tooltip: the same, in full
                ),
            ],
            parent,
        )

    def _score(self, h: SelectedFact) -> str:
        return self._scores.get(h.id) or score_text(h.score)

    def set_hits(self, rows: Sequence[SelectedFact], block: str) -> None:
        self._scores = block_scores(block)
        self.set_rows(rows)


def _why_not(s: Suppression) -> str:
    """The reason, in the window's language."""
    return why_not(s.reason.value, s.message, s.reason.text)


def _suppressed_what(s: Suppression) -> str:
    return s.ref or translate("Activity", "the whole turn")


class SuppressionsModel(RowTableModel[Suppression]):
    """What a recall left out: the whole turn (no fact) or single facts, with the reason."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(
            [
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Left out"),
                    _suppressed_what,
                    tooltip=lambda s: s.id or _suppressed_what(s),
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Why not"),
                    _why_not,  # the tooltip: the same, in full
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Score"),
                    lambda s: score_text(s.score),
                    numeric=True,
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Rev"),
                    lambda s: "" if s.revision is None else str(s.revision),
                    numeric=True,
                ),
            ],
            parent,
        )


__all__ = ["HitsModel", "SelectedFact", "SuppressionsModel", "block_scores"]
