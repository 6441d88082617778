"""The menu bar: every command of the window with its shortcut, and About.

The Memory commands are the tab's own ``QAction`` objects (the same ones its buttons trigger),
so a shortcut, a button and a menu item can never disagree. File: New fact (Ctrl+N), Switch
workspace… (Ctrl+O), Quit (Ctrl+Q). Edit: Undo (Ctrl+Z, the status bar's undo), Edit (Enter
in the table), Forget (Delete), Revisions (Ctrl+R), Find (Ctrl+F), then the other tabs'
commands (``tab_commands.py``: Accept/Dismiss a suggestion, Review/Reject approvals, Recover,
Save/Revert an instruction file), each enabled only on its tab. View: one item per tab (Ctrl+1 … Ctrl+9). Help: Keyboard
shortcuts, About.
"""

from __future__ import annotations

import functools
import platform
from typing import TYPE_CHECKING

from PySide6 import __version__ as PYSIDE_VERSION
from PySide6.QtCore import Qt, qVersion
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QMenuBar, QMessageBox

from context_center import APP_DISPLAY_NAME
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.language_menu import LanguageMenu
from context_center.ui.tab_commands import TabCommands
from context_center.ui.tabs.memory_bulk import bulk_of
from context_center.ui.widgets.actions import make_action, shortcut_text

if TYPE_CHECKING:
    from context_center.ui.main_window import MainWindow

TEXT = Texts(
    "Menus",
    {
        "file": QT_TRANSLATE_NOOP("Menus", "&File"),
        "edit": QT_TRANSLATE_NOOP("Menus", "&Edit"),
        "view": QT_TRANSLATE_NOOP("Menus", "&View"),
        "help": QT_TRANSLATE_NOOP("Menus", "&Help"),
        "switch": QT_TRANSLATE_NOOP("Menus", "Switch &workspace…"),
        "quit": QT_TRANSLATE_NOOP("Menus", "&Quit"),
        "find": QT_TRANSLATE_NOOP("Menus", "&Find…"),
        "shortcuts": QT_TRANSLATE_NOOP("Menus", "&Keyboard shortcuts"),
        "about": QT_TRANSLATE_NOOP("Menus", "&About Context Center"),
        "about_title": QT_TRANSLATE_NOOP("Menus", "About Context Center"),
        "about_text": QT_TRANSLATE_NOOP("Menus", "<b>{name}</b> {version}"),
        "about_info": (
            QT_TRANSLATE_NOOP(
                "Menus",
                "See, edit and govern the context AI coding agents carry: memory facts, standing "
                "instructions, recall and the approval of agent writes.\n\n"
                "Home: {home}\nQt {qt} · PySide6 {pyside} · Python {python}",
            )
        ),
        "shortcuts_title": QT_TRANSLATE_NOOP("Menus", "Keyboard shortcuts"),
        "shortcuts_text": QT_TRANSLATE_NOOP(
            "Menus", "Every command of the window and its shortcut"
        ),
        "shortcuts_extra": (
            QT_TRANSLATE_NOOP(
                "Menus",
                "Tab / Shift+Tab\tmove between the parts of a tab\n"
                "Ctrl+S\tsave in the fact editor, accept in the Suggestions editor, approve the "
                "edited copy in the approval dialog\n"
                "Escape\tclose a dialog (asks first when text would be lost)",
            )
        ),
    },
)


