"""Instructions tab: chain in precedence order with imports, diagnostics that open the file at the
line, in-place edit with compare-and-set, quick-add rule, and the prefix preview."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine.errors import ContentConflict
from context_center.engine.facade import Engine
from context_center.ui.tabs.instructions import InstructionsTab


@pytest.fixture
def tree(home: Path, workspace: Path) -> None:
    (home / "AGENTS.md").write_text("# User\n\n- 用中文回答中文问题。\n")
    (workspace / "AGENTS.md").write_text(
        "# Project\n\n- Run tests.\n\n@docs/testing.md\n@../outside.md\n"
    )
    (workspace / "docs").mkdir()
    (workspace / "docs" / "testing.md").write_text("## Testing\n\n- pytest -q\n")
    (workspace / "AGENTS.local.md").write_text("- local port 5433\n")
    (workspace / "svc").mkdir()
    (workspace / "svc" / "AGENTS.md").write_text("- cents only\n")
    (workspace.parent / "outside.md").write_text("secret\n")


@pytest.fixture
def tab(qtbot, ctx, tree, wait_idle) -> InstructionsTab:  # type: ignore[no-untyped-def]
    widget = InstructionsTab(ctx)
    qtbot.addWidget(widget)
    widget.resize(1200, 760)
    widget.show()
    wait_idle()
    return widget


def top_labels(tab: InstructionsTab) -> list[str]:
    m = tab.chain_model
    return [m.index(i, 0).data() for i in range(m.rowCount())]


def test_chain_in_precedence_order_with_import_tree(tab: InstructionsTab, qtmodeltester) -> None:
    assert top_labels(tab) == ["user/AGENTS.md", "workspace/AGENTS.md", "workspace/AGENTS.local.md"]
    m = tab.chain_model
    ws = m.index(1, 0)
    children = [m.index(i, 0, ws).data() for i in range(m.rowCount(ws))]
    kinds = [m.index(i, 1, ws).data() for i in range(m.rowCount(ws))]
    assert children == ["workspace/docs/testing.md", "@../outside.md"]
    assert kinds == ["import", "rejected"]
    assert [m.index(1, c).data() for c in (1, 2, 3)] == ["project", "workspace", "10"]
    qtmodeltester.check(tab.chain_model)
    qtmodeltester.check(tab.diag_model)
    assert "Prefix:" in tab.prefix_length.text()
    assert int(tab.prefix_length.text().split()[1].replace(",", "")) == len(
        tab.prefix_view.toPlainText()
    )
    assert "用中文回答中文问题" in tab.prefix_view.toPlainText()
    assert str(tab.ctx.engine.workspace) not in tab.prefix_view.toPlainText()


def test_target_directory_adds_the_subdirectory(qtbot, tab: InstructionsTab, wait_idle) -> None:
    assert tab.target_combo.findText("svc") >= 0
    tab.set_target("svc")
    wait_idle()
    assert top_labels(tab)[-1] == "workspace/svc/AGENTS.md"


def test_diagnostic_opens_file_at_line(
    qtbot, tab: InstructionsTab, workspace: Path, wait_idle
) -> None:
    rows = tab.diag_model.rows
    assert [r.code for r in rows] == ["import_outside_source"]
    assert rows[0].file == "workspace/AGENTS.md" and rows[0].line == 6
    tab.diag_table.doubleClicked.emit(tab.diag_model.index(0, 0))
    wait_idle()
    assert tab.doc is not None and tab.doc.path == workspace / "AGENTS.md"
    assert tab.current_line() == 6
    assert tab.editor.textCursor().block().text() == "@../outside.md"


def test_edit_in_place_saves_atomically_and_refreshes(
    qtbot, tab: InstructionsTab, workspace: Path, wait_idle
) -> None:
    tab.open_file(workspace / "AGENTS.md", 1)
    wait_idle()
    assert not tab.btn_save.isEnabled()
    text = tab.editor.toPlainText().replace("@../outside.md\n", "- 新规则：先写测试。\n")
    tab.editor.selectAll()
    tab.editor.insertPlainText(text)  # as if typed
    assert tab.btn_save.isEnabled()
    tab.btn_save.click()
    wait_idle()
    assert (workspace / "AGENTS.md").read_text() == text
    qtbot.waitUntil(lambda: tab.diag_model.rows == [])
    assert "新规则" in tab.prefix_view.toPlainText()
    assert not tab.btn_save.isEnabled()


@pytest.mark.expect_ui_errors
def test_save_refuses_when_the_file_changed_underneath(
    qtbot, ctx, tab: InstructionsTab, workspace: Path, wait_idle
) -> None:
    tab.open_file(workspace / "AGENTS.md", 1)
    wait_idle()
    (workspace / "AGENTS.md").write_text("# Someone else\n")
    tab.editor.selectAll()
    tab.editor.insertPlainText("# Mine\n")
    tab.btn_save.click()
    wait_idle()
    assert len(ctx.errors) == 1 and isinstance(ctx.errors[0], ContentConflict)
    assert (workspace / "AGENTS.md").read_text() == "# Someone else\n"
    assert tab.editor.toPlainText() == "# Mine\n"  # nothing typed is lost


def test_quick_add_rule(
    qtbot, tab: InstructionsTab, workspace: Path, home: Path, wait_idle
) -> None:
    tab.rule_edit.setText("Always run ruff")
    tab.rule_scope.setCurrentIndex(tab.rule_scope.findData("local"))
    tab.btn_add_rule.click()
    wait_idle()
    assert (workspace / "AGENTS.local.md").read_text().endswith("- Always run ruff\n")
    qtbot.waitUntil(lambda: "Always run ruff" in tab.prefix_view.toPlainText())
    assert tab.rule_edit.text() == ""
    tab.rule_edit.setText("用户级规则")
    tab.rule_scope.setCurrentIndex(tab.rule_scope.findData("user"))
    tab.btn_add_rule.click()
    wait_idle()
    assert (home / "AGENTS.md").read_text().endswith("- 用户级规则\n")


@pytest.mark.expect_ui_errors
def test_empty_rule_is_a_clear_message(qtbot, ctx, tab: InstructionsTab, wait_idle) -> None:
    tab.rule_edit.setText("   ")
    tab.btn_add_rule.click()
    wait_idle()
    assert [getattr(e, "code", None) for e in ctx.errors] == ["empty_note"]


def test_engine_switch_reloads(
    qtbot, ctx, tab: InstructionsTab, tmp_path: Path, home: Path, workspace: Path, wait_idle
) -> None:
    tab.open_file(workspace / "AGENTS.md", 1)
    wait_idle()
    assert tab.doc is not None
    other = tmp_path / "other"
    other.mkdir()
    (other / "AGENTS.md").write_text("- other\n")
    ctx.set_engine(Engine(home=home, workspace=other))
    wait_idle()
    assert top_labels(tab) == ["user/AGENTS.md", "workspace/AGENTS.md"]
    assert "- other" in tab.prefix_view.toPlainText()
    assert tab.doc is None  # the open document belonged to the old workspace


# --------------------------------------------------------------------------- agents and Compare


@pytest.fixture
def agent_tab(qtbot, ctx, tree, wait_idle, tmp_path: Path, workspace: Path) -> InstructionsTab:  # type: ignore[no-untyped-def]
    user = tmp_path / "user-home"
    (user / ".claude").mkdir(parents=True)
    (user / ".claude" / "CLAUDE.md").write_text("- claude user rule\n")
    (user / ".codex").mkdir()
    (user / ".codex" / "AGENTS.md").write_text("- codex user rule\n")
    (workspace / "CLAUDE.md").write_text("@AGENTS.md\n- see @docs/testing.md too\n")
    ctx.engine.user_home = user  # never the real home
    ctx.engine.codex_home = user / ".codex"
    ctx.engine.instruction_ceiling = tmp_path
    widget = InstructionsTab(ctx)
    qtbot.addWidget(widget)
    widget.resize(1200, 760)
    widget.show()
    wait_idle()
    return widget


def test_agent_selector_shows_that_agents_chain(
    qtbot, agent_tab: InstructionsTab, wait_idle
) -> None:  # type: ignore[no-untyped-def]
    assert top_labels(agent_tab)[0] == "user/AGENTS.md"
    agent_tab.set_agent("claude-code")
    qtbot.waitUntil(lambda: top_labels(agent_tab)[0] == "~/.claude/CLAUDE.md")
    assert top_labels(agent_tab) == ["~/.claude/CLAUDE.md", "workspace/CLAUDE.md"]
    assert "Claude Code starts with" in agent_tab.prefix_pane.prefix_hint.text()
    assert "Contents of workspace/AGENTS.md" in agent_tab.prefix_view.toPlainText()
    agent_tab.set_agent("codex")
    qtbot.waitUntil(lambda: top_labels(agent_tab)[0] == "~/.codex/AGENTS.md")
    assert "--- project-doc ---" in agent_tab.prefix_view.toPlainText()


def test_compare_pane_fills_and_refreshes_after_a_save(  # type: ignore[no-untyped-def]
    qtbot, agent_tab: InstructionsTab, workspace: Path, wait_idle
) -> None:
    view = agent_tab.compare_view
    assert view.comparison is None  # not computed until the pane is opened
    agent_tab.right_tabs.setCurrentIndex(2)
    qtbot.waitUntil(lambda: view.comparison is not None)
    assert view.state_of("workspace/AGENTS.md", "reasonix") == "loaded"
    assert view.state_of("workspace/AGENTS.md", "claude-code") == "imported"
    assert view.state_of("workspace/AGENTS.md", "codex") == "loaded"
    assert "Cross-agent diagnostics (" in view.panes.tabText(0)
    assert "docs/testing.md" in view.cross.toPlainText()
    view.text_agent.setCurrentIndex(view.text_agent.findData("codex"))
    assert view.text_view.toPlainText().startswith("- codex user rule")
    first = view.comparison
    agent_tab.open_file(workspace / "AGENTS.md", 1)
    wait_idle()
    agent_tab.right_tabs.setCurrentIndex(2)
    agent_tab.editor.selectAll()
    agent_tab.editor.insertPlainText("# Project\n\n- Only this rule now.\n")
    agent_tab.btn_save.click()
    qtbot.waitUntil(
        lambda: (
            view.comparison is not first and "Only this rule" in view.comparison.text_of("codex")
        )
    )
    assert "Only this rule" in view.comparison.text_of("claude-code")


def test_a_large_instruction_file_raises_the_warning_banner(  # type: ignore[no-untyped-def]
    qtbot, tab: InstructionsTab, workspace: Path, wait_idle
) -> None:
    assert tab.prefix_warning.isHidden()
    (workspace / "AGENTS.local.md").write_text("- a long local rule that repeats\n" * 400)
    tab.refresh_now()
    qtbot.waitUntil(lambda: not tab.prefix_warning.isHidden())
    assert "workspace/AGENTS.local.md adds" in tab.prefix_warning.text()
    assert "index" in tab.prefix_length.text()


def test_the_warning_banner_speaks_chinese(  # type: ignore[no-untyped-def]
    qtbot, ctx, tree, workspace: Path, wait_idle
) -> None:
    from context_center.ui import i18n

    (workspace / "AGENTS.local.md").write_text("- a long local rule that repeats\n" * 400)
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        widget = InstructionsTab(ctx)
        qtbot.addWidget(widget)
        widget.resize(1200, 760)
        widget.show()
        wait_idle()
        qtbot.waitUntil(lambda: not widget.prefix_warning.isHidden())
        text = widget.prefix_warning.text()
        assert "workspace/AGENTS.local.md 为每个会话增加" in text and " adds " not in text
    finally:
        i18n.uninstall()
