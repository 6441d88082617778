"""The application's look: the Fusion style, a light palette, one stylesheet, CJK-capable fonts.

Kept in one place so every tab gets the same spacing, colours and type. Object names used here
(``conflictBanner``, ``detailTitle``, ``hint``…) are set by the widgets that want them.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QFontDatabase, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import QApplication

ACCENT = "#0a63c9"
TEXT = "#1f2328"
MUTED = "#57606a"
BORDER = "#d0d7de"
WINDOW = "#f6f8fa"
BASE = "#ffffff"

# Preferred UI families; the first installed one wins. Noto Sans CJK covers Latin and Chinese
# with matching metrics, so mixed English/Chinese lines do not jump in height.
UI_FAMILIES = ("Noto Sans CJK SC", "Noto Sans", "DejaVu Sans", "WenQuanYi Micro Hei")
MONO_FAMILIES = ("DejaVu Sans Mono", "Noto Sans Mono CJK SC", "Noto Sans Mono", "monospace")

STYLESHEET = f"""
QMainWindow, QDialog {{ background: {WINDOW}; }}
QToolBar#mainToolbar {{
    background: {BASE}; border: none; border-bottom: 1px solid {BORDER};
    padding: 6px 10px; spacing: 8px;
}}
QLabel#toolbarCaption {{ color: {MUTED}; padding-left: 2px; }}
QComboBox#workspacePicker {{ min-width: 360px; }}
QToolButton#approvalsBadge {{
    padding: 5px 12px; border: 1px solid {BORDER}; border-radius: 14px; background: {BASE};
    color: {TEXT};
}}
QToolButton#approvalsBadge[pending="true"] {{
    background: #fff1e5; border-color: #f0b37e; color: #953800; font-weight: 600;
}}
QTabWidget::pane {{ border: none; border-top: 1px solid {BORDER}; background: {BASE}; top: -1px; }}
QTabBar::tab {{
    padding: 8px 16px; margin-right: 2px; color: {MUTED}; background: transparent;
    border: none; border-bottom: 2px solid transparent;
}}
QTabBar::tab:selected {{ color: {TEXT}; border-bottom: 2px solid {ACCENT}; font-weight: 600; }}
QTabBar::tab:hover:!selected {{ color: {TEXT}; }}
QTableView, QTreeView, QListView {{
    background: {BASE}; alternate-background-color: #f8fafc; border: 1px solid {BORDER};
    border-radius: 6px; selection-background-color: #dbeafe; selection-color: {TEXT};
    gridline-color: #eaeef2;
}}
QTableView::item, QTreeView::item {{ padding: 2px 6px; }}
QHeaderView::section {{
    background: {WINDOW}; color: {MUTED}; border: none; border-bottom: 1px solid {BORDER};
    border-right: 1px solid #eaeef2; padding: 6px 8px; font-weight: 600;
}}
QLineEdit, QComboBox, QPlainTextEdit, QTextEdit, QSpinBox {{
    background: {BASE}; border: 1px solid {BORDER}; border-radius: 6px; padding: 5px 8px;
    selection-background-color: #b6d4fe; selection-color: {TEXT};
}}
QComboBox {{ padding-right: 24px; }}
QComboBox::drop-down {{
    subcontrol-origin: padding; subcontrol-position: center right; width: 22px; border: none;
}}
QComboBox::down-arrow {{ image: url("@ARROW@"); width: 10px; height: 10px; }}
QComboBox QAbstractItemView {{
    border: 1px solid {BORDER}; background: {BASE}; selection-background-color: #dbeafe;
    selection-color: {TEXT}; outline: none;
}}
QLineEdit:focus, QComboBox:focus, QPlainTextEdit:focus, QTextEdit:focus {{
    border-color: {ACCENT};
}}
QLineEdit[readOnly="true"] {{ background: transparent; border: none; padding: 1px 0; }}
QTextBrowser {{ background: {BASE}; border: 1px solid {BORDER}; border-radius: 6px; }}
QPushButton {{
    background: {BASE}; border: 1px solid {BORDER}; border-radius: 6px; padding: 6px 14px;
    color: {TEXT};
}}
QPushButton:hover {{ background: #f3f4f6; }}
QPushButton:pressed {{ background: #e5e7eb; }}
QPushButton:disabled {{ color: #8c959f; background: {WINDOW}; }}
QPushButton:default, QPushButton[primary="true"] {{
    background: {ACCENT}; border-color: {ACCENT}; color: white;
}}
QPushButton:default:disabled, QPushButton[primary="true"]:disabled {{
    background: #9ec5f0; border-color: #9ec5f0;
}}
QPushButton[destructive="true"] {{ color: #cf222e; }}
QPushButton[destructive="true"]:disabled {{ color: #8c959f; }}
QFrame#conflictBanner {{
    background: #fff8c5; border: 1px solid #e6d279; border-radius: 6px;
}}
QFrame#noticeBanner {{
    background: #ddf4ff; border: 1px solid #9cd1f5; border-radius: 6px;
}}
QFrame#errorBanner {{
    background: #ffebe9; border: 1px solid #f5a3a3; border-radius: 6px;
}}
QFrame#detailPane {{ background: {BASE}; border: 1px solid {BORDER}; border-radius: 6px; }}
QFrame#provenance {{ background: {WINDOW}; border: 1px solid #eaeef2; border-radius: 6px; }}
QLabel#detailTitle {{ font-size: 15pt; font-weight: 600; color: {TEXT}; }}
QLabel#detailDescription {{ color: {MUTED}; }}
QLabel#sectionCaption {{ color: {MUTED}; font-weight: 600; }}
QLabel#hint, QLabel#countLabel {{ color: {MUTED}; }}
QLabel#prefixLength {{ color: {MUTED}; font-weight: 600; }}
QStatusBar {{ background: {BASE}; border-top: 1px solid {BORDER}; color: {MUTED}; }}
QStatusBar QLabel {{ color: {MUTED}; padding: 0 8px; }}
QSplitter::handle {{ background: transparent; }}
QSplitter::handle:horizontal {{ width: 10px; }}
QSplitter::handle:vertical {{ height: 10px; }}
QGroupBox {{
    border: 1px solid {BORDER}; border-radius: 6px; margin-top: 14px; padding: 10px 8px 8px 8px;
    background: {BASE};
}}
QGroupBox::title {{ subcontrol-origin: margin; left: 10px; padding: 0 4px; color: {MUTED}; font-weight: 600; }}
"""


def pick_family(candidates: tuple[str, ...]) -> str | None:
    available = set(QFontDatabase.families())
    for name in candidates:
        if name in available:
            return name
    return None


def apply_style(app: QApplication) -> None:
    app.setStyle("Fusion")
    pal = QPalette()
    pal.setColor(QPalette.ColorRole.Window, QColor(WINDOW))
    pal.setColor(QPalette.ColorRole.Base, QColor(BASE))
    pal.setColor(QPalette.ColorRole.AlternateBase, QColor("#f8fafc"))
    pal.setColor(QPalette.ColorRole.Text, QColor(TEXT))
    pal.setColor(QPalette.ColorRole.WindowText, QColor(TEXT))
    pal.setColor(QPalette.ColorRole.ButtonText, QColor(TEXT))
    pal.setColor(QPalette.ColorRole.Button, QColor(BASE))
    pal.setColor(QPalette.ColorRole.Highlight, QColor("#dbeafe"))
    pal.setColor(QPalette.ColorRole.HighlightedText, QColor(TEXT))
    pal.setColor(QPalette.ColorRole.Link, QColor(ACCENT))
    pal.setColor(QPalette.ColorRole.ToolTipBase, QColor(BASE))
    pal.setColor(QPalette.ColorRole.ToolTipText, QColor(TEXT))
    pal.setColor(QPalette.ColorRole.PlaceholderText, QColor("#8c959f"))
    app.setPalette(pal)
    family = pick_family(UI_FAMILIES)
    if family:
        font = QFont(family)
        font.setPointSizeF(10.0)
        app.setFont(font)
    app.setStyleSheet(STYLESHEET.replace("@ARROW@", _arrow_file().as_posix()))


def _arrow_file() -> Path:
    """A small chevron for combo boxes, drawn once per user into the temp directory.

    Qt style sheets take images only from files or resources; drawing it here keeps the
    package free of a compiled resource file.
    """
    folder = (
        Path(tempfile.gettempdir())
        / f"context-center-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    )
    path = folder / "chevron-down-v1.png"
    if path.is_file():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    pix = QPixmap(20, 20)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor(MUTED), 2.4)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.drawPolyline([QPointF(4, 7), QPointF(10, 13), QPointF(16, 7)])
    painter.end()
    tmp = folder / f".chevron-{os.getpid()}.png"
    pix.save(str(tmp), "PNG")
    os.replace(tmp, path)
    return path


def mono_font() -> QFont:
    family = pick_family(MONO_FAMILIES)
    font = QFont(family) if family else QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPointSizeF(9.5)
    return font
