"""The Memory table: plain fact rows, filtered and sorted in Python, shown by a thin Qt model.

A ``QSortFilterProxyModel`` calls back into Python for every comparison and takes seconds on
50,000 rows; here ``FactFilter.apply`` sorts once per sort key (cached) and filters with list
comprehensions over precomputed lowercase text, then the model is reset with the new row list.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from operator import attrgetter
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QBrush, QColor

from context_center.engine import Entry, Fact, FreshnessClock
from context_center.ui.i18n import QT_TRANSLATE_NOOP, lookup, translate
from context_center.ui.style import tone
from context_center.ui.terms import freshness_label, scope_label, type_label

COLUMNS = (
    QT_TRANSLATE_NOOP("Columns", "Title"),
    QT_TRANSLATE_NOOP("Columns", "Type"),
    QT_TRANSLATE_NOOP("Columns", "Scope"),
    QT_TRANSLATE_NOOP("Columns", "Freshness"),
    QT_TRANSLATE_NOOP("Columns", "Rev"),
    QT_TRANSLATE_NOOP("Columns", "Updated"),
)  # English sources; headerData shows them translated
UPDATED_TIP = QT_TRANSLATE_NOOP("Columns", "Last update, in local time ({offset})")
COL_TITLE, COL_TYPE, COL_SCOPE, COL_FRESHNESS, COL_REVISION, COL_UPDATED = range(6)


def freshness_colour(freshness: str) -> str:
    """The colour of a freshness word in the current scheme (fresh, current, stale)."""
    return tone(freshness if freshness in ("fresh", "current", "stale") else "muted")


_ORDER = {"fresh": 0, "current": 1, "stale": 2}
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)

Index = QModelIndex | QPersistentModelIndex


def local_time(value: datetime | None) -> str:
    """A short local time for tables: 2026-11-02 09:14 (every time the window shows is
    local; ``utc_offset`` names the zone where a label needs it)."""
    if value is None:
        return "—"
    return value.astimezone().strftime("%Y-%m-%d %H:%M")


def local_time_seconds(value: datetime | None) -> str:
    """A local time to the second, for provenance: 2026-11-02 09:14:03."""
    if value is None:
        return "—"
    return value.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def utc_offset(value: datetime | None = None) -> str:
    """The local zone as an offset: "UTC+08:00" (of ``value``, else of now)."""
    moment = (value or datetime.now(UTC)).astimezone()
    offset = moment.strftime("%z") or "+0000"
    return f"UTC{offset[:3]}:{offset[3:]}"


@dataclass(slots=True, eq=False)
class FactRow:
    """One active fact as the table shows it (plain, never changed once built; built in the
    worker thread). Not a frozen dataclass: building 50,000 frozen instances costs the window's
    start about 0.1 s more; rows compare and hash by identity."""

    id: str
    ref: str
    name: str
    title: str
    sort_title: str  # lowercase title, the tie-breaker of every sort
    type: str
    scope: str
    freshness: str
    revision: int
    updated_ts: float
    # lowercase title, name, description and body for the search box; None until built (the
    # window's first load builds them after the table is shown: ``fill_haystacks``)
    haystack: str | None
    entry: Entry

    @property
    def fact(self) -> Fact:
        return self.entry.fact


def build_rows(entries: Iterable[Entry], now: datetime, *, haystacks: bool = True) -> list[FactRow]:
    """The table's rows of ``entries``; ``haystacks=False`` leaves the search text to
    ``fill_haystacks`` (a tenth of the cost at 50,000 rows, not needed to show the table)."""
    rows = []
    clock = FreshnessClock(now)
    for entry in entries:
        f = entry.fact
        updated = f.updated_at
        title = f.title or f.name
        # ``_value_`` (enum's own attribute) rather than ``.value``, a property: 200,000 of
        # those cost the window's start about 0.05 s at 50,000 rows
        scope = f.scope._value_
        rows.append(
            FactRow(
                f.id,
                f"{scope}/{f.name}.md",
                f.name,
                title,
                title.lower(),
                f.type._value_,
                scope,
                clock.of(f.type, updated)._value_,
                f.revision,
                (updated - _EPOCH).total_seconds() if updated else 0.0,
                _haystack(f) if haystacks else None,
                entry,
            )
        )
    return rows


def _haystack(f: Fact) -> str:
    return "\n".join((f.title, f.name, f.description, f.body)).lower()


def fill_haystacks(rows: Iterable[FactRow]) -> None:
    """Build the search text of every row that has none yet (any thread: the text is a pure
    function of the row's fact, so two threads filling one row write the same string)."""
    for row in rows:
        if row.haystack is None:
            row.haystack = _haystack(row.entry.fact)


_TITLE_KEY = attrgetter("sort_title", "ref")
# Other columns sort the title-ordered rows by their own value alone: the sort is stable, so
# rows with equal values stay in title order, and comparing one plain value per row is about
# four times faster at 50,000 rows than comparing (value, title) tuples.
_PRIMARY_KEYS: dict[int, Any] = {
    COL_TYPE: attrgetter("type"),
    COL_SCOPE: attrgetter("scope"),
    COL_FRESHNESS: lambda r: _ORDER.get(r.freshness, 9),
    COL_REVISION: attrgetter("revision"),
    COL_UPDATED: attrgetter("updated_ts"),
}


class FactFilter:
    """Search text, type/scope/freshness filters and the sort order, applied in Python."""

    def __init__(self) -> None:
        self.rows: list[FactRow] = []
        self._sorted: dict[tuple[int, bool], list[FactRow]] = {}
        self.query = ""
        self.type = ""
        self.scope = ""
        self.freshness = ""
        self.sort_column = COL_TITLE
        self.descending = False
        self._searchable = False

    def set_rows(self, rows: list[FactRow]) -> None:
        self.rows = rows
        self._sorted = {}
        self._searchable = False  # every row's haystack built (checked at the first search)

    def _sorted_rows(self) -> list[FactRow]:
        key = (self.sort_column, self.descending)
        cached = self._sorted.get(key)
        if cached is None:
            reverse_key = (self.sort_column, not self.descending)
            if reverse_key in self._sorted:
                cached = self._sorted[reverse_key][::-1]
            else:
                ascending = self._ascending(self.sort_column)
                cached = ascending[::-1] if self.descending else ascending
            self._sorted[key] = cached
        return cached

    def _ascending(self, column: int) -> list[FactRow]:
        by_title = self._sorted.get((COL_TITLE, False))
        if by_title is None:
            by_title = self._sorted[(COL_TITLE, False)] = sorted(self.rows, key=_TITLE_KEY)
        if column == COL_TITLE:
            return by_title
        return sorted(by_title, key=_PRIMARY_KEYS[column])

    def apply(self) -> list[FactRow]:
        rows = self._sorted_rows()
        if self.type:
            rows = [r for r in rows if r.type == self.type]
        if self.scope:
            rows = [r for r in rows if r.scope == self.scope]
        if self.freshness:
            rows = [r for r in rows if r.freshness == self.freshness]
        words = self.query.lower().split()
        if words and not self._searchable:
            fill_haystacks(self.rows)
            self._searchable = True
        for word in words:
            rows = [r for r in rows if word in r.haystack]  # type: ignore[operator]
        return rows


class FactTableModel(QAbstractTableModel):
    """A read-only view of ``rows``; ``set_rows`` resets it (cheap: no per-row Python work)."""

    sig_sort_requested = Signal(int, object)
    """(column, Qt.SortOrder) the header was clicked; the owner re-sorts and calls set_rows."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self._rows: list[FactRow] = []
        self._times: dict[tuple[str, int], str] = {}
        self.conflict_ids: frozenset[str] = frozenset()
        self.compact_dates = False  # Updated shows the date only (a narrow table)
        self._fresh_brushes: dict[str, QBrush] = {}

    @property
    def rows(self) -> list[FactRow]:
        return self._rows

    def set_rows(self, rows: list[FactRow]) -> None:
        self.beginResetModel()
        self._rows = rows
        if len(self._times) > 4096:
            self._times.clear()
        self.endResetModel()

    def set_compact_dates(self, compact: bool) -> None:
        self.compact_dates = compact
        if self._rows:
            self.dataChanged.emit(
                self.index(0, COL_UPDATED),
                self.index(len(self._rows) - 1, COL_UPDATED),
                [Qt.ItemDataRole.DisplayRole],
            )

    def set_conflicts(self, ids: frozenset[str]) -> None:
        """Mark the facts in a project-over-global pair (⚠ in the title column)."""
        if ids == self.conflict_ids:
            return
        self.conflict_ids = ids
        if self._rows:
            self.dataChanged.emit(
                self.index(0, COL_TITLE),
                self.index(len(self._rows) - 1, COL_TITLE),
                [Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole],
            )

    def row_of(self, fact_id: str) -> int:
        for i, row in enumerate(self._rows):
            if row.id == fact_id:
                return i
        return -1

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(COLUMNS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(COLUMNS):
            if role == Qt.ItemDataRole.DisplayRole:
                return lookup("Columns", COLUMNS[section])
            if role == Qt.ItemDataRole.ToolTipRole and section == COL_UPDATED:
                return lookup("Columns", UPDATED_TIP).format(offset=utc_offset())
            if role == Qt.ItemDataRole.TextAlignmentRole and section == COL_REVISION:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        r = index.row()
        if r < 0 or r >= len(self._rows):
            return None
        row = self._rows[r]
        col = index.column()
        if role == Qt.ItemDataRole.DisplayRole:
            if col == COL_TITLE:
                return f"⚠ {row.title}" if row.id in self.conflict_ids else row.title
            if col == COL_TYPE:
                return type_label(row.type)
            if col == COL_SCOPE:
                return scope_label(row.scope)
            if col == COL_FRESHNESS:
                return freshness_label(row.freshness)
            if col == COL_REVISION:
                return str(row.revision)
            if col == COL_UPDATED:
                # formatted on demand: only visible rows pay for strftime
                key = (row.id, row.revision)
                text = self._times.get(key)
                if text is None:
                    text = self._times[key] = local_time(row.fact.updated_at)
                return text[:10] if self.compact_dates else text
            return None
        if role == Qt.ItemDataRole.ToolTipRole:
            if col == COL_UPDATED:
                return local_time(row.fact.updated_at)
            if row.id in self.conflict_ids:
                return translate(
                    "MemoryTab", "{ref} — part of a project-over-global pair (see the banner)"
                ).format(ref=row.ref)
            return row.ref
        if role == Qt.ItemDataRole.ForegroundRole and col == COL_FRESHNESS:
            return self._brush(row.freshness)
        if role == Qt.ItemDataRole.TextAlignmentRole and col == COL_REVISION:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.UserRole:
            return row.id
        return None

    def _brush(self, freshness: str) -> QBrush:
        colour = freshness_colour(freshness)
        brush = self._fresh_brushes.get(colour)
        if brush is None:
            brush = self._fresh_brushes[colour] = QBrush(QColor(colour))
        return brush

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """The header asks; the tab sorts in Python (``FactFilter``) and calls ``set_rows``."""
        self.sig_sort_requested.emit(column, order)
