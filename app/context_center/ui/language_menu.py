"""View → Language: System / English / 中文, kept in the window's QSettings.

The choice is saved under ``i18n.LANGUAGE_KEY`` and applies at the next start (every widget
reads its strings when it is built); the status bar says so in the chosen language. The
language names stay in their own language ("English", "中文"); "System" is translated.
``--language`` / ``$CONTEXT_CENTER_LANGUAGE`` override the saved choice for one run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from context_center.ui.i18n import (
    CHINESE,
    ENGLISH,
    LANGUAGE_KEY,
    QT_TRANSLATE_NOOP,
    SYSTEM,
    resolve_language,
    saved_choice,
    translate,
    translate_in,
)

if TYPE_CHECKING:
    from context_center.ui.main_window import MainWindow

RESTART_NOTE = QT_TRANSLATE_NOOP("Menus", "The language changes when Context Center starts next.")


class LanguageMenu:
    """The submenu and its three checkable actions (``actions[choice]``)."""

    def __init__(self, window: MainWindow, parent: QMenu) -> None:
        self.window = window
        self.menu = parent.addMenu(translate("Menus", "&Language"))
        self.menu.setObjectName("languageMenu")
        group = QActionGroup(self.menu)
        group.setExclusive(True)
        names = {
            SYSTEM: translate("Menus", "System"),
            ENGLISH: "English",
            CHINESE: "中文",
        }
        saved = saved_choice(window.settings)
        self.actions: dict[str, QAction] = {}
        for choice, name in names.items():
            action = QAction(name, self.menu)
            action.setObjectName(f"actLanguage_{choice}")
            action.setCheckable(True)
            action.setChecked(choice == saved)
            action.triggered.connect(lambda _c=False, c=choice: self.choose(c))
            group.addAction(action)
            self.menu.addAction(action)
            self.actions[choice] = action

    def choose(self, choice: str) -> None:
        """Save ``choice``; say (in the language it will show) that it applies at the next start."""
        settings = self.window.settings
        settings.setValue(LANGUAGE_KEY, choice)
        settings.sync()
        self.actions[choice].setChecked(True)
        language = resolve_language(override=choice)
        self.window.ctx.status(translate_in(language, "Menus", RESTART_NOTE))
