"""Engine text in the window's panes other than a refusal, in its language: why a Claude Code
memory file is not read or not imported, recall's Why not for a fact that did not fit, a Codex
config.toml problem, a large prefix's warnings, an unreadable archive entry and the gate's
"store unavailable" reason (ui/diagnostic_text.py, recall_text.py, gate_text.py).

Each text is produced by the engine itself on a real tree and must be in a known form, so a
reworded engine text fails here; in English it is shown as written."""

from __future__ import annotations

import errno
import os
import re
from pathlib import Path

from context_center.engine import Engine, FactType, Scope
from context_center.ui import i18n

# -- Claude Code's memory files (the Claude Code tab) ------------------------------------------


def _memory(name: str, body: str, kind: str = "project") -> str:
    return f"---\nname: {name}\ndescription: d\ntype: {kind}\n---\n{body}\n"


def test_why_a_claude_memory_is_not_read_or_not_imported_in_chinese(  # type: ignore[no-untyped-def]
    qapp, engine: Engine, workspace: Path, tmp_path: Path, monkeypatch
) -> None:
    from context_center.ui.diagnostic_text import CLAUDE_MEMORY_FORMS, claude_memory_reason

    root = tmp_path / "dot-claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", raising=False)
    folder = root / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(workspace)) / "memory"
    folder.mkdir(parents=True)
    (folder / "latin1.md").write_bytes(b"caf\xe9")
    (folder / "big.md").write_bytes(b"x" * (256 * 1024 + 1))
    (folder / "linked.md").symlink_to(tmp_path / "elsewhere.md")
    (folder / "folder.md").mkdir()
    (folder / "empty.md").write_text(_memory("Empty one", ""))
    (folder / "!!!.md").write_text(_memory("!!!", "body"))
    token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
    (folder / "token.md").write_text(_memory("Bot", f"deploy with {token}"))
    (folder / "flow.md").write_text(_memory("flow", "how we ship"))
    (folder / "titled.md").write_text(_memory("Release flow", "again"))
    engine.create_fact(name="flow", title="Release flow", type=FactType.PROJECT, body="a")
    view = engine.claude_memory()
    problems = {m.file: m.problem for m in view.memories if m.problem}
    report = engine.import_claude_memory(dry_run=True, scope=Scope.PROJECT).value
    reasons = {i.file: i.reason for i in report.items if i.action in ("duplicate", "skipped")}
    assert set(problems) == {"latin1.md", "big.md", "linked.md", "folder.md"}
    everything = {**reasons, **problems}
    for file, reason in everything.items():
        assert CLAUDE_MEMORY_FORMS.parse(reason) is not None, (file, reason)
        assert claude_memory_reason(reason) == reason
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        shown = {file: claude_memory_reason(reason) for file, reason in everything.items()}
        assert shown == {
            "latin1.md": "不是 UTF-8 文本",
            "big.md": "大于 256 KB",
            "linked.md": "是一个链接（不跟随）",
            "folder.md": "不是普通文件",
            "empty.md": "这条记忆是空的",
            "!!!.md": "没有可用的名称",
            "token.md": "它包含敏感内容（GitHub 令牌）；请手动复制你需要的部分",
            "flow.md": "项目范围中已有名为“flow”的事实",
            "titled.md": "事实 project/flow.md 已经使用了标题“Release flow”",
        }
        unreadable = "unreadable (" + os.strerror(errno.EACCES) + ")"
        assert claude_memory_reason(unreadable) == "无法读取（权限不足）"
        assert claude_memory_reason("a brand new reason") == "a brand new reason"
    finally:
        i18n.uninstall()


# -- recall's Why not ----------------------------------------------------------------------------


