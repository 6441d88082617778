"""The Memory table view: row selection, no Tab trap, fixed row height, column widths.

Narrow (under ``COMPACT_WIDTH`` px, e.g. a 900 px window beside the detail pane) the Updated
column shows the date only, so the title keeps room; the full time stays in its tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from context_center.ui.i18n import lookup
from context_center.ui.models.facts import (
    COL_FRESHNESS,
    COL_REVISION,
    COL_SCOPE,
    COL_TITLE,
    COL_TYPE,
    COL_UPDATED,
    FactTableModel,
)
from context_center.ui.terms import scope_choices, type_choices

COMPACT_WIDTH = 640


class FactTableView(QTableView):
    """Switches the model's Updated column between date and date-and-time by width."""

    def __init__(self, fm: QFontMetrics) -> None:
        super().__init__()
        self._widths = (
            fm.horizontalAdvance("2026-11-02 09:14") + 20,
            fm.horizontalAdvance("2026-11-02") + 20,
        )

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        model = self.model()
        compact = event.size().width() < COMPACT_WIDTH
        if isinstance(model, FactTableModel) and model.compact_dates != compact:
            model.set_compact_dates(compact)
            self.setColumnWidth(COL_UPDATED, self._widths[1 if compact else 0])


def make_fact_table(model: FactTableModel, fm: QFontMetrics) -> QTableView:
    """The view over ``model``. The title column takes the width the others leave, so no
    column scrolls out of sight at 900 px."""
    table = FactTableView(fm)
    table.setObjectName("factTable")
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setTabKeyNavigation(False)  # Tab leaves the table instead of walking its cells
    table.setAlternatingRowColors(True)
    table.setSortingEnabled(True)
    table.setWordWrap(False)
    table.setShowGrid(False)
    table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    vh = table.verticalHeader()
    vh.hide()
    vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vh.setDefaultSectionSize(fm.height() + 10)
    header = table.horizontalHeader()
    header.setHighlightSections(False)
    header.setMinimumSectionSize(36)
    header.setSectionResizeMode(COL_TITLE, QHeaderView.ResizeMode.Stretch)

    def widest(*texts: str) -> int:
        return max(fm.horizontalAdvance(t) for t in texts)

    widths = {  # the words as shown (English or translated), and the headers
        COL_TYPE: widest("reference", *(label for label, _ in type_choices())) + 20,
        COL_SCOPE: widest("project", *(label for label, _ in scope_choices())) + 20,
        COL_FRESHNESS: widest("Freshness", lookup("Columns", "Freshness")) + 28,
        COL_REVISION: widest("Rev", lookup("Columns", "Rev")) + 22,
        COL_UPDATED: fm.horizontalAdvance("2026-11-02 09:14") + 20,
    }
    for col, width in widths.items():
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        table.setColumnWidth(col, width)
    header.setSortIndicator(COL_TITLE, Qt.SortOrder.AscendingOrder)
    return table
