"""Undo in the status bar right after a rejection (Approvals: the review dialog and bulk) and a
dismissal (Suggestions): the rejected write waits again as a new item with the rejection kept
in the audit log; the dismissed candidate is listed again."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QItemSelectionModel, Qt
from PySide6.QtWidgets import QMessageBox

from context_center.engine.facade import Engine
from context_center.engine.gate.approvals import ApprovalQueue, Status
from context_center.engine.gate.decision import Outcome, assess
from context_center.engine.suggestions import append_turn, load_decisions
from context_center.ui.tabs.approvals import ApprovalsTab
from context_center.ui.tabs.suggestions import SuggestionsTab
from context_center.ui.widgets.undo_offer import UndoOffer


def propose(engine: Engine, name: str) -> str:
    request = {
        "controller": "interactive",
        "owns_store": True,
        "agent": "claude-code",
        "operation": "create",
        "name": name,
        "title": name.title(),
        "description": "a global fact needs a person",
        "type": "user",
        "scope": "global",
        "body": f"body of {name}",
    }
    decision = assess(request, engine.memory)
    assert decision.outcome is Outcome.QUEUED and decision.pending_id is not None
    return decision.pending_id


def inbox(qtbot, ctx) -> ApprovalsTab:  # type: ignore[no-untyped-def]
    tab = ApprovalsTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1200, 600)
    tab.show()
    qtbot.waitUntil(lambda: tab.refresh_count >= 1 and ctx.is_idle, timeout=5000)
    return tab


def undo_button(qtbot, ctx) -> UndoOffer:  # type: ignore[no-untyped-def]
    undo = UndoOffer(ctx)
    qtbot.addWidget(undo)
    return undo


def events(engine: Engine) -> list[tuple[str, Any]]:
    entries = ApprovalQueue.for_layout(engine.layout).audit_entries()
    return [(e["event"], e.get("requeued_from")) for e in entries]


def test_undo_after_the_review_dialogs_reject(qtbot, ctx, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    item = propose(engine, "house-style")
    tab = inbox(qtbot, ctx)
    undo = undo_button(qtbot, ctx)
    messages: list[str] = []
    ctx.sig_status.connect(messages.append)
    tab.table.selectRow(0)
    qtbot.mouseClick(tab.review_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.dialog is not None and tab.dialog.isVisible(), timeout=5000)
    qtbot.waitUntil(lambda: ctx.is_idle)
    assert tab.dialog is not None
    qtbot.mouseClick(tab.dialog.reject_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ctx.is_idle and tab.model.rowCount() == 0, timeout=5000)
    assert undo.offered
    assert "Undo puts the same write back in the queue as a new item" in messages[-1]
    assert "global/house-style.md" in messages[-1]
    undo.click()
    qtbot.waitUntil(lambda: ctx.is_idle and tab.model.rowCount() == 1, timeout=5000)
    queue = ApprovalQueue.for_layout(engine.layout)
    assert queue.get(item).status is Status.REJECTED  # the rejection is never erased
    [again] = queue.pending()
    assert again.id != item and again.content == queue.get(item).content
    assert events(engine)[-2:] == [("rejected", None), ("requeued", item)]
    assert messages[-1] == "1 write is waiting for approval again"
    assert ctx.errors == []


def test_undo_after_bulk_reject(qtbot, ctx, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    ids = [propose(engine, f"global-{i}") for i in range(3)]
    tab = inbox(qtbot, ctx)
    undo = undo_button(qtbot, ctx)
    sel = tab.table.selectionModel()
    for i in range(tab.model.rowCount()):
        sel.select(
            tab.model.index(i, 0),
            QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
        )
    tab.reject_button.click()
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    box = ctx.last_dialog
    assert "Undo queues them again." in box.informativeText()
    next(b for b in box.buttons() if b.objectName() == "confirmOk").click()
    qtbot.waitUntil(lambda: ctx.is_idle and tab.model.rowCount() == 0, timeout=5000)
    assert undo.offered and "Rejected 3 writes. Undo puts each back" in undo.toolTip()
    undo.click()
    qtbot.waitUntil(lambda: ctx.is_idle and tab.model.rowCount() == 3, timeout=5000)
    queue = ApprovalQueue.for_layout(engine.layout)
    assert all(queue.get(i).status is Status.REJECTED for i in ids)
    assert sorted(e[1] for e in events(engine) if e[0] == "requeued") == sorted(ids)
    assert ctx.errors == []


@pytest.fixture
def _no_real_transcripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "person"))


@pytest.mark.usefixtures("_no_real_transcripts")
def test_undo_after_dismiss_lists_the_candidate_again(qtbot, ctx, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    t0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
    for i, text in enumerate(
        ["Never push directly to main.", "以后提交前先跑测试，默认使用 pytest -q。"]
    ):
        append_turn(engine.layout, text, session="a", time=t0 + timedelta(minutes=i))
    tab = SuggestionsTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    tab.show()
    qtbot.waitUntil(lambda: tab.scan_count >= 1 and not tab.is_refreshing, timeout=10000)
    qtbot.waitUntil(lambda: ctx.is_idle)
    undo = undo_button(qtbot, ctx)
    before = tab.model.rowCount()
    assert before >= 1
    tab.table.selectRow(0)
    candidate = tab.model.row_at(0)
    qtbot.waitUntil(lambda: tab.current is candidate)
    qtbot.mouseClick(tab.dismiss_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: ctx.is_idle and tab.model.rowCount() == before - 1, timeout=5000)
    assert undo.offered and "Undo lists it again" in undo.toolTip()
    assert [d.decision for d in load_decisions(engine.layout)] == ["dismissed"]
    scans = tab.scan_count
    undo.click()
    qtbot.waitUntil(lambda: tab.scan_count > scans and not tab.is_refreshing, timeout=10000)
    qtbot.waitUntil(lambda: ctx.is_idle)
    assert tab.model.row_of(lambda c: c.id == candidate.id) >= 0
    assert load_decisions(engine.layout) == []
    assert ctx.errors == []
