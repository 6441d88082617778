"""The Edit menu's commands of the other tabs, and Undo (the status bar's undo).

Each command presses its tab's own button (so the menu, the shortcut and the button do the
same thing) and is enabled only while its tab is the current one and the button is enabled:
Accept / Dismiss the suggestion (Suggestions), Review… / Reject selected… (Approvals),
Recover (Archive), Save / Revert the file (Instructions). Undo runs the status bar's Undo
(after a forget, a dismissal or a rejection) while it is offered.

Save is the Instructions document pane's own Ctrl+S action (bound within the pane, so Ctrl+S
elsewhere — the fact editor, the Suggestions editor — is theirs); the other shortcuts are
window-wide but only active while their command is enabled.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QMenu, QWidget

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.widgets.actions import make_action

if TYPE_CHECKING:
    from context_center.ui.main_window import MainWindow

TEXT = Texts(
    "Menus",
    {
        "undo": QT_TRANSLATE_NOOP("Menus", "&Undo the last forget, dismissal or rejection"),
        "accept": QT_TRANSLATE_NOOP("Menus", "&Accept the suggestion"),
        "dismiss": QT_TRANSLATE_NOOP("Menus", "&Dismiss the suggestion"),
        "review": QT_TRANSLATE_NOOP("Menus", "Re&view the pending write…"),
        "reject": QT_TRANSLATE_NOOP("Menus", "Re&ject the selected writes…"),
        "recover": QT_TRANSLATE_NOOP("Menus", "Re&cover from the archive"),
        "save": QT_TRANSLATE_NOOP("Menus", "&Save the instruction file"),
        "revert": QT_TRANSLATE_NOOP("Menus", "Re&vert the instruction file"),
    },
)


def _button(tab: QWidget, *, name: str) -> QAbstractButton:
    button = getattr(tab, name)
    assert isinstance(button, QAbstractButton), name
    return button


@dataclass(frozen=True)
class Command:
    action: QAction
    tab: Callable[[], QWidget | None]
    """The tab the command belongs to (None while a deferred tab is not built yet)."""
    button: Callable[[QWidget], QAbstractButton]


class TabCommands(QObject):
    """Adds the commands to ``menu`` and keeps their enabled state current."""

    def __init__(self, window: MainWindow, menu: QMenu) -> None:
        super().__init__(window)
        self.window = window
        self._watched: set[int] = set()
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.sync)

        undo = window.undo_offer
        self.act_undo = make_action(
            window, TEXT["undo"], "actUndo", undo.click,
            shortcuts=[QKeySequence.StandardKey.Undo],
        )  # fmt: skip
        first = menu.actions()[0] if menu.actions() else None
        menu.insertAction(first, self.act_undo)  # type: ignore[arg-type]
        if first is not None:
            menu.insertSeparator(first)
        undo.installEventFilter(self)

        def page(p: object) -> Callable[[], QWidget | None]:
            return lambda: getattr(p, "widget", None)

        suggestions, approvals = page(window.suggestions_page), lambda: window.approvals_tab
        archive, instructions = (lambda: window.archive_tab), (lambda: window.instructions_tab)
        pane = window.instructions_tab.doc_pane
        pane.act_save.setText(TEXT["save"])
        specs: list[tuple[QAction, Callable[[], QWidget | None], str]] = [
            (self._action("accept", "actAcceptSuggestion", "Ctrl+Return"), suggestions,
             "accept_button"),
            (self._action("dismiss", "actDismissSuggestion", "Ctrl+D"), suggestions,
             "dismiss_button"),
            (self._action("review", "actReviewApproval", "Ctrl+Shift+Return"), approvals,
             "review_button"),
            (self._action("reject", "actRejectApprovals", "Ctrl+Shift+D"), approvals,
             "reject_button"),
            (self._action("recover", "actRecoverArchived", "Ctrl+Shift+R"), archive,
             "btn_recover"),
            (pane.act_save, instructions, "btn_save"),
            (self._action("revert", "actRevertInstructions"), instructions, "btn_revert"),
        ]  # fmt: skip
        self.commands: list[Command] = []
        menu.addSeparator()
        for action, tab, name in specs:
            command = Command(action, tab, functools.partial(_button, name=name))
            if action is not pane.act_save:
                action.triggered.connect(lambda _c=False, c=command: self._press(c))
            menu.addAction(action)
            self.commands.append(command)
        window.tabs.currentChanged.connect(lambda _i: self._timer.start())
        menu.aboutToShow.connect(self.sync)
        self.sync()

    def _action(self, key: str, name: str, keys: str = "") -> QAction:
        return make_action(self.window, TEXT[key], name, shortcuts=[keys] if keys else [])

    def _current(self, command: Command) -> QAbstractButton | None:
        tab = command.tab()
        if tab is None or self.window.current_tab() is not tab:
            return None
        button = command.button(tab)
        if id(button) not in self._watched:  # follow its enabled state from now on
            self._watched.add(id(button))
            button.installEventFilter(self)
        return button

    def _press(self, command: Command) -> None:
        button = self._current(command)
        if button is not None and button.isEnabled():
            button.click()

    def sync(self) -> None:
        """Each command enabled only when its tab is current and can do it now."""
        self.act_undo.setEnabled(self.window.undo_offer.offered)
        for command in self.commands:
            button = self._current(command)
            command.action.setEnabled(button is not None and button.isEnabled())

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() in (QEvent.Type.EnabledChange, QEvent.Type.Show, QEvent.Type.Hide):
            self.sync()  # at once: a shortcut pressed right after typing finds it enabled
        return False
