"""Labels every tab and dialog builds the same way: selectable plain text, and a tab heading."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel


def plain_label(text: str = "", name: str = "") -> QLabel:
    """A word-wrapping, mouse-selectable label that shows ``text`` as plain text (never HTML)."""
    label = QLabel(text)
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    if name:
        label.setObjectName(name)
    return label


def tab_heading(text: str) -> QLabel:
    """A tab's bold heading, 1.2 times the body font (object name ``tabHeading``)."""
    heading = QLabel(text)
    heading.setObjectName("tabHeading")
    font = heading.font()
    font.setPointSizeF(font.pointSizeF() * 1.2)
    font.setBold(True)
    heading.setFont(font)
    return heading
