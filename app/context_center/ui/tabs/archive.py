"""Archive tab: forgotten facts of both stores, with archive time and a preview; recover one.

Recovering is a person's explicit action and writes a new, higher revision. The store refuses
when the id or the name is active again; that refusal is said once, in the tab's banner (no
dialog on top, no status line), and when only the name is taken the banner offers "Recover
under a new name…", which keeps the fact's id and history.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import (
    ArchiveRefused,
    Changes,
    Engine,
    EngineError,
    Fact,
    NotFound,
    format_time,
)
from context_center.ui.context import ARCHIVE, FACTS, WORKSPACE, AppContext, busy
from context_center.ui.diagnostic_text import fact_problem
from context_center.ui.i18n import QT_TRANSLATE_NOOP, translate
from context_center.ui.models.facts import local_time
from context_center.ui.models.row_table import Column, RowTableModel
from context_center.ui.refusal_text import recover_reason
from context_center.ui.style import tone
from context_center.ui.tabs.base import Tab
from context_center.ui.terms import scope_label, type_and_scope, type_label
from context_center.ui.widgets.elided import ElidedLabel
from context_center.ui.widgets.markdown_view import SafeBrowser, escape
from context_center.ui.widgets.new_name import ask_new_name
from context_center.ui.widgets.tables import make_table, table_beside


@dataclass(frozen=True)
class ArchiveRow:
    archive_ref: str  # project/.archive/<file>: what `memory recover` accepts
    path: Path
    archived: str
    archived_iso: str
    fact: Fact | None
    error: str | None

    @property
    def title(self) -> str:
        if self.fact is None:
            error = fact_problem(self.error) if self.error else ""
            return translate("ArchiveTab", "(unreadable: {error})").format(error=error)
        return self.fact.display_title


def load_archive(engine: Engine) -> list[ArchiveRow]:
    rows = []
    for entry in engine.archived():
        rows.append(
            ArchiveRow(
                archive_ref=engine.archive_ref(entry),
                path=entry.path,
                archived=local_time(entry.archived_at),
                archived_iso=format_time(entry.archived_at) if entry.archived_at else "",
                fact=entry.fact,
                error=entry.error,
            )
        )
    rows.sort(key=lambda r: r.archived_iso, reverse=True)
    return rows


@dataclass(frozen=True)
class Refusal:
    """Why a recover was refused, and whether another name would help (only the name is
    taken, not the id) with a free name to suggest."""

    message: str
    name_taken: bool
    suggestion: str
    code: str = "recover_refused"  # the EngineError's code

    @property
    def shown(self) -> str:
        """The message in the window's language."""
        return recover_reason(self.code, self.message)


def _active(engine: Engine, ref: str) -> Fact | None:
    try:
        return engine.read_fact(ref).fact
    except NotFound:
        return None


def _free_name(engine: Engine, fact: Fact) -> str:
    for n in range(1, 100):
        name = f"{fact.name}-recovered" + (f"-{n}" if n > 1 else "")
        if _active(engine, f"{fact.scope.value}/{name}.md") is None:
            return name
    return f"{fact.name}-recovered"


def try_recover(
    engine: Engine, archive_ref: str, fact: Fact, name: str | None = None
) -> Changes[Fact] | Refusal:
    """Recover (under ``name`` when given); a refusal comes back as data, not an exception."""
    try:
        return engine.recover_fact(archive_ref, name=name)
    except ArchiveRefused as exc:
        message = str(exc).removeprefix("cannot recover: ")
        id_active = _active(engine, fact.id) is not None
        return Refusal(message, not id_active, "" if id_active else _free_name(engine, fact))


COLUMNS: list[Column[ArchiveRow]] = [
    Column(
        QT_TRANSLATE_NOOP("Columns", "Archived"),
        lambda r: r.archived,
        tooltip=lambda r: r.archived_iso,
    ),
    Column(
        QT_TRANSLATE_NOOP("Columns", "Reference"),
        lambda r: r.fact.ref if r.fact else r.archive_ref,
        tooltip=lambda r: r.archive_ref,
    ),
    Column(QT_TRANSLATE_NOOP("Columns", "Title"), lambda r: r.title),
    Column(
        QT_TRANSLATE_NOOP("Columns", "Type"),
        lambda r: type_label(r.fact.type.value) if r.fact else "",
    ),
    Column(
        QT_TRANSLATE_NOOP("Columns", "Rev"),
        lambda r: str(r.fact.revision) if r.fact else "",
        numeric=True,
    ),
]


