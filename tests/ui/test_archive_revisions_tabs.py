"""Revisions and Archive tabs through real widgets: diff, restore, recover, refused recover."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtWidgets import QMessageBox

from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.ui.tabs.archive import ArchiveTab
from context_center.ui.tabs.revisions import RevisionsTab


def _confirm(qtbot, ctx) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    box = ctx.last_dialog
    next(b for b in box.buttons() if b.objectName() == "confirmOk").click()


@pytest.fixture
def history(engine: Engine) -> str:
    m = engine.memory
    t0 = datetime.now(UTC) - timedelta(days=10)
    fact = m.create(
        name="rate-limits",
        title="Rate limits",
        type=FactType.PROJECT,
        body="100 per minute.",
        now=t0,
    )
    m.update(fact.id, expected_revision=1, body="120 per minute.", now=t0 + timedelta(days=1))
    m.update(
        fact.id,
        expected_revision=2,
        body="150 per minute.\n限流按 key 计算。",
        now=t0 + timedelta(days=2),
    )
    m.create(name="other", title="Other", type=FactType.USER, body="x")
    return fact.id


def test_revisions_diff_and_restore(
    qtbot, ctx, engine: Engine, history: str, wait_idle, qtmodeltester
) -> None:
    tab = RevisionsTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    tab.show()
    wait_idle()
    qtmodeltester.check(tab.pick_model)
    tab.show_fact(history)
    wait_idle()
    assert [r.revision for r in tab.rev_model.rows] == [3, 2, 1]
    qtmodeltester.check(tab.rev_model)
    # default: the previous revision against the current one
    assert tab.from_combo.currentData() == 2 and tab.to_combo.currentData() == 3
    text = tab.diff.toPlainText()
    assert (
        "-120 per minute." in text and "+150 per minute." in text and "+限流按 key 计算。" in text
    )
    # pick revision 1: compare 1 → 3, side by side
    tab.rev_table.selectRow(2)
    assert tab.from_combo.currentData() == 1
    tab.side_by_side.setChecked(True)
    assert "100 per minute." in tab.diff.toPlainText()
    assert tab.btn_restore.isEnabled() and "Restore revision 1" in tab.btn_restore.text()
    tab.btn_restore.click()
    _confirm(qtbot, ctx)
    wait_idle()
    fact = engine.memory.resolve("project/rate-limits.md").fact
    assert fact.revision == 4 and fact.body == "100 per minute."
    qtbot.waitUntil(lambda: [r.revision for r in tab.rev_model.rows] == [4, 3, 2, 1])
    tab.rev_table.selectRow(0)
    assert not tab.btn_restore.isEnabled()  # the current revision cannot be restored onto itself


def test_revisions_search_filters_the_fact_list(qtbot, ctx, history: str, wait_idle) -> None:
    tab = RevisionsTab(ctx)
    qtbot.addWidget(tab)
    tab.show()
    wait_idle()
    assert len(tab.pick_model.rows) == 2
    tab.search.setText("rate")
    qtbot.waitUntil(lambda: [r.title for r in tab.pick_model.rows] == ["Rate limits"])


def test_two_facts_of_one_title_are_told_apart_by_scope(
    qtbot, ctx, engine: Engine, wait_idle
) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine.model import Scope

    engine.memory.create(name="release", title="Release branch", type=FactType.PROJECT, body="p")
    engine.memory.create(
        name="release", title="Release branch", type=FactType.PROJECT, body="g", scope=Scope.GLOBAL
    )
    engine.memory.create(name="solo", title="Solo", type=FactType.PROJECT, body="s")
    tab = RevisionsTab(ctx)
    qtbot.addWidget(tab)
    tab.show()
    wait_idle()
    model = tab.pick_model
    shown = sorted(
        tuple(model.index(r, c).data() for c in range(model.columnCount()))
        for r in range(model.rowCount())
    )
    assert shown == [
        ("Release branch · global", "1"),
        ("Release branch · project", "1"),
        ("Solo", "1"),  # a title of its own says nothing more
    ]


@pytest.fixture
def archived(engine: Engine) -> Engine:
    m = engine.memory
    m.create(name="old-deploy", title="Old deploy", type=FactType.PROJECT, body="deploy.sh")
    m.forget("project/old-deploy.md")
    m.create(name="ticket-board", title="Ticket board", type=FactType.REFERENCE, body="old tracker")
    m.forget("project/ticket-board.md")
    m.create(name="ticket-board", title="Ticket board (new)", type=FactType.REFERENCE, body="new")
    return engine


def _select(tab: ArchiveTab, name: str) -> None:
    for i, row in enumerate(tab.model.rows):
        if row.fact is not None and row.fact.name == name:
            tab.table.selectRow(i)
            return
    raise AssertionError(name)


def test_archive_recover_and_refusal(
    qtbot, ctx, archived: Engine, wait_idle, qtmodeltester
) -> None:
    tab = ArchiveTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    tab.show()
    wait_idle()
    qtmodeltester.check(tab.model)
    assert sorted(r.fact.name for r in tab.model.rows if r.fact) == ["old-deploy", "ticket-board"]
    assert all(r.archived != "—" for r in tab.model.rows)
    # refused: the name is active again
    _select(tab, "ticket-board")
    assert "old tracker" in tab.preview.toPlainText()
    tab.btn_recover.click()
    wait_idle()
    # said once, in the banner: no error dialog, no status line on top
    assert ctx.errors == []
    assert tab.refusal.isVisible()
    assert "already active" in tab.refusal_label.text()
    assert tab.btn_recover_as.isVisible()  # only the name is taken: another name helps
    assert archived.memory.resolve("project/ticket-board.md").fact.body == "new"
    # accepted: comes back as a new revision
    _select(tab, "old-deploy")
    assert not tab.refusal.isVisible()
    tab.btn_recover.click()
    wait_idle()
    fact = archived.memory.resolve("project/old-deploy.md").fact
    assert fact.revision == 2 and fact.body == "deploy.sh"
    qtbot.waitUntil(lambda: [r.fact.name for r in tab.model.rows if r.fact] == ["ticket-board"])
    assert ctx.errors == []


def test_refused_recover_offers_a_new_name(qtbot, ctx, archived: Engine, wait_idle) -> None:
    from PySide6.QtWidgets import QInputDialog

    tab = ArchiveTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    tab.show()
    wait_idle()
    statuses: list[str] = []
    ctx.sig_status.connect(statuses.append)
    _select(tab, "ticket-board")
    tab.btn_recover.click()
    wait_idle()
    assert statuses == [] and ctx.errors == []
    tab.btn_recover_as.click()
    qtbot.waitUntil(lambda: isinstance(ctx.last_dialog, QInputDialog))
    dialog = ctx.last_dialog
    assert dialog.textValue() == "ticket-board-recovered"
    dialog.setTextValue("Ticket board (old)")
    dialog.accept()
    wait_idle()
    fact = archived.memory.resolve("project/ticket-board-old.md").fact
    assert fact.body.startswith("old tracker") and fact.revision == 2
    assert archived.memory.resolve("project/ticket-board.md").fact.body == "new"
    assert not tab.refusal.isVisible()
    qtbot.waitUntil(lambda: all(r.fact.name != "ticket-board" for r in tab.model.rows if r.fact))


def test_an_unreadable_archive_entry_says_why_in_chinese(
    qtbot, ctx, engine: Engine, wait_idle
) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui import i18n

    fact = engine.create_fact(name="empty", type=FactType.PROJECT, body="a").value
    engine.forget_fact(fact.ref)
    (entry,) = engine.archived()
    entry.path.write_text("")
    assert [a.error for a in engine.archived()] == ["the file is empty"]
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        tab = ArchiveTab(ctx)
        qtbot.addWidget(tab)
        tab.resize(1100, 700)
        tab.show()
        wait_idle()
        (row,) = tab.model.rows
        assert row.fact is None and "文件为空" in row.title and "empty" not in row.title
        tab.table.selectRow(0)
        qtbot.waitUntil(lambda: "文件为空" in tab.preview.toPlainText())
    finally:
        i18n.uninstall()
