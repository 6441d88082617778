"""Engine text the window shows, in the window's language (ui/engine_text.py and the tables
built on it): instruction and fact-file diagnostics, a suggestion's Why and notes, the History
page's details and a refusal's message. Under zh_CN each is the Chinese form filled with the
engine's names, paths and numbers; a code or form the window does not know is shown as the
engine wrote it; in English nothing changes."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel

from context_center.engine import (
    AlreadyExists,
    Diagnostic,
    Engine,
    EngineError,
    FactType,
    MemoryCandidate,
    RevisionConflict,
    Scope,
)
from context_center.engine.suggestions.known import Origin
from context_center.engine.suggestions.mining import _MARKERS
from context_center.ui import i18n
from context_center.ui.diagnostic_text import (
    FACT_CODES,
    FACT_FORMS,
    INSTRUCTION_CODES,
    INSTRUCTION_FORMS,
    fact_message,
    instruction_message,
)
from context_center.ui.engine_text import Forms, shown_by_code
from context_center.ui.history_text import history_detail
from context_center.ui.refusal_text import error_message, recover_reason, refusal_message
from context_center.ui.suggestion_text import (
    EXPLANATIONS,
    REASONS,
    explanation_text,
    note_text,
    reason_text,
    source_note,
)
from context_center.ui.tabs.archive import Refusal
from context_center.ui.widgets.candidate_editor import CandidateEditor
from context_center.ui.widgets.instruction_chain import DiagRow
from context_center.ui.widgets.memory_banners import DiagnosticsBanner


@pytest.fixture
def chinese(qapp) -> Iterator[None]:  # type: ignore[no-untyped-def]
    assert i18n.install("zh_CN") == "zh_CN"
    yield
    i18n.uninstall()


@pytest.fixture
def hostile(home: Path, workspace: Path) -> Engine:
    """A workspace whose instruction files import what no agent may load."""
    (workspace / "AGENTS.md").write_text(
        "# Project\n\n@/etc/passwd\n@../outside.md\n@missing.md\n@big.md\n"
    )
    (workspace / "big.md").write_bytes(b"x" * (1024 * 1024 + 1))
    (workspace / "CLAUDE.md").write_text(
        "@nothere.md\n@tanstack/react-query\nkey sk-abcdefghijklmnopqrstuvwxyz0123456789ABCD\n"
    )
    return Engine(home=home, workspace=workspace)


def _diagnostics(engine: Engine) -> list[tuple[str, str]]:
    out = []
    for agent in ("reasonix", "claude-code"):
        resolution = engine.instructions(engine.workspace, agent=agent)
        out += [(d.code, d.message) for d in resolution.diagnostics]
    return out


# -- the mechanism ---------------------------------------------------------------------------


def test_a_form_is_read_back_only_when_it_rebuilds_the_message(qapp) -> None:  # type: ignore[no-untyped-def]
    forms = Forms("DiagnosticText", {"not_loaded": "{label} was not loaded: {reason}"})
    assert forms.parse("a: b.md was not loaded: it does not exist") == (
        "not_loaded",
        {"label": "a: b.md", "reason": "it does not exist"},
    )
    assert forms.parse("a.md was loaded") is None
    assert shown_by_code("new_code", "x was not loaded: y", {}, forms) == "x was not loaded: y"


# -- 1. diagnostics ----------------------------------------------------------------------------


def test_every_instruction_diagnostic_of_a_hostile_tree_is_in_a_known_form(
    hostile: Engine,
) -> None:
    diagnostics = _diagnostics(hostile)
    assert len(diagnostics) >= 7
    for code, message in diagnostics:
        assert INSTRUCTION_FORMS.parse(message, INSTRUCTION_CODES[code]) is not None, message


def test_instruction_diagnostics_in_english_are_as_written(qapp, hostile: Engine) -> None:  # type: ignore[no-untyped-def]
    for code, message in _diagnostics(hostile):
        assert instruction_message(code, message) == message


def test_instruction_diagnostics_in_chinese(chinese, hostile: Engine) -> None:  # type: ignore[no-untyped-def]
    resolution = hostile.instructions(hostile.workspace)
    shown = [DiagRow.of(d).message for d in resolution.diagnostics]
    assert "拒绝导入“/etc/passwd”（import_absolute_path）：不允许使用绝对路径" in shown
    assert (
        "拒绝导入“../outside.md”（import_outside_source）：该路径离开了指令文件所在的目录" in shown
    )
    assert "拒绝导入“workspace/missing.md”（import_unreadable）：它不存在" in shown
    assert "拒绝导入“workspace/big.md”（import_too_large）：它大于 1048576 字节" in shown
    secret = next(m for m in shown if "workspace/CLAUDE.md" in m)
    assert secret == (
        "workspace/CLAUDE.md 第 3 行的 API 密钥（sk-/rk-） 已从智能体的文本中隐去；请把它移出指令文件"
    )
    claude = hostile.instructions(hostile.workspace, agent="claude-code")
    notes = [instruction_message(d.code, d.message) for d in claude.diagnostics]
    assert (
        "@tanstack/react-query 指向的文件不存在；Claude Code 会默默跳过它（它看起来像包名）"
        in notes
    )


def test_an_unknown_instruction_code_or_form_is_shown_as_written(chinese) -> None:  # type: ignore[no-untyped-def]
    assert instruction_message("brand_new", "x.md was not loaded: it does not exist") == (
        "x.md was not loaded: it does not exist"
    )
    odd = "import of 'a.md' was refused for a new reason"
    assert instruction_message("import_cycle", odd) == odd
    # a known form around a reason the window does not know: the reason stays as written
    assert instruction_message("document_unreadable", "x.md was not loaded: it is cursed") == (
        "未加载 x.md：it is cursed"
    )


def test_the_instructions_tab_shows_the_diagnostic_in_chinese(  # type: ignore[no-untyped-def]
    qtbot, chinese, ctx, workspace: Path, wait_idle
) -> None:
    from context_center.ui.tabs.instructions import InstructionsTab

    (workspace / "AGENTS.md").write_text("# Project\n\n@../outside.md\n")
    tab = InstructionsTab(ctx)
    qtbot.addWidget(tab)
    tab.show()
    wait_idle()
    assert [r.code for r in tab.diag_model.rows] == ["import_outside_source"]
    tab.diag_table.selectRow(0)
    assert tab.diag_detail.text() == (
        "import_outside_source — workspace/AGENTS.md，第 3 行：拒绝导入“../outside.md”"
        "（import_outside_source）：该路径离开了指令文件所在的目录"
    )


def _broken_store(engine: Engine, workspace: Path) -> list[Diagnostic]:
    store = engine.layout.project_store
    engine.create_fact(name="ok", type=FactType.PROJECT, body="fine")
    (store / "empty.md").write_text("")
    (store / "typed.md").write_text("---\nname: typed\ntype: opinion\n---\nbody\n")
    (store / "dup.md").write_text("---\nname: dup\nname: again\n---\nbody\n")
    (store / "plain.md").write_text("just text\n")
    (store / "nul.md").write_bytes(b"---\nname: nul\n---\n\0\n")
    return list(engine.load_entries().diagnostics)


def test_fact_file_diagnostics_in_english_and_chinese(
    qapp, engine: Engine, workspace: Path
) -> None:  # type: ignore[no-untyped-def]
    diagnostics = _broken_store(engine, workspace)
    assert len(diagnostics) == 5
    for d in diagnostics:
        assert FACT_FORMS.parse(d.message, FACT_CODES[d.code]) is not None, d
        assert fact_message(d.code, d.message) == d.message
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        shown = {d.path: fact_message(d.code, d.message) for d in diagnostics}
        assert shown["empty.md"] == "文件为空"
        assert shown["typed.md"] == "type“opinion”不是 user、feedback、project、reference 之一"
        assert shown["dup.md"] == "前置元数据的键“name”重复（第 3 行）"
        assert shown["nul.md"] == "文件包含 NUL 字节"
        assert shown["plain.md"].startswith("不是事实：文件没有前置元数据块")
        banner = DiagnosticsBanner()
        banner.show_diagnostics(diagnostics)
        banner.expanded = True
        banner._render()
        text = banner.label.text()
        assert "文件为空" in text and "前置元数据的键“name”重复" in text
        assert fact_message("new_code", "file is empty") == "file is empty"
        assert fact_message("empty_file", "the file is empty, oddly") == "the file is empty, oddly"
    finally:
        i18n.uninstall()


# -- 2. suggestions ----------------------------------------------------------------------------


def test_every_marker_reason_of_the_miner_has_a_translation(chinese) -> None:  # type: ignore[no-untyped-def]
    reasons = {reason for _, reason in _MARKERS}
    assert reasons <= set(REASONS.source.values())
    assert all(reason_text(reason) != reason for reason in reasons)


def test_suggestion_texts_in_chinese(chinese) -> None:  # type: ignore[no-untyped-def]
    origin = Origin("fact", "project/release.md", "Release branches").describe()
    note = f"Left out “Cut releases from main”: {origin} already says this."
    assert note_text(note) == (
        "略去了“Cut releases from main”：事实 project/release.md（“Release branches”） "
        "已经说明了这一点。"
    )
    origin = Origin("instruction", "workspace/AGENTS.md").describe()
    assert note_text(f"Left out “x”: {origin} already says this.") == (
        "略去了“x”：指令文件 workspace/AGENTS.md 已经说明了这一点。"
    )
    assert source_note("on a network file system (nfs4); not read") == (
        "位于网络文件系统（nfs4）上；未读取"
    )
    explanation = EXPLANATIONS.source["relative"].format(workspace="ws")
    assert explanation_text(explanation) == "工作区“ws”不是绝对的本地路径，因此没有扫描任何内容。"
    for unknown in ("Left out x: a new kind of origin", "a brand new note"):
        assert note_text(unknown) == unknown and source_note(unknown) == unknown
    assert reason_text("a new marker") == "a new marker"


def test_the_candidate_editor_says_why_in_chinese(qtbot, chinese) -> None:  # type: ignore[no-untyped-def]
    candidate = MemoryCandidate(
        id="c1",
        key="k",
        name="answer-in-chinese",
        title="Answer in Chinese",
        description="d",
        type=FactType.FEEDBACK,
        body="Answer in Chinese.",
        reason="explicit remember request",
        evidence=[],
    )
    editor = CandidateEditor()
    qtbot.addWidget(editor)
    editor.load(candidate)
    why = editor.findChild(QLabel, "candidateReason")
    assert why is not None and why.text().startswith("原因：明确要求记住")


# -- 3. history --------------------------------------------------------------------------------


def test_history_details_in_chinese(qapp, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    fact = engine.create_fact(name="flow", title="Flow", type=FactType.USER, body="a").value
    engine.update_fact(
        fact.ref, expected_revision=1, title="Release flow", type=FactType.PROJECT, body="b"
    )
    detail = engine.history(fact.ref)[0].detail
    assert detail == "type: user → project, title, text"
    assert history_detail(detail) == detail
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        assert history_detail(detail) == "类型：用户 → 项目，标题，正文"
        audit = "type_needs_confirmation, reason: too vague, sorry, requeued as: apr-2"
        assert history_detail(audit) == (
            "这种类型的事实需要人来确认，理由：too vague, sorry，重新排队为：apr-2"
        )
        assert history_detail("something, new") == "something, new"
    finally:
        i18n.uninstall()


# -- 4. refusals -------------------------------------------------------------------------------


def test_refusals_in_chinese(qapp, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    engine.create_fact(name="flow", type=FactType.PROJECT, body="a")
    with pytest.raises(AlreadyExists) as exists:
        engine.create_fact(name="flow", type=FactType.PROJECT, body="a")
    with pytest.raises(RevisionConflict) as conflict:
        engine.update_fact("project/flow.md", expected_revision=7, body="b")
    assert error_message(exists.value) == str(exists.value)
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        assert error_message(exists.value) == (
            "project/flow.md 已存在；创建从不覆盖（请换一个名称，或更新它）"
        )
        assert error_message(conflict.value) == "project/flow.md 的修订版冲突：预期 7，实际 1"
        busy = "the project store is busy: another process has held its lock for more than 10 s; try again"
        assert refusal_message("store_unavailable", busy) == (
            "项目存储正忙：另一个进程持有它的锁已超过 10 秒；请重试"
        )
        odd = EngineError("a refusal of a kind the window never saw", code="brand_new")
        assert error_message(odd) == str(odd)
        assert refusal_message("not_found", "gone somewhere else") == "gone somewhere else"
    finally:
        i18n.uninstall()


def test_a_refused_recover_in_chinese(qapp, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    fact = engine.create_fact(name="flow", type=FactType.PROJECT, body="a").value
    engine.forget_fact(fact.ref)
    engine.create_fact(name="flow", type=FactType.PROJECT, body="b")
    archived = engine.archived()[0]
    from context_center.ui.tabs.archive import try_recover

    outcome = try_recover(engine, engine.archive_ref(archived), archived.fact)
    assert isinstance(outcome, Refusal) and outcome.name_taken
    assert outcome.shown == outcome.message
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        assert outcome.shown == "project/flow.md 已处于活动状态（另一条事实使用了这个名称）"
        assert recover_reason("recover_refused", "a new reason") == "a new reason"
        assert Refusal("no such entry", False, "", "brand_new").shown == "no such entry"
    finally:
        i18n.uninstall()


@pytest.mark.expect_ui_errors
def test_the_refusal_dialog_shows_the_engine_message_in_chinese(ctx, chinese) -> None:  # type: ignore[no-untyped-def]
    ctx.show_dialogs = True
    with pytest.raises(AlreadyExists) as exists:
        ctx.engine.create_fact(name="a", type=FactType.PROJECT, body="x", scope=Scope.PROJECT)
        ctx.engine.create_fact(name="a", type=FactType.PROJECT, body="x", scope=Scope.PROJECT)
    ctx.report(exists.value)
    box = ctx.last_dialog
    assert box.text() == "已存在同名的内容。"
    assert box.informativeText() == "project/a.md 已存在；创建从不覆盖（请换一个名称，或更新它）"
    box.close()


# -- the gate's reasons and recall's "nothing" -------------------------------------------------


def _gate_reasons(engine: Engine) -> list[object]:
    from context_center.engine.gate.decision import assess

    engine.create_fact(name="deploy", title="Deploy notes", type=FactType.PROJECT, body="a")
    request = {
        "controller": "interactive",
        "owns_store": True,
        "agent": "claude-code",
        "operation": "create",
        "name": "deploy-notes-2",
        "title": "Deploy notes",
        "description": "How deploys work",
        "type": "user",
        "scope": "global",
        "body": "Deploy from the release branch. password=hunter2hunter2",
    }
    return list(assess(request, engine.memory).reasons)


def test_the_gate_reasons_details_in_chinese(qapp, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.gate_text import reason_text

    reasons = _gate_reasons(engine)
    codes = {r.code for r in reasons}  # type: ignore[attr-defined]
    assert {"type_needs_confirmation", "global_scope", "possible_duplicate"} <= codes
    english = [reason_text(r) for r in reasons]  # type: ignore[arg-type]
    assert english == [r.message for r in reasons]  # type: ignore[attr-defined]
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        shown = {r.code: reason_text(r) for r in reasons}  # type: ignore[arg-type, attr-defined]
        assert shown["global_scope"] == "全局记忆需要人来确认"  # the message only repeats it
        assert shown["type_needs_confirmation"].endswith(
            " — 用户事实需要人来确认；只有 project/reference 事实才属于低风险"
        )
        assert shown["possible_duplicate"].endswith(" — 标题与 project/deploy.md 的标题重叠")
        assert shown["sensitive_content"].endswith(
            " — 正文可能包含敏感信息：赋给密钥、令牌或密码名的机密值"
        )
        odd = type("R", (), {"code": "name_exists", "message": "a brand new wording"})()
        assert reason_text(odd).endswith(" — a brand new wording")
    finally:
        i18n.uninstall()


def test_why_a_turn_recalled_nothing_in_chinese(chinese, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.tabs.activity import status_text

    trace = engine.recall("please deploy the release branch").trace
    assert trace.reason is not None and trace.reason.value == "store_empty"
    assert "记忆库是空的" in status_text(trace)


def test_secret_labels_in_chinese(chinese) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine.gate.secrets.kinds import KINDS
    from context_center.ui.secret_text import LABELS, secret_label, secret_labels

    assert LABELS.source == KINDS  # every kind the gate names has a label here
    both = f"{KINDS['basic_credentials']}, {KINDS['github_token']}"
    assert secret_labels(both) == "base64 编码的用户名和密码、GitHub 令牌"
    assert secret_labels("GitHub token, a new kind") == "GitHub token, a new kind"
    assert secret_label("github_token", "GitHub token") == "GitHub 令牌"
    assert secret_label("new_kind", "new kind") == "new kind"


# -- the Compare pane -----------------------------------------------------------------------------


@pytest.fixture
def three_agents(home: Path, workspace: Path) -> Engine:
    (workspace / "AGENTS.md").write_text("# P\nsee @docs/x.md inline\n@docs/y.md\n@../out.md\n")
    (workspace / "docs").mkdir()
    (workspace / "docs" / "x.md").write_text("x\n")
    (workspace / "docs" / "y.md").write_text("y\n")
    (workspace / "CLAUDE.md").write_text("@AGENTS.md\n")
    (workspace.parent / "out.md").write_text("o\n")
    rules = workspace / ".claude" / "rules"
    rules.mkdir(parents=True)
    (rules / "r.md").write_text("---\npaths: src/**\n---\n- r\n")
    (workspace / "AGENTS.override.md").write_text("over\n")
    return Engine(home=home, workspace=workspace)


def test_the_compare_pane_in_english_and_chinese(qtbot, three_agents: Engine) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.compare_text import (
        CROSS,
        CROSS_CODES,
        DETAILS,
        cell_detail,
        cross_message,
    )
    from context_center.ui.widgets.instruction_compare import CompareView

    comparison = three_agents.compare_instructions(three_agents.workspace)
    assert len(comparison.diagnostics) >= 5
    for d in comparison.diagnostics:
        assert CROSS.parse(d.message, CROSS_CODES[d.code]) is not None, d.message
        assert cross_message(d.code, d.message) == d.message
    details = [c.detail for row in comparison.rows for c in row.agents.values() if c.detail]
    assert details and all(DETAILS.parse(d) is not None for d in details), details
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        view = CompareView()
        qtbot.addWidget(view)
        view.set_comparison(comparison)
        text = view.cross.toPlainText()
        assert (
            "• workspace/AGENTS.md 会被 Reasonix, Claude Code 读到；Codex 读不到（Codex 不跟随任何导入）"
            in text
        )
        assert "Reasonix 只导入单独占一行、位于该文件所在文件夹内的 @路径" in text
        assert cell_detail("imported by workspace/CLAUDE.md") == "由 workspace/CLAUDE.md 导入"
        assert cell_detail("missing") == "它不存在"  # a refusal's reason key
        assert cell_detail("something new") == "something new"
        assert cross_message("cross_new", "a new finding") == "a new finding"
    finally:
        i18n.uninstall()


def test_the_newer_agent_diagnostics_are_in_known_forms_and_in_chinese(
    chinese, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """A large CLAUDE.md, a Codex file over the read cap and a Codex budget that ends in
    leading whitespace: each message the engine writes is a form the window translates."""
    from context_center.engine.instructions.profiles import codex as profile
    from context_center.engine.instructions.profiles.claude_code import resolve_claude_code

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "CLAUDE.md").write_text("- rule\n" + "x" * 40_001 + "\n")
    claude = resolve_claude_code(repo, repo, user_home=tmp_path / "u", ceiling=tmp_path)
    codex_home = tmp_path / "ch"
    codex_home.mkdir()
    (codex_home / "config.toml").write_text("project_doc_max_bytes = 60\n")
    (repo / "AGENTS.md").write_text("- big\n" + "y" * 40 + "\n")
    (repo / "sub").mkdir()
    (repo / "sub" / "AGENTS.md").write_text("\n" * 30 + "- tail\n")
    monkeypatch.setattr(profile, "MAX_READ_BYTES", 20)
    codex = profile.resolve_codex(
        repo, repo / "sub", codex_home=codex_home, user_home=tmp_path / "u"
    )
    found = {d.code: d.message for d in [*claude.diagnostics, *codex.diagnostics]}
    assert {"claude_md_large", "document_too_large", "document_not_reached"} <= set(found)
    shown = {code: instruction_message(code, found[code]) for code in found}
    assert shown["claude_md_large"].startswith("workspace/CLAUDE.md 有 40,009 个字符")
    assert shown["document_too_large"].startswith("workspace/AGENTS.md 有 47 字节")
    assert "全是空白" in shown["document_not_reached"]
