"""Memory tab through real widgets: list, filter, detail, create, stale edit, forget, conflicts."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from PySide6.QtWidgets import QDialog, QMessageBox

from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope
from context_center.ui.dialogs.fact_editor import FactEditorDialog
from context_center.ui.dialogs.stale_edit import StaleEditDialog
from context_center.ui.tabs.memory import MemoryTab


@pytest.fixture
def seeded(engine: Engine) -> Engine:
    m = engine.memory
    m.create(
        name="release-branch",
        title="Release branch",
        description="where releases are cut",
        type=FactType.PROJECT,
        body="Releases are cut from `release/*`.",
    )
    m.create(
        name="ticket-tracker",
        title="Ticket tracker",
        type=FactType.REFERENCE,
        body="Tickets live at https://example.invalid/board.",
        now=datetime.now(UTC) - timedelta(days=400),
    )
    m.create(
        name="tabs-not-spaces",
        title="Indentation",
        type=FactType.USER,
        scope=Scope.GLOBAL,
        body="Prefers **tabs**.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<script>alert(1)</script>",
    )
    m.create(
        name="release-branch",
        title="Release branch",
        type=FactType.FEEDBACK,
        scope=Scope.GLOBAL,
        body="Globally: release from main.",
    )
    m.create(
        name="中文说明",
        title="代码评审",
        type=FactType.FEEDBACK,
        body="提交前运行测试。Run the tests before committing.",
    )
    return engine


@pytest.fixture
def tab(qtbot, ctx, seeded, wait_idle) -> MemoryTab:  # type: ignore[no-untyped-def]
    widget = MemoryTab(ctx)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    wait_idle()
    return widget


def titles(tab: MemoryTab) -> list[str]:
    return [r.title for r in tab.model.rows]


def test_lists_both_scopes_and_passes_model_tester(tab: MemoryTab, qtmodeltester) -> None:
    assert sorted(titles(tab)) == sorted(
        ["Release branch", "Release branch", "Ticket tracker", "Indentation", "代码评审"]
    )
    assert {r.scope for r in tab.model.rows} == {"project", "global"}
    qtmodeltester.check(tab.model)
    assert "5 facts" in tab.count_label.text()


def test_filters_and_search(qtbot, tab: MemoryTab) -> None:
    tab.scope_filter.setCurrentIndex(tab.scope_filter.findData("global"))
    assert {r.scope for r in tab.model.rows} == {"global"} and len(tab.model.rows) == 2
    tab.scope_filter.setCurrentIndex(0)
    tab.fresh_filter.setCurrentIndex(tab.fresh_filter.findData("stale"))
    assert titles(tab) == ["Ticket tracker"]
    tab.fresh_filter.setCurrentIndex(0)
    tab.type_filter.setCurrentIndex(tab.type_filter.findData("feedback"))
    assert sorted(titles(tab)) == ["Release branch", "代码评审"]
    tab.type_filter.setCurrentIndex(0)
    tab.search.setText("提交前")
    qtbot.waitUntil(lambda: titles(tab) == ["代码评审"])
    tab.search.setText("TABS")  # body text, case-insensitive
    qtbot.waitUntil(lambda: titles(tab) == ["Indentation"])
    assert "1 of 5 facts" in tab.count_label.text()


def test_sort_by_header(tab: MemoryTab) -> None:
    tab.table.sortByColumn(4, tab.table.horizontalHeader().sortIndicatorOrder().DescendingOrder)
    revs = [r.revision for r in tab.model.rows]
    assert revs == sorted(revs, reverse=True)
    tab.table.sortByColumn(0, tab.table.horizontalHeader().sortIndicatorOrder().AscendingOrder)
    got = [r.title.lower() for r in tab.model.rows]
    assert got == sorted(got)


def test_detail_shows_escaped_markdown_and_provenance(tab: MemoryTab, seeded: Engine) -> None:
    entry = seeded.memory.resolve("global/tabs-not-spaces.md")
    assert tab.select_fact(entry.fact.id)
    html = tab.body_view.toHtml()
    assert "<table" in html  # tables are enabled
    assert "alert(1)" in tab.body_view.toPlainText()  # the script is shown as text, not run
    assert "<script" not in html
    assert tab.prov_ref.full_text() == "global/tabs-not-spaces.md"
    assert tab.prov_path.full_text() == str(entry.path)
    assert tab.prov_id.full_text() == entry.fact.id


def test_conflict_banner_explains_override(tab: MemoryTab) -> None:
    assert tab.banner.isVisible()
    text = tab.banner_label.text()
    assert "project/release-branch.md" in text and "global/release-branch.md" in text
    assert "same <b>name</b>" in text
    assert "the project fact applies" in text


def _wait_dialog(qtbot, ctx, cls):  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: isinstance(ctx.last_dialog, cls) and ctx.last_dialog.isVisible())
    return ctx.last_dialog


def test_create_fact(qtbot, ctx, tab: MemoryTab, seeded: Engine, wait_idle) -> None:
    tab.btn_new.click()
    dialog = _wait_dialog(qtbot, ctx, FactEditorDialog)
    assert not dialog.save_button.isEnabled()
    dialog.name_edit.setText("CI runner")
    dialog.type_combo.setCurrentIndex(dialog.type_combo.findData(FactType.PROJECT))
    dialog.body_edit.setPlainText("CI runs on self-hosted runners.")
    dialog.save_button.click()
    wait_idle()
    fact = seeded.memory.resolve("project/ci-runner.md").fact
    qtbot.waitUntil(lambda: tab.current_row() is not None and tab.current_row().id == fact.id)
    assert "CI runs on" in tab.body_view.toPlainText()


def test_stale_edit_shows_what_changed_instead_of_overwriting(
    qtbot, ctx, tab: MemoryTab, home, workspace, wait_idle
) -> None:
    other = Engine(home=home, workspace=workspace)  # "another process"
    other.open()
    entry = other.memory.resolve("project/release-branch.md")
    assert tab.select_fact(entry.fact.id)
    tab.btn_edit.click()
    editor = _wait_dialog(qtbot, ctx, FactEditorDialog)
    assert editor.fact is not None and editor.fact.revision == 1
    other.memory.update(
        entry.fact.id, expected_revision=1, body="Releases are cut from `rel/*` now."
    )
    editor.body_edit.setPlainText("My edit: releases are cut on Fridays.")
    editor.save_button.click()
    stale = _wait_dialog(qtbot, ctx, StaleEditDialog)
    changed = stale.changed_view.toPlainText()
    assert "rel/*" in changed and "revision 2" in changed
    assert "Fridays" in stale.mine_view.toPlainText()
    # nothing was overwritten
    assert other.memory.resolve("project/release-branch.md").fact.body.startswith(
        "Releases are cut from `rel/*`"
    )
    stale.copy_button.click()
    from PySide6.QtGui import QGuiApplication

    assert "Fridays" in QGuiApplication.clipboard().text()
    stale.reload_button.click()
    editor2 = _wait_dialog(qtbot, ctx, FactEditorDialog)
    assert editor2 is not editor and editor2.fact is not None and editor2.fact.revision == 2
    editor2.body_edit.setPlainText("Merged: rel/* and Fridays.")
    editor2.save_button.click()
    wait_idle()
    fact = other.memory.resolve("project/release-branch.md").fact
    assert fact.revision == 3 and fact.body == "Merged: rel/* and Fridays."


def test_hand_edit_is_a_content_conflict(
    qtbot, ctx, tab: MemoryTab, seeded: Engine, wait_idle
) -> None:
    entry = seeded.memory.resolve("project/release-branch.md")
    assert tab.select_fact(entry.fact.id)
    tab.btn_edit.click()
    editor = _wait_dialog(qtbot, ctx, FactEditorDialog)
    entry.path.write_text(entry.path.read_text().replace("Releases are cut", "HAND EDIT: cut"))
    editor.body_edit.setPlainText("mine")
    editor.save_button.click()
    stale = _wait_dialog(qtbot, ctx, StaleEditDialog)
    assert "HAND EDIT" in stale.changed_view.toPlainText()
    stale.reject()
    wait_idle()
    assert "HAND EDIT" in entry.path.read_text()


def test_forget_asks_then_archives(qtbot, ctx, tab: MemoryTab, seeded: Engine, wait_idle) -> None:
    entry = seeded.memory.resolve("project/ticket-tracker.md")
    assert tab.select_fact(entry.fact.id)
    tab.btn_forget.click()
    box = _wait_dialog(qtbot, ctx, QMessageBox)
    assert "project/ticket-tracker.md" in box.text()
    next(b for b in box.buttons() if b.objectName() != "confirmOk").click()  # cancel first
    wait_idle()
    assert tab.model.row_of(entry.fact.id) >= 0
    tab.btn_forget.click()
    box = _wait_dialog(qtbot, ctx, QMessageBox)
    next(b for b in box.buttons() if b.objectName() == "confirmOk").click()
    wait_idle()
    qtbot.waitUntil(lambda: tab.model.row_of(entry.fact.id) < 0)
    archived = [a.fact.name for a in seeded.memory.archived() if a.fact]
    assert archived == ["ticket-tracker"]
    assert ctx.errors == []


def test_links_are_not_opened_and_resources_not_loaded(
    qtbot, tab: MemoryTab, seeded: Engine
) -> None:
    tab.body_view.set_markdown(
        "![x](https://example.invalid/pixel.png) and ![y](file:///etc/hostname)"
    )
    assert tab.body_view.blocked  # asked for and refused
    assert all(
        u.startswith(("https://example.invalid", "file:///etc")) for u in tab.body_view.blocked
    )
    assert QDialog  # (imported for type clarity in other tests)


def test_a_broken_fact_file_is_shown_with_its_diagnostic(
    qtbot, ctx, seeded: Engine, wait_idle
) -> None:
    store = seeded.layout.project_store
    (store / "broken.md").write_text("---\nname: [unclosed\n---\nbody\n", encoding="utf-8")
    (store / "also-broken.md").write_bytes(b"\xff\xfe not utf-8")
    widget = MemoryTab(ctx)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    wait_idle()
    banner = widget.diagnostics_banner
    assert banner.isVisible()
    text = banner.label.text()
    diags = banner.diagnostics
    assert {d.path for d in diags} == {"broken.md", "also-broken.md"}
    for d in diags:  # code, file and the store's own message, in the window
        assert d.code in text and f"project/{d.path}" in text
        assert d.message.split()[0] in text
    assert "could not be read" in text and "CLI" not in text
    assert "2 files left out" in widget.count_label.text()
    assert "5 facts" in widget.count_label.text()  # the good ones are all listed


def test_many_diagnostics_fold_behind_show_all(qtbot, ctx, seeded: Engine, wait_idle) -> None:
    store = seeded.layout.project_store
    for i in range(5):
        (store / f"bad-{i}.md").write_text("---\nname: [\n---\n", encoding="utf-8")
    widget = MemoryTab(ctx)
    qtbot.addWidget(widget)
    widget.resize(1100, 700)
    widget.show()
    wait_idle()
    banner = widget.diagnostics_banner
    assert banner.toggle.isVisible() and banner.toggle.text() == "Show all 5"
    assert banner.label.text().count("<li>") == 3
    banner.toggle.click()
    assert banner.label.text().count("<li>") == 5 and banner.toggle.text() == "Show fewer"


def test_search_text_is_built_after_the_table_and_on_demand(
    qtbot, tab: MemoryTab, seeded: Engine
) -> None:
    """The first load leaves the search text out of the rows (a tenth of a 50,000-row load)
    and builds it once the table is shown; a search typed before that builds it itself."""
    from context_center.ui.models.facts import FactFilter, build_rows

    assert all(r.haystack is not None for r in tab.filter.rows)  # filled after the load
    loaded = seeded.load_entries()
    rows = build_rows([*loaded.project, *loaded.global_], datetime.now(UTC), haystacks=False)
    assert all(r.haystack is None for r in rows)
    fresh = FactFilter()
    fresh.set_rows(rows)
    assert len(fresh.apply()) == 5  # no search: nothing built
    assert all(r.haystack is None for r in rows)
    fresh.query = "release from MAIN"
    assert [r.ref for r in fresh.apply()] == ["global/release-branch.md"]
    assert all(r.haystack is not None for r in rows)
    fresh.query = "提交前"
    assert [r.title for r in fresh.apply()] == ["代码评审"]


def test_an_edit_in_place_made_while_the_window_was_closed_shows_after_the_first_look(
    qtbot, ctx, seeded: Engine, wait_idle, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first load trusts the store cache for files with the cached inode (no stat of
    50,000 files before the first paint); the check right after shows an edit in place."""
    from context_center.ui.tabs import memory as memory_module

    seeded.load_entries()  # the store cache, as the window's last run left it
    path = seeded.layout.project_store / "release-branch.md"
    inode = path.stat().st_ino
    with path.open("a", encoding="utf-8") as fh:
        fh.write("\nEdited in place while the window was closed.\n")
    assert path.stat().st_ino == inode
    looks: list[bool] = []
    real = memory_module.load_memory

    def spy(engine: Engine, trusted: bool = False):  # type: ignore[no-untyped-def]
        looks.append(trusted)
        return real(engine, trusted)

    monkeypatch.setattr(memory_module, "load_memory", spy)
    widget = MemoryTab(ctx)
    qtbot.addWidget(widget)
    widget.show()
    wait_idle()
    assert looks[:2] == [True, False]  # the trusted look, then the check
    row = next(r for r in widget.model.rows if r.ref == "project/release-branch.md")
    assert "Edited in place" in row.fact.body
