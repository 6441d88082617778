"""Approvals tab: reject every selected write at once (one confirmation naming how many).

Each item goes through ``Engine.reject`` with no reason. An item decided meanwhile (by another
window or process) is skipped and counted; the rest are still rejected. Nothing is approved in
bulk: approving needs the review dialog. The engine has no "unreject", so there is no Undo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from context_center.engine import ApprovalRecord, Changes, Engine, EngineError

if TYPE_CHECKING:
    from context_center.ui.tabs.approvals import ApprovalsTab

TEXT = {
    "reject_selected": "Reject selected…",
    "reject_selected_tip": "Reject every selected write without opening it (nothing is written)",
    "title": "Reject writes",
    "text_one": "Reject 1 write?",
    "text_many": "Reject {n} writes?",
    "info": "Nothing of them is written; each decision is recorded. This cannot be undone.",
    "ok": "Reject",
    "done": "Rejected {n} write(s)",
    "skipped": " · {n} skipped: {error}",
}


def _reject(engine: Engine, item_id: str) -> Changes[ApprovalRecord]:
    return engine.reject(item_id, None)


async def reject_selected(tab: ApprovalsTab) -> bool:
    """True when the person confirmed (and something may have been rejected)."""
    records = tab.selected_records()
    if not records:
        return False
    ctx = tab.ctx
    n = len(records)
    text = TEXT["text_one"] if n == 1 else TEXT["text_many"].format(n=n)
    if not await ctx.confirm(
        tab, TEXT["title"], text, informative=TEXT["info"], ok_text=TEXT["ok"], destructive=True
    ):
        return False
    done = 0
    errors: list[str] = []
    for record in records:
        try:
            changes = await ctx.run(_reject, ctx.engine, record.id)
        except EngineError as exc:
            errors.append(str(exc))
            continue
        done += 1
        ctx.apply(changes, source=tab)
        tab.sig_decided.emit(record.id, "rejected")
    message = TEXT["done"].format(n=done)
    if errors:
        message += TEXT["skipped"].format(n=len(errors), error=errors[0])
    ctx.status(message)
    return True
