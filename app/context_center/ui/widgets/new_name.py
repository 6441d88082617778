"""One question: which file name should a fact come back under (its own is taken)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QDialog, QInputDialog, QWidget

if TYPE_CHECKING:
    from context_center.ui.context import AppContext


async def ask_new_name(
    ctx: AppContext,
    parent: QWidget,
    *,
    object_name: str,
    title: str,
    label: str,
    suggestion: str,
    ok_text: str,
) -> str | None:
    """The name typed (stripped; "" when accepted empty), or None when the person cancelled."""
    dialog = QInputDialog(parent)
    dialog.setObjectName(object_name)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    dialog.setTextValue(suggestion)
    dialog.setOkButtonText(ok_text)
    if await ctx.exec_dialog(dialog) != QDialog.DialogCode.Accepted:
        return None
    return dialog.textValue().strip()