def test_a_fact_that_did_not_fit_the_budget_in_chinese(qapp, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.recall_text import why_not

    for name, words in (("kubectl-deploy", "deploy"), ("kubectl-staging", "staging deploy")):
        engine.create_fact(
            name=name,
            title=f"kubectl {words}",
            description=f"kubectl rollout {words} steps",
            type=FactType.PROJECT,
            body=f"Run kubectl rollout for the {words}. " * 20,
        )
    trace = engine.recall("how do I kubectl rollout deploy", max_chars=400, persist=False).trace
    dropped = [s for s in trace.suppressed if s.message != s.reason.text]
    assert [(s.reason.value, s.message) for s in dropped] == [
        ("over_budget", "did not fit in the character budget even when shortened")
    ]
    [s] = dropped
    assert why_not(s.reason.value, s.message, s.reason.text) == s.message
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        assert why_not(s.reason.value, s.message, s.reason.text) == "即使缩短后也放不进字符预算"
    finally:
        i18n.uninstall()


# -- the Instructions tab: Codex's config and a large prefix -------------------------------------


def test_a_codex_config_problem_in_chinese(  # type: ignore[no-untyped-def]
    qapp, engine: Engine, workspace: Path, tmp_path: Path, monkeypatch
) -> None:
    from context_center.ui.diagnostic_text import instruction_message

    codex = tmp_path / "codex-home"
    codex.mkdir()
    monkeypatch.setenv("CODEX_HOME", str(codex))
    (workspace / "AGENTS.md").write_text("- a rule\n")

    def problems() -> list[tuple[str, str]]:
        resolution = engine.instructions(workspace, agent="codex")
        return [(d.code, d.message) for d in resolution.diagnostics]

    (codex / "config.toml").write_text("project_doc_max_bytes = -1\nproject_root_markers = 5\n")
    bad_values = problems()
    (codex / "config.toml").write_text("project_doc_max_bytes = = 1\n")
    [unparsed] = problems()
    assert [code for code, _ in bad_values] == ["codex_config_invalid"] * 2
    assert all(instruction_message(c, m) == m for c, m in [*bad_values, unparsed])
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        assert [instruction_message(c, m) for c, m in bad_values] == [
            "config.toml：project_doc_max_bytes 必须是非负整数；使用默认值",
            "config.toml：project_root_markers 必须是字符串列表；使用默认值",
        ]
        error = unparsed[1].removeprefix("config.toml: config.toml was not read: ")
        error = error.removesuffix("; the default is used")
        assert (
            instruction_message(*unparsed)
            == f"config.toml：未读取 config.toml：{error}；使用默认值"
        )
    finally:
        i18n.uninstall()


def test_a_large_prefix_warning_in_chinese(qapp, engine: Engine, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.diagnostic_text import PREFIX_WARNINGS, prefix_warning

    (workspace / "AGENTS.md").write_text("- keep it short\n" * 1100)
    ours = list(engine.prefix(workspace, agent="reasonix").warnings)
    theirs = list(engine.prefix(workspace, agent="codex").warnings)
    found = [PREFIX_WARNINGS.parse(w) for w in [*ours, *theirs]]
    assert [f and f[0] for f in found] == ["document_large", "instructions_large", "document_adds"]
    assert [prefix_warning(w) for w in [*ours, *theirs]] == [*ours, *theirs]
    (_, document), (_, instructions), (_, codex) = found  # type: ignore[misc]
    assert document["label"] == codex["label"] == "workspace/AGENTS.md"
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        assert [prefix_warning(w) for w in [*ours, *theirs]] == [
            f"workspace/AGENTS.md 为每个会话增加 {document['n']} 个字符（超过 "
            f"{document['limit']}）；请把不属于规则的内容移到记忆中",
            f"指令共 {instructions['n']} 个字符（超过 {instructions['limit']}）；每个会话都会带上全部指令",
            f"workspace/AGENTS.md 为每个会话增加 {codex['n']} 个字符",
        ]
    finally:
        i18n.uninstall()


# -- the Archive tab and the gate ---------------------------------------------------------------


def test_an_unreadable_archive_entry_in_chinese(qapp, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.diagnostic_text import fact_problem

    for name in ("empty", "typed"):
        fact = engine.create_fact(name=name, type=FactType.PROJECT, body="a").value
        engine.forget_fact(fact.ref)
    by_name = {a.path.name.rsplit("-", 1)[-1]: a.path for a in engine.archived()}
    by_name["empty.md"].write_text("")
    by_name["typed.md"].write_text("---\nname: typed\ntype: opinion\n---\nbody\n")
    errors = sorted(a.error for a in engine.archived() if a.error)
    assert errors == [
        "the file is empty",
        "type 'opinion' is not one of user, feedback, project, reference",
    ]
    assert [fact_problem(e) for e in errors] == errors
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        assert [fact_problem(e) for e in errors] == [
            "文件为空",
            "type“opinion”不是 user、feedback、project、reference 之一",
        ]
        assert fact_problem("[Errno 5] Input/output error: 'x.md'") == (
            "[Errno 5] Input/output error: 'x.md'"
        )
    finally:
        i18n.uninstall()


def test_a_project_store_the_gate_cannot_use_in_chinese(qapp, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine.gate.decision import assess
    from context_center.ui.gate_text import reason_text

    root = engine.layout.project_store
    root.parent.parent.mkdir(parents=True, exist_ok=True)
    root.parent.write_text("not a folder")
    request = {
        "controller": "interactive",
        "owns_store": True,
        "agent": "claude-code",
        "operation": "create",
        "name": "notes",
        "title": "Notes",
        "description": "d",
        "type": "project",
        "body": "x",
    }
    [why] = assess(request, engine.memory).reasons
    assert (why.code, why.message) == (
        "store_unavailable",
        "the project store is unavailable: " + os.strerror(errno.ENOTDIR),
    )
    assert reason_text(why) == why.message
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        assert reason_text(why) == "现在无法检查存储 — 项目存储不可用：不是目录"
    finally:
        i18n.uninstall()
