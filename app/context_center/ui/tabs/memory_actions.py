"""The Memory tab's commands as ``QAction`` objects, and the buttons that trigger them.

New fact (Ctrl+N, anywhere in the window), Edit (Enter while the table has focus), Forget
(Delete anywhere in the tab but a text field, which keeps Delete for itself) and Revisions
(Ctrl+R in the tab). The window's menu bar shows the same actions.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QPushButton, QTableView

from context_center.ui.tabs.memory_text import TEXT
from context_center.ui.widgets.actions import add_actions, bind_button, make_action

if TYPE_CHECKING:
    from context_center.ui.tabs.memory import MemoryTab


def _button(text: str, name: str, action: QAction) -> QPushButton:
    button = QPushButton(text)
    button.setObjectName(name)
    bind_button(button, action)
    return button


def build_actions(tab: MemoryTab) -> None:
    """Set ``tab.act_*`` and ``tab.btn_*``."""
    within = Qt.ShortcutContext.WidgetWithChildrenShortcut
    tab.act_new = make_action(
        tab,
        TEXT["new"],
        "actNewFact",
        tab.on_new,
        shortcuts=[QKeySequence.StandardKey.New],
        tip=TEXT["new_tip"],
    )
    tab.act_edit = make_action(
        tab,
        TEXT["edit"],
        "actEditFact",
        tab.on_edit,
        shortcuts=["Return", "Enter"],
        context=Qt.ShortcutContext.WidgetShortcut,
        tip=TEXT["edit_tip"],
    )
    tab.act_forget = make_action(
        tab,
        TEXT["forget"],
        "actForgetFact",
        tab.on_forget,
        shortcuts=[QKeySequence.StandardKey.Delete],
        context=within,
        tip=TEXT["forget_tip"],
    )
    tab.act_revisions = make_action(
        tab,
        TEXT["revisions"],
        "actShowRevisions",
        tab.show_revisions_of_current,
        shortcuts=["Ctrl+R"],
        context=within,
        tip=TEXT["revisions_tip"],
    )
    tab.btn_new = _button(TEXT["new"], "newFact", tab.act_new)
    tab.btn_edit = _button(TEXT["edit"], "editFact", tab.act_edit)
    tab.btn_forget = _button(TEXT["forget"], "forgetFact", tab.act_forget)
    tab.btn_forget.setProperty("destructive", True)
    tab.btn_revisions = _button(TEXT["revisions"], "showRevisions", tab.act_revisions)
    # Delete and Ctrl+R anywhere in the tab; Enter only in the table (the tab adds it there).
    add_actions(tab, [tab.act_forget, tab.act_revisions])


def install_table_menu(tab: MemoryTab, table: QTableView) -> None:
    """Enter edits while ``table`` has focus; the table's context menu and the selection's
    rename / change type / move commands (``memory_bulk.MemoryBulk``)."""
    from context_center.ui.tabs.memory_bulk import MemoryBulk

    table.addAction(tab.act_edit)
    MemoryBulk(tab, table)
