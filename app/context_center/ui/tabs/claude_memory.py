"""Claude Code tab: Claude Code's own auto memory for this workspace, read-only, as a third
source next to the two stores.

It lists the memory files of ``~/.claude/projects/<encoded project>/memory/`` (name, type,
whether ``MEMORY.md`` lists them and whether that line is within what Claude Code loads), shows
the selected memory, the index as written and exactly what Claude Code loads of it (the first
200 lines / 25,000 characters, with Claude Code's own warning when it cuts). Nothing here writes
into Claude Code's folder. "Preview import" and "Import" copy the memories into the chosen store
as new facts (the person's action: nothing is queued); duplicates by name or title are skipped
and said so.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import (
    Changes,
    ClaudeMemoryFile,
    ClaudeMemoryView,
    Engine,
    ImportReport,
    Scope,
)
from context_center.ui.context import FACTS, WORKSPACE, AppContext, busy
from context_center.ui.diagnostic_text import claude_memory_reason
from context_center.ui.i18n import QT_TRANSLATE_NOOP, lookup, translate
from context_center.ui.models.row_table import Column, RowTableModel
from context_center.ui.style import tone
from context_center.ui.tabs.base import Tab
from context_center.ui.terms import type_label
from context_center.ui.widgets.markdown_view import SafeBrowser, escape
from context_center.ui.widgets.tables import make_table, table_beside

_TYPE_TEXT = QT_TRANSLATE_NOOP("ClaudeMemoryTab", "(none)")


def _index_state(memory: ClaudeMemoryFile) -> str:
    if not memory.indexed:
        return translate("ClaudeMemoryTab", "not listed")
    return (
        translate("ClaudeMemoryTab", "loaded")
        if memory.index_loaded
        else translate("ClaudeMemoryTab", "listed, not loaded")
    )


COLUMNS: list[Column[ClaudeMemoryFile]] = [
    Column(QT_TRANSLATE_NOOP("Columns", "File"), lambda m: m.file),
    Column(QT_TRANSLATE_NOOP("Columns", "Name"), lambda m: m.name),
    Column(
        QT_TRANSLATE_NOOP("Columns", "Type"),
        lambda m: type_label(m.type) if m.type else lookup("ClaudeMemoryTab", _TYPE_TEXT),
    ),
    Column(QT_TRANSLATE_NOOP("Columns", "In MEMORY.md"), _index_state),
]


def _load(engine: Engine) -> ClaudeMemoryView:
    return engine.claude_memory()


def _import(engine: Engine, scope: Scope, dry_run: bool) -> Changes[ImportReport]:
    if not dry_run:
        engine.open(migrate=True)
    return engine.import_claude_memory(dry_run=dry_run, scope=scope)


def load_summary(view: ClaudeMemoryView) -> str:
    """One line on what Claude Code loads of its index."""
    load = view.load
    if load is None:
        return translate(
            "ClaudeMemoryTab",
            "There is no MEMORY.md: Claude Code loads no index for this workspace.",
        )
    head = translate("ClaudeMemoryTab", "MEMORY.md has {lines} lines ({units} characters).").format(
        lines=load.lines, units=f"{load.units:,}"
    )
    if load.cut_by == "none":
        tail = translate(
            "ClaudeMemoryTab", "Claude Code loads all of it at the start of every conversation."
        )
    else:
        tail = translate(
            "ClaudeMemoryTab",
            "Claude Code loads only the first {n} lines (cut by {cut}: at most 200 lines and "
            "25,000 characters) and adds a warning.",
        ).format(n=load.loaded_lines, cut=load.cut_by)
    return f"{head} {tail}"


def report_text(report: ImportReport) -> str:
    counts = {
        "imported": translate("ClaudeMemoryTab", "{n} imported"),
        "would_import": translate("ClaudeMemoryTab", "{n} would be imported"),
        "duplicate": translate("ClaudeMemoryTab", "{n} duplicate"),
        "skipped": translate("ClaudeMemoryTab", "{n} skipped"),
    }
    parts = [
        counts[action].format(n=report.count(action))
        for action in ("imported", "would_import", "duplicate", "skipped")
        if report.count(action)
    ]
    text = (
        translate("ClaudeMemoryTab", ", ").join(parts)
        if parts
        else translate("ClaudeMemoryTab", "nothing to import")
    )
    if report.dry_run:
        return translate("ClaudeMemoryTab", "Preview: {summary}.").format(summary=text)
    return translate("ClaudeMemoryTab", "{summary}.").format(summary=text)


class ClaudeMemoryTab(Tab):
    title = QT_TRANSLATE_NOOP("MainWindow", "Claude Code")
    flags = frozenset({FACTS, WORKSPACE})

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.view: ClaudeMemoryView | None = None
        self.last_report: ImportReport | None = None
        self.model: RowTableModel[ClaudeMemoryFile] = RowTableModel(COLUMNS, self)
        self.table = make_table(self.model, name="claudeMemoryTable", stretch=1)
        fm = self.table.horizontalHeader().fontMetrics()
        for col in (0, 2, 3):  # as wide as their headers: the table fits a 900 px window
            header_text = str(self.model.headerData(col, Qt.Orientation.Horizontal))
            self.table.setColumnWidth(col, max(64, fm.horizontalAdvance(header_text) + 36))
        self.table.selectionModel().selectionChanged.connect(self._on_selection)

        self.intro = QLabel()
        self.intro.setObjectName("hint")
        self.intro.setWordWrap(True)
        self.intro.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary = QLabel()
        self.summary.setObjectName("claudeLoadSummary")
        self.summary.setWordWrap(True)
        self.result = QLabel()
        self.result.setObjectName("claudeImportResult")
        self.result.setWordWrap(True)
        self.result.hide()

        self.scope = QComboBox()
        self.scope.setObjectName("claudeImportScope")
        self.scope.addItem(
            translate("ClaudeMemoryTab", "into the project store"), Scope.PROJECT.value
        )
        self.scope.addItem(
            translate("ClaudeMemoryTab", "into the global store"), Scope.GLOBAL.value
        )
        self.btn_reload = QPushButton(translate("ClaudeMemoryTab", "Reload"))
        self.btn_reload.setObjectName("claudeReloadButton")
        self.btn_reload.clicked.connect(lambda: self.refresh_now())
        self.btn_preview = QPushButton(translate("ClaudeMemoryTab", "Preview import"))
        self.btn_preview.setObjectName("claudePreviewButton")
        self.btn_preview.clicked.connect(self.on_preview)
        self.btn_import = QPushButton(translate("ClaudeMemoryTab", "Import"))
        self.btn_import.setObjectName("claudeImportButton")
        self.btn_import.setProperty("primary", True)
        self.btn_import.clicked.connect(self.on_import)
        actions = QHBoxLayout()
        actions.addWidget(self.btn_reload)
        actions.addStretch(1)
        actions.addWidget(self.scope)
        actions.addWidget(self.btn_preview)
        actions.addWidget(self.btn_import)

        self.memory_title = QLabel()
        self.memory_title.setObjectName("detailTitle")
        self.memory_title.setWordWrap(True)
        self.memory_meta = QLabel()
        self.memory_meta.setObjectName("hint")
        self.memory_meta.setWordWrap(True)
        self.memory_body = SafeBrowser()
        self.memory_body.setObjectName("claudeMemoryBody")
        memory_page = QWidget()
        ml = QVBoxLayout(memory_page)
        ml.setContentsMargins(0, 0, 0, 0)
        ml.addWidget(self.memory_title)
        ml.addWidget(self.memory_meta)
        ml.addWidget(self.memory_body, 1)
        self.index_text = QPlainTextEdit()
        self.index_text.setObjectName("claudeIndexText")
        self.index_text.setReadOnly(True)
        self.loaded_text = QPlainTextEdit()
        self.loaded_text.setObjectName("claudeLoadedText")
        self.loaded_text.setReadOnly(True)
        self.pages = QTabWidget()
        self.pages.setObjectName("claudeMemoryPages")
        self.pages.addTab(memory_page, translate("ClaudeMemoryTab", "Memory"))
        self.pages.addTab(self.index_text, "MEMORY.md")
        self.pages.addTab(self.loaded_text, translate("ClaudeMemoryTab", "What Claude Code loads"))

        detail = QFrame()
        detail.setObjectName("detailPane")
        dl = QVBoxLayout(detail)
        dl.setContentsMargins(14, 12, 14, 12)
        dl.addWidget(self.pages, 1)

        self.empty = QLabel()
        self.empty.setObjectName("hint")
        self.empty.setWordWrap(True)
        splitter = table_beside(self.table, self.empty, detail)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(10)
        layout.addWidget(self.intro)
        layout.addWidget(self.summary)
        layout.addLayout(actions)
        layout.addWidget(self.result)
        layout.addWidget(splitter, 1)
        self._show_memory(None)
        self.update_actions()

    # -- loading ----------------------------------------------------------------------------

    async def refresh(self) -> None:
        current = self.current_memory()
        keep = current.file if current else None
        view = await self.ctx.run(_load, self.ctx.engine)
        self.view = view
        self.intro.setText(
            translate(
                "ClaudeMemoryTab",
                "Claude Code's own memory for this workspace, read from {folder}. Read-only: "
                "Context Center never writes there. Import copies these memories into a store "
                "as new facts.",
            ).format(folder=view.folder_label)
        )
        self.summary.setText(load_summary(view) if view.exists else "")
        self.model.set_rows(view.memories)
        if not view.exists:
            self.empty.setText(
                translate(
                    "ClaudeMemoryTab",
                    "Claude Code has no memory for this workspace yet (nothing in {folder}).",
                ).format(folder=view.folder_label)
            )
        else:
            self.empty.setText(
                ""
                if view.memories
                else translate("ClaudeMemoryTab", "The memory folder holds no memories.")
            )
        self.empty.setVisible(not view.memories)
        self.index_text.setPlainText(
            "\n".join(line.text for line in view.index) if view.index_exists else ""
        )
        self.loaded_text.setPlainText(view.load.text if view.load else "")
        rows = view.memories
        target = next((i for i, m in enumerate(rows) if m.file == keep), 0 if rows else -1)
        if target >= 0:
            self.table.selectRow(target)
        else:
            self._show_memory(None)
        self.update_actions()

    def current_memory(self) -> ClaudeMemoryFile | None:
        selected = self.table.selectionModel().selectedRows()
        return self.model.rows[selected[0].row()] if selected else None

    def update_actions(self) -> None:
        has = bool(self.view and self.view.memories)
        self.btn_preview.setEnabled(has)
        self.btn_import.setEnabled(has)

    def _on_selection(self, *_args: object) -> None:
        self._show_memory(self.current_memory())

    def _show_memory(self, m: ClaudeMemoryFile | None) -> None:
        if m is None:
            self.memory_title.setText(translate("ClaudeMemoryTab", "No memory selected"))
            self.memory_meta.setText("")
            self.memory_body.setHtml("")
            return
        self.memory_title.setText(m.name)
        if m.problem:
            self.memory_meta.setText(
                translate("ClaudeMemoryTab", "{file}: not read").format(file=m.file)
            )
            problem = claude_memory_reason(m.problem)
            self.memory_body.show_html(
                lambda: f"<p style='color:{tone('danger')}'>{escape(problem)}</p>"
            )
            return
        kind = type_label(m.type) if m.type else translate("ClaudeMemoryTab", "no type")
        self.memory_meta.setText(f"{m.file} · {kind} · {_index_state(m)} · {m.description}")
        self.memory_body.set_markdown(m.body)

    # -- import -----------------------------------------------------------------------------

    def _scope(self) -> Scope:
        return Scope(self.scope.currentData())

    async def _run_import(self, dry_run: bool) -> ImportReport:
        changes = await self.ctx.run(_import, self.ctx.engine, self._scope(), dry_run)
        report = changes.value
        self.last_report = report
        lines = [report_text(report)]
        for item in report.items:
            if item.action in ("duplicate", "skipped"):
                action = (
                    translate("ClaudeMemoryTab", "duplicate")
                    if item.action == "duplicate"
                    else translate("ClaudeMemoryTab", "skipped")
                )
                reason = claude_memory_reason(item.reason)
                lines.append(f"{escape(item.file)}: {action}, {escape(reason)}")
        self.result.setText("<br>".join(lines))
        self.result.show()
        if not dry_run:
            self.ctx.status(
                translate("ClaudeMemoryTab", "Claude Code memory: {summary}").format(
                    summary=report_text(report)
                )
            )
            self.ctx.apply(changes, self)
        return report

    @asyncSlot()
    @busy("btn_preview", "btn_import")
    async def on_preview(self) -> None:
        await self._run_import(True)

    @asyncSlot()
    @busy("btn_preview", "btn_import")
    async def on_import(self) -> None:
        await self._run_import(False)
