"""The one generic read-only table model over a list of immutable rows, described by columns.

Used by every small table (Activity, Approvals, Suggestions, Archive, Revisions, the
Instructions diagnostics); the Memory table has its own model tuned for 50,000 rows. Each
column says how to show a row (text, tooltip, alignment, colour). Rows arrive in the order
the engine gives them; nothing sorts through a proxy that calls back per comparison.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QBrush, QColor

from context_center.ui.i18n import lookup

R = TypeVar("R")

ROW_ROLE = Qt.ItemDataRole.UserRole + 1
"""``index.data(ROW_ROLE)`` is the row object itself."""

AnyIndex = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Column(Generic[R]):
    """How one column shows a row."""

    header: str  # the English source, marked QT_TRANSLATE_NOOP("Columns", …); shown translated
    text: Callable[[R], str]
    tooltip: Callable[[R], str] | None = None  # default: the displayed text (see text_tooltips)
    numeric: bool = False  # right-aligned
    colour: Callable[[R], str | None] | None = None  # a foreground colour name, or None
    header_tip: str = ""  # likewise QT_TRANSLATE_NOOP("Columns", …)


class RowTableModel(QAbstractTableModel, Generic[R]):
    """Rows of plain data shown through ``Column`` descriptions. Read-only and selectable.

    With ``text_tooltips`` (the default) a column without its own ``tooltip`` shows its
    displayed text as the tooltip; without it such a column has no tooltip.
    """

    def __init__(
        self, columns: Sequence[Column[R]], parent: Any = None, *, text_tooltips: bool = True
    ) -> None:
        super().__init__(parent)
        self._columns = tuple(columns)
        self._text_tooltips = text_tooltips
        self._rows: list[R] = []
        self._brushes: dict[str, QBrush] = {}

    # -- data in ---------------------------------------------------------------------------

    def set_rows(self, rows: Sequence[R]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def remove_row_object(self, row: R) -> bool:
        """Drop one row (by identity or equality); True when it was there."""
        for i, item in enumerate(self._rows):
            if item is row or item == row:
                self.beginRemoveRows(QModelIndex(), i, i)
                del self._rows[i]
                self.endRemoveRows()
                return True
        return False

    @property
    def rows(self) -> list[R]:
        return list(self._rows)

    def row_at(self, row: int) -> R:
        return self._rows[row]

    def row_of(self, predicate: Callable[[R], bool]) -> int:
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
            tip = col.tooltip or (col.text if self._text_tooltips else None)
            return (tip(row) or None) if tip is not None else None
        if role == Qt.ItemDataRole.TextAlignmentRole:
            horizontal = Qt.AlignmentFlag.AlignRight if col.numeric else Qt.AlignmentFlag.AlignLeft
            return int(horizontal | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and col.colour is not None:
            return self._brush(col.colour(row))
        if role == ROW_ROLE:
            return row
        return None

    def _brush(self, name: str | None) -> QBrush | None:
        if not name:
            return None
        if name not in self._brushes:
            self._brushes[name] = QBrush(QColor(name))
        return self._brushes[name]

    def headerData(
        self,
        section: int,
        orientation: Qt.Orientation,
        role: int = Qt.ItemDataRole.DisplayRole,
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self._columns):
            if role == Qt.ItemDataRole.DisplayRole:
                return lookup("Columns", self._columns[section].header)
            if role == Qt.ItemDataRole.ToolTipRole:
                tip = self._columns[section].header_tip
                return lookup("Columns", tip) if tip else None
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
