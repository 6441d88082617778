"""The Suggestions tab through real widgets: scan on first show, evidence, edit + accept, dismiss,
fail-closed remote workspace, per-source counts with skipped malformed lines."""

from __future__ import annotations

import os
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from context_center.engine import Changes
from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope
from context_center.engine.suggestions import (
    MemoryCandidate,
    SkillCandidate,
    append_turn,
    history_path,
    load_decisions,
)
from context_center.ui.context import FACTS, SUGGESTIONS
from context_center.ui.tabs import suggestions as suggestions_module
from context_center.ui.tabs.suggestions import SuggestionsTab

T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)
TURNS = [
    ("s1", "Always run ruff before committing, the CI rejects lint errors."),
    ("s1", "以后提交前先跑测试，默认使用 pytest -q。"),
    ("s1", "run the tests, then fix lint, then commit"),
    ("s2", "run the tests, then fix lint, then commit"),
    ("s2", "Run the tests, then fix lint, then commit please"),
    ("s2", "This time just skip the tests."),
]


def wait_idle(qtbot, ctx, timeout: int = 5000) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: ctx.is_idle, timeout=timeout)


@pytest.fixture(autouse=True)
def _no_real_transcripts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """~/.claude and ~/.codex resolve under a temp HOME: the real ones are never read."""
    monkeypatch.setenv("HOME", str(tmp_path / "person"))


