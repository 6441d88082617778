"""Actions shared by a button and the menu bar: one ``QAction`` per command, the button follows it.

A ``QPushButton`` cannot show a ``QAction`` itself; ``bind_button`` makes the button trigger the
action and mirror its enabled state and tooltip (with the shortcut), so disabling the action
(as ``@busy`` does with the names it is given) disables the button as well.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QAbstractButton, QWidget


def make_action(
    parent: QObject,
    text: str,
    name: str,
    slot: Callable[[], object] | None = None,
    *,
    shortcuts: Sequence[QKeySequence | QKeySequence.StandardKey | str] = (),
    context: Qt.ShortcutContext = Qt.ShortcutContext.WindowShortcut,
    tip: str = "",
) -> QAction:
    """An action named ``name`` (object name, for tests) with its shortcuts and tooltip."""
    action = QAction(text, parent)
    action.setObjectName(name)
    keys: list[QKeySequence] = []
    for key in shortcuts:
        if isinstance(key, QKeySequence.StandardKey):
            keys.extend(QKeySequence.keyBindings(key))
        else:
            keys.append(QKeySequence(key))
    if keys:
        action.setShortcuts(keys)
        action.setShortcutContext(context)
    if tip:
        action.setToolTip(tip)
    if slot is not None:
        action.triggered.connect(lambda _checked=False: slot())
    return action


def shortcut_text(action: QAction) -> str:
    """The first shortcut as the platform writes it ("Ctrl+N"), or ""."""
    keys = action.shortcuts()
    return keys[0].toString(QKeySequence.SequenceFormat.NativeText) if keys else ""


def bind_button(button: QAbstractButton, action: QAction) -> None:
    """``button`` triggers ``action`` and follows its enabled state; its tooltip names the
    shortcut."""

    def sync() -> None:
        button.setEnabled(action.isEnabled())
        tip = action.toolTip() or action.text().replace("&", "")
        keys = shortcut_text(action)
        button.setToolTip(f"{tip} ({keys})" if keys and keys not in tip else tip)

    button.clicked.connect(lambda _checked=False: action.trigger())
    action.changed.connect(sync)
    sync()


def add_actions(widget: QWidget, actions: Sequence[QAction]) -> None:
    """Make ``actions``' shortcuts live while focus is inside ``widget``."""
    for action in actions:
        widget.addAction(action)
