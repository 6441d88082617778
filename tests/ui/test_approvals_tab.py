"""The approval inbox and dialog through real widgets: list + badge, approve, edit then approve,
reject with a reason, a conflict at approval time shown in the dialog, sensitive spans
highlighted, and a write queued by another process appearing."""

from __future__ import annotations

import json
import subprocess
import sys
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QLabel, QPushButton

from context_center.engine.facade import Engine
from context_center.engine.gate.approvals import ApprovalQueue, Status
from context_center.engine.gate.decision import Outcome, assess
from context_center.engine.model import FactType, Scope
from context_center.ui.context import APPROVALS, ARCHIVE, FACTS
from context_center.ui.dialogs.approval import (
    SENSITIVE_BG,
    ApprovalDialog,
    SensitiveHighlighter,
    utf16_offsets,
)
from context_center.ui.tabs.approvals import ApprovalsTab

TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
SECRET_BODY = f"Deploy with the bot account.\nIts token is {TOKEN} (rotate monthly).\n"


def wait_idle(qtbot, ctx, timeout: int = 5000) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: ctx.is_idle, timeout=timeout)


def propose(engine: Engine, **fields: Any) -> str:
    request = {"controller": "interactive", "owns_store": True, "agent": "claude-code", **fields}
    decision = assess(request, engine.memory)
    assert decision.outcome is Outcome.QUEUED, decision.reasons
    assert decision.pending_id is not None
    return decision.pending_id


def queue(engine: Engine) -> ApprovalQueue:
    return ApprovalQueue.for_layout(engine.layout)


@pytest.fixture
def create_id(engine: Engine) -> str:
    return propose(
        engine,
        operation="create",
        name="deploy-bot",
        title="Deploy bot",
        description="How deploys authenticate",
        type="user",
        body=SECRET_BODY,
    )


def inbox(qtbot, ctx, *, show: bool = True) -> ApprovalsTab:  # type: ignore[no-untyped-def]
    tab = ApprovalsTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1200, 600)
    if show:
        tab.show()
    qtbot.waitUntil(lambda: tab.refresh_count >= 1, timeout=5000)
    wait_idle(qtbot, ctx)
    return tab


def open_review(qtbot, ctx, tab: ApprovalsTab, item_id: str) -> ApprovalDialog:  # type: ignore[no-untyped-def]
    row = tab.model.row_of(lambda r: r.id == item_id)
    assert row >= 0
    tab.table.selectRow(row)
    qtbot.mouseClick(tab.review_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.dialog is not None and tab.dialog.isVisible(), timeout=5000)
    wait_idle(qtbot, ctx)
    assert tab.dialog is not None
    return tab.dialog


def click(qtbot, ctx, button) -> None:  # type: ignore[no-untyped-def]
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, ctx)


def highlighted_ranges(view) -> list[str]:  # type: ignore[no-untyped-def]
    """The text of every range the highlighter painted with the sensitive background."""
    doc = view.document()
    units = doc.toPlainText().encode("utf-16-le")  # Qt positions count UTF-16 code units
    out = []
    block = doc.begin()
    while block.isValid():
        for fr in block.layout().formats():
            if fr.format.background().color() == QColor(SENSITIVE_BG):
                start = block.position() + fr.start
                out.append(units[start * 2 : (start + fr.length) * 2].decode("utf-16-le"))
        block = block.next()
    return out


