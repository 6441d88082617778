"""The Instructions tab's banner for a target folder that does not exist (or is a file).

No agent can start in a folder that is not there, so there is no chain to show: the banner
says so and the tab's chain, diagnostics and prefix preview are emptied instead of keeping
what the previous target showed (which would pass for this one's answer).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QLabel, QWidget

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.tabs.instructions_text import TEXT as TAB_TEXT

if TYPE_CHECKING:
    from context_center.ui.tabs.instructions import InstructionsTab

TEXT = Texts(
    "TargetWarning",
    {
        "missing": (
            QT_TRANSLATE_NOOP(
                "TargetWarning",
                "The target folder {target} does not exist, so no agent can start there and there is "
                "no chain to show. Check the path, or pick a folder from the list or with Browse…",
            )
        ),
        "not_folder": (
            QT_TRANSLATE_NOOP(
                "TargetWarning",
                "The target {target} is a file, not a folder: an agent starts in a folder. Choose the "
                "folder that holds it.",
            )
        ),
    },
)


class TargetWarning(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("targetWarning")
        self.setWordWrap(True)  # coloured by the stylesheet (QLabel#targetWarning)
        self.hide()

    def missing(self, tab: InstructionsTab) -> bool:
        """True (banner shown, the chain views emptied) when the tab's target is not an
        existing folder; False (banner hidden) otherwise."""
        target = tab.target_path()
        if target.is_dir():
            self.hide()
            return False
        try:
            shown = target.relative_to(tab.ctx.engine.workspace).as_posix() or "."
        except ValueError:
            shown = target.name or str(target)
        key = "not_folder" if os.path.lexists(target) else "missing"
        self.setText(TEXT[key].format(target=shown))
        self.show()
        tab.chain_model.removeRows(0, tab.chain_model.rowCount())
        tab.diag_model.set_rows([])
        tab.diag_caption.setText(TAB_TEXT["diagnostics_none"])
        tab.diag_detail.hide()
        tab.empty_hint.hide()
        tab.prefix_view.setPlainText("")
        tab.prefix_length.setText("")
        tab.right_tabs.setTabText(1, TAB_TEXT["prefix_preview"])
        tab.prefix_warning.hide()
        return True
