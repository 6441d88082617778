"""A stacked widget sized by the page it shows.

``QStackedWidget`` asks for the largest size and minimum of all its pages, so a hidden page
(the Suggestions editor behind its "no suggestions" note) keeps the window from being made
900×600. ``PageStack`` reports the current page's size hints only and asks its parents to lay
out again whenever the page changes.
"""

from __future__ import annotations

from PySide6.QtCore import QSize
from PySide6.QtWidgets import QStackedWidget, QWidget


class PageStack(QStackedWidget):
    """A ``QStackedWidget`` whose size hints are those of its current page."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentChanged.connect(self._page_changed)

    def _page_changed(self, _index: int) -> None:
        self.updateGeometry()

    def sizeHint(self) -> QSize:
        page = self.currentWidget()
        return page.sizeHint() if page is not None else super().sizeHint()

    def minimumSizeHint(self) -> QSize:
        page = self.currentWidget()
        return page.minimumSizeHint() if page is not None else super().minimumSizeHint()
