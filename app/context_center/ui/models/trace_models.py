"""Table models of the Activity tab: what a recall selected, and what it left out and why."""

from __future__ import annotations

from typing import Any

from context_center.engine import SelectedFact, Suppression
from context_center.ui.models.row_table import Column, RowTableModel

FRESHNESS_COLOURS = {"fresh": "#1e7d32", "current": None, "stale": "#a15c00"}


def _hit_tooltip(h: SelectedFact) -> str:
    shortened = "\nshortened to fit the budget" if h.shortened else ""
    return f"{h.title}\n{h.ref}\n{h.id}{shortened}"


class HitsModel(RowTableModel[SelectedFact]):
    """The facts a recall put into the block, best first (``ROW_ROLE`` gives the SelectedFact)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(
            [
                Column("Fact", lambda h: h.ref, tooltip=_hit_tooltip),
                Column("Score", lambda h: f"{h.score:.3f}", numeric=True),
                Column(
                    "Freshness",
                    lambda h: h.freshness.value,
                    colour=lambda h: FRESHNESS_COLOURS.get(h.freshness.value),
                ),
                Column("Rev", lambda h: str(h.revision), numeric=True),
                Column("Why", lambda h: h.reason),
            ],
            parent,
        )


def _suppressed_what(s: Suppression) -> str:
    return s.ref or "the whole turn"


class SuppressionsModel(RowTableModel[Suppression]):
    """What a recall left out: the whole turn (no fact) or single facts, with the reason."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(
            [
                Column("Left out", _suppressed_what, tooltip=lambda s: s.id or _suppressed_what(s)),
                Column(
                    "Why not",
                    lambda s: s.message,
                    tooltip=lambda s: f"{s.reason.value}: {s.message}",
                ),
                Column(
                    "Score",
                    lambda s: "" if s.score is None else f"{s.score:.3f}",
                    numeric=True,
                ),
                Column(
                    "Rev",
                    lambda s: "" if s.revision is None else str(s.revision),
                    numeric=True,
                ),
            ],
            parent,
        )


__all__ = ["HitsModel", "SelectedFact", "SuppressionsModel"]
