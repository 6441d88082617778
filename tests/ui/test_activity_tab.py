"""The Activity tab through real widgets: the persisted last trace, and the try-a-message box."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from context_center.engine import Changes
from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope
from context_center.engine.recall import Reason, Recaller, load_trace, trace_path
from context_center.ui.context import FACTS, TRACE
from context_center.ui.tabs.activity import ActivityTab


def wait_idle(qtbot, ctx, timeout: int = 5000) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: ctx.is_idle, timeout=timeout)


@pytest.fixture
def facts(engine: Engine) -> Engine:
    m = engine.memory
    m.create(
        name="release-branch",
        title="Release branch",
        description="Releases are cut from release/* branches",
        type=FactType.PROJECT,
        body="Cut releases from `release/<version>` and tag them; never release from main.",
    )
    m.create(
        name="auth-handler",
        title="AuthHandler retries",
        description="AuthHandler retries token refresh three times",
        type=FactType.PROJECT,
        body="AuthHandler in services/auth retries the token refresh three times (#6928).",
    )
    m.create(
        name="缓存策略",
        title="缓存策略",
        description="接口缓存默认五分钟",
        type=FactType.PROJECT,
        body="接口缓存默认保留五分钟，发布后要清空缓存。",
    )
    # The same fact in both scopes: the project one applies here, the global one is left out.
    m.create(
        name="auth-handler",
        title="AuthHandler retries",
        description="AuthHandler retries token refresh",
        type=FactType.REFERENCE,
        scope=Scope.GLOBAL,
        body="AuthHandler retries the token refresh (#6928), see the wiki.",
    )
    engine.open()
    return engine


def shown(qtbot, ctx) -> ActivityTab:  # type: ignore[no-untyped-def]
    tab = ActivityTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1200, 700)
    tab.show()
    qtbot.waitUntil(lambda: tab.refresh_count >= 1, timeout=5000)
    wait_idle(qtbot, ctx)
    return tab


def test_no_trace_yet_says_so(qtbot, ctx) -> None:  # type: ignore[no-untyped-def]
    tab = shown(qtbot, ctx)
    assert tab.last.trace is None
    assert tab.last.empty.isVisible()
    assert "No recall has run" in tab.last.empty.text()
    assert not tab.last.parts.isVisible()


def test_last_trace_is_shown_with_hits_and_suppressions(qtbot, ctx, facts, qtmodeltester) -> None:  # type: ignore[no-untyped-def]
    view = facts.memory.view()
    Recaller(facts.layout).recall("why does AuthHandler retry #6928?", view.facts, view.conflicts)
    saved = load_trace(facts.layout)
    assert saved is not None and saved.selected

    tab = shown(qtbot, ctx)
    last = tab.last
    assert last.trace == saved
    assert "why does AuthHandler retry #6928?" in last.query.text()
    assert "Recalled 1 fact" in last.outcome.text()
    assert "omitted 0" in last.outcome.text()

    hits = last.hits_model
    assert hits.rowCount() == 1
    assert [hits.index(0, c).data() for c in (0, 2, 3)] == [
        "project/auth-handler.md",
        "fresh",
        "1",
    ]
    # the score as the block writes it (the block is what the model sees)
    assert f"score={hits.index(0, 1).data()} " in saved.block
    assert hits.index(0, 4).data().startswith("matched ")
    assert "AuthHandler retries" in hits.index(0, 0).data(Qt.ItemDataRole.ToolTipRole)
    sup = last.suppressions_model
    reasons = [r.reason for r in sup.rows]
    assert Reason.PROJECT_OVERRIDE in reasons
    row = sup.row_of(lambda s: s.reason is Reason.PROJECT_OVERRIDE)
    assert sup.index(row, 0).data() == "global/auth-handler.md"
    assert sup.index(row, 1).data() == Reason.PROJECT_OVERRIDE.text
    assert "<memory-recall>" in last.block.toPlainText()
    assert last.block.isReadOnly()

    qtmodeltester.check(hits)
    qtmodeltester.check(sup)


def test_a_new_trace_appears_on_the_trace_flag(qtbot, ctx, facts) -> None:  # type: ignore[no-untyped-def]
    tab = shown(qtbot, ctx)
    assert tab.last.trace is None
    view = facts.memory.view()
    Recaller(facts.layout).recall("继续", view.facts, view.conflicts)  # another process, say
    ctx.apply(Changes.seen_on_disk({TRACE}), None)
    qtbot.waitUntil(lambda: tab.last.trace is not None, timeout=5000)
    assert "Nothing recalled: generic user turn" in tab.last.outcome.text()
    assert tab.last.suppressions_model.index(0, 0).data() == "the whole turn"
    assert tab.last.hits_model.rowCount() == 0
    assert tab.last.block.toPlainText() == ""

    before = tab.refresh_count
    ctx.apply(Changes.seen_on_disk({FACTS}), None)  # not a flag this tab shows
    qtbot.wait(50)
    assert tab.refresh_count == before


def test_try_a_message_explains_without_replacing_the_last_trace(qtbot, ctx, facts) -> None:  # type: ignore[no-untyped-def]
    view = facts.memory.view()
    Recaller(facts.layout).recall("how do we cut a release branch", view.facts, view.conflicts)
    persisted = trace_path(facts.layout).read_bytes()
    tab = shown(qtbot, ctx)

    tab.message.setText("接口缓存保留多久？")  # QTest.keyClicks aborts on non-Latin-1 characters
    qtbot.mouseClick(tab.try_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, ctx)
    assert ctx.errors == []
    tried = tab.tried
    assert tried.trace is not None and tried.trace.query == "接口缓存保留多久？"
    assert [h.ref for h in tried.hits_model.rows] == ["project/缓存策略.md"]
    assert "缓存策略" in tried.block.toPlainText()
    assert tried.block.isReadOnly()
    assert trace_path(facts.layout).read_bytes() == persisted  # trying saves nothing
    assert tab.last.trace is not None and tab.last.trace.query == "how do we cut a release branch"

    # Why not: a message with only common words recalls nothing and says why.
    tab.message.clear()
    qtbot.keyClicks(tab.message, "please continue")
    qtbot.keyClick(tab.message, Qt.Key.Key_Return)
    wait_idle(qtbot, ctx)
    assert tried.trace is not None and tried.trace.query == "please continue"
    assert tried.hits_model.rowCount() == 0
    assert "Nothing recalled: generic user turn" in tried.outcome.text()


def test_try_with_an_empty_message_asks_for_one(qtbot, ctx) -> None:  # type: ignore[no-untyped-def]
    tab = shown(qtbot, ctx)
    qtbot.mouseClick(tab.try_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, ctx)
    assert tab.tried.trace is None
    assert tab.tried.empty.text() == "Type a message first."
    assert tab.try_button.isEnabled()


def test_try_sees_facts_saved_by_another_process(qtbot, ctx, facts, home, workspace) -> None:  # type: ignore[no-untyped-def]
    tab = shown(qtbot, ctx)
    tab.message.setText("which kubernetes namespace for staging")
    qtbot.mouseClick(tab.try_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, ctx)
    assert tab.tried.trace is not None and tab.tried.hits_model.rowCount() == 0

    other = Engine(home=home, workspace=workspace)  # another process's engine
    other.memory.create(
        name="staging-namespace",
        title="Staging namespace",
        type=FactType.PROJECT,
        body="Staging runs in the kubernetes namespace shop-staging.",
    )
    ctx.apply(Changes.seen_on_disk({FACTS}), None)  # the watcher's report
    qtbot.mouseClick(tab.try_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, ctx)
    assert [h.ref for h in tab.tried.hits_model.rows] == ["project/staging-namespace.md"]


def test_score_is_shown_as_the_block_writes_it(qtbot) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.models.trace_models import HitsModel, block_scores

    raw = 17.086475712841832  # the block writes 17.086; the trace keeps 17.0865 (-> "17.087")
    block = (
        "<memory-recall>\n- ref=project/a.md id=mem-1 revision=1 scope=project type=project "
        f'freshness=fresh score={raw:.3f} reason="matched a"\n  title: A\n  text: a\n'
    )
    assert block_scores(block) == {"mem-1": "17.086"}
    assert f"{round(raw, 4):.3f}" == "17.087"  # what formatting the trace's value again gives
    model = HitsModel()

    class Hit:
        id = "mem-1"
        score = round(raw, 4)

    assert model._score(Hit()) == "17.087"  # type: ignore[arg-type]  # without the block
    model._scores = block_scores(block)
    assert model._score(Hit()) == "17.086"  # type: ignore[arg-type]  # as the block says
