"""Forgetting from the Memory tab: the selected fact or facts, one confirmation, then Undo.

Each fact goes through ``Engine.forget_fact`` (compare-and-set on its revision); the status
bar then offers "Undo" for a while (``AppContext.offer_undo``), which brings every fact just
forgotten back from its archive file with ``Engine.recover_fact`` — under a new name the person
gives when another fact took the name meanwhile.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine import Engine, Fact
from context_center.ui.tabs.archive import Refusal, try_recover
from context_center.ui.tabs.memory_text import TEXT
from context_center.ui.tabs.memory_work import forget_fact
from context_center.ui.terms import plural, scope_label
from context_center.ui.widgets.new_name import ask_new_name

if TYPE_CHECKING:
    from context_center.ui.tabs.memory import MemoryTab


async def _confirm(tab: MemoryTab, facts: list[Fact]) -> bool:
    if len(facts) == 1:
        fact = facts[0]
        text = TEXT["forget_text"].format(ref=fact.ref)
        info = TEXT["forget_info"].format(title=fact.display_title)
    else:
        text = TEXT["forget_many_text"].format(n=len(facts))
        refs = ", ".join(f.ref for f in facts[:8]) + (", …" if len(facts) > 8 else "")
        info = TEXT["forget_many_info"].format(refs=refs)
    return await tab.ctx.confirm(
        tab,
        TEXT["forget_title"],
        text,
        informative=info,
        ok_text=TEXT["forget_ok"],
        destructive=True,
    )


async def forget_selected(tab: MemoryTab) -> None:
    """Forget every selected fact after one confirmation; offer to undo it."""
    facts = [row.fact for row in tab.selected_rows()]
    if not facts or not await _confirm(tab, facts):
        return
    ctx = tab.ctx
    archived: list[tuple[Fact, Path]] = []
    try:
        for fact in facts:
            changes = await ctx.run(forget_fact, ctx.engine, fact)
            archived.append(changes.value)
            ctx.apply(changes, tab)
    finally:
        tab.keep_selected(None)
        if archived:
            _offer_undo(tab, archived)


def _offer_undo(tab: MemoryTab, archived: list[tuple[Fact, Path]]) -> None:
    ctx = tab.ctx
    engine = ctx.engine
    if len(archived) == 1:
        fact, path = archived[0]
        message = TEXT["forgot"].format(ref=fact.ref, archived=path.name)
    else:
        message = TEXT["forgot_many"].format(n=len(archived))

    async def undo() -> None:
        if ctx.engine is not engine:
            return  # another workspace is open now; the Archive tab still has them
        done = 0
        for fact, path in archived:
            if await _undo_one(tab, engine, fact, path):
                done += 1
        if done:
            ctx.status(plural(done, TEXT["recovered_one"], TEXT["recovered"]).format(n=done))

    ctx.offer_undo(message, undo)


async def _undo_one(tab: MemoryTab, engine: Engine, fact: Fact, path: Path) -> bool:
    """Recover one forgotten fact; when its name was taken meanwhile, ask for another name
    (as the Archive tab's "Recover under a new name…" does) instead of failing."""
    ctx = tab.ctx
    name: str | None = None
    while True:
        outcome = await ctx.run(try_recover, engine, str(path), fact, name)
        if not isinstance(outcome, Refusal):
            ctx.apply(outcome, None)
            tab.keep_selected(fact.id)
            return True
        if not outcome.name_taken:
            ctx.status(TEXT["undo_not_recovered"].format(ref=fact.ref, reason=outcome.shown))
            return False
        answer = await ask_new_name(
            ctx,
            tab,
            object_name="undoRecoverNameDialog",
            title=TEXT["undo_name_title"],
            label=TEXT["undo_name_label"].format(ref=fact.ref, scope=scope_label(fact.scope.value)),
            suggestion=outcome.suggestion,
            ok_text=TEXT["undo_name_ok"],
        )
        if answer is None:
            ctx.status(TEXT["undo_not_recovered"].format(ref=fact.ref, reason=outcome.shown))
            return False
        name = answer or None