@pytest.fixture(autouse=True)
def _fresh_fact_texts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts as a new window process does: no fact cut yet, no index read."""
    from context_center.engine.suggestions import facttexts

    monkeypatch.setattr(facttexts, "_CACHE", facttexts.FactTexts())
    monkeypatch.setattr(facttexts, "_LOADED", {})


@pytest.fixture
def history(engine: Engine) -> Path:
    for i, (session, text) in enumerate(TURNS):
        append_turn(engine.layout, text, session=session, time=T0 + timedelta(minutes=i))
    path = history_path(engine.layout)
    with path.open("ab") as handle:
        handle.write(b"{not json at all\n")
    return path


def shown_tab(qtbot, ctx) -> SuggestionsTab:  # type: ignore[no-untyped-def]
    tab = SuggestionsTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1100, 700)
    tab.show()
    qtbot.waitUntil(lambda: tab.scan_count >= 1 and not tab.is_refreshing, timeout=10000)
    wait_idle(qtbot, ctx)
    return tab


def select(qtbot, tab: SuggestionsTab, predicate) -> object:  # type: ignore[no-untyped-def]
    row = tab.model.row_of(predicate)
    assert row >= 0, [c.name for c in tab.model.rows]
    tab.table.selectRow(row)
    qtbot.waitUntil(lambda: tab.current is tab.model.row_at(row))
    return tab.model.row_at(row)


def test_scan_on_first_show_lists_candidates_with_evidence_and_counts(
    qtbot, ctx, history, qtmodeltester
) -> None:  # type: ignore[no-untyped-def]
    tab = SuggestionsTab(ctx)
    qtbot.addWidget(tab)
    assert tab.scan_count == 0  # nothing is scanned before the tab is shown
    counts: list[int] = []
    tab.sig_candidate_count.connect(counts.append)
    tab.show()
    qtbot.waitUntil(lambda: tab.scan_count == 1, timeout=10000)
    wait_idle(qtbot, ctx)

    rows = tab.model.rows
    memories = [c for c in rows if isinstance(c, MemoryCandidate)]
    skills = [c for c in rows if isinstance(c, SkillCandidate)]
    assert {m.title for m in memories} == {
        "Always run ruff before committing, the CI rejects lint errors",
        "以后提交前先跑测试，默认使用 pytest -q",
    }
    assert [s.name for s in skills] == ["test-fix-lint-commit"]
    assert counts == [3]
    assert not tab.notice.isVisible()
    # The one-off request is not proposed.
    assert not any("This time" in e.quote for c in rows for e in c.evidence)

    # Per-source counts, with the malformed line counted (and the missing sources named).
    by_source = {s.source: s for s in tab.sources_model.rows}
    assert by_source["history"].turns == 6 and by_source["history"].malformed == 1
    assert by_source["claude"].status == "missing"
    assert "1 malformed line was skipped" in tab.sources_note.text()
    malformed_col = 4
    row = tab.sources_model.row_of(lambda s: s.source == "history")
    assert tab.sources_model.index(row, malformed_col).data() == "1"

    # The evidence of the selected candidate is quoted (escaped, with its session).
    skill = select(qtbot, tab, lambda c: isinstance(c, SkillCandidate))
    assert tab.stack.currentIndex() == 1
    text = tab.editor.evidence.toPlainText()
    assert "run the tests, then fix lint, then commit" in text and "s2" in text
    assert tab.editor.steps_edit.toPlainText().splitlines() == list(skill.steps)
    assert not tab.editor.body_edit.isVisibleTo(tab.editor)

    qtmodeltester.check(tab.model)
    qtmodeltester.check(tab.sources_model)


def test_edit_then_accept_saves_the_edited_fact(qtbot, ctx, engine, history) -> None:  # type: ignore[no-untyped-def]
    tab = shown_tab(qtbot, ctx)
    changes: list[tuple[frozenset[str], object]] = []
    ctx.sig_changed.connect(lambda c, source: changes.append((c.areas, source)))
    candidate = select(qtbot, tab, lambda c: isinstance(c, MemoryCandidate) and "ruff" in c.title)
    assert isinstance(candidate, MemoryCandidate)
    assert tab.editor.body_edit.isVisibleTo(tab.editor)

    tab.editor.title_edit.clear()
    qtbot.keyClicks(tab.editor.title_edit, "Ruff before every commit")
    tab.editor.scope_combo.setCurrentIndex(tab.editor.scope_combo.findData(Scope.GLOBAL))
    tab.editor.body_edit.setPlainText("Run `ruff check` before every commit; CI rejects lint.")
    assert tab.reset_button.isEnabled()
    qtbot.mouseClick(tab.accept_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, ctx)

    assert ctx.errors == []
    facts = {f.title: f for f in engine.memory.load(persist_cache=False).facts}
    fact = facts["Ruff before every commit"]
    assert fact.scope is Scope.GLOBAL
    assert fact.type is FactType.PROJECT  # a commit convention
    assert fact.body.strip() == "Run `ruff check` before every commit; CI rejects lint."
    assert tab.model.row_of(lambda c: c.id == candidate.id) == -1
    assert changes == [(frozenset({FACTS, SUGGESTIONS}), tab)]
    decisions = load_decisions(engine.layout)
    assert [(d.id, d.decision) for d in decisions] == [(candidate.id, "accepted")]

    # A rescan does not propose it again (decided, and now covered by a fact).
    qtbot.mouseClick(tab.scan_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.scan_count == 2, timeout=10000)
    assert tab.model.row_of(lambda c: c.id == candidate.id) == -1


def test_undo_edits_restores_the_candidate(qtbot, ctx, history) -> None:  # type: ignore[no-untyped-def]
    tab = shown_tab(qtbot, ctx)
    candidate = select(qtbot, tab, lambda c: isinstance(c, MemoryCandidate))
    qtbot.keyClicks(tab.editor.name_edit, "-x")
    assert tab.editor.edit().name == candidate.name + "-x"
    qtbot.mouseClick(tab.reset_button, Qt.MouseButton.LeftButton)
    assert tab.editor.name_edit.text() == candidate.name
    assert tab.editor.edit().model_dump(exclude_none=True) == {}
    assert not tab.reset_button.isEnabled()


def test_accept_skill_with_edited_steps_writes_skill_md(qtbot, ctx, engine, history) -> None:  # type: ignore[no-untyped-def]
    tab = shown_tab(qtbot, ctx)
    select(qtbot, tab, lambda c: isinstance(c, SkillCandidate))
    tab.editor.steps_edit.setPlainText("Run the tests\nFix lint\nCommit with a clear message")
    qtbot.mouseClick(tab.accept_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, ctx)
    assert ctx.errors == []
    skill = engine.workspace / ".agents" / "skills" / "test-fix-lint-commit" / "SKILL.md"
    text = skill.read_text(encoding="utf-8")
    assert "3. Commit with a clear message" in text
    assert all(isinstance(c, MemoryCandidate) for c in tab.model.rows)


def test_dismiss_is_remembered(qtbot, ctx, engine, history) -> None:  # type: ignore[no-untyped-def]
    tab = shown_tab(qtbot, ctx)
    candidate = select(qtbot, tab, lambda c: "pytest" in c.name)
    qtbot.mouseClick(tab.dismiss_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, ctx)
    assert ctx.errors == []
    assert tab.model.row_of(lambda c: c.id == candidate.id) == -1
    assert [(d.id, d.decision) for d in load_decisions(engine.layout)] == [
        (candidate.id, "dismissed")
    ]
    assert engine.memory.load(persist_cache=False).facts == []  # dismissing writes no fact

    # A new tab (a new window) scans again and still does not propose it.
    again = shown_tab(qtbot, ctx)
    assert again.model.row_of(lambda c: c.id == candidate.id) == -1
    assert again.model.rowCount() == 2


def test_last_candidate_decided_leaves_an_empty_state(qtbot, ctx, engine) -> None:  # type: ignore[no-untyped-def]
    append_turn(engine.layout, "Never push directly to main.", session="a", time=T0)
    tab = shown_tab(qtbot, ctx)
    assert tab.model.rowCount() == 1
    qtbot.mouseClick(tab.dismiss_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, ctx)
    assert tab.model.rowCount() == 0
    assert tab.stack.currentIndex() == 0
    assert "No suggestions right now" in tab.empty.text()
    assert not tab.accept_button.isEnabled() and not tab.dismiss_button.isEnabled()


def test_remote_workspace_fails_closed(qtbot, ctx, home: Path, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    remote = Engine(home=home, workspace=tmp_path / "not-here" / "mounted-elsewhere")
    ctx.set_engine(remote)
    tab = shown_tab(qtbot, ctx)
    assert tab.notice.isVisible()
    assert "fail closed" in tab.notice.text().lower()
    assert tab.model.rowCount() == 0
    assert tab.result is not None and tab.result.available is False
    assert "not confirmed local" in tab.empty.text()
    assert tab.sources_note.text() == "Nothing was read."


def test_scan_runs_off_the_gui_thread(qtbot, ctx, history, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    release = threading.Event()
    threads: list[str] = []
    real = suggestions_module.scan_workspace

    def slow_scan(engine: Engine, max_cuts: int | None = None):  # type: ignore[no-untyped-def]
        threads.append(threading.current_thread().name)
        release.wait(5)
        return real(engine, max_cuts)

    monkeypatch.setattr(suggestions_module, "scan_workspace", slow_scan)
    tab = SuggestionsTab(ctx)
    qtbot.addWidget(tab)
    tab.show()
    qtbot.waitUntil(lambda: bool(threads), timeout=5000)
    # The GUI keeps processing events while the scan runs; the progress bar is up.
    assert tab.progress.isVisible()
    assert not tab.scan_button.isEnabled()
    qtbot.wait(50)  # events are processed (this returns) while the worker is blocked
    assert tab.progress.isVisible()
    assert threads[0] != threading.main_thread().name
    release.set()
    qtbot.waitUntil(lambda: tab.scan_count == 1, timeout=5000)
    assert tab.model.rowCount() == 3  # shown at once; the phrase index is brought up to date
    qtbot.waitUntil(lambda: not tab.is_refreshing, timeout=5000)  # then Scan again is back
    assert not tab.progress.isVisible()
    assert tab.scan_button.isEnabled()


def test_facts_changed_elsewhere_rescans(qtbot, ctx, engine, history) -> None:  # type: ignore[no-untyped-def]
    tab = shown_tab(qtbot, ctx)
    assert tab.model.rowCount() == 3
    engine.memory.create(
        name="ruff",
        title="Ruff before commits",
        type=FactType.FEEDBACK,
        body="Always run ruff before committing, the CI rejects lint errors.",
    )
    ctx.apply(
        Changes.seen_on_disk({FACTS}), None
    )  # what the file watcher says after another process's save
    qtbot.waitUntil(lambda: tab.scan_count == 2 and not tab.is_refreshing, timeout=10000)
    assert not any("ruff" in c.name for c in tab.model.rows)


def test_a_long_scan_never_holds_up_other_engine_work(
    qtbot, ctx, engine, history, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    """The scan runs on its own thread with its own engine: a save made meanwhile goes
    through the engine worker at once (it used to wait for the whole scan)."""
    release = threading.Event()
    engines: list[Engine] = []
    real = suggestions_module.scan_workspace

    def slow_scan(engine_used: Engine, max_cuts: int | None = None):  # type: ignore[no-untyped-def]
        engines.append(engine_used)
        release.wait(10)
        return real(engine_used, max_cuts)

    monkeypatch.setattr(suggestions_module, "scan_workspace", slow_scan)
    tab = SuggestionsTab(ctx)
    qtbot.addWidget(tab)
    tab.show()
    qtbot.waitUntil(lambda: bool(engines), timeout=5000)
    assert engines[0] is not ctx.engine  # no store object shared with the worker
    assert engines[0].workspace == ctx.engine.workspace
    started = time.perf_counter()
    future = ctx.submit(
        ctx.engine.create_fact, name="meanwhile", type=FactType.PROJECT, body="saved"
    )
    qtbot.waitUntil(future.done, timeout=2000)
    assert time.perf_counter() - started < 1.0
    assert future.result().value.name == "meanwhile"
    assert tab.is_refreshing  # the scan is still blocked
    release.set()
    qtbot.waitUntil(lambda: tab.scan_count == 1, timeout=5000)


def test_a_scan_that_would_cut_many_facts_waits_for_a_child_process_instead(
    qtbot, ctx, engine: Engine, history, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """The window's threads never cut thousands of facts (issue 19): told the phrase index is
    behind, the tab has a ``suggestions index`` child write it and scans again, reading the
    facts' phrases from it."""
    from context_center.engine.suggestions.facttexts import fact_texts_cache
    from context_center.engine.suggestions.phraseindex import PhraseIndex

    monkeypatch.setattr(suggestions_module, "LIGHT_CUTS", 0)  # one fact is "too many"
    engine.memory.create(
        name="ruff", title="Lint", type=FactType.PROJECT, body="Always run ruff first."
    )
    path = engine._phrase_index_path()
    assert not path.exists()
    cuts = fact_texts_cache().cuts
    tab = shown_tab(qtbot, ctx)
    assert ctx.phrase_index.started == 1
    index = PhraseIndex.load(path)
    assert index is not None and index.rows == 1
    assert fact_texts_cache().cuts == cuts  # no fact cut here: the index said it all
    assert any("Lint" in note for note in tab.result.notes)  # and it still found the repeat
    engine.memory.create(name="npm", title="Pkg", type=FactType.PROJECT, body="Use pnpm.")
    tab._on_scan_clicked()
    qtbot.waitUntil(lambda: tab.scan_count >= 2 and not tab.is_refreshing, timeout=10000)
    wait_idle(qtbot, ctx)
    assert ctx.phrase_index.started == 2  # behind again: a new child
    index = PhraseIndex.load(path)
    assert index is not None and index.rows == 2
    assert fact_texts_cache().cuts == cuts


