"""Undo in the status bar right after a dismissal (Suggestions) or a rejection (Approvals).

* **Dismiss → Undo** runs ``Engine.restore_suggestion``: the dismissal is removed from the
  decisions file, so the candidate is listed again (the Suggestions tab scans again) and may be
  accepted. Nothing else was written by the dismissal, so nothing else is undone.
* **Reject → Undo** runs ``Engine.requeue_rejected`` for each write just rejected: the same
  write waits for approval again as a new item. The rejection stays recorded (its record and
  its audit line); the undo is its own ``requeued`` event in the audit log.

Both go through ``AppContext.offer_undo`` (the ``UndoOffer`` button, ~10 s); the message says
what the undo does. An undo after the workspace changed does nothing (the engine it belongs
to is gone from the window).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from context_center.engine import ApprovalRecord, Changes, Decision, Engine
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.terms import plural

if TYPE_CHECKING:
    from context_center.ui.context import AppContext

TEXT = Texts(
    "DecisionUndo",
    {
        "dismissed": (
            QT_TRANSLATE_NOOP(
                "DecisionUndo",
                "Dismissed “{title}”: it will not be proposed again. Undo lists it again "
                "(the dismissal is removed).",
            )
        ),
        "restored": QT_TRANSLATE_NOOP("DecisionUndo", "“{title}” is listed again"),
        "rejected_one": (
            QT_TRANSLATE_NOOP(
                "DecisionUndo",
                "Rejected {target}. Undo puts the same write back in the queue as a new item (the "
                "rejection stays in the audit log).",
            )
        ),
        "rejected_many": (
            QT_TRANSLATE_NOOP(
                "DecisionUndo",
                "Rejected {n} writes. Undo puts each back in the queue as a new item (the rejections "
                "stay in the audit log).",
            )
        ),
        "requeued_one": QT_TRANSLATE_NOOP(
            "DecisionUndo", "{n} write is waiting for approval again"
        ),
        "requeued": QT_TRANSLATE_NOOP("DecisionUndo", "{n} writes are waiting for approval again"),
    },
)


def _restore(engine: Engine, candidate_id: str) -> Changes[Decision]:
    return engine.restore_suggestion(candidate_id)


def _requeue(engine: Engine, item_id: str) -> Changes[ApprovalRecord]:
    return engine.requeue_rejected(item_id)


def offer_dismiss_undo(ctx: AppContext, candidate_id: str, title: str) -> None:
    """Right after a dismissal: offer to bring the candidate back."""
    engine = ctx.engine

    async def undo() -> None:
        if ctx.engine is not engine:
            return
        changes = await ctx.run(_restore, engine, candidate_id)
        ctx.apply(changes, None)  # the Suggestions tab scans again and lists it
        ctx.status(TEXT["restored"].format(title=title))

    ctx.offer_undo(TEXT["dismissed"].format(title=title), undo)


def offer_reject_undo(ctx: AppContext, records: list[ApprovalRecord], *, extra: str = "") -> None:
    """Right after rejecting ``records``: offer to put the same writes back in the queue
    (``extra``, e.g. what was skipped, leads the message)."""
    if not records:
        return
    engine = ctx.engine
    if len(records) == 1:
        message = TEXT["rejected_one"].format(target=records[0].ref)
    else:
        message = TEXT["rejected_many"].format(n=len(records))
    if extra:
        message = f"{extra} · {message}"

    async def undo() -> None:
        if ctx.engine is not engine:
            return
        done = 0
        for record in records:
            changes = await ctx.run(_requeue, engine, record.id)
            ctx.apply(changes, None)  # the Approvals tab lists the new items
            done += 1
        ctx.status(plural(done, TEXT["requeued_one"], TEXT["requeued"]).format(n=done))

    ctx.offer_undo(message, undo)
