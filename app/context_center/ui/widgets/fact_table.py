"""The Memory table view: row selection, no Tab trap, fixed row height, column widths."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from context_center.ui.models.facts import (
    COL_FRESHNESS,
    COL_REVISION,
    COL_SCOPE,
    COL_TITLE,
    COL_TYPE,
    COL_UPDATED,
    FactTableModel,
)


def make_fact_table(model: FactTableModel, fm: QFontMetrics) -> QTableView:
    """The view over ``model``. The title column takes the width the others leave, so no
    column scrolls out of sight at 900 px."""
    table = QTableView()
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
    widths = {
        COL_TYPE: fm.horizontalAdvance("reference") + 28,
        COL_SCOPE: fm.horizontalAdvance("project") + 28,
        COL_FRESHNESS: fm.horizontalAdvance("Freshness") + 28,
        COL_REVISION: fm.horizontalAdvance("Rev") + 28,
        COL_UPDATED: fm.horizontalAdvance("2026-11-02 09:14") + 24,
    }
    for col, width in widths.items():
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        table.setColumnWidth(col, width)
    header.setSortIndicator(COL_TITLE, Qt.SortOrder.AscendingOrder)
    return table
