"""Create or edit a fact: name, title, description, type, scope (create only) and the body."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import Fact, FactType, Scope

TYPE_HELP = {
    FactType.USER: "who the person is, or what they prefer",
    FactType.FEEDBACK: "how to work, and why",
    FactType.PROJECT: "a goal or constraint the code does not show",
    FactType.REFERENCE: "a URL, ticket or other outside resource",
}


@dataclass(frozen=True)
class FactDraft:
    """What the person typed (plain data; the tab hands it to the engine)."""

    name: str
    title: str
    description: str
    type: FactType
    scope: Scope
    body: str


class FactEditorDialog(QDialog):
    """``fact=None`` creates; otherwise edits ``fact`` (scope and name are fixed)."""

    def __init__(
        self, parent: QWidget | None, *, fact: Fact | None = None, draft: FactDraft | None = None
    ) -> None:
        super().__init__(parent)
        self.setObjectName("factEditor")
        self.fact = fact
        self.setWindowTitle(f"Edit {fact.ref}" if fact else "New fact")
        self.resize(720, 620)

        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("nameEdit")
        self.name_edit.setPlaceholderText("release-branch (becomes the file name)")
        self.title_edit = QLineEdit()
        self.title_edit.setObjectName("titleEdit")
        self.description_edit = QLineEdit()
        self.description_edit.setObjectName("descriptionEdit")
        self.description_edit.setPlaceholderText("one line: when is this useful?")
        self.type_combo = QComboBox()
        self.type_combo.setObjectName("typeCombo")
        for t in FactType:
            self.type_combo.addItem(f"{t.value} — {TYPE_HELP[t]}", t)
        self.scope_combo = QComboBox()
        self.scope_combo.setObjectName("scopeCombo")
        self.scope_combo.addItem("project — this workspace only (the safe default)", Scope.PROJECT)
        self.scope_combo.addItem("global — every workspace", Scope.GLOBAL)
        self.body_edit = QPlainTextEdit()
        self.body_edit.setObjectName("bodyEdit")
        self.body_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.body_edit.setPlaceholderText("The fact, in Markdown.")

        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow("Name", self.name_edit)
        form.addRow("Title", self.title_edit)
        form.addRow("Description", self.description_edit)
        form.addRow("Type", self.type_combo)
        form.addRow("Scope", self.scope_combo)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        self.save_button = self.buttons.button(QDialogButtonBox.StandardButton.Save)
        self.save_button.setObjectName("saveButton")

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 12)
        layout.setSpacing(10)
        if fact is not None:
            note = QLabel(
                f"Editing revision {fact.revision}. Saving writes revision {fact.revision + 1}; "
                "if someone else saved first you will see what changed instead."
            )
            note.setObjectName("hint")
            note.setWordWrap(True)
            layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(QLabel("Body (Markdown)"))
        layout.addWidget(self.body_edit, 1)
        layout.addWidget(self.buttons)

        if fact is not None:
            self.name_edit.setText(fact.name)
            self.name_edit.setReadOnly(True)
            self.name_edit.setToolTip("The name is the file name; it does not change on edit.")
            self.title_edit.setText(fact.title)
            self.description_edit.setText(fact.description)
            self.type_combo.setCurrentIndex(list(FactType).index(fact.type))
            self.scope_combo.setCurrentIndex(list(Scope).index(fact.scope))
            self.scope_combo.setEnabled(False)
            self.body_edit.setPlainText(fact.body)
        if draft is not None:
            self.set_draft(draft)
        for w in (self.name_edit, self.title_edit):
            w.textChanged.connect(self._validate)
        self.body_edit.textChanged.connect(self._validate)
        self._validate()

    def set_draft(self, draft: FactDraft) -> None:
        if self.fact is None:
            self.name_edit.setText(draft.name)
            self.scope_combo.setCurrentIndex(list(Scope).index(draft.scope))
        self.title_edit.setText(draft.title)
        self.description_edit.setText(draft.description)
        self.type_combo.setCurrentIndex(list(FactType).index(draft.type))
        self.body_edit.setPlainText(draft.body)

    def _validate(self) -> None:
        ok = bool(self.name_edit.text().strip()) and bool(self.body_edit.toPlainText().strip())
        self.save_button.setEnabled(ok)

    def draft(self) -> FactDraft:
        return FactDraft(
            name=self.name_edit.text().strip(),
            title=self.title_edit.text().strip(),
            description=self.description_edit.text().strip(),
            type=FactType(self.type_combo.currentData()),
            scope=Scope(self.scope_combo.currentData()),
            body=self.body_edit.toPlainText(),
        )
