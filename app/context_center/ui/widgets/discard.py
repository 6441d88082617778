"""One question before typed text is thrown away: "Discard changes" or "Keep editing".

``ask_discard(parent, text, on_discard)`` opens it window-modal on ``parent`` without a nested
event loop and calls ``on_discard`` only when the person chose to discard; Escape and Enter
keep editing. The box is returned (tests click its buttons: ``discardChanges``,
``keepEditing``).
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtWidgets import QMessageBox, QWidget

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts

TEXT = Texts(
    "Discard",
    {
        "title": QT_TRANSLATE_NOOP("Discard", "Discard changes?"),
        "info": QT_TRANSLATE_NOOP("Discard", "Discard them, or keep editing?"),
        "discard": QT_TRANSLATE_NOOP("Discard", "Discard changes"),
        "keep": QT_TRANSLATE_NOOP("Discard", "Keep editing"),
    },
)


def ask_discard(parent: QWidget, text: str, on_discard: Callable[[], None]) -> QMessageBox:
    box = QMessageBox(parent)
    box.setObjectName("discardDialog")
    box.setIcon(QMessageBox.Icon.Warning)
    box.setWindowTitle(TEXT["title"])
    box.setText(text)
    box.setInformativeText(TEXT["info"])
    discard = box.addButton(TEXT["discard"], QMessageBox.ButtonRole.DestructiveRole)
    discard.setObjectName("discardChanges")
    keep = box.addButton(TEXT["keep"], QMessageBox.ButtonRole.RejectRole)
    keep.setObjectName("keepEditing")
    box.setDefaultButton(keep)
    box.setEscapeButton(keep)

    def answered(_code: int) -> None:
        chosen = box.clickedButton() is discard
        box.deleteLater()
        if chosen:
            on_discard()

    box.finished.connect(answered)
    box.open()
    return box
