"""Editing a fact from the Memory tab: the editor, then a compare-and-set update.

An update made against a revision that is no longer the file's (another process saved it, or
it was forgotten) is never written over it: the stale-edit dialog shows what changed, and
"Reload" opens the editor again on the fact as it is now.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from context_center.engine import Changes, Entry, NotFound, RevisionConflict
from context_center.ui.context import FACTS
from context_center.ui.dialogs.fact_editor import FactEditorDialog
from context_center.ui.dialogs.stale_edit import RELOAD, StaleEditDialog
from context_center.ui.refusal_text import error_message
from context_center.ui.tabs.memory_text import TEXT
from context_center.ui.tabs.memory_work import current_entry, update_fact

if TYPE_CHECKING:
    from context_center.ui.tabs.memory import MemoryTab


async def edit_once(tab: MemoryTab, entry: Entry) -> Entry | None:
    """One round of editing; returns the entry to edit again (after "Reload"), else None."""
    dialog = FactEditorDialog(tab, fact=entry.fact)
    if not await tab._open_editor(dialog):
        return None
    draft = dialog.draft()
    try:
        changes = await tab.ctx.run(update_fact, tab.ctx.engine, entry, draft)
    except (RevisionConflict, NotFound) as exc:
        current = await tab.ctx.run(current_entry, tab.ctx.engine, entry.fact.id)
        tab.ctx.apply(Changes.seen_on_disk({FACTS}), tab)
        stale = StaleEditDialog(
            tab,
            base=entry.fact,
            current=current.fact if current else None,
            mine=draft,
            message=error_message(exc),
        )
        code = await tab.ctx.exec_dialog(stale)
        return current if code == RELOAD and current is not None else None
    fact = changes.value
    tab.keep_selected(fact.id)
    tab.ctx.status(TEXT["saved"].format(ref=fact.ref, revision=fact.revision))
    tab.ctx.apply(changes, tab)
    return None
