"""Forgetting from the Memory tab: the selected fact or facts, one confirmation, then Undo.

Each fact goes through ``Engine.forget_fact`` (compare-and-set on its revision); the status
bar then offers "Undo" for a while (``AppContext.offer_undo``), which brings every fact just
forgotten back from its archive file with ``Engine.recover_fact``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine import Changes, Engine, Fact
from context_center.ui.tabs.memory_text import TEXT
from context_center.ui.tabs.memory_work import forget_fact

if TYPE_CHECKING:
    from context_center.ui.tabs.memory import MemoryTab


def _recover(engine: Engine, path: Path) -> Changes[Fact]:
    return engine.recover_fact(path)


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
        for fact, path in archived:
            changes = await ctx.run(_recover, engine, path)
            ctx.apply(changes, None)
            tab.keep_selected(fact.id)
        ctx.status(TEXT["recovered"].format(n=len(archived)))

    ctx.offer_undo(message, undo)
