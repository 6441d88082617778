"""The Claude Code tab through real widgets: Claude Code's memory read-only, what it loads of
its index, and the Import action."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from context_center.engine.facade import Engine
from context_center.engine.model import Scope
from context_center.ui.tabs.claude_memory import ClaudeMemoryTab

PNPM = """---
name: Prefers pnpm
description: Use pnpm, never npm, in this repository
type: feedback
---

Use pnpm for every install and script; never run npm here.
**Why:** the lockfile is pnpm-lock.yaml.
**How to apply:** run `pnpm install` / `pnpm test`.
"""
WIKI = """---
name: 团队维基
description: 运行手册在哪里
type: reference
---

运行手册在 https://wiki.example.com/shop。
"""


@pytest.fixture
def claude(tmp_path: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "dot-claude"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(root))
    monkeypatch.delenv("CLAUDE_CODE_DISABLE_AUTO_MEMORY", raising=False)
    folder = root / "projects" / re.sub(r"[^A-Za-z0-9]", "-", str(workspace)) / "memory"
    folder.mkdir(parents=True)
    (folder / "feedback_pnpm.md").write_text(PNPM, encoding="utf-8")
    (folder / "reference_wiki.md").write_text(WIKI, encoding="utf-8")
    (folder / "MEMORY.md").write_text(
        "- [Prefers pnpm](feedback_pnpm.md) — pnpm only\n", encoding="utf-8"
    )
    return folder


def _tree(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.name: (p.read_bytes(), p.stat().st_mtime_ns)
        for p in sorted(root.iterdir())
        if p.is_file()
    }


def _tab(qtbot, ctx, wait_idle) -> ClaudeMemoryTab:  # type: ignore[no-untyped-def]
    tab = ClaudeMemoryTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    tab.show()
    wait_idle()
    return tab


def test_the_tab_shows_claude_codes_memory_read_only(  # type: ignore[no-untyped-def]
    qtbot, ctx, wait_idle, claude: Path, qtmodeltester
) -> None:
    before = _tree(claude)
    tab = _tab(qtbot, ctx, wait_idle)
    assert [m.file for m in tab.model.rows] == ["feedback_pnpm.md", "reference_wiki.md"]
    qtmodeltester.check(tab.model)
    assert tab.model.data(tab.model.index(0, 3)) == "loaded"
    assert tab.model.data(tab.model.index(1, 3)) == "not listed"
    assert tab.memory_title.text() == "Prefers pnpm"
    assert "never run npm" in tab.memory_body.toPlainText()
    tab.table.selectRow(1)
    assert tab.memory_title.text() == "团队维基" and "reference" in tab.memory_meta.text()
    assert "loads all of it" in tab.summary.text()
    assert tab.loaded_text.toPlainText() == "- [Prefers pnpm](feedback_pnpm.md) — pnpm only"
    assert "Read-only" in tab.intro.text() and "memory" in tab.intro.text()
    assert tab.btn_import.isEnabled() and tab.btn_preview.isEnabled()
    assert _tree(claude) == before


def test_what_claude_code_loads_of_a_long_index(qtbot, ctx, wait_idle, claude: Path) -> None:  # type: ignore[no-untyped-def]
    lines = [f"- [Note {i}](note_{i}.md) — hook {i}" for i in range(1, 231)]
    (claude / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    tab = _tab(qtbot, ctx, wait_idle)
    assert "loads only the first 200 lines" in tab.summary.text()
    loaded = tab.loaded_text.toPlainText()
    assert "- [Note 200](note_200.md)" in loaded and "Note 201" not in loaded
    assert loaded.endswith(
        "MEMORY.md is 230 lines (limit: 200). Only part of it was loaded. Keep index entries "
        "to one line under ~200 chars; move detail into topic files."
    )
    assert "Note 230" in tab.index_text.toPlainText()


def test_preview_writes_nothing_and_import_copies_the_memories(  # type: ignore[no-untyped-def]
    qtbot, ctx, wait_idle, engine: Engine, claude: Path
) -> None:
    before = _tree(claude)
    tab = _tab(qtbot, ctx, wait_idle)
    tab.btn_preview.click()
    wait_idle()
    assert tab.last_report is not None and tab.last_report.dry_run
    assert "Preview: 2 would be imported" in tab.result.text()
    assert engine.memory.load(persist_cache=False).facts == []
    tab.btn_import.click()
    wait_idle()
    facts = {f.ref: f for f in engine.memory.load(persist_cache=False).facts}
    assert set(facts) == {"project/prefers-pnpm.md", "project/团队维基.md"}
    assert facts["project/prefers-pnpm.md"].scope is Scope.PROJECT
    assert tab.result.text().startswith("2 imported")
    assert engine.pending_approvals() == []
    tab.btn_import.click()  # a second import finds both already there
    wait_idle()
    assert tab.result.text().startswith("2 duplicate")
    assert "feedback_pnpm.md: duplicate" in tab.result.text()
    assert len(engine.memory.load(persist_cache=False).facts) == 2
    assert _tree(claude) == before


def test_import_into_the_global_store(qtbot, ctx, wait_idle, engine: Engine, claude: Path) -> None:  # type: ignore[no-untyped-def]
    tab = _tab(qtbot, ctx, wait_idle)
    tab.scope.setCurrentIndex(tab.scope.findData(Scope.GLOBAL.value))
    tab.btn_import.click()
    wait_idle()
    assert {f.scope for f in engine.memory.load(persist_cache=False).facts} == {Scope.GLOBAL}


def test_no_memory_folder(qtbot, ctx, wait_idle, claude: Path) -> None:  # type: ignore[no-untyped-def]
    for path in claude.iterdir():
        os.remove(path)
    claude.rmdir()
    tab = _tab(qtbot, ctx, wait_idle)
    assert tab.model.rows == [] and "no memory for this workspace" in tab.empty.text()
    assert not tab.btn_import.isEnabled() and not tab.btn_preview.isEnabled()


def test_why_a_memory_is_not_read_or_imported_is_shown_in_chinese(  # type: ignore[no-untyped-def]
    qtbot, ctx, wait_idle, engine: Engine, claude: Path
) -> None:
    from context_center.ui import i18n
    from context_center.ui.diagnostic_text import claude_memory_reason

    (claude / "latin1.md").write_bytes(b"caf\xe9")
    engine.import_claude_memory(dry_run=False, scope=Scope.PROJECT)  # the second is a duplicate
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        tab = _tab(qtbot, ctx, wait_idle)
        row = next(i for i, m in enumerate(tab.view.memories) if m.file == "latin1.md")
        tab.table.selectRow(row)
        qtbot.waitUntil(lambda: "不是 UTF-8 文本" in tab.memory_body.toPlainText())
        tab.btn_preview.click()
        wait_idle()
        assert tab.last_report is not None
        (pnpm,) = [i for i in tab.last_report.items if i.file == "feedback_pnpm.md"]
        assert pnpm.action == "duplicate" and pnpm.reason.isascii()  # the engine's English
        shown = claude_memory_reason(pnpm.reason)
        assert shown != pnpm.reason and f"feedback_pnpm.md: 重复, {shown}" in tab.result.text()
    finally:
        i18n.uninstall()


def test_a_duplicate_title_with_an_apostrophe_is_said_in_chinese_too(  # type: ignore[no-untyped-def]
    qapp, engine: Engine, claude: Path
) -> None:
    from context_center.engine.model import FactType
    from context_center.ui import i18n
    from context_center.ui.diagnostic_text import claude_memory_reason

    engine.create_fact(name="no-force", title="Don't push", type=FactType.PROJECT, body="x")
    (claude / "push.md").write_text("---\nname: Don't push\ntype: feedback\n---\nNever.\n")
    report = engine.import_claude_memory(dry_run=True, scope=Scope.PROJECT).value
    (item,) = [i for i in report.items if i.file == "push.md"]
    assert item.reason == 'the fact project/no-force.md already has the title "Don\'t push"'
    assert i18n.install("zh_CN") == "zh_CN"
    try:
        assert (
            claude_memory_reason(item.reason)
            == "事实 project/no-force.md 已经使用了标题“Don't push”"
        )
    finally:
        i18n.uninstall()