def test_inbox_lists_pending_writes_and_counts_them(
    qtbot, ctx, engine, create_id, qtmodeltester
) -> None:  # type: ignore[no-untyped-def]
    engine.memory.create(name="ci", title="CI", type=FactType.PROJECT, body="CI runs on push.")
    forget_id = propose(engine, operation="forget", ref="project/ci.md", agent="codex")
    counts: list[int] = []
    tab = ApprovalsTab(ctx)
    qtbot.addWidget(tab)
    tab.sig_pending_count.connect(counts.append)
    tab.show()
    qtbot.waitUntil(lambda: tab.refresh_count >= 1, timeout=5000)
    wait_idle(qtbot, ctx)

    assert counts == [2]
    assert tab.count_label.text() == "2 writes waiting for you"
    assert tab.stack.currentWidget() is tab.table
    m = tab.model
    row = m.row_of(lambda r: r.id == create_id)
    assert [m.index(row, c).data() for c in (1, 2, 3, 4, 5, 7)] == [
        "claude-code",
        "interactive",
        "Create",
        "project/deploy-bot.md",
        "type: user · scope: project",
        "this workspace",
    ]
    assert "need a person's confirmation" in m.index(row, 6).data()
    assert "sensitive" in m.index(row, 6).data()  # every reason in full, not "(+1 more)"
    assert "sensitive" in m.index(row, 6).data(Qt.ItemDataRole.ToolTipRole)
    row = m.row_of(lambda r: r.id == forget_id)
    assert [m.index(row, c).data() for c in (1, 3, 4)] == ["codex", "Forget", "project/ci.md"]
    qtmodeltester.check(m)


def test_approve_writes_the_proposal_and_clears_the_badge(qtbot, ctx, engine, create_id) -> None:  # type: ignore[no-untyped-def]
    tab = inbox(qtbot, ctx)
    counts: list[int] = []
    tab.sig_pending_count.connect(counts.append)
    changes: list[tuple[frozenset[str], object]] = []
    ctx.sig_changed.connect(lambda c, source: changes.append((c.areas, source)))
    dialog = open_review(qtbot, ctx, tab, create_id)

    # What the person sees before deciding.
    assert dialog.windowModality() == Qt.WindowModality.WindowModal
    heading = dialog.findChild(QLabel, "approvalHeading")
    assert heading.text() == "claude-code wants to create project/deploy-bot.md"
    assert dialog.meta_values["Operation"].text() == "Create"
    assert dialog.meta_values["Agent"].text() == "claude-code"
    assert dialog.meta_values["Controller"].text() == "interactive"
    assert dialog.meta_values["Scope"].text() == "project"
    assert dialog.meta_values["Type"].text() == "user"
    assert "need a person's confirmation" in dialog.reasons.text()
    assert "sensitive information" in dialog.reasons.text()
    content = dialog.content_view.toPlainText()
    assert "name: deploy-bot" in content and TOKEN in content
    assert dialog.content_view.isReadOnly()
    assert TOKEN in highlighted_ranges(dialog.content_view)
    assert dialog.sensitive_banner.isVisible()
    assert "GitHub token (line 8)" in dialog.sensitive_banner.text()
    assert TOKEN not in dialog.sensitive_banner.text()
    assert dialog.diff_tab == -1  # a create has nothing to compare with
    assert not dialog.approve_button.isDefault() and not dialog.approve_button.autoDefault()
    assert queue(engine).pending()  # looking approves nothing

    click(qtbot, ctx, dialog.approve_button)
    qtbot.waitUntil(lambda: tab.dialog is None, timeout=5000)
    assert ctx.errors == []
    fact = engine.memory.resolve("project/deploy-bot.md").fact
    assert fact.type is FactType.USER and fact.body == SECRET_BODY.rstrip()
    assert queue(engine).pending() == []
    assert queue(engine).get(create_id).status is Status.APPROVED
    assert counts == [0]
    assert tab.stack.currentWidget() is tab.empty
    assert (frozenset({APPROVALS, FACTS}), tab) in changes


def test_edit_then_approve_writes_the_edited_content(qtbot, ctx, engine, create_id) -> None:  # type: ignore[no-untyped-def]
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, create_id)
    click(qtbot, ctx, dialog.edit_button)
    assert dialog.editing and dialog.tabs.currentWidget() is dialog.editor
    assert dialog.approve_button.text() == "Approve edited"
    # The editable copy is checked while the person types.
    assert TOKEN in highlighted_ranges(dialog.edit_body)

    edited_body = "Deploy with the bot account; its token lives in the team vault.\n"
    dialog.edit_body.setPlainText(edited_body)
    dialog.edit_title.setText("Deploy bot credentials")
    dialog.edit_type.setCurrentIndex(dialog.edit_type.findData("project"))
    assert dialog.edited_content() == {
        "title": "Deploy bot credentials",
        "type": "project",
        "body": edited_body,
    }
    qtbot.waitUntil(lambda: not dialog.sensitive_banner.isVisible(), timeout=2000)
    assert highlighted_ranges(dialog.edit_body) == []
    assert "title: Deploy bot credentials" in dialog.content_view.toPlainText()

    click(qtbot, ctx, dialog.approve_button)
    qtbot.waitUntil(lambda: tab.dialog is None, timeout=5000)
    assert ctx.errors == []
    fact = engine.memory.resolve("project/deploy-bot.md").fact
    assert fact.title == "Deploy bot credentials"
    assert fact.type is FactType.PROJECT
    assert fact.body == edited_body.rstrip()
    record = queue(engine).get(create_id)
    assert record.decision is not None and record.decision.edited
    assert record.decision.final_content is not None
    assert record.decision.final_content.body == edited_body


