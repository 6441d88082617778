"""A thin, read-only table model over a list of immutable rows, described by columns.

Used by the Activity, Approvals and Suggestions tabs, whose tables hold tens of rows: each
column says how to show a row (text, tooltip, alignment, colour). Rows arrive in the order
the engine gives them; nothing sorts through a proxy that calls back per comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QBrush, QColor

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
"""``index.data(ROW_ROLE)`` is the row object itself."""

AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Column:
    """How one column shows a row."""

    header: str
    text: Callable[[Any], str]
    tooltip: Callable[[Any], str] | None = None  # default: the displayed text
    numeric: bool = False  # right-aligned
    colour: Callable[[Any], str | None] | None = None  # a foreground colour name, or None
    header_tip: str = ""


class RowTableModel(QAbstractTableModel):
    """Rows of plain data shown through ``Column`` descriptions. Read-only and selectable."""

    def __init__(self, columns: Sequence[Column], parent: Any = None) -> None:
        super().__init__(parent)
        self._columns = tuple(columns)
        self._rows: list[Any] = []

    # -- data in ---------------------------------------------------------------------------

    def set_rows(self, rows: Sequence[Any]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def remove_row_object(self, row: Any) -> bool:
        """Drop one row (by identity or equality); True when it was there."""
        for i, item in enumerate(self._rows):
            if item is row or item == row:
                self.beginRemoveRows(QModelIndex(), i, i)
                del self._rows[i]
                self.endRemoveRows()
                return True
        return False

    @property
    def rows(self) -> list[Any]:
        return list(self._rows)

    def row_at(self, row: int) -> Any:
        return self._rows[row]

    def row_of(self, predicate: Callable[[Any], bool]) -> int:
        """The index of the first row matching ``predicate``, or -1."""
        for i, item in enumerate(self._rows):
            if predicate(item):
                return i
        return -1

    # -- Qt model API ----------------------------------------------------------------------

    def rowCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: AnyIndex = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._columns)

    def data(self, index: AnyIndex, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        if not (0 <= index.column() < len(self._columns)):
            return None
        row = self._rows[index.row()]
        col = self._columns[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            return col.text(row)
        if role == Qt.ItemDataRole.ToolTipRole:
            return (col.tooltip or col.text)(row) or None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            horizontal = Qt.AlignmentFlag.AlignRight if col.numeric else Qt.AlignmentFlag.AlignLeft
            return int(horizontal | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col.colour is not None:
            name = col.colour(row)
            return QBrush(QColor(name)) if name else None
        if role == ROW_ROLE:
            return row
        return None

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self._columns):
            if role == Qt.ItemDataRole.DisplayRole:
                return self._columns[section].header
            if role == Qt.ItemDataRole.ToolTipRole:
                return self._columns[section].header_tip or None
        if (
            orientation == Qt.Orientation.Vertical
            and role == Qt.ItemDataRole.DisplayRole
            and 0 <= section < len(self._rows)
        ):
            return str(section + 1)
        return None

    def flags(self, index: AnyIndex) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
