"""Column widths for a wrapping table whose explanation column must stay readable.

``share_columns(table, capped, stretch)``: the ``capped`` columns take their content's width
but at most their share of the room the fixed (resize-to-contents) columns leave, and wrap
beyond it, yet never narrower than their own heading (which read "ype · scope" at 900×600);
the ``stretch`` column takes the rest. So a long "type · scope" or fact ref wraps onto two
lines instead of squeezing the reasons into a one-word-per-line sliver at 900×600.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QHeaderView, QTableView


class _ColumnShare(QObject):
    def __init__(self, table: QTableView, capped: dict[int, float], stretch: int) -> None:
        super().__init__(table)
        self.table = table
        self.capped = capped
        self.stretch = stretch
        header = table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        for col in capped:
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.Interactive)
        header.setSectionResizeMode(stretch, QHeaderView.ResizeMode.Stretch)
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.fit)
        table.viewport().installEventFilter(self)
        model = table.model()
        if model is not None:
            for signal in (model.modelReset, model.rowsInserted, model.dataChanged):
                signal.connect(self._timer.start)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self._timer.start()
        return False

    def fit(self) -> None:
        table, header = self.table, self.table.horizontalHeader()
        fixed = sum(
            header.sectionSize(c)
            for c in range(header.count())
            if c not in self.capped and c != self.stretch and not header.isSectionHidden(c)
        )
        room = max(table.viewport().width() - fixed, 0)
        for col, share in self.capped.items():
            label = header.sectionSizeHint(col)  # never narrower than its own heading
            wanted = table.sizeHintForColumn(col)
            width = max(min(wanted, int(room * share)), label, header.minimumSectionSize())
            if header.sectionSize(col) != width:
                header.resizeSection(col, width)


def share_columns(table: QTableView, capped: dict[int, float], stretch: int) -> QObject:
    """Keep ``table``'s columns shared as the module says; returns the helper (owned by the
    table). Call after ``setModel``."""
    helper = _ColumnShare(table, capped, stretch)
    helper.fit()
    return helper
