"""Sync conflicts: what Syncthing, Dropbox or git left beside a fact, with a diff and a choice.

The dialog lists every conflict copy and every fact file with git conflict markers
(``Engine.sync_conflicts``). For the selected one it shows both sides side by side; the person
keeps one side (``Engine.keep_sync_side``): it becomes a new revision of the fact, and the
other side goes to the archive, so nothing is lost and either choice can be undone from the
Archive tab.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import Changes, Engine, SyncConflict
from context_center.ui.context import AppContext, busy
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts, translate
from context_center.ui.widgets.diff_view import side_by_side_html
from context_center.ui.widgets.markdown_view import SafeBrowser

SIDE_LABELS = Texts(
    "SyncConflicts",
    {
        "fact": QT_TRANSLATE_NOOP("SyncConflicts", "the fact as it is"),
        "copy": QT_TRANSLATE_NOOP("SyncConflicts", "the conflict copy"),
        "ours": QT_TRANSLATE_NOOP("SyncConflicts", "this machine's side (ours)"),
        "theirs": QT_TRANSLATE_NOOP("SyncConflicts", "the other side (theirs)"),
    },
)
CODE_LABELS = Texts(
    "SyncConflicts",
    {
        "sync_conflict_copy": QT_TRANSLATE_NOOP("SyncConflicts", "conflict copy"),
        "git_conflict_markers": QT_TRANSLATE_NOOP("SyncConflicts", "git conflict markers"),
    },
)


def side_label(side: str) -> str:
    return SIDE_LABELS.get(side, side)


def load_conflicts(engine: Engine) -> list[SyncConflict]:
    engine.open(persist_cache=False)
    return engine.sync_conflicts()


def keep_side(engine: Engine, conflict: SyncConflict, side: str) -> Changes[Any]:
    return engine.keep_sync_side(
        conflict.scope, conflict.path, side, expected_revision=conflict.fact_revision
    )


class SyncConflictsDialog(QDialog):
    """Every sync conflict of this workspace's stores; keep one side of the selected one."""

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.setObjectName("syncConflictsDialog")
        self.setWindowTitle(translate("SyncConflicts", "Sync conflicts"))
        self.resize(1000, 620)
        self.conflicts: list[SyncConflict] = []

        self.listing = QListWidget()
        self.listing.setObjectName("syncConflictList")
        self.listing.currentRowChanged.connect(self._show)
        self.explain = QLabel()
        self.explain.setObjectName("syncConflictExplain")
        self.explain.setWordWrap(True)
        self.diff = SafeBrowser()
        self.diff.setObjectName("syncConflictDiff")
        self.keep_a = QPushButton()
        self.keep_a.setObjectName("keepFirstSide")
        self.keep_a.clicked.connect(lambda: self.on_keep(0))
        self.keep_b = QPushButton()
        self.keep_b.setObjectName("keepSecondSide")
        self.keep_b.clicked.connect(lambda: self.on_keep(1))

        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.explain)
        right_layout.addWidget(self.diff, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.keep_a)
        buttons.addWidget(self.keep_b)
        right_layout.addLayout(buttons)

        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.listing)
        split.addWidget(right)
        split.setSizes([260, 740])
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        intro = QLabel(
            translate(
                "SyncConflicts",
                "A sync tool left a second version of these facts. Compare the two sides and "
                "keep one: it becomes a new revision of the fact, and the other side goes to the "
                "archive (recoverable).",
            )
        )
        intro.setWordWrap(True)
        layout.addWidget(intro)
        layout.addWidget(split, 1)
        layout.addWidget(close)
        self._show(-1)

    async def reload(self) -> None:
        self.conflicts = await self.ctx.run(load_conflicts, self.ctx.engine)
        self.listing.clear()
        for c in self.conflicts:
            item = QListWidgetItem(f"{c.fact_ref or c.ref}\n{CODE_LABELS.get(c.code, c.code)}")
            item.setToolTip(c.ref)
            self.listing.addItem(item)
        self.listing.setCurrentRow(0 if self.conflicts else -1)
        self._show(self.listing.currentRow())

    @property
    def current(self) -> SyncConflict | None:
        row = self.listing.currentRow()
        return self.conflicts[row] if 0 <= row < len(self.conflicts) else None

    def update_actions(self) -> None:
        for button in (self.keep_a, self.keep_b):
            button.setEnabled(self.current is not None)

    def _show(self, _row: int) -> None:
        c = self.current
        self.update_actions()
        if c is None:
            self.explain.setText(
                translate("SyncConflicts", "No sync conflicts: every fact has one version.")
            )
            self.diff.setHtml("")
            self.keep_a.setText(translate("SyncConflicts", "Keep"))
            self.keep_b.setText(translate("SyncConflicts", "Keep"))
            return
        a, b = c.sides
        target = c.fact_ref or translate(
            "SyncConflicts", "no active fact (the copy's fact was forgotten)"
        )
        self.explain.setText(
            translate("SyncConflicts", "{ref} ({kind}) — fact: {target}").format(
                ref=c.ref, kind=CODE_LABELS.get(c.code, c.code), target=target
            )
        )
        labels = side_label(a), side_label(b)
        self.diff.show_html(lambda: side_by_side_html(c.texts[0], c.texts[1], *labels))
        keep = translate("SyncConflicts", "Keep {side}")
        self.keep_a.setText(keep.format(side=side_label(a)))
        self.keep_b.setText(keep.format(side=side_label(b)))

    @asyncSlot()
    @busy("keep_a", "keep_b")
    async def on_keep(self, which: int) -> None:
        c = self.current
        if c is None:
            return
        side = c.sides[which]
        other = c.sides[1 - which]
        ok = await self.ctx.confirm(
            self,
            translate("SyncConflicts", "Keep one side"),
            translate("SyncConflicts", "Keep {side}?").format(side=side_label(side)),
            informative=translate(
                "SyncConflicts",
                "It becomes a new revision of {fact}; {other} moves to the archive, where it can "
                "be recovered.",
            ).format(
                fact=c.fact_ref or translate("SyncConflicts", "the fact"), other=side_label(other)
            ),
            ok_text=translate("SyncConflicts", "Keep"),
        )
        if not ok:
            return
        changes = await self.ctx.run(keep_side, self.ctx.engine, c, side)
        fact = changes.value[0]
        self.ctx.status(
            translate("SyncConflicts", "Kept {side}: {ref} is at revision {n}").format(
                side=side_label(side), ref=fact.ref, n=fact.revision
            )
        )
        self.ctx.apply(changes, self)
        await self.reload()


def open_sync_conflicts(ctx: AppContext, parent: QWidget | None) -> asyncio.Task[None]:
    """Open the dialog over ``parent`` and load the conflicts (errors go to ``ctx.report``)."""

    async def run() -> None:
        dialog = SyncConflictsDialog(ctx, parent)
        loading = asyncio.ensure_future(dialog.reload())
        try:
            await ctx.exec_dialog(dialog)
            await loading
        except Exception as exc:
            ctx.report(exc, parent)

    return asyncio.ensure_future(run())