class ArchiveTab(Tab):
    title = QT_TRANSLATE_NOOP("MainWindow", "Archive")
    flags = frozenset({ARCHIVE, FACTS, WORKSPACE})

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.model: RowTableModel[ArchiveRow] = RowTableModel(COLUMNS, self, text_tooltips=False)
        fm = self.fontMetrics()
        self.table = make_table(
            self.model,
            name="archiveTable",
            stretch=2,
            widths={
                0: fm.horizontalAdvance("2026-11-02 09:14") + 24,
                1: fm.horizontalAdvance("project/release-branch-name.md") + 24,
                3: fm.horizontalAdvance("reference") + 28,
                4: fm.horizontalAdvance("Rev") + 28,
            },
        )
        self.table.selectionModel().selectionChanged.connect(self._on_selection)
        self.table.setTabKeyNavigation(False)

        self.intro = QLabel(
            translate(
                "ArchiveTab",
                "Forgotten facts wait here. Recovering one makes it active again as a new revision; "
                "it is refused while another active fact has the same id or name.",
            )
        )
        self.intro.setObjectName("hint")
        self.intro.setWordWrap(True)
        self.refusal = QFrame()
        self.refusal.setObjectName("errorBanner")
        self.refusal_label = QLabel()
        self.refusal_label.setObjectName("refusalText")
        self.refusal_label.setWordWrap(True)
        self.refusal_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.btn_recover_as = QPushButton(translate("ArchiveTab", "Recover under a new name…"))
        self.btn_recover_as.setObjectName("recoverAsButton")
        self.btn_recover_as.setToolTip(
            translate(
                "ArchiveTab",
                "Bring it back under another name; it keeps its id and revision history",
            )
        )
        self.btn_recover_as.clicked.connect(self.on_recover_as)
        refusal_layout = QHBoxLayout(self.refusal)
        refusal_layout.setContentsMargins(12, 8, 12, 8)
        refusal_layout.addWidget(self.refusal_label, 1)
        refusal_layout.addWidget(self.btn_recover_as, 0, Qt.AlignmentFlag.AlignVCenter)
        self.refusal.hide()
        self.last_refusal: Refusal | None = None

        self.preview_title = QLabel()
        self.preview_title.setObjectName("detailTitle")
        self.preview_title.setWordWrap(True)
        self.preview_meta = QLabel()
        self.preview_meta.setObjectName("hint")
        self.preview_meta.setWordWrap(True)
        self.preview_meta.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.preview_ref = ElidedLabel()
        self.preview_ref.setObjectName("hint")
        self.preview = SafeBrowser()
        self.preview.setObjectName("archivePreview")
        self.btn_recover = QPushButton(translate("ArchiveTab", "Recover"))
        self.btn_recover.setObjectName("recoverButton")
        self.btn_recover.setProperty("primary", True)
        self.btn_recover.clicked.connect(self.on_recover)
        actions = QHBoxLayout()
        actions.addStretch(1)
        actions.addWidget(self.btn_recover)

        detail = QFrame()
        detail.setObjectName("detailPane")
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(14, 12, 14, 12)
        dl.setSpacing(8)
        dl.addWidget(self.preview_title)
        dl.addWidget(self.preview_meta)
        dl.addWidget(self.preview_ref)
        dl.addWidget(self.preview, 1)
        dl.addLayout(actions)

        self.empty = QLabel(
            translate(
                "ArchiveTab",
                "The archive is empty: nothing has been forgotten in this workspace or globally.",
            )
        )
        self.empty.setObjectName("hint")
        splitter = table_beside(self.table, self.empty, detail)
        # 7:3 whatever the first contents' size hints (a Chinese preview made the table too
        # narrow for its Title column at 900×600)
        splitter.setSizes([700, 300])

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(10)
        layout.addWidget(self.intro)
        layout.addWidget(self.refusal)
        layout.addWidget(splitter, 1)
        self._show(None)

    async def refresh(self) -> None:
        current = self.current_row()
        keep = current.archive_ref if current else None
        rows = await self.ctx.run(load_archive, self.ctx.engine)
        self.model.set_rows(rows)
        self.empty.setVisible(not rows)
        target = next((i for i, r in enumerate(rows) if r.archive_ref == keep), 0 if rows else -1)
        if target >= 0:
            self.table.selectRow(target)
        else:
            self._show(None)

    def current_row(self) -> ArchiveRow | None:
        selected = self.table.selectionModel().selectedRows()
        return self.model.rows[selected[0].row()] if selected else None

    def select_ref(self, archive_ref: str) -> bool:
        for i, row in enumerate(self.model.rows):
            if row.archive_ref == archive_ref:
                self.table.selectRow(i)
                return True
        return False

    def _on_selection(self, *_args: object) -> None:
        self.refusal.hide()
        self._show(self.current_row())

    def update_actions(self) -> None:
        row = self.current_row()
        self.btn_recover.setEnabled(row is not None and row.fact is not None)

    def _show(self, row: ArchiveRow | None) -> None:
        self.btn_recover.setEnabled(row is not None and row.fact is not None)
        if row is None:
            self.preview_title.setText(translate("ArchiveTab", "No archived fact selected"))
            self.preview_meta.setText("")
            self.preview_ref.set_full_text("")
            self.preview.setHtml("")
            return
        self.preview_title.setText(row.title)
        if row.fact is None:
            self.preview_meta.setText(
                translate("ArchiveTab", "Archived {when}").format(when=row.archived)
            )
            self.preview_ref.set_full_text(row.archive_ref)
            error = fact_problem(row.error) if row.error else ""
            self.preview.show_html(lambda: f"<p style='color:{tone('danger')}'>{escape(error)}</p>")
            return
        f = row.fact
        self.preview_meta.setText(
            translate("ArchiveTab", "{ref} · {kind} · revision {n} · archived {when}").format(
                ref=f.ref,
                kind=type_and_scope(f.type.value, f.scope.value),
                n=f.revision,
                when=row.archived,
            )
        )
        self.preview_ref.set_full_text(row.archive_ref)
        self.preview.set_markdown(f.body)

    @asyncSlot()
    @busy("btn_recover")
    async def on_recover(self) -> None:
        row = self.current_row()
        if row is None or row.fact is None:
            return
        self.refusal.hide()
        await self._recover(row, row.fact, None)

    @asyncSlot()
    @busy("btn_recover", "btn_recover_as")
    async def on_recover_as(self) -> None:
        row = self.current_row()
        refusal = self.last_refusal
        if row is None or row.fact is None or refusal is None:
            return
        name = await ask_new_name(
            self.ctx,
            self,
            object_name="recoverNameDialog",
            title=translate("ArchiveTab", "Recover under a new name"),
            label=translate(
                "ArchiveTab",
                "{ref} is taken. Recover the archived fact as (a file name in {scope}):",
            ).format(ref=row.fact.ref, scope=scope_label(row.fact.scope.value)),
            suggestion=refusal.suggestion,
            ok_text=translate("ArchiveTab", "Recover"),
        )
        if name:
            await self._recover(row, row.fact, name)

    async def _recover(self, row: ArchiveRow, fact: Fact, name: str | None) -> None:
        try:
            outcome = await self.ctx.run(try_recover, self.ctx.engine, row.archive_ref, fact, name)
        except EngineError as exc:  # another refusal (an unreadable entry, a bad name): once
            self._show_refusal(fact, Refusal(str(exc), False, "", exc.code))
            return
        if isinstance(outcome, Refusal):
            self._show_refusal(fact, outcome)
            return
        self.refusal.hide()
        recovered = outcome.value
        self.ctx.status(
            translate("ArchiveTab", "Recovered {ref} as revision {n}").format(
                ref=recovered.ref, n=recovered.revision
            )
        )
        self.ctx.apply(outcome, self)

    def _show_refusal(self, fact: Fact, refusal: Refusal) -> None:
        """The one place a refusal is said (no dialog, no status line on top of it)."""
        self.last_refusal = refusal
        advice = (
            translate(
                "ArchiveTab", " Recover it under another name, or forget the active fact first."
            )
            if refusal.name_taken
            else ""
        )
        self.refusal_label.setText(
            translate("ArchiveTab", "<b>{ref} was not recovered:</b> {reason}.").format(
                ref=escape(fact.ref), reason=escape(refusal.shown)
            )
            + advice
        )
        self.btn_recover_as.setVisible(refusal.name_taken)
        self.refusal.show()
