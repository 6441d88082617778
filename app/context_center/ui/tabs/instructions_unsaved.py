"""The Instructions editor's unsaved text, for the window's close and workspace-switch checks
(``MainWindow.unsaved_tabs``): a document with unsaved edits asks before it is thrown away."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts

if TYPE_CHECKING:
    from PySide6.QtWidgets import QPlainTextEdit

    from context_center.ui.context import AppContext

TEXT = Texts(
    "InstructionsUnsaved",
    {
        "title": QT_TRANSLATE_NOOP("InstructionsUnsaved", "Discard changes?"),
        "text": QT_TRANSLATE_NOOP(
            "InstructionsUnsaved", "The instruction file {name} has unsaved changes."
        ),
        "info": QT_TRANSLATE_NOOP(
            "InstructionsUnsaved", "Discard them, or go back to the editor to save them?"
        ),
        "ok": QT_TRANSLATE_NOOP("InstructionsUnsaved", "Discard changes"),
    },
)


class UnsavedDocument:
    """``has_unsaved_changes`` and ``discard_or_keep`` of ``InstructionsTab`` (a mixin)."""

    ctx: AppContext
    editor: QPlainTextEdit
    doc: Any

    def has_unsaved_changes(self) -> bool:
        return self.doc is not None and self.editor.document().isModified()

    async def discard_or_keep(self) -> bool:
        if not self.has_unsaved_changes():
            return True
        ok = await self.ctx.confirm(
            self.editor,
            TEXT["title"],
            TEXT["text"].format(name=self.doc.path.name),
            informative=TEXT["info"],
            ok_text=TEXT["ok"],
            destructive=True,
        )
        if ok:
            self.editor.document().setModified(False)  # dropped: nothing asks again
        return ok