def test_a_scan_with_few_facts_to_cut_starts_no_child(qtbot, ctx, engine: Engine, history) -> None:  # type: ignore[no-untyped-def]
    engine.memory.create(name="ruff", title="Lint", type=FactType.PROJECT, body="Run ruff.")
    tab = shown_tab(qtbot, ctx)
    assert tab.result is not None and tab.result.turns_scanned
    assert ctx.phrase_index.started == 0  # one fact is cut here, in a blink
    assert not engine._phrase_index_path().exists()


def test_a_workspace_without_turns_gets_no_index(qtbot, ctx, engine: Engine) -> None:  # type: ignore[no-untyped-def]
    engine.memory.create(name="a", title="A", type=FactType.PROJECT, body="Use pnpm.")
    shown_tab(qtbot, ctx)
    assert ctx.phrase_index.started == 0  # a scan with no turns never looks at the facts
    assert engine.index_fact_phrases() == 0
    assert not engine._phrase_index_path().exists()


def test_a_phrase_index_that_cannot_be_written_only_costs_speed(
    qtbot, ctx, tmp_path: Path, engine: Engine, history, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from context_center.engine import EngineError

    monkeypatch.setattr(suggestions_module, "LIGHT_CUTS", 0)
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(blocker))
    engine.memory.create(
        name="ruff", title="Lint", type=FactType.PROJECT, body="Always run ruff first."
    )
    tab = shown_tab(qtbot, ctx)  # the child fails; the scan cuts in this process instead
    assert ctx.phrase_index.started == 1
    assert tab.result is not None and tab.result.turns_scanned
    assert any("Lint" in note for note in tab.result.notes)
    with pytest.raises(EngineError) as refused:  # what the child met
        engine.index_fact_phrases()
    assert refused.value.code == "store_unavailable"


