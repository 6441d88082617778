"""The one application stylesheet, written from a scheme's colours (``style.Tones``)."""

from __future__ import annotations

TEMPLATE = """
QMainWindow, QDialog {{ background: {window}; }}
QMenuBar {{ background: {base}; color: {text}; border-bottom: 1px solid {grid}; }}
QMenuBar::item:selected {{ background: {selection}; }}
QMenu {{ background: {base}; color: {text}; border: 1px solid {border}; }}
QMenu::item:selected {{ background: {selection}; color: {text}; }}
QMenu::item:disabled {{ color: {faint}; }}
QToolBar#mainToolbar {{
    background: {base}; border: none; border-bottom: 1px solid {border};
    padding: 6px 10px; spacing: 8px;
}}
QLabel#toolbarCaption {{ color: {muted}; padding-left: 2px; }}
QComboBox#workspacePicker {{ min-width: 260px; }}
QToolButton#approvalsBadge {{
    padding: 5px 12px; border: 1px solid {border}; border-radius: 14px; background: {base};
    color: {text};
}}
QToolButton#approvalsBadge[pending="true"] {{
    background: {badge_bg}; border-color: {badge_border}; color: {badge_text}; font-weight: 600;
}}
QTabWidget::pane {{ border: none; border-top: 1px solid {border}; background: {base}; top: -1px; }}
QTabBar::tab {{
    padding: 8px 14px; margin-right: 2px; color: {muted}; background: transparent;
    border: none; border-bottom: 2px solid transparent;
}}
QTabBar::tab:selected {{ color: {text}; border-bottom: 2px solid {accent}; font-weight: 600; }}
QTabBar::tab:hover:!selected {{ color: {text}; }}
QTableView, QTreeView, QListView {{
    background: {base}; alternate-background-color: {alt_base}; border: 1px solid {border};
    border-radius: 6px; selection-background-color: {selection}; selection-color: {text};
    gridline-color: {grid}; color: {text};
}}
QTableView:focus, QTreeView:focus, QListView:focus {{ border-color: {accent}; }}
QTableView::item, QTreeView::item {{ padding: 2px 6px; }}
QHeaderView::section {{
    background: {window}; color: {muted}; border: none; border-bottom: 1px solid {border};
    border-right: 1px solid {grid}; padding: 6px 8px; font-weight: 600;
}}
QLineEdit, QComboBox, QPlainTextEdit, QTextEdit, QSpinBox {{
    background: {base}; color: {text}; border: 1px solid {border}; border-radius: 6px;
    padding: 5px 8px; selection-background-color: {text_selection}; selection-color: {text};
}}
QComboBox {{ padding-right: 24px; }}
QComboBox::drop-down {{
    subcontrol-origin: padding; subcontrol-position: center right; width: 22px; border: none;
}}
QComboBox::down-arrow {{ image: url("{arrow}"); width: 10px; height: 10px; }}
QComboBox QAbstractItemView {{
    border: 1px solid {border}; background: {base}; selection-background-color: {selection};
    selection-color: {text}; outline: none;
}}
QLineEdit:focus, QComboBox:focus, QPlainTextEdit:focus, QTextEdit:focus {{
    border-color: {accent};
}}
QLineEdit[readOnly="true"] {{ background: transparent; border: none; padding: 1px 0; }}
QTextBrowser {{ background: {base}; color: {text}; border: 1px solid {border}; border-radius: 6px; }}
QTextBrowser:focus {{ border-color: {accent}; }}
QPushButton {{
    background: {base}; border: 1px solid {border}; border-radius: 6px; padding: 6px 14px;
    color: {text};
}}
QPushButton:hover {{ background: {hover}; }}
QPushButton:pressed {{ background: {pressed}; }}
QPushButton:focus {{ border-color: {accent}; }}
QPushButton:disabled {{ color: {faint}; background: {window}; }}
QPushButton:default, QPushButton[primary="true"] {{
    background: {accent}; border-color: {accent}; color: {on_accent};
}}
QPushButton:default:disabled, QPushButton[primary="true"]:disabled {{
    background: {accent_disabled}; border-color: {accent_disabled}; color: {on_accent_disabled};
}}
QPushButton[destructive="true"] {{ color: {danger}; }}
QPushButton[destructive="true"]:disabled {{ color: {faint}; }}
QPushButton:flat {{ border: none; background: transparent; color: {accent}; padding: 2px 6px; }}
QFrame#conflictBanner {{
    background: {warn_bg}; border: 1px solid {warn_border}; border-radius: 6px; color: {warn_text};
}}
QFrame#conflictBanner QLabel {{ color: {warn_text}; }}
QFrame#noticeBanner {{
    background: {notice_bg}; border: 1px solid {notice_border}; border-radius: 6px;
}}
QFrame#errorBanner {{
    background: {error_bg}; border: 1px solid {error_border}; border-radius: 6px;
}}
QFrame#errorBanner QLabel {{ color: {error_text}; }}
QLabel#staleBanner, QLabel#failClosedNotice, QLabel#prefixWarning, QLabel#targetWarning {{
    background: {warn_bg}; color: {warn_text}; border: 1px solid {warn_border};
    border-radius: 4px; padding: 8px;
}}
QLabel#conflictBanner, QLabel#sensitiveBanner {{
    background: {error_bg}; color: {error_text}; border: 1px solid {error_border};
    border-radius: 4px; padding: 8px;
}}
QFrame#detailPane {{ background: {base}; border: 1px solid {border}; border-radius: 6px; }}
QFrame#provenance {{ background: {window}; border: 1px solid {grid}; border-radius: 6px; }}
QLabel#detailTitle {{ font-size: {title_pt}pt; font-weight: 600; color: {text}; }}
QLabel#detailDescription, QLabel#metaKey, QLabel#emptyInbox {{ color: {muted}; }}
QLabel#sectionCaption {{ color: {muted}; font-weight: 600; }}
QToolButton#provenanceToggle {{
    color: {muted}; font-weight: 600; border: none; background: transparent; padding: 0;
}}
QLabel#hint, QLabel#countLabel {{ color: {muted}; }}
QLabel#prefixLength {{ color: {muted}; font-weight: 600; }}
QStatusBar {{ background: {base}; border-top: 1px solid {border}; color: {muted}; }}
QStatusBar QLabel {{ color: {muted}; padding: 0 8px; }}
QSplitter::handle {{ background: transparent; }}
QSplitter::handle:horizontal {{ width: 10px; }}
QSplitter::handle:vertical {{ height: 10px; }}
QGroupBox {{
    border: 1px solid {border}; border-radius: 6px; margin-top: 14px; padding: 10px 8px 8px 8px;
    background: {base};
}}
QGroupBox::title {{
    subcontrol-origin: margin; left: 10px; padding: 0 4px; color: {muted}; font-weight: 600;
}}
QToolTip {{ background: {base}; color: {text}; border: 1px solid {border}; }}
"""


def build(colours: dict[str, str], base_pt: float, arrow: str) -> str:
    """The stylesheet for ``colours`` (a ``Tones`` as a dict) and the desktop font size."""
    return TEMPLATE.format(**colours, arrow=arrow, title_pt=f"{base_pt * 1.45:.1f}")
