"""The sync-conflict dialog: a conflict copy beside its fact, a diff, keep one side."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from context_center.engine import Engine, FactType
from context_center.ui.dialogs.sync_conflict import SyncConflictsDialog


def _confirm(qtbot, ctx) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    next(b for b in ctx.last_dialog.buttons() if b.objectName() == "confirmOk").click()


def _copy(engine: Engine, name: str, body: str) -> Path:
    """What Syncthing leaves: the fact file as the other machine saved it, renamed."""
    entry = engine.read_fact(f"project/{name}.md")
    text = entry.path.read_text(encoding="utf-8").replace(entry.fact.body.strip(), body)
    copy = entry.path.with_name(f"{name}.sync-conflict-20261130-101500-ABCDEFG.md")
    copy.write_text(text, encoding="utf-8")
    return copy


def test_keep_the_copy_makes_it_the_fact_and_archives_the_other_side(
    qtbot, qloop, ctx, engine: Engine, wait_idle
) -> None:
    engine.create_fact(
        name="rate-limits", title="Rate limits", type=FactType.PROJECT, body="100 per minute."
    )
    copy = _copy(engine, "rate-limits", "150 per minute (from the laptop).")
    dialog = SyncConflictsDialog(ctx)
    qtbot.addWidget(dialog)
    dialog.show()
    qloop.create_task(dialog.reload())
    qtbot.waitUntil(lambda: dialog.listing.count() == 1)
    assert "project/rate-limits.md" in dialog.listing.item(0).text()
    html = dialog.diff.toPlainText()
    assert "100 per minute." in html and "150 per minute (from the laptop)." in html
    assert dialog.keep_b.isEnabled() and "conflict copy" in dialog.keep_b.text()
    dialog.keep_b.click()
    _confirm(qtbot, ctx)
    qtbot.waitUntil(lambda: dialog.listing.count() == 0)
    wait_idle()
    fact = engine.read_fact("project/rate-limits.md").fact
    assert fact.body.strip() == "150 per minute (from the laptop)." and fact.revision >= 2
    assert not copy.exists()
    archived = [e for e in engine.archived() if e.fact and "100 per minute." in e.fact.body]
    assert archived, "the other side is recoverable from the archive"
    assert not dialog.keep_a.isEnabled() and "No sync conflicts" in dialog.explain.text()


def test_the_memory_tab_offers_to_resolve_a_sync_conflict(
    qtbot, ctx, engine: Engine, wait_idle
) -> None:
    from context_center.ui.tabs.memory import MemoryTab

    engine.create_fact(
        name="rate-limits", title="Rate limits", type=FactType.PROJECT, body="100 per minute."
    )
    _copy(engine, "rate-limits", "150 per minute (from the laptop).")
    tab = MemoryTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1280, 800)
    tab.show()
    wait_idle()
    banner = tab.diagnostics_banner
    qtbot.waitUntil(lambda: banner.isVisible() and banner.resolve.isVisible())
    assert "sync_conflict_copy" in banner.label.text()
    banner.resolve.click()
    qtbot.waitUntil(lambda: isinstance(ctx.last_dialog, SyncConflictsDialog))
    dialog = ctx.last_dialog
    qtbot.waitUntil(lambda: dialog.listing.count() == 1)
    assert "conflict copy" in dialog.keep_b.text()
    dialog.reject()
