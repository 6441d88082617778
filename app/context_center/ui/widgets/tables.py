"""One way to set up a read-only, row-selecting table view, so every tab looks the same; a
table whose explanations wrap in full (``WrappedTable``); and the table-beside-detail layout
of the list tabs (``table_beside``)."""

from __future__ import annotations

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTimer,
)
from PySide6.QtGui import QFont, QFontMetrics, QResizeEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QSplitter,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QVBoxLayout,
    QWidget,
)


def fixed_split(
    orientation: Qt.Orientation, *parts: tuple[QWidget, int], sizes: list[int] | None = None
) -> QSplitter:
    """A splitter of ``parts`` (each a widget and its stretch factor) that no drag collapses,
    at ``sizes`` to start with when given."""
    splitter = QSplitter(orientation)
    splitter.setChildrenCollapsible(False)
    for i, (widget, stretch) in enumerate(parts):
        splitter.addWidget(widget)
        splitter.setStretchFactor(i, stretch)
    if sizes is not None:
        splitter.setSizes(sizes)
    return splitter


def table_beside(table: QTableView, below: QWidget, detail: QWidget) -> QSplitter:
    """``table`` (with ``below`` under it, e.g. its empty-state hint) left, ``detail`` right,
    3:2, neither collapsible."""
    left = QWidget()
    column = QVBoxLayout(left)
    column.setContentsMargins(0, 0, 0, 0)
    column.addWidget(table, 1)
    column.addWidget(below)
    return fixed_split(Qt.Orientation.Horizontal, (left, 3), (detail, 2))


def make_table(
    model: QAbstractItemModel,
    *,
    name: str,
    stretch: int,
    widths: dict[int, int] | None = None,
    parent: QWidget | None = None,
    wrap: bool = False,
) -> QTableView:
    """A one-line-per-row table; ``wrap``: a ``WrappedTable`` whose rows grow to their text
    (for explanations and diagnostic messages, which are never cut to "…")."""
    view = WrappedTable(parent) if wrap else QTableView(parent)
    view.setObjectName(name)
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setTabKeyNavigation(False)  # Tab leaves the table (no keyboard trap)
    view.setAlternatingRowColors(True)
    view.setShowGrid(False)
    vh = view.verticalHeader()
    vh.hide()
    if not wrap:
        view.setWordWrap(False)
        vh.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vh.setDefaultSectionSize(view.fontMetrics().height() + 10)
    header = view.horizontalHeader()
    header.setHighlightSections(False)
    header.setStretchLastSection(False)
    if widths:
        _fixed_widths(view, model, widths)
    header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
    return view


def _fixed_widths(view: QTableView, model: QAbstractItemModel, widths: dict[int, int]) -> None:
    header = view.horizontalHeader()
    bold = QFont(view.font())
    bold.setBold(True)  # the stylesheet's header weight
    heading = QFontMetrics(bold)
    for col, width in widths.items():
        header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        # never narrower than its heading in the window's language ("Rev" is "修订版")
        label = str(model.headerData(col, Qt.Orientation.Horizontal) or "")
        view.setColumnWidth(col, max(width, heading.horizontalAdvance(label) + 20))


class _WrapDelegate(QStyledItemDelegate):
    """Measures wrapped text as narrower as the stylesheet's item padding makes it when
    painted, so a line that only just fits is not cut to "…" at paint time, and a few pixels
    taller: the painted rect loses the grid line, and the style drops a last line that does not
    fit by a fraction of a pixel (a Chinese run's fallback font makes its line taller), so a
    row sized to Qt's own measure showed one line of two ("… rare in the store (or")."""

    PADDING = 14
    SLACK = 3  # px: the grid line and the rounding of the lines' heights

    def sizeHint(
        self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> QSize:
        narrower = QStyleOptionViewItem(option)
        narrower.rect = QRect(option.rect)
        narrower.rect.setWidth(max(option.rect.width() - self.PADDING, 1))
        size = super().sizeHint(narrower, index)
        return QSize(size.width(), size.height() + self.SLACK)


class WrappedTable(QTableView):
    """A small table whose text wraps in full: rows grow to their text after every model
    reset and every change of width (explanations are never cut to "…")."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.setTabKeyNavigation(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.verticalHeader().hide()
        self.setItemDelegate(_WrapDelegate(self))
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.resizeRowsToContents)
        self.horizontalHeader().sectionResized.connect(lambda *_: self._timer.start())

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        if model is not None:
            model.modelReset.connect(self._timer.start)
            model.rowsInserted.connect(self._timer.start)
            model.dataChanged.connect(self._timer.start)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._timer.start()
