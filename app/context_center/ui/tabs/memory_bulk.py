"""The Memory tab's commands on the selection beyond Forget: change type, move between the
project and global scopes, rename; and the table's context menu.

* **Change type…** (Ctrl+T): one choice for every selected fact; each fact whose type differs
  gets a new revision through ``Engine.update_fact`` against the revision and content hash
  the table showed (a fact changed meanwhile is skipped and counted, never overwritten).
* **Move to global** (Ctrl+Shift+G) / **Move to project** (Ctrl+Shift+P): after one
  confirmation each selected fact not already there moves with ``Engine.rescope_fact`` (same
  id and history; the old copy is kept in the archive). A name taken in the target scope is
  skipped and counted (``rescope_name_taken``).
* **Rename…** (F2): one fact, ``Engine.update_fact(id, name=…)``.

The window's menu bar lists the same actions (``actions_of``). The table's context menu holds
Edit, Revisions, these and Forget.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPoint, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QMenu, QTableView
from qasync import asyncSlot

from context_center.engine import Changes, Engine, EngineError, Entry, Fact, FactType, Scope
from context_center.ui.context import busy
from context_center.ui.dialogs.fact_change import RenameDialog, TypeChoiceDialog
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.refusal_text import error_message
from context_center.ui.terms import plural, scope_label, type_label
from context_center.ui.widgets.actions import make_action

if TYPE_CHECKING:
    from context_center.ui.models.facts import FactRow
    from context_center.ui.tabs.memory import MemoryTab

TEXT = Texts(
    "MemoryBulk",
    {
        "retype": QT_TRANSLATE_NOOP("MemoryBulk", "Change &type…"),
        "retype_tip": QT_TRANSLATE_NOOP(
            "MemoryBulk", "Give the selected facts another type (a new revision each)"
        ),
        "to_global": QT_TRANSLATE_NOOP("MemoryBulk", "Move to &global"),
        "to_global_tip": (
            QT_TRANSLATE_NOOP(
                "MemoryBulk",
                "Promote the selected project facts to global: every workspace sees them (same id "
                "and history)",
            )
        ),
        "to_project": QT_TRANSLATE_NOOP("MemoryBulk", "Move to &project"),
        "to_project_tip": QT_TRANSLATE_NOOP(
            "MemoryBulk", "Move the selected global facts into this workspace's project store"
        ),
        "rename": QT_TRANSLATE_NOOP("MemoryBulk", "Re&name…"),
        "rename_tip": QT_TRANSLATE_NOOP(
            "MemoryBulk", "Give the selected fact another name (its id and history stay)"
        ),
        "move_title": QT_TRANSLATE_NOOP("MemoryBulk", "Move facts"),
        "move_text_one": QT_TRANSLATE_NOOP("MemoryBulk", "Move {ref} to {scope}?"),
        "move_text_many": QT_TRANSLATE_NOOP("MemoryBulk", "Move {n} facts to {scope}?"),
        "move_info_global": (
            QT_TRANSLATE_NOOP(
                "MemoryBulk",
                "Global facts are recalled in every workspace. Each keeps its id and revisions; the "
                "project copy is kept in the project archive.",
            )
        ),
        "move_info_project": (
            QT_TRANSLATE_NOOP(
                "MemoryBulk",
                "Project facts are recalled only in this workspace. Each keeps its id and revisions; "
                "the global copy is kept in the global archive.",
            )
        ),
        "move_ok": QT_TRANSLATE_NOOP("MemoryBulk", "Move"),
        "moved_one": QT_TRANSLATE_NOOP("MemoryBulk", "Moved {n} fact to {scope}"),
        "moved": QT_TRANSLATE_NOOP("MemoryBulk", "Moved {n} facts to {scope}"),
        "nothing_to_move": QT_TRANSLATE_NOOP(
            "MemoryBulk", "The selected facts are already {scope} facts"
        ),
        "retyped_one": QT_TRANSLATE_NOOP("MemoryBulk", "Changed {n} fact to type {type}"),
        "retyped": QT_TRANSLATE_NOOP("MemoryBulk", "Changed {n} facts to type {type}"),
        "same_type": QT_TRANSLATE_NOOP("MemoryBulk", "The selected facts already have type {type}"),
        "renamed": QT_TRANSLATE_NOOP("MemoryBulk", "Renamed {old} to {ref}"),
        "skipped": QT_TRANSLATE_NOOP("MemoryBulk", " · {n} skipped: {error}"),
    },
)


def _retype(engine: Engine, entry: Entry, fact_type: FactType) -> Changes[Fact]:
    fact = entry.fact
    return engine.update_fact(
        fact.id, expected_revision=fact.revision, expected_sha=entry.sha256, type=fact_type
    )


def _rescope(engine: Engine, fact: Fact, scope: Scope) -> Changes[Fact]:
    return engine.rescope_fact(fact.id, scope, expected_revision=fact.revision)


def _rename(engine: Engine, entry: Entry, name: str) -> Changes[Fact]:
    fact = entry.fact
    return engine.update_fact(
        fact.id, expected_revision=fact.revision, expected_sha=entry.sha256, name=name
    )


class MemoryBulk(QObject):
    """Owns the actions and runs them on ``tab``'s selection."""

    def __init__(self, tab: MemoryTab, table: QTableView) -> None:
        super().__init__(tab)
        self.setObjectName("memoryBulk")
        self.tab = tab
        self.ctx = tab.ctx
        self.table = table
        within = Qt.ShortcutContext.WidgetWithChildrenShortcut
        self.act_retype = make_action(
            tab, TEXT["retype"], "actRetypeFacts", self.on_retype,
            shortcuts=["Ctrl+T"], context=within, tip=TEXT["retype_tip"],
        )  # fmt: skip
        self.act_to_global = make_action(
            tab, TEXT["to_global"], "actMoveToGlobal", lambda: self.on_move(Scope.GLOBAL),
            shortcuts=["Ctrl+Shift+G"], context=within, tip=TEXT["to_global_tip"],
        )  # fmt: skip
        self.act_to_project = make_action(
            tab, TEXT["to_project"], "actMoveToProject", lambda: self.on_move(Scope.PROJECT),
            shortcuts=["Ctrl+Shift+P"], context=within, tip=TEXT["to_project_tip"],
        )  # fmt: skip
        self.act_rename = make_action(
            tab, TEXT["rename"], "actRenameFact", self.on_rename,
            shortcuts=["F2"], context=within, tip=TEXT["rename_tip"],
        )  # fmt: skip
        self.actions = [self.act_rename, self.act_retype, self.act_to_global, self.act_to_project]
        tab.addActions(self.actions)
        table.selectionModel().selectionChanged.connect(lambda *_: self.update_actions())
        table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        table.customContextMenuRequested.connect(self.show_menu)
        self.menu: QMenu | None = None
        self.update_actions()

    # -- state --------------------------------------------------------------------------------

    def rows(self) -> list[FactRow]:
        """The selected rows in table order (the current row when none is selected)."""
        model = self.tab.model
        selection = self.table.selectionModel()
        picked = sorted(i.row() for i in selection.selectedRows())
        rows = [model.rows[i] for i in picked if i < len(model.rows)]
        current = selection.currentIndex()
        if not rows and current.isValid() and current.row() < len(model.rows):
            rows = [model.rows[current.row()]]
        return rows

    def update_actions(self) -> None:
        rows = self.rows()
        scopes = {r.scope for r in rows}
        self.act_retype.setEnabled(bool(rows))
        self.act_rename.setEnabled(len(rows) == 1)
        self.act_to_global.setEnabled(Scope.PROJECT.value in scopes)
        self.act_to_project.setEnabled(Scope.GLOBAL.value in scopes)

    def build_menu(self) -> QMenu:
        tab = self.tab
        menu = QMenu(self.table)
        menu.setObjectName("factContextMenu")
        items: list[QAction | None] = [
            tab.act_edit, tab.act_revisions, None, self.act_rename, self.act_retype,
            self.act_to_global, self.act_to_project, None, tab.act_forget,
        ]  # fmt: skip
        for action in items:
            if action is None:
                menu.addSeparator()
            else:
                menu.addAction(action)
        return menu

    def show_menu(self, pos: QPoint) -> None:
        self.update_actions()
        if self.menu is None:
            self.menu = self.build_menu()
        self.menu.popup(self.table.viewport().mapToGlobal(pos))

    def _finish(self, message: str, errors: list[str]) -> None:
        if errors:
            message += TEXT["skipped"].format(n=len(errors), error=errors[0])
        self.ctx.status(message)

    # -- commands -----------------------------------------------------------------------------

    @asyncSlot()
    @busy("act_retype")
    async def on_retype(self) -> None:
        rows = self.rows()
        if not rows:
            return
        dialog = TypeChoiceDialog(self.tab, [r.fact for r in rows])
        if await self.ctx.exec_dialog(dialog) != QDialog.DialogCode.Accepted:
            return
        chosen = dialog.chosen()
        todo = [r for r in rows if r.fact.type is not chosen]
        if not todo:
            self.ctx.status(TEXT["same_type"].format(type=type_label(chosen.value)))
            return
        done, errors = await self._each(todo, lambda row: (_retype, row.entry, chosen))
        self._finish(
            plural(done, TEXT["retyped_one"], TEXT["retyped"]).format(
                n=done, type=type_label(chosen.value)
            ),
            errors,
        )

    @asyncSlot(object)
    @busy("act_to_global", "act_to_project")
    async def on_move(self, scope: Scope) -> None:
        todo = [r for r in self.rows() if r.scope != scope.value]
        if not todo:
            self.ctx.status(TEXT["nothing_to_move"].format(scope=scope_label(scope.value)))
            return
        if len(todo) == 1:
            text = TEXT["move_text_one"].format(ref=todo[0].ref, scope=scope_label(scope.value))
        else:
            text = TEXT["move_text_many"].format(n=len(todo), scope=scope_label(scope.value))
        info = TEXT["move_info_global" if scope is Scope.GLOBAL else "move_info_project"]
        if not await self.ctx.confirm(
            self.tab, TEXT["move_title"], text, informative=info, ok_text=TEXT["move_ok"]
        ):
            return
        done, errors = await self._each(todo, lambda row: (_rescope, row.fact, scope))
        self._finish(
            plural(done, TEXT["moved_one"], TEXT["moved"]).format(
                n=done, scope=scope_label(scope.value)
            ),
            errors,
        )

    async def _each(
        self, todo: list[FactRow], call: Callable[[FactRow], tuple[Any, ...]]
    ) -> tuple[int, list[str]]:
        """Run ``call(row)`` = (engine function, *args) for each row on the worker, one change
        applied at a time; a refusal is collected and the rest go on. (done, refusals)."""
        done, errors = 0, []
        for row in todo:
            fn, *args = call(row)
            try:
                changes = await self.ctx.run(fn, self.ctx.engine, *args)
            except EngineError as exc:
                errors.append(error_message(exc))
                continue
            done += 1
            self.ctx.apply(changes, self.tab)
        self.tab.keep_selected(todo[0].id)
        return done, errors

    @asyncSlot()
    @busy("act_rename")
    async def on_rename(self) -> None:
        rows = self.rows()
        if len(rows) != 1:
            return
        entry = rows[0].entry
        dialog = RenameDialog(self.tab, entry.fact)
        if await self.ctx.exec_dialog(dialog) != QDialog.DialogCode.Accepted:
            return
        name = dialog.chosen()
        if not name:
            return
        changes = await self.ctx.run(_rename, self.ctx.engine, entry, name)
        self.tab.keep_selected(entry.fact.id)
        self.ctx.apply(changes, self.tab)
        self.ctx.status(TEXT["renamed"].format(old=entry.fact.ref, ref=changes.value.ref))


def bulk_of(tab: MemoryTab) -> MemoryBulk:
    """The tab's ``MemoryBulk`` (made by ``memory_actions.install_table_menu``)."""
    found = tab.findChild(MemoryBulk, "memoryBulk")
    assert found is not None, "install_table_menu was not called"
    return found
