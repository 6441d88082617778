"""Approvals tab: reject several selected writes after one confirmation naming how many."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QItemSelectionModel
from PySide6.QtWidgets import QMessageBox

from context_center.engine.facade import Engine
from context_center.engine.gate.approvals import ApprovalQueue, Status
from context_center.engine.gate.decision import Outcome, assess
from context_center.ui.tabs.approvals import ApprovalsTab


def propose(engine: Engine, **fields: Any) -> str:
    request = {"controller": "interactive", "owns_store": True, "agent": "claude-code", **fields}
    decision = assess(request, engine.memory)
    assert decision.outcome is Outcome.QUEUED, decision.reasons
    assert decision.pending_id is not None
    return decision.pending_id


def queue(engine: Engine) -> ApprovalQueue:
    return ApprovalQueue.for_layout(engine.layout)


def inbox(qtbot, ctx) -> ApprovalsTab:  # type: ignore[no-untyped-def]
    tab = ApprovalsTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1200, 600)
    tab.show()
    qtbot.waitUntil(lambda: tab.refresh_count >= 1 and ctx.is_idle, timeout=5000)
    return tab


def _three(engine: Engine) -> list[str]:
    return [
        propose(
            engine,
            operation="create",
            name=f"global-{i}",
            title=f"Global {i}",
            description="a global fact needs a person",
            type="user",
            scope="global",
            body=f"body {i}",
        )
        for i in range(3)
    ]


def _answer(qtbot, ctx, accept: bool) -> str:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    box = ctx.last_dialog
    text = box.text()
    next(b for b in box.buttons() if (b.objectName() == "confirmOk") == accept).click()
    return text


def test_bulk_reject_rejects_each_selected_write(qtbot, ctx, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    ids = _three(engine)
    tab = inbox(qtbot, ctx)
    assert tab.model.rowCount() == 3
    sel = tab.table.selectionModel()
    sel.clearSelection()
    keep = ids[1]
    for i, record in enumerate(tab.model.rows):
        if record.id != keep:
            sel.select(
                tab.model.index(i, 0),
                QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows,
            )
    assert tab.reject_button.isEnabled()
    decided: list[tuple[str, str]] = []
    tab.sig_decided.connect(lambda i, d: decided.append((i, d)))

    tab.reject_button.click()
    assert _answer(qtbot, ctx, accept=False) == "Reject 2 writes?"
    qtbot.waitUntil(lambda: ctx.is_idle)
    assert all(queue(engine).get(i).status is Status.PENDING for i in ids)

    tab.reject_button.click()
    _answer(qtbot, ctx, accept=True)
    qtbot.waitUntil(lambda: ctx.is_idle and tab.model.rowCount() == 1)
    assert [queue(engine).get(i).status for i in ids] == [
        Status.REJECTED,
        Status.PENDING,
        Status.REJECTED,
    ]
    assert sorted(decided) == sorted((i, "rejected") for i in ids if i != keep)
    assert tab.model.rows[0].id == keep and tab.pending_count == 1
    assert engine.memory.load(persist_cache=False).facts == []
    assert ctx.errors == []