class WindowMenus:
    """Builds the menu bar of ``window`` and keeps the actions it made."""

    def __init__(self, window: MainWindow) -> None:
        self.window = window
        memory = window.memory_tab
        self.act_switch = make_action(
            window, TEXT["switch"], "actSwitchWorkspace", self._switch, shortcuts=["Ctrl+O"]
        )
        self.act_quit = make_action(
            window,
            TEXT["quit"],
            "actQuit",
            window.close,
            shortcuts=["Ctrl+Q"],
        )
        self.act_quit.setMenuRole(QAction.MenuRole.QuitRole)
        self.act_find = make_action(
            window,
            TEXT["find"],
            "actFind",
            window.focus_search,
            shortcuts=[QKeySequence.StandardKey.Find],
        )
        self.act_shortcuts = make_action(
            window, TEXT["shortcuts"], "actShortcuts", self.show_shortcuts
        )
        self.act_about = make_action(window, TEXT["about"], "actAbout", self.show_about)
        self.act_about.setMenuRole(QAction.MenuRole.AboutRole)
        self.tab_actions: list[QAction] = []

        bar: QMenuBar = window.menuBar()
        bar.setObjectName("menuBar")
        file_menu = bar.addMenu(TEXT["file"])
        file_menu.addAction(memory.act_new)
        file_menu.addAction(self.act_switch)
        file_menu.addSeparator()
        file_menu.addAction(self.act_quit)
        edit_menu = bar.addMenu(TEXT["edit"])
        for action in (memory.act_edit, memory.act_forget, *bulk_of(memory).actions):
            edit_menu.addAction(action)
            # from the menu the Memory command acts on the Memory tab: show it
            action.triggered.connect(lambda _c=False: window.show_tab(memory))
        edit_menu.addAction(memory.act_revisions)  # shows the Revisions tab itself
        memory.act_new.triggered.connect(lambda _c=False: window.show_tab(memory))
        edit_menu.addSeparator()
        edit_menu.addAction(self.act_find)
        self.commands = TabCommands(window, edit_menu)  # Undo and the other tabs' commands
        self.view_menu = bar.addMenu(TEXT["view"])
        for i in range(window.tabs.count()):
            self._add_tab_action(i)
        self.view_menu.addSeparator()
        self.language = LanguageMenu(window, self.view_menu)
        help_menu = bar.addMenu(TEXT["help"])
        help_menu.addAction(self.act_shortcuts)
        help_menu.addAction(self.act_about)
        self.menus = [file_menu, edit_menu, self.view_menu, help_menu]
        window.tabs.tabBar().tabMoved.connect(lambda *_: self._rename_tabs())

    def _add_tab_action(self, index: int) -> None:
        keys = [f"Ctrl+{index + 1}"] if index < 9 else []
        action = make_action(
            self.window,
            self._tab_text(index),
            f"actShowTab{index + 1}",
            functools.partial(self.window.tabs.setCurrentIndex, index),
            shortcuts=keys,
        )
        self.view_menu.addAction(action)
        self.tab_actions.append(action)

    def _tab_text(self, index: int) -> str:
        return self.window.tabs.tabText(index).split(" (")[0]

    def _rename_tabs(self) -> None:
        for i, action in enumerate(self.tab_actions):
            action.setText(self._tab_text(i))

    def all_actions(self) -> list[QAction]:
        """Every action in the menu bar (tests check each has its shortcut)."""
        return [a for menu in self.menus for a in menu.actions() if not a.isSeparator()]

    def _switch(self) -> None:
        picker = self.window.picker
        picker.setFocus(Qt.FocusReason.ShortcutFocusReason)
        picker.showPopup()

    def shortcuts_text(self) -> str:
        """One line per key: the menu commands first, then the keys that act within a pane
        or a dialog; a key that does both (Ctrl+S saves the instruction file and, in an
        editor, that editor's text) is one line saying both."""
        said: dict[str, list[str]] = {}
        for action in self.all_actions():
            keys = shortcut_text(action)
            if keys:
                said.setdefault(keys, []).append(action.text().replace("&", ""))
        for line in TEXT["shortcuts_extra"].splitlines():
            keys, _, what = line.partition("\t")
            said.setdefault(keys, []).append(what)
        return "\n".join(f"{keys}\t{'; '.join(whats)}" for keys, whats in said.items())

    def _message(self, name: str, title: str, text: str, info: str) -> QMessageBox:
        box = QMessageBox(self.window)
        box.setObjectName(name)
        box.setWindowTitle(title)
        box.setText(text)
        box.setInformativeText(info)
        box.setStandardButtons(QMessageBox.StandardButton.Ok)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.window.ctx.last_dialog = box
        box.open()
        return box

    def show_shortcuts(self) -> QMessageBox:
        return self._message(
            "shortcutsDialog",
            TEXT["shortcuts_title"],
            TEXT["shortcuts_text"],
            self.shortcuts_text(),
        )

    def show_about(self) -> QMessageBox:
        from context_center import __version__

        info = TEXT["about_info"].format(
            home=self.window.ctx.engine.home,
            qt=qVersion(),
            pyside=PYSIDE_VERSION,
            python=platform.python_version(),
        )
        text = TEXT["about_text"].format(name=APP_DISPLAY_NAME, version=__version__)
        box = self._message("aboutDialog", TEXT["about_title"], text, info)
        box.setIconPixmap(self.window.windowIcon().pixmap(64, 64))
        return box
