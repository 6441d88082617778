"""Engine words that reach the window at run time, seen through the real tabs in zh_CN.

tests/ui/test_i18n.py checks the strings written in ui/; text the engine hands over at run time
(a prefix part's name, the memory index's order, the field two conflicting facts share,
recall's Why and Why not) escapes it. Here the Instructions, Memory and Activity tabs are
driven in Chinese with data that produces each of them, and what they show — labels, banner,
table cells and their tooltips — must carry none of the engine's English words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from context_center.engine.facade import Engine
from context_center.engine.instructions.prefix import ORDER_NEWEST, ORDER_RECALLED
from context_center.engine.model import FactType, Scope
from context_center.engine.recall import Reason, Recaller
from context_center.ui import i18n

# The engine's own English: prefix part names, index orders, conflict keys, recall's words.
ENGINE_WORDS = frozenset(
    {"guidance", "instructions", "index", "title", "name", "matched", "scope", "shared"}
    | set(re.findall(r"[a-z]{4,}", ORDER_NEWEST + " " + ORDER_RECALLED))
    | {w for r in Reason for w in re.findall(r"[a-z]{4,}", r.text)}
)
REF = re.compile(r"\b(?:project|global)/\S+?\.md\b")  # a fact's reference is data, not a word
TAG = re.compile(r"<[^>]*>")  # nor is markup (``<a href='fact:…'>``)


def english_words(text: str) -> set[str]:
    """The engine's words in ``text`` (markup and fact references left out)."""
    plain = REF.sub(" ", TAG.sub(" ", text))
    return {w for w in re.findall(r"[A-Za-z]+", plain) if w.lower() in ENGINE_WORDS}


@pytest.fixture
def chinese() -> Iterator[None]:
    assert i18n.install("zh_CN") == "zh_CN"
    yield
    i18n.uninstall()


def _show(qtbot, widget, wait_idle):  # type: ignore[no-untyped-def]
    qtbot.addWidget(widget)
    widget.resize(1200, 760)
    widget.show()
    wait_idle()
    return widget


def test_the_prefix_parts_and_the_index_order_in_chinese(  # type: ignore[no-untyped-def]
    qtbot, ctx, engine: Engine, workspace: Path, wait_idle, chinese
) -> None:
    from context_center.ui.tabs.instructions import InstructionsTab

    (workspace / "AGENTS.md").write_text("# 项目\n\n- 提交前运行测试。\n")
    engine.create_fact(name="回答语言", type=FactType.USER, scope=Scope.GLOBAL, body="用中文回答。")
    engine.create_fact(name="发布分支", type=FactType.PROJECT, body="从 release/* 发布。")
    tab = _show(qtbot, InstructionsTab(ctx), wait_idle)
    parts = tab.prefix_length.text()
    hint = tab.prefix_pane.prefix_hint.text()
    assert "稳定指导" in parts and "指令" in parts and "记忆索引" in parts, parts
    assert "最新的在前" in hint, hint
    assert english_words(parts) == set(), parts
    assert english_words(hint) == set(), hint


def test_a_title_conflict_in_the_memory_banner_in_chinese(  # type: ignore[no-untyped-def]
    qtbot, ctx, engine: Engine, wait_idle, chinese
) -> None:
    from context_center.ui.tabs.memory import MemoryTab

    engine.create_fact(
        name="发布流程", title="发布分支", type=FactType.PROJECT, body="从分支发布。"
    )
    engine.create_fact(
        name="发布说明", title="发布分支", type=FactType.FEEDBACK, scope=Scope.GLOBAL, body="全局。"
    )
    assert [c.key for c in engine.open().conflicts] == ["title"]
    tab = _show(qtbot, MemoryTab(ctx), wait_idle)
    text = tab.banner_label.text()
    assert tab.banner.isVisible() and "project/发布流程.md" in text
    assert "相同的 <b>标题</b>" in text and "的标题相同" in text, text
    assert english_words(text) == set(), text
    conflict = engine.open().conflicts[0]
    assert tab.select_fact(conflict.project_id)
    wait_idle()
    line = tab.detail.prov_override.text()  # the fact's own provenance says it too
    assert "标题" in line and english_words(line) == set(), line


def test_why_and_why_not_cells_and_tooltips_in_chinese(  # type: ignore[no-untyped-def]
    qtbot, ctx, engine: Engine, wait_idle, chinese
) -> None:
    from context_center.ui.tabs.activity import ActivityTab

    m = engine.memory
    m.create(
        name="auth-handler",
        title="AuthHandler retries",
        description="AuthHandler retries token refresh three times",
        type=FactType.PROJECT,
        body="AuthHandler in services/auth retries the token refresh three times (#6928).",
    )
    m.create(
        name="auth-handler",
        title="AuthHandler retries",
        description="AuthHandler retries token refresh",
        type=FactType.REFERENCE,
        scope=Scope.GLOBAL,
        body="AuthHandler retries the token refresh (#6928), see the wiki.",
    )
    view = m.view()
    Recaller(engine.layout).recall("why does AuthHandler retry #6928?", view.facts, view.conflicts)
    tab = _show(qtbot, ActivityTab(ctx), wait_idle)
    qtbot.waitUntil(lambda: tab.last.trace is not None)
    hits, left_out = tab.last.hits_model, tab.last.suppressions_model
    assert hits.rowCount() >= 1 and left_out.rowCount() >= 1
    shown = []
    for model, column in ((hits, 4), (left_out, 1)):
        for row in range(model.rowCount()):
            index = model.index(row, column)
            cell, tip = index.data(), index.data(Qt.ItemDataRole.ToolTipRole)
            assert tip == cell  # the tooltip says what the cell says, in full
            shown += [cell, tip]
    assert any("项目范围" in text for text in shown), shown
    assert any("同等的项目事实" in text for text in shown), shown
    for text in shown:
        assert english_words(text) == set(), text
