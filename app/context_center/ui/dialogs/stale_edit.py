"""Shown instead of overwriting when a save lost a race: what changed, and what you can do.

It compares the revision the person edited from with the file as it is now, and shows their own
edit against the same base. Nothing is written from here: "Reload" reopens the editor on the
current revision, "Copy my text" puts the edited body on the clipboard.
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import Fact
from context_center.ui.dialogs.fact_editor import FactDraft
from context_center.ui.i18n import translate
from context_center.ui.widgets.diff_view import DiffView, fact_document
from context_center.ui.widgets.markdown_view import escape

RELOAD = 2  # dialog result: reopen the editor on the current revision


def fact_text(fact: Fact) -> str:
    return fact_document(
        {"title": fact.title, "description": fact.description, "type": fact.type.value},
        fact.body,
    )


def draft_text(draft: FactDraft) -> str:
    return fact_document(
        {"title": draft.title, "description": draft.description, "type": draft.type.value},
        draft.body,
    )


class StaleEditDialog(QDialog):
    def __init__(
        self,
        parent: QWidget | None,
        *,
        base: Fact,
        current: Fact | None,
        mine: FactDraft,
        message: str,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("staleEditDialog")
        self.setWindowTitle(
            translate("StaleEdit", "{ref} changed while you were editing").format(ref=base.ref)
        )
        self.resize(820, 600)
        self.mine = mine

        if current is None:
            summary = translate(
                "StaleEdit",
                "You edited revision {n} of <b>{ref}</b>, but it is no longer active (it was "
                "forgotten or renamed). Your text was not saved.",
            ).format(n=base.revision, ref=escape(base.ref))
        elif current.revision != base.revision:
            summary = translate(
                "StaleEdit",
                "You edited revision {n} of <b>{ref}</b>; meanwhile someone saved revision "
                "{current}. Your text was not saved, so their change is not lost.",
            ).format(n=base.revision, ref=escape(base.ref), current=current.revision)
        else:
            summary = translate(
                "StaleEdit",
                "<b>{ref}</b> was changed on disk without a new revision (a hand edit). Your "
                "text was not saved, so that change is not lost.",
            ).format(ref=escape(base.ref))
        head = QLabel(summary)
        head.setWordWrap(True)
        head.setObjectName("staleSummary")
        detail = QLabel(escape(message))
        detail.setWordWrap(True)
        detail.setObjectName("hint")

        self.tabs = QTabWidget()
        self.changed_view = DiffView()
        self.changed_view.setObjectName("changedDiff")
        self.mine_view = DiffView()
        self.mine_view.setObjectName("mineDiff")
        base_label = translate("StaleEdit", "revision {n} (what you edited)").format(
            n=base.revision
        )
        if current is not None:
            self.changed_view.set_texts(
                fact_text(base),
                fact_text(current),
                base_label,
                translate("StaleEdit", "revision {n} (now on disk)").format(n=current.revision),
            )
        else:
            self.changed_view.clear_diff(translate("StaleEdit", "The fact is no longer active."))
        self.mine_view.set_texts(
            fact_text(base), draft_text(mine), base_label, translate("StaleEdit", "your edit")
        )
        self.tabs.addTab(self.changed_view, translate("StaleEdit", "What changed on disk"))
        self.tabs.addTab(self.mine_view, translate("StaleEdit", "Your edit"))

        self.copy_button = QPushButton(translate("StaleEdit", "Copy my text"))
        self.copy_button.setObjectName("copyMine")
        self.copy_button.clicked.connect(self._copy)
        self.reload_button = QPushButton(translate("StaleEdit", "Reload and edit again"))
        self.reload_button.setObjectName("reloadButton")
        self.reload_button.setEnabled(current is not None)
        self.reload_button.clicked.connect(lambda: self.done(RELOAD))
        close = QPushButton(translate("StaleEdit", "Close"))
        close.setObjectName("closeButton")
        close.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addStretch(1)
        buttons.addWidget(self.reload_button)
        buttons.addWidget(close)
        self.reload_button.setDefault(True)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 16, 16, 12)
        layout.setSpacing(10)
        layout.addWidget(head)
        layout.addWidget(detail)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)

    def _copy(self) -> None:
        QGuiApplication.clipboard().setText(self.mine.body)
        self.copy_button.setText(translate("StaleEdit", "Copied"))