def test_reject_with_a_reason(qtbot, ctx, engine, create_id) -> None:  # type: ignore[no-untyped-def]
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, create_id)
    qtbot.keyClicks(dialog.reject_reason, "secrets do not belong in memory")
    qtbot.keyClick(dialog.reject_reason, Qt.Key.Key_Return)  # Enter decides nothing
    qtbot.wait(50)
    assert tab.dialog is dialog and queue(engine).get(create_id).status is Status.PENDING

    click(qtbot, ctx, dialog.reject_button)
    qtbot.waitUntil(lambda: tab.dialog is None, timeout=5000)
    record = queue(engine).get(create_id)
    assert record.status is Status.REJECTED
    assert record.decision is not None
    assert record.decision.reason == "secrets do not belong in memory"
    assert engine.memory.load(persist_cache=False).facts == []
    assert tab.model.rowCount() == 0 and tab.pending_count == 0


def test_close_decides_nothing(qtbot, ctx, engine, create_id) -> None:  # type: ignore[no-untyped-def]
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, create_id)
    click(qtbot, ctx, dialog.close_button)
    qtbot.waitUntil(lambda: tab.dialog is None, timeout=5000)
    assert [r.id for r in queue(engine).pending()] == [create_id]
    assert tab.model.rowCount() == 1


def test_update_shows_a_diff_against_the_current_revision(qtbot, ctx, engine) -> None:  # type: ignore[no-untyped-def]
    fact = engine.memory.create(
        name="release", title="Release", type=FactType.PROJECT, body="Cut from main.\nTag it.\n"
    )
    item = propose(engine, operation="update", id=fact.id, body="Cut from release/*.\nTag it.\n")
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, item)
    assert dialog.meta_values["Target"].text() == f"project/release.md (id {fact.id})"
    assert dialog.meta_values["Based on"].text() == "revision 1"
    assert not dialog.stale_banner.isVisible()
    assert dialog.diff_tab >= 0
    diff = dialog.diff_view.toPlainText()
    assert "-Cut from main." in diff and "+Cut from release/*." in diff
    assert "project/release.md (revision 1, current)" in diff
    assert "Cut from release/*." in dialog.content_view.toPlainText()

    click(qtbot, ctx, dialog.approve_button)
    qtbot.waitUntil(lambda: tab.dialog is None, timeout=5000)
    updated = engine.memory.resolve(fact.id).fact
    assert updated.revision == 2 and updated.body == "Cut from release/*.\nTag it."


