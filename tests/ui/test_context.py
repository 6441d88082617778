"""AppContext: work off the GUI thread, one error sink, @busy handlers, change flags, Tab refresh."""

from __future__ import annotations

import threading

import pytest
from PySide6.QtWidgets import QMessageBox, QPushButton, QWidget
from qasync import asyncSlot
from shiboken6 import isValid

from context_center.engine import Changes
from context_center.engine.errors import RevisionConflict
from context_center.ui.context import ARCHIVE, FACTS, AppContext, busy
from context_center.ui.tabs.base import Tab


class _Panel(QWidget):
    def __init__(self, ctx: AppContext) -> None:
        super().__init__()
        self.ctx = ctx
        self.btn = QPushButton("go", self)
        self.seen_thread: str | None = None
        self.result: object = None
        self.gate = threading.Event()

    @asyncSlot()
    @busy("btn")
    async def on_go(self) -> None:
        self.result = await self.ctx.run(self._work, 20, plus=2)

    def _work(self, x: int, *, plus: int) -> int:
        self.seen_thread = threading.current_thread().name
        assert self.gate.wait(5)
        return x + plus

    @asyncSlot()
    @busy("btn")
    async def on_fail(self) -> None:
        await self.ctx.run(self._boom)

    def _boom(self) -> None:
        raise RevisionConflict("expected 1, found 2", current_revision=2)


def test_run_goes_to_worker_thread_and_busy_restores(qtbot, ctx, wait_idle) -> None:
    panel = _Panel(ctx)
    qtbot.addWidget(panel)
    panel.btn.clicked.connect(panel.on_go)
    panel.btn.click()
    qtbot.waitUntil(lambda: panel.seen_thread is not None)
    assert not panel.btn.isEnabled()
    assert not ctx.is_idle
    panel.gate.set()
    wait_idle()
    assert panel.result == 22
    assert panel.seen_thread is not None and panel.seen_thread.startswith("engine")
    assert panel.btn.isEnabled()


@pytest.mark.expect_ui_errors
def test_engine_error_becomes_one_warning_dialog(qtbot, ctx, wait_idle) -> None:
    ctx.show_dialogs = True
    panel = _Panel(ctx)
    qtbot.addWidget(panel)
    panel.btn.clicked.connect(panel.on_fail)
    panel.btn.click()
    wait_idle()
    assert panel.btn.isEnabled()
    assert len(ctx.errors) == 1 and isinstance(ctx.errors[0], RevisionConflict)
    box = ctx.last_dialog
    assert isinstance(box, QMessageBox)
    assert box.icon() == QMessageBox.Icon.Warning
    assert "expected 1, found 2" in box.informativeText()
    assert box.detailedText() == ""
    box.close()


@pytest.mark.expect_ui_errors
def test_bug_gets_traceback_in_details(qtbot, ctx) -> None:
    ctx.show_dialogs = True
    try:
        raise ValueError("broken invariant")
    except ValueError as exc:
        ctx.report(exc)
    box = ctx.last_dialog
    assert isinstance(box, QMessageBox)
    assert box.icon() == QMessageBox.Icon.Critical
    assert "Traceback" in box.detailedText() and "broken invariant" in box.detailedText()
    box.close()


def test_confirm_awaits_the_answer(qtbot, ctx, qloop) -> None:
    answers: list[bool] = []

    async def ask() -> None:
        answers.append(await ctx.confirm(None, "Forget?", "Forget it?", ok_text="Forget"))

    qloop.create_task(ask())
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    box = ctx.last_dialog
    ok = next(b for b in box.buttons() if b.objectName() == "confirmOk")
    ok.click()
    qtbot.waitUntil(lambda: answers == [True])


class _CountingTab(Tab):
    flags = frozenset({FACTS})

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.loads = 0

    async def refresh(self) -> None:
        self.loads += 1
        await self.ctx.run(lambda: None)


def test_tab_refreshes_once_per_burst_and_only_for_its_flags(qtbot, ctx, wait_idle) -> None:
    tab = _CountingTab(ctx)
    qtbot.addWidget(tab)
    tab.show()
    wait_idle()
    assert tab.loads == 1
    ctx.apply(Changes.seen_on_disk({ARCHIVE}))
    wait_idle()
    assert tab.loads == 1
    for _ in range(5):
        ctx.apply(Changes.seen_on_disk({FACTS}))
    wait_idle()
    assert tab.loads == 2  # one running refresh plus exactly one more for the burst
    tab.hide()
    ctx.apply(Changes.seen_on_disk({FACTS}))
    wait_idle()
    assert tab.loads == 2
    tab.show()
    wait_idle()
    assert tab.loads == 3


class _LateTab(Tab):
    """A refresh that fills a label after the engine worked (as every tab does)."""

    flags = frozenset({FACTS})

    def __init__(self, ctx: AppContext) -> None:
        super().__init__(ctx)
        self.label = QPushButton("", self)
        self.gate = threading.Event()

    async def refresh(self) -> None:
        text = await self.ctx.run(lambda: "loaded" if self.gate.wait(5) else "")
        self.label.setText(text)


def test_a_refresh_ending_after_its_tab_was_deleted_reports_nothing(
    qtbot, ctx, wait_idle, _error_sink_guard
) -> None:
    """The window closed while a tab's refresh awaited the engine: the refresh ends there (no
    "C++ object already deleted" error dialog over a closed window)."""
    tab = _LateTab(ctx)
    tab.show()
    task = tab.refresh_now()
    assert task is not None
    qtbot.waitUntil(lambda: tab.is_refreshing)
    tab.deleteLater()
    qtbot.waitUntil(lambda: not isValid(tab))
    tab.gate.set()
    wait_idle()
    assert task.done() and task.exception() is None
    assert _error_sink_guard == []
