"""Approvals tab: reject every selected write at once (one confirmation naming how many).

Each item goes through ``Engine.reject`` with no reason. An item decided meanwhile (by another
window or process) is skipped and counted; the rest are still rejected. Nothing is approved in
bulk: approving needs the review dialog. Undo in the status bar puts the rejected writes back
in the queue as new items (``widgets.decision_undo``; the rejections stay in the audit log).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from context_center.engine import ApprovalRecord, Changes, Engine, EngineError
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.refusal_text import error_message
from context_center.ui.terms import plural
from context_center.ui.widgets.decision_undo import offer_reject_undo

if TYPE_CHECKING:
    from context_center.ui.tabs.approvals import ApprovalsTab

TEXT = Texts(
    "ApprovalsTab",
    {
        "reject_selected": QT_TRANSLATE_NOOP("ApprovalsTab", "Reject selected…"),
        "reject_selected_tip": QT_TRANSLATE_NOOP(
            "ApprovalsTab", "Reject every selected write without opening it (nothing is written)"
        ),
        "title": QT_TRANSLATE_NOOP("ApprovalsTab", "Reject writes"),
        "text_one": QT_TRANSLATE_NOOP("ApprovalsTab", "Reject 1 write?"),
        "text_many": QT_TRANSLATE_NOOP("ApprovalsTab", "Reject {n} writes?"),
        "info": QT_TRANSLATE_NOOP(
            "ApprovalsTab",
            "Nothing of them is written; each decision is recorded. Undo queues them again.",
        ),
        "ok": QT_TRANSLATE_NOOP("ApprovalsTab", "Reject"),
        "done_one": QT_TRANSLATE_NOOP("ApprovalsTab", "Rejected {n} write"),
        "done": QT_TRANSLATE_NOOP("ApprovalsTab", "Rejected {n} writes"),
        "skipped": QT_TRANSLATE_NOOP("ApprovalsTab", " · {n} skipped: {error}"),
    },
)


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
    rejected: list[ApprovalRecord] = []
    for record in records:
        try:
            changes = await ctx.run(_reject, ctx.engine, record.id)
        except EngineError as exc:
            errors.append(error_message(exc))
            continue
        done += 1
        ctx.apply(changes, source=tab)
        tab.sig_decided.emit(record.id, "rejected")
        rejected.append(record)
    message = plural(done, TEXT["done_one"], TEXT["done"]).format(n=done)
    if errors:
        message += TEXT["skipped"].format(n=len(errors), error=errors[0])
    ctx.status(message)
    offer_reject_undo(ctx, rejected, extra=message if errors else "")
    return True