def test_conflict_at_approval_time_is_shown_in_the_dialog(qtbot, ctx, engine) -> None:  # type: ignore[no-untyped-def]
    fact = engine.memory.create(
        name="release", title="Release", type=FactType.PROJECT, body="Cut from main.\n"
    )
    item = propose(engine, operation="update", id=fact.id, body="Cut from release/*.\n")
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, item)
    assert not dialog.stale_banner.isVisible()

    # A person edits the fact while the dialog is open: the store moves on.
    engine.memory.update(fact.id, expected_revision=1, body="Cut from main, tag with v*.\n")
    click(qtbot, ctx, dialog.approve_button)

    assert tab.dialog is dialog and dialog.isVisible()  # not closed, not swallowed
    assert dialog.conflict_banner.isVisible()
    assert "cannot be applied" in dialog.conflict_banner.text()
    assert "Nothing was written" in dialog.conflict_banner.text()
    assert dialog.stale_banner.isVisible()  # and why: the fact is at revision 2 now
    assert "revision 2" in dialog.stale_banner.text()
    assert "+Cut from release/*." in dialog.diff_view.toPlainText()
    assert "-Cut from main, tag with v*." in dialog.diff_view.toPlainText()
    assert ctx.errors == []  # shown in the dialog, not as a separate error box
    assert engine.memory.resolve(fact.id).fact.body == "Cut from main, tag with v*."
    assert queue(engine).get(item).status is Status.PENDING
    # Approving again would be refused the same way (editing does not move the base): the
    # dialog does not offer it, and says what can be done instead.
    assert not dialog.approve_button.isEnabled()
    assert not dialog.edit_button.isEnabled()
    assert "approve again" not in dialog.conflict_banner.text()
    assert "ask the agent to propose it again" in dialog.stale_banner.text()
    assert "Reject it" in dialog.stale_banner.text()

    # The person can still reject it from the same dialog.
    click(qtbot, ctx, dialog.reject_button)
    qtbot.waitUntil(lambda: tab.dialog is None, timeout=5000)
    assert queue(engine).get(item).status is Status.REJECTED


def test_create_conflict_can_be_fixed_by_editing_the_name(qtbot, ctx, engine, create_id) -> None:  # type: ignore[no-untyped-def]
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, create_id)
    engine.memory.create(name="deploy-bot", title="Other", type=FactType.PROJECT, body="x")
    click(qtbot, ctx, dialog.approve_button)
    assert dialog.conflict_banner.isVisible() and "already exists" in dialog.conflict_banner.text()
    click(qtbot, ctx, dialog.edit_button)
    dialog.edit_name.setText("deploy-bot-account")
    click(qtbot, ctx, dialog.approve_button)
    qtbot.waitUntil(lambda: tab.dialog is None, timeout=5000)
    assert engine.memory.resolve("project/deploy-bot-account.md").fact.body == SECRET_BODY.rstrip()
    assert engine.memory.resolve("project/deploy-bot.md").fact.body == "x"


def test_approve_forget_archives_the_fact(qtbot, ctx, engine) -> None:  # type: ignore[no-untyped-def]
    engine.memory.create(
        name="old", title="Old", type=FactType.PROJECT, scope=Scope.GLOBAL, body="b"
    )
    item = propose(engine, operation="forget", ref="global/old.md")
    changes: list[frozenset[str]] = []
    ctx.sig_changed.connect(lambda c, source: changes.append(c.areas))
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, item)
    assert dialog.edit_button.isHidden()
    assert "Fact to forget" in dialog.tabs.tabText(dialog.content_tab)
    assert "name: old" in dialog.content_view.toPlainText()
    click(qtbot, ctx, dialog.approve_button)
    qtbot.waitUntil(lambda: tab.dialog is None, timeout=5000)
    assert [a.fact.name for a in engine.memory.archived()] == ["old"]
    assert frozenset({APPROVALS, FACTS, ARCHIVE}) in changes


def test_untrusted_content_is_shown_as_text(qtbot, ctx, engine) -> None:  # type: ignore[no-untyped-def]
    body = '<img src="http://example.invalid/x.png"><script>alert(1)</script> **bold**\n'
    item = propose(
        engine,
        operation="create",
        name="html",
        title="Html",
        description="d",
        type="user",
        body=body,
    )
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, item)
    assert body.strip() in dialog.content_view.toPlainText()  # literally, tags and all
    assert dialog.diff_view.blocked == []


