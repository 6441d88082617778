"""One way to set up a read-only, row-selecting table view, so every tab looks the same."""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView, QWidget


def make_table(
    model: QAbstractItemModel,
    *,
    name: str,
    stretch: int,
    widths: dict[int, int] | None = None,
    parent: QWidget | None = None,
) -> QTableView:
    view = QTableView(parent)
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setTabKeyNavigation(False)  # Tab leaves the table (no keyboard trap)
    view.setAlternatingRowColors(True)
    view.setShowGrid(False)
    view.setWordWrap(False)
    vh = view.verticalHeader()
    vh.hide()
    vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
    vh.setDefaultSectionSize(view.fontMetrics().height() + 10)
    header = view.horizontalHeader()
    header.setHighlightSections(False)
    header.setStretchLastSection(False)
    for col, width in (widths or {}).items():
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        view.setColumnWidth(col, width)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    return view
