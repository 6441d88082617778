"""Create or edit a fact: name, title, description, type, scope (create only) and the body.

Nothing typed is lost by accident: Escape, Cancel and the window's close button ask before
discarding changed text, and no button is a default button, so Enter in a one-line field
never saves (let alone creates) a fact. Ctrl+S saves. A new fact defaults to type ``project``
in scope ``project`` (the spec's safe defaults).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import Fact, FactType, Scope
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.style import mono_font
from context_center.ui.terms import type_label
from context_center.ui.widgets.discard import ask_discard

TYPE_HELP = Texts(
    "FactEditor",
    {
        FactType.USER: QT_TRANSLATE_NOOP("FactEditor", "who the person is, or what they prefer"),
        FactType.FEEDBACK: QT_TRANSLATE_NOOP("FactEditor", "how to work, and why"),
        FactType.PROJECT: QT_TRANSLATE_NOOP(
            "FactEditor", "a goal or constraint the code does not show"
        ),
        FactType.REFERENCE: QT_TRANSLATE_NOOP(
            "FactEditor", "a URL, ticket or other outside resource"
        ),
    },
)

# Every user-visible string of this dialog, in one place.
TEXT = Texts(
    "FactEditor",
    {
        "title_new": QT_TRANSLATE_NOOP("FactEditor", "New fact"),
        "title_edit": QT_TRANSLATE_NOOP("FactEditor", "Edit {ref}"),
        "name_placeholder": QT_TRANSLATE_NOOP(
            "FactEditor", "release-branch (becomes the file name)"
        ),
        "description_placeholder": QT_TRANSLATE_NOOP(
            "FactEditor", "one line: when is this useful?"
        ),
        "scope_project": QT_TRANSLATE_NOOP(
            "FactEditor", "project — this workspace only (the safe default)"
        ),
        "scope_global": QT_TRANSLATE_NOOP("FactEditor", "global — every workspace"),
        "body_placeholder": QT_TRANSLATE_NOOP("FactEditor", "The fact, in Markdown."),
        "name": QT_TRANSLATE_NOOP("FactEditor", "Name"),
        "title": QT_TRANSLATE_NOOP("FactEditor", "Title"),
        "description": QT_TRANSLATE_NOOP("FactEditor", "Description"),
        "type": QT_TRANSLATE_NOOP("FactEditor", "Type"),
        "scope": QT_TRANSLATE_NOOP("FactEditor", "Scope"),
        "body": QT_TRANSLATE_NOOP("FactEditor", "Body (Markdown)"),
        "save": QT_TRANSLATE_NOOP("FactEditor", "Save"),
        "cancel": QT_TRANSLATE_NOOP("FactEditor", "Cancel"),
        "save_tip": QT_TRANSLATE_NOOP("FactEditor", "Save (Ctrl+S)"),
        "editing_note": (
            QT_TRANSLATE_NOOP(
                "FactEditor",
                "Editing revision {revision}. Saving writes revision {next}; if someone else saved "
                "first you will see what changed instead.",
            )
        ),
        "name_fixed": QT_TRANSLATE_NOOP(
            "FactEditor", "The name is the file name; it does not change on edit."
        ),
        "discard_text": QT_TRANSLATE_NOOP("FactEditor", "You have unsaved changes to this fact."),
    },
)

DEFAULT_TYPE = FactType.PROJECT
DEFAULT_SCOPE = Scope.PROJECT


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
        self.discard_box: QMessageBox | None = None
        self.setWindowTitle(TEXT["title_edit"].format(ref=fact.ref) if fact else TEXT["title_new"])
        self.resize(720, 620)
        self._build_fields()
        self._build_layout(fact)
        self._fill(fact)
        if draft is not None:
            self.set_draft(draft)
        self._initial = self.draft()
        for w in (self.name_edit, self.title_edit):
            w.textChanged.connect(self._validate)
        self.body_edit.textChanged.connect(self._validate)
        self._validate()
        save = QShortcut(QKeySequence(QKeySequence.StandardKey.Save), self)
        save.activated.connect(self.save)

    def _build_fields(self) -> None:
        self.name_edit = QLineEdit()
        self.name_edit.setObjectName("nameEdit")
        self.name_edit.setPlaceholderText(TEXT["name_placeholder"])
        self.title_edit = QLineEdit()
        self.title_edit.setObjectName("titleEdit")
        self.description_edit = QLineEdit()
        self.description_edit.setObjectName("descriptionEdit")
        self.description_edit.setPlaceholderText(TEXT["description_placeholder"])
        self.type_combo = QComboBox()
        self.type_combo.setObjectName("typeCombo")
        for t in FactType:
            self.type_combo.addItem(f"{type_label(t.value)} — {TYPE_HELP[t]}", t)
        self.type_combo.setCurrentIndex(list(FactType).index(DEFAULT_TYPE))
        self.scope_combo = QComboBox()
        self.scope_combo.setObjectName("scopeCombo")
        self.scope_combo.addItem(TEXT["scope_project"], Scope.PROJECT)
        self.scope_combo.addItem(TEXT["scope_global"], Scope.GLOBAL)
        self.scope_combo.setCurrentIndex(list(Scope).index(DEFAULT_SCOPE))
        self.body_edit = QPlainTextEdit()
        self.body_edit.setObjectName("bodyEdit")
        self.body_edit.setFont(mono_font())
        self.body_edit.setPlaceholderText(TEXT["body_placeholder"])
        self.body_edit.setTabChangesFocus(True)  # Tab leaves the body (no keyboard trap)

    def _build_layout(self, fact: Fact | None) -> None:
        form = QFormLayout()
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.addRow(TEXT["name"], self.name_edit)
        form.addRow(TEXT["title"], self.title_edit)
        form.addRow(TEXT["description"], self.description_edit)
        form.addRow(TEXT["type"], self.type_combo)
        form.addRow(TEXT["scope"], self.scope_combo)

        # Plain buttons, no QDialogButtonBox: it makes its first accept button the default
        # when shown, and Enter in a one-line field must never save (let alone create) a fact.
        self.save_button = QPushButton(TEXT["save"])
        self.save_button.setObjectName("saveButton")
        self.save_button.setToolTip(TEXT["save_tip"])
        self.save_button.setProperty("primary", True)
        self.save_button.clicked.connect(self.save)
        self.cancel_button = QPushButton(TEXT["cancel"])
        self.cancel_button.setObjectName("cancelButton")
        self.cancel_button.clicked.connect(self.reject)
        self.buttons = QHBoxLayout()
        self.buttons.addStretch(1)
        for button in (self.cancel_button, self.save_button):
            button.setAutoDefault(False)
            button.setDefault(False)
            self.buttons.addWidget(button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 12)
        layout.setSpacing(10)
        if fact is not None:
            note = QLabel(
                TEXT["editing_note"].format(revision=fact.revision, next=fact.revision + 1)
            )
            note.setObjectName("hint")
            note.setWordWrap(True)
            layout.addWidget(note)
        layout.addLayout(form)
        layout.addWidget(QLabel(TEXT["body"]))
        layout.addWidget(self.body_edit, 1)
        layout.addLayout(self.buttons)

    def _fill(self, fact: Fact | None) -> None:
        if fact is None:
            return
        self.name_edit.setText(fact.name)
        self.name_edit.setReadOnly(True)
        self.name_edit.setToolTip(TEXT["name_fixed"])
        self.title_edit.setText(fact.title)
        self.description_edit.setText(fact.description)
        self.type_combo.setCurrentIndex(list(FactType).index(fact.type))
        self.scope_combo.setCurrentIndex(list(Scope).index(fact.scope))
        self.scope_combo.setEnabled(False)
        self.body_edit.setPlainText(fact.body)

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

    # -- closing ----------------------------------------------------------------------------

    def has_unsaved_changes(self) -> bool:
        """Something differs from what the dialog opened with (a re-opened draft counts as
        unsaved: it was never written)."""
        return self.draft() != self._initial or (self.fact is None and self._opened_with_text())

    def _opened_with_text(self) -> bool:
        d = self._initial
        return bool(d.name or d.title or d.description or d.body.strip())

    def save(self) -> None:
        """Ctrl+S and the Save button: accept when the fields are complete."""
        if self.save_button.isEnabled():
            self.accept()

    def discard(self) -> None:
        """Close without saving and without asking (the person already said so)."""
        super().reject()

    def reject(self) -> None:
        """Escape, Cancel, the close button: ask first when there is unsaved text."""
        if not self.has_unsaved_changes():
            super().reject()
            return
        if self.discard_box is not None:
            return  # already asking
        self.discard_box = ask_discard(self, TEXT["discard_text"], self.discard)
        self.discard_box.finished.connect(lambda _code: setattr(self, "discard_box", None))
