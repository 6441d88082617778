"""Item colours given by tone name, so a model's colours follow a switch of scheme.

``set_tone(item, fg="danger")`` colours a ``QStandardItem`` in the scheme's tone now and
remembers the tone's name in the item; a ``TonedModel`` colours all its items again in the new
scheme's tones when the system switches between light and dark while the window is open.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QColor, QStandardItem, QStandardItemModel

from context_center.ui.style import follow_scheme, tone

FG_TONE = Qt.ItemDataRole.UserRole + 201
BG_TONE = Qt.ItemDataRole.UserRole + 202


def set_tone(item: QStandardItem, fg: str | None = None, bg: str | None = None) -> None:
    """Colour ``item``'s text (``fg``) and background (``bg``) in those tones of the scheme."""
    if fg is not None:
        item.setData(fg, FG_TONE)
        item.setForeground(QColor(tone(fg)))
    if bg is not None:
        item.setData(bg, BG_TONE)
        item.setBackground(QColor(tone(bg)))


def retone(item: QStandardItem) -> None:
    """Colour ``item`` and every item under it again, in the scheme's tones now."""
    fg, bg = item.data(FG_TONE), item.data(BG_TONE)
    if fg:
        item.setForeground(QColor(tone(fg)))
    if bg:
        item.setBackground(QColor(tone(bg)))
    for row in range(item.rowCount()):
        for col in range(item.columnCount()):
            child = item.child(row, col)
            if child is not None:
                retone(child)


class TonedModel(QStandardItemModel):
    """A ``QStandardItemModel`` whose ``set_tone`` colours follow the scheme."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        follow_scheme(self.retone)

    def retone(self) -> None:
        retone(self.invisibleRootItem())
