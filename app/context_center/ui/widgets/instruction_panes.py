"""The Instructions tab's Document and Prefix preview panes.

``DocumentPane`` holds the in-place editor with its Save and Revert buttons (the tab drives
them; Ctrl+S in the pane is Save); ``PrefixPane`` shows what a session starts with, the size of each part against its
budget, and ``warning_banner`` makes the banner the tab shows when the prefix is large.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import Prefix
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts, translate
from context_center.ui.style import mono_font
from context_center.ui.widgets.actions import make_action, shortcut_text
from context_center.ui.widgets.elided import ElidedLabel

# Reasonix's prefix parts (``PrefixPart.name``) and the order of its memory index
# (``Prefix.index_order``, engine/instructions/prefix.py) as shown. The order is one of the
# engine's fixed sentences: an unknown one is shown as written.
PREFIX_TEXT = Texts(
    "PrefixPane",
    {
        "guidance": QT_TRANSLATE_NOOP("PrefixPane", "guidance"),
        "instructions": QT_TRANSLATE_NOOP("PrefixPane", "instructions"),
        "index": QT_TRANSLATE_NOOP("PrefixPane", "index"),
        "order_recalled": QT_TRANSLATE_NOOP("PrefixPane", "most recalled first, then newest first"),
        "order_newest": QT_TRANSLATE_NOOP(
            "PrefixPane", "newest first (no recall counts are kept, so recency decides)"
        ),
    },
)
_ORDER_KEYS = ("order_recalled", "order_newest")


def part_name(prefix: Prefix, name: str) -> str:
    """A part's name as shown: Reasonix's three sections translated, another agent's document
    label as it is."""
    if prefix.agent.value == "reasonix" and name in ("guidance", "instructions", "index"):
        return PREFIX_TEXT[name]
    return name


def index_order_text(order: str) -> str:
    """How the memory index is ordered (``Prefix.index_order``), in the window's language."""
    key = next((k for k in _ORDER_KEYS if PREFIX_TEXT.source[k] == order), None)
    return PREFIX_TEXT[key] if key else order


def parts_text(prefix: Prefix) -> str:
    """ "Prefix: 14,198 characters — guidance 5,898 / 6,000 · …" for the preview."""
    items = []
    for part in prefix.parts:
        text = f"{part_name(prefix, part.name)} {part.chars:,}"
        if part.budget:
            text += f" / {part.budget:,}"
        if part.total and part.shown != part.total:
            text += " " + translate("InstructionsTab", "({shown} of {total} shown)").format(
                shown=f"{part.shown:,}", total=f"{part.total:,}"
            )
        items.append(text)
    head = translate("InstructionsTab", "Prefix: {n} characters").format(n=f"{prefix.length:,}")
    return head + (" — " + " · ".join(items) if items else "")


def warning_banner() -> QLabel:
    banner = QLabel()
    banner.setObjectName("prefixWarning")
    banner.setWordWrap(True)  # coloured by the stylesheet (QLabel#prefixWarning)
    banner.hide()
    return banner


class DocumentPane(QWidget):
    """A label, the file's path, the editor and Save / Revert."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.doc_label = QLabel(
            translate("InstructionsTab", "Select a document in the chain to view or edit it.")
        )
        self.doc_label.setObjectName("docLabel")
        self.doc_path = ElidedLabel()
        self.doc_path.setObjectName("hint")
        self.editor = QPlainTextEdit()
        self.editor.setObjectName("docEditor")
        self.editor.setFont(mono_font())
        self.editor.setReadOnly(True)
        self.btn_save = QPushButton(translate("InstructionsTab", "Save"))
        self.btn_save.setObjectName("saveDoc")
        self.btn_save.setProperty("primary", True)
        self.btn_revert = QPushButton(translate("InstructionsTab", "Revert"))
        self.btn_revert.setObjectName("revertDoc")
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.btn_revert)
        buttons.addWidget(self.btn_save)
        head = QHBoxLayout()
        head.setSpacing(10)
        head.addWidget(self.doc_label)
        head.addWidget(self.doc_path, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(8)
        layout.addLayout(head)
        layout.addWidget(self.editor, 1)
        layout.addLayout(buttons)
        # Ctrl+S within the pane (the menu bar lists this same action)
        self.act_save = make_action(
            self, translate("InstructionsTab", "Save"), "actSaveInstructions",
            self._on_save_shortcut, shortcuts=[QKeySequence.StandardKey.Save],
            context=Qt.ShortcutContext.WidgetWithChildrenShortcut,
        )  # fmt: skip
        self.addAction(self.act_save)
        self.btn_save.setToolTip(
            translate("InstructionsTab", "Save the file ({keys})").format(
                keys=shortcut_text(self.act_save)
            )
        )

    def _on_save_shortcut(self) -> None:
        """Ctrl+S saves, as the Save button does (only when there is something to save)."""
        if self.btn_save.isEnabled():
            self.btn_save.click()


class PrefixPane(QWidget):
    """The exact prefix, each part's size against its budget, and what it is."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.prefix_view = QPlainTextEdit()
        self.prefix_view.setObjectName("prefixView")
        self.prefix_view.setReadOnly(True)
        self.prefix_view.setFont(mono_font())
        self.prefix_length = QLabel()
        self.prefix_length.setObjectName("prefixLength")
        self.prefix_length.setWordWrap(True)
        self.prefix_hint = QLabel()
        self.prefix_hint.setObjectName("hint")
        self.prefix_hint.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(8)
        layout.addWidget(self.prefix_length)
        layout.addWidget(self.prefix_hint)
        layout.addWidget(self.prefix_view, 1)

    def show_prefix(self, prefix: Prefix, agent_name: str) -> None:
        self.prefix_length.setText(parts_text(prefix))
        self.prefix_view.setPlainText(prefix.text)
        if prefix.agent.value == "reasonix":
            self.prefix_hint.setText(
                translate(
                    "InstructionsTab",
                    "Exactly what a session starts with: stable guidance, these instructions and "
                    "the memory index ({order}). Local paths are replaced by labels.",
                ).format(order=index_order_text(prefix.index_order))
            )
        else:
            self.prefix_hint.setText(
                translate(
                    "InstructionsTab",
                    "What {agent} starts with: its instruction files as it assembles them "
                    "(labels for local paths). Context Center's memory reaches it only through "
                    "its tools.",
                ).format(agent=agent_name)
            )