def test_the_window_prewarms_the_index_and_stops_a_child_when_it_closes(
    qtbot, ctx, engine: Engine, history, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    """``launch.py`` asks for the index a few seconds after the window opens (no tab needed);
    closing the window stops a child still running, and no later run starts."""
    import sys

    from context_center.ui import index_child

    engine.memory.create(name="ruff", title="Lint", type=FactType.PROJECT, body="Run ruff.")
    path = engine._phrase_index_path()
    ctx.phrase_index.prewarm(ctx.reader_engine, 0.01)
    qtbot.waitUntil(lambda: ctx.phrase_index.started == 1, timeout=5000)
    wait_idle(qtbot, ctx, timeout=15000)
    assert path.exists()

    slow = index_child.IndexChildren()
    copy_pid = engine.home / "copy.pid"  # the child forks a copy, as forkcut does
    script = (
        "import os, sys, time\n"
        "pid = os.fork()\n"
        "if pid == 0:\n    time.sleep(60)\n"
        "open(sys.argv[1], 'w').write(str(pid))\n"
        "time.sleep(60)\n"
    )
    monkeypatch.setattr(
        index_child, "index_argv", lambda _e: [sys.executable, "-c", script, str(copy_pid)]
    )
    task = slow.ensure(engine)
    # the file exists a moment before its number is written: wait for the number
    qtbot.waitUntil(
        lambda: slow.started == 1 and copy_pid.exists() and copy_pid.read_text() != "",
        timeout=5000,
    )
    [child] = slow._children
    grandchild = int(copy_pid.read_text())
    started = time.perf_counter()
    slow.stop()
    assert child.poll() is not None and time.perf_counter() - started < 3

    def gone() -> bool:
        try:
            os.kill(grandchild, 0)
        except ProcessLookupError:
            return True
        # a zombie until init reaps it: its state says so
        state = Path(f"/proc/{grandchild}/stat")
        return state.exists() and state.read_text().split(") ")[-1].startswith("Z")

    qtbot.waitUntil(gone, timeout=3000)  # the forked copy went with it
    qtbot.waitUntil(task.done, timeout=2000)
    assert task.cancelled()
    slow.prewarm(lambda: engine, 0.0)  # after stop: nothing more starts
    qtbot.wait(100)
    assert slow.started == 1
