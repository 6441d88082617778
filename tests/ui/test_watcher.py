"""The file watcher follows hand edits: a fact rewritten in place or appended to (``echo >>``),
imported and nested instruction files, with inotify and with the stat-scan fallback; the
window's own writes and plain reads are not reported."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from context_center.engine import Area, Changes
from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.ui.main_window import MainWindow
from context_center.ui.watcher import ChangeWatcher


@pytest.fixture
def window(qtbot, ctx, settings, engine: Engine, wait_idle):  # type: ignore[no-untyped-def]
    engine.memory.create(name="notes", title="Notes", type=FactType.PROJECT, body="first line")
    win = MainWindow(ctx, settings)
    qtbot.addWidget(win)
    win.show()
    wait_idle()
    yield win
    win.close()


def _body(window: MainWindow) -> str:
    row = window.memory_tab.current_row()
    return row.fact.body if row else ""


def test_watcher_uses_inotify_on_linux(window: MainWindow) -> None:
    import sys

    assert window.watcher.uses_inotify is sys.platform.startswith("linux")


def test_append_in_place_is_shown_within_a_second(
    qtbot, window: MainWindow, engine: Engine
) -> None:
    path = engine.memory.resolve("project/notes.md").path
    inode = path.stat().st_ino
    started = time.perf_counter()
    with path.open("a", encoding="utf-8") as handle:  # what `echo more >> notes.md` does
        handle.write("appended by hand\n")
    assert path.stat().st_ino == inode  # in place: no rename the folder would see
    qtbot.waitUntil(lambda: "appended by hand" in _body(window), timeout=1500)
    assert time.perf_counter() - started < 1.5
    assert Area.FACTS in window.watcher.emitted[-1]


def test_editor_rewriting_the_file_in_place_is_shown(
    qtbot, window: MainWindow, engine: Engine
) -> None:
    path = engine.memory.resolve("project/notes.md").path
    text = path.read_text(encoding="utf-8").replace("first line", "rewritten in the editor")
    with path.open("r+", encoding="utf-8") as handle:  # truncate and write, same inode
        handle.seek(0)
        handle.truncate()
        handle.write(text)
    qtbot.waitUntil(lambda: "rewritten in the editor" in _body(window), timeout=1500)


def test_reading_files_is_not_a_change(qtbot, window: MainWindow, engine: Engine) -> None:
    before = list(window.watcher.emitted)
    path = engine.memory.resolve("project/notes.md").path
    path.read_bytes()
    with path.open("rb"):
        pass
    Engine(home=engine.home, workspace=engine.workspace).open(persist_cache=False)
    qtbot.wait(1200)
    assert window.watcher.emitted == before


def test_own_save_is_absorbed(qtbot, window: MainWindow, engine: Engine, wait_idle) -> None:
    before = list(window.watcher.emitted)
    entry = engine.memory.resolve("project/notes.md")
    engine.memory.update(entry.fact.id, expected_revision=1, body="saved by the window")
    window.ctx.apply(Changes.seen_on_disk({Area.FACTS}), window.memory_tab)
    wait_idle()
    qtbot.wait(400)
    assert window.watcher.emitted == before


def test_fallback_scan_sees_in_place_edits_without_inotify(qtbot, ctx, engine: Engine) -> None:
    fact = engine.memory.create(name="plain", title="Plain", type=FactType.PROJECT, body="a")
    watcher = ChangeWatcher(ctx, poll_ms=100, debounce_ms=20, use_inotify=False)
    watcher.start()
    try:
        qtbot.waitUntil(lambda: watcher.scan.rounds >= 2, timeout=3000)  # baseline taken
        path = engine.memory.resolve(fact.id).path
        with path.open("a", encoding="utf-8") as handle:
            handle.write("more\n")
        qtbot.waitUntil(lambda: any(Area.FACTS in e for e in watcher.emitted), timeout=3000)
        assert watcher.last_check_ms < 50
    finally:
        watcher.stop()


def test_imported_and_nested_instruction_files_are_followed(
    qtbot, ctx, engine: Engine, workspace: Path, wait_idle
) -> None:
    (workspace / "docs").mkdir()
    rules = workspace / "docs" / "rules.md"
    rules.write_text("Use tabs.\n", encoding="utf-8")
    (workspace / "AGENTS.md").write_text("# Project\n\n@docs/rules.md\n", encoding="utf-8")
    nested_dir = workspace / "services" / "api"
    nested_dir.mkdir(parents=True)
    nested = nested_dir / "AGENTS.md"
    nested.write_text("API rules.\n", encoding="utf-8")
    watcher = ChangeWatcher(ctx, poll_ms=200, debounce_ms=20)
    watcher.start()
    try:
        wait_idle()
        group = next(g for g in watcher.groups if g.area is Area.INSTRUCTIONS)
        assert rules in group.paths and nested in group.paths
        assert nested_dir / "AGENTS.local.md" in group.paths  # a new one beside it is seen
        for path, text in ((rules, "Use spaces.\n"), (nested, "API rules, v2.\n")):
            seen = len(watcher.emitted)
            with path.open("a", encoding="utf-8") as handle:
                handle.write(text)
            qtbot.waitUntil(
                lambda s=seen: any(Area.INSTRUCTIONS in e for e in watcher.emitted[s:]),
                timeout=2000,
            )
    finally:
        watcher.stop()


def test_an_edit_in_place_reads_only_that_file(
    qtbot, window: MainWindow, engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    from context_center.ui.tabs import memory as memory_module

    loads: list[object] = []
    real = memory_module.load_memory
    monkeypatch.setattr(memory_module, "load_memory", lambda e: loads.append(e) or real(e))
    path = engine.memory.resolve("project/notes.md").path
    with path.open("a", encoding="utf-8") as handle:
        handle.write("only this file\n")
    qtbot.waitUntil(lambda: "only this file" in _body(window), timeout=1500)
    assert loads == []  # the store was not read again, only notes.md
    # a new file is not an edit in place: both stores are read again
    engine.memory.create(name="second", title="Second", type=FactType.PROJECT, body="2")
    qtbot.waitUntil(
        lambda: "Second" in [r.title for r in window.memory_tab.model.rows], timeout=2500
    )
    assert len(loads) == 1