def test_a_write_queued_by_another_process_appears(
    qtbot, ctx, engine, home, workspace, cli_env
) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.watcher import ChangeWatcher

    tab = inbox(qtbot, ctx, show=False)  # hidden: the badge must follow anyway
    counts: list[int] = []
    tab.sig_pending_count.connect(counts.append)
    assert tab.pending_count == 0
    watcher = ChangeWatcher(ctx, poll_ms=100, debounce_ms=50)  # the window's own watcher
    watcher.start()

    request = {
        "name": "global-style",
        "title": "Style",
        "description": "House style",
        "type": "feedback",
        "scope": "global",
        "body": "Prefer small commits.",
    }
    done = subprocess.run(
        [
            sys.executable, "-m", "context_center", "--home", str(home), "--workspace",
            str(workspace), "--json", "agent", "remember", "--json-input", "-",
            "--controller", "interactive", "--agent", "codex",
        ],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        env=cli_env,
        timeout=60,
        check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    pending_id = json.loads(done.stdout)["pending_id"]

    qtbot.waitUntil(lambda: counts == [1], timeout=5000)
    watcher.stop()
    assert any(APPROVALS in flags for flags in watcher.emitted)
    assert [r.id for r in tab.model.rows] == [pending_id]
    assert tab.model.index(0, 1).data() == "codex"
    assert tab.model.index(0, 5).data() == "type: feedback · scope: global"


def test_highlighter_maps_offsets_past_astral_characters(qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QPlainTextEdit

    edit = QPlainTextEdit()
    qtbot.addWidget(edit)
    text = f"🚀🚀 mail ann@example.com\n中文 {TOKEN}"
    highlighter = SensitiveHighlighter(edit.document())
    edit.setPlainText(text)
    qtbot.wait(10)
    assert utf16_offsets("a🚀b") == [0, 1, 3, 4]
    assert [s.kind for s in highlighter.spans] == ["email", "github_token"]
    assert highlighted_ranges(edit) == ["ann@example.com", TOKEN]


def test_a_moved_base_disables_approve_from_the_start(qtbot, ctx, engine) -> None:  # type: ignore[no-untyped-def]
    fact = engine.memory.create(name="notes", title="Notes", type=FactType.PROJECT, body="a\n")
    item = propose(engine, operation="update", id=fact.id, body="b\n")
    engine.memory.update(fact.id, expected_revision=1, body="c\n")  # moved before review
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, item)
    assert dialog.blocked and dialog.stale_banner.isVisible()
    assert not dialog.approve_button.isEnabled() and not dialog.edit_button.isEnabled()
    assert dialog.reject_button.isEnabled()
    dialog._on_approve()  # even a stray call does not emit an approval
    assert queue(engine).get(item).status is Status.PENDING


def test_a_base_that_moves_while_the_review_is_open_disables_approve_at_once(
    qtbot, ctx, engine
) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine import Changes

    fact = engine.memory.create(name="notes", title="Notes", type=FactType.PROJECT, body="a\n")
    item = propose(engine, operation="update", id=fact.id, body="b\n")
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, item)
    assert not dialog.blocked and dialog.approve_button.isEnabled()
    changes = engine.update_fact(fact.id, expected_revision=1, body="c\n")  # elsewhere
    assert isinstance(changes, Changes)
    ctx.apply(changes, None)  # what the watcher or another tab reports
    qtbot.waitUntil(lambda: dialog.blocked, timeout=3000)
    assert dialog.stale_banner.isVisible() and not dialog.approve_button.isEnabled()
    assert queue(engine).get(item).status is Status.PENDING


def test_closing_the_review_with_edits_asks_first(qtbot, ctx, engine, create_id) -> None:  # type: ignore[no-untyped-def]
    tab = inbox(qtbot, ctx)
    dialog = open_review(qtbot, ctx, tab, create_id)
    dialog.start_editing()
    dialog.edit_title.setText("Edited title")
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: dialog.discard_box is not None and dialog.discard_box.isVisible())
    assert dialog.isVisible()  # still open: Escape asked instead of dropping the edit
    assert tab.has_unsaved_changes()
    dialog.discard_box.findChild(QPushButton, "keepEditing").click()
    qtbot.waitUntil(lambda: dialog.discard_box is None)
    assert dialog.isVisible() and dialog.edit_title.text() == "Edited title"
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: dialog.discard_box is not None and dialog.discard_box.isVisible())
    dialog.discard_box.findChild(QPushButton, "discardChanges").click()
    qtbot.waitUntil(lambda: tab.dialog is None, timeout=3000)
    assert queue(engine).get(create_id).status is Status.PENDING
