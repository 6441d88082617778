"""Small dialogs of the Memory tab's bulk and single-fact commands: choose a new type for the
selected facts, or a new name for one fact.

Both only collect a choice; the tab makes the engine calls. Rename keeps the fact's id,
history and scope (``Engine.update_fact`` with ``name``); the file name becomes the name's
slug. Nothing is created by either, so Enter in the name field may accept.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import Fact, FactType
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.terms import type_label

TEXT = Texts(
    "FactChange",
    {
        "type_title": QT_TRANSLATE_NOOP("FactChange", "Change type"),
        "type_text_one": QT_TRANSLATE_NOOP("FactChange", "New type for {ref}:"),
        "type_text_many": QT_TRANSLATE_NOOP("FactChange", "New type for the {n} selected facts:"),
        "type_info": (
            QT_TRANSLATE_NOOP(
                "FactChange",
                "Each fact gets a new revision with the new type (its body, title and scope stay). "
                "user and feedback describe the person, project and reference the work.",
            )
        ),
        "type_ok": QT_TRANSLATE_NOOP("FactChange", "Change type"),
        "rename_title": QT_TRANSLATE_NOOP("FactChange", "Rename fact"),
        "rename_text": QT_TRANSLATE_NOOP("FactChange", "New name for {ref}:"),
        "rename_info": (
            QT_TRANSLATE_NOOP(
                "FactChange",
                "The file becomes <name>.md in the same scope; the id, the revisions and the title "
                "stay. Agents that refer to the old name find it by its id.",
            )
        ),
        "rename_ok": QT_TRANSLATE_NOOP("FactChange", "Rename"),
    },
)


def _buttons(dialog: QDialog, ok_text: str) -> QDialogButtonBox:
    box = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
    )
    ok = box.button(QDialogButtonBox.StandardButton.Ok)
    ok.setText(ok_text)
    ok.setObjectName("changeOk")
    box.accepted.connect(dialog.accept)
    box.rejected.connect(dialog.reject)
    return box


def _info(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setObjectName("changeInfo")
    return label


class TypeChoiceDialog(QDialog):
    """Pick one of the four fact types for one or several facts."""

    def __init__(self, parent: QWidget | None, facts: list[Fact]) -> None:
        super().__init__(parent)
        self.setObjectName("typeChoiceDialog")
        self.setWindowTitle(TEXT["type_title"])
        if len(facts) == 1:
            question = TEXT["type_text_one"].format(ref=facts[0].ref)
        else:
            question = TEXT["type_text_many"].format(n=len(facts))
        self.combo = QComboBox()
        self.combo.setObjectName("typeChoice")
        for fact_type in FactType:
            self.combo.addItem(type_label(fact_type.value), fact_type.value)
        types = {f.type for f in facts}
        current = next(iter(types)) if len(types) == 1 else FactType.PROJECT
        self.combo.setCurrentIndex(self.combo.findData(current.value))
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(question))
        layout.addWidget(self.combo)
        layout.addWidget(_info(TEXT["type_info"]))
        layout.addWidget(_buttons(self, TEXT["type_ok"]))
        self.resize(440, self.sizeHint().height())

    def chosen(self) -> FactType:
        return FactType(self.combo.currentData())


class RenameDialog(QDialog):
    """A new name for one fact (prefilled with its current one)."""

    def __init__(self, parent: QWidget | None, fact: Fact) -> None:
        super().__init__(parent)
        self.setObjectName("renameDialog")
        self.setWindowTitle(TEXT["rename_title"])
        self.name_edit = QLineEdit(fact.name)
        self.name_edit.setObjectName("renameName")
        self.name_edit.selectAll()
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(TEXT["rename_text"].format(ref=fact.ref)))
        layout.addWidget(self.name_edit)
        layout.addWidget(_info(TEXT["rename_info"]))
        self.buttons = _buttons(self, TEXT["rename_ok"])
        layout.addWidget(self.buttons)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.name_edit.textChanged.connect(lambda t: ok.setEnabled(bool(t.strip())))
        self.resize(440, self.sizeHint().height())

    def chosen(self) -> str:
        return self.name_edit.text().strip()
