"""Instructions tab: what an agent loads for a target directory — the chain, its imports and
diagnostics — an in-place editor, quick-add of a standing rule, the exact prefix, and a Compare
view of Reasonix, Claude Code and Codex side by side.

The agent selector picks whose chain is shown (``Engine.instructions(target, agent=…)``); the
prefix preview shows each part against its budget and a banner warns when an instruction file
makes the prefix large; the Compare pane (``Engine.compare_instructions``) is computed while it
is open. The editor saves compare-and-set through ``Engine.save_instruction_file`` (unsaved
edits ask first: ``instructions_unsaved.py``); ``Engine.add_rule`` appends a rule."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QEvent, QModelIndex, QObject, Qt, QTimer
from PySide6.QtGui import QColor, QTextCursor, QTextFormat
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QTabWidget,
    QTextEdit,
    QTreeView,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import LoadedDoc, Prefix, RuleScope
from context_center.ui.context import FACTS, INSTRUCTIONS, WORKSPACE, AppContext, busy
from context_center.ui.diagnostic_text import prefix_warning
from context_center.ui.i18n import QT_TRANSLATE_NOOP, lookup
from context_center.ui.models.row_table import RowTableModel
from context_center.ui.style import tone
from context_center.ui.tabs.base import Tab
from context_center.ui.tabs.instructions_load import ChainData, load_chain
from context_center.ui.tabs.instructions_text import TEXT
from context_center.ui.tabs.instructions_unsaved import UnsavedDocument
from context_center.ui.widgets.instruction_chain import (
    DIAG_COLUMNS,
    LINE_ROLE,
    PATH_ROLE,
    DiagRow,
    build_chain_model,
)
from context_center.ui.widgets.instruction_compare import AGENTS, CompareView
from context_center.ui.widgets.instruction_panes import DocumentPane, PrefixPane, warning_banner
from context_center.ui.widgets.instruction_split import balance, fit_panes
from context_center.ui.widgets.shared_columns import share_columns
from context_center.ui.widgets.tables import fixed_split, make_table
from context_center.ui.widgets.target_warning import TargetWarning
from context_center.ui.widgets.toned import TonedModel

COMPARE_PANE = 2

EMPTY_TEXT = QT_TRANSLATE_NOOP(
    "InstructionsTab",
    "No instruction file applies here yet — add a standing rule above, "
    "or write an AGENTS.md or CLAUDE.md in the workspace.",
)


class InstructionsTab(UnsavedDocument, Tab):
    title = QT_TRANSLATE_NOOP("MainWindow", "Instructions")
    flags = frozenset({INSTRUCTIONS, FACTS, WORKSPACE})

    def __init__(self, ctx: AppContext, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.data: ChainData | None = None
        self.doc: LoadedDoc | None = None
        self._sizes_before: list[int] | None = None
        self._dragged = False  # the person moved the splitter: their split stays
        self._build()

    # -- layout ---------------------------------------------------------------------------

    def _build(self) -> None:
        self.agent_combo = QComboBox()
        self.agent_combo.setObjectName("agentCombo")
        for agent, name in AGENTS:
            self.agent_combo.addItem(name, agent)
        self.agent_combo.setToolTip(TEXT["whose_rules_what_reasonix"])
        self.agent_combo.currentIndexChanged.connect(lambda _i: self.refresh_now())
        self.target_combo = QComboBox()
        self.target_combo.setObjectName("targetCombo")
        self.target_combo.setEditable(True)
        self.target_combo.setMinimumWidth(180)
        self.target_combo.setToolTip(TEXT["the_directory_the_agent"])
        self.target_combo.activated.connect(lambda _i: self.refresh_now())
        line_edit = self.target_combo.lineEdit()
        if line_edit is not None:
            line_edit.returnPressed.connect(self.refresh_now)
        self.btn_browse = QPushButton(TEXT["browse"])
        self.btn_browse.setObjectName("browseTarget")
        self.btn_browse.clicked.connect(self._browse)
        self.rule_edit = QLineEdit()
        self.rule_edit.setObjectName("ruleEdit")
        self.rule_edit.setPlaceholderText(TEXT["a_standing_rule_e"])
        self.rule_scope = QComboBox()
        self.rule_scope.setObjectName("ruleScope")
        self.rule_scope.addItem(TEXT["project_agents_md"], RuleScope.PROJECT.value)
        self.rule_scope.addItem(TEXT["local_agents_local_md"], RuleScope.LOCAL.value)
        self.rule_scope.addItem(TEXT["user_home_agents_md"], RuleScope.USER.value)
        self.btn_add_rule = QPushButton(TEXT["add_rule"])
        self.btn_add_rule.setObjectName("addRule")
        self.btn_add_rule.clicked.connect(self.on_add_rule)
        self.rule_edit.returnPressed.connect(self.btn_add_rule.click)

        top = QHBoxLayout()
        top.setSpacing(8)
        top.addWidget(QLabel(TEXT["agent"]))
        top.addWidget(self.agent_combo)
        top.addSpacing(8)
        top.addWidget(QLabel(TEXT["target_directory"]))
        top.addWidget(self.target_combo, 1)
        top.addWidget(self.btn_browse)
        rules = QHBoxLayout()  # a row of its own: the tab fits 900 px wide
        rules.addWidget(self.rule_edit, 1)
        rules.addWidget(self.rule_scope)
        rules.addWidget(self.btn_add_rule)
        self.chain_model = TonedModel(self)
        self.chain_view = QTreeView()
        self.chain_view.setObjectName("chainTree")
        self.chain_view.setModel(self.chain_model)
        self.chain_view.setUniformRowHeights(True)
        self.chain_view.setIndentation(14)  # the names fit 900 px wide better than at Qt's 20
        self.chain_view.setAlternatingRowColors(True)
        self.chain_view.clicked.connect(self._on_chain_clicked)
        self.diag_model: RowTableModel[DiagRow] = RowTableModel(
            DIAG_COLUMNS, self, text_tooltips=False
        )
        self.diag_table = make_table(self.diag_model, name="diagnosticsTable", stretch=3, wrap=True)
        share_columns(self.diag_table, {0: 0.3, 1: 0.35}, 3)  # the message keeps a third
        self.diag_table.doubleClicked.connect(self._on_diag_activated)
        self.diag_table.selectionModel().selectionChanged.connect(self._on_diag_selected)
        self.diag_detail = QLabel()
        self.diag_detail.setObjectName("diagDetail")
        self.diag_detail.setWordWrap(True)
        self.diag_detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.diag_detail.hide()
        self.diag_caption = QLabel(TEXT["diagnostics"])
        self.diag_caption.setObjectName("sectionCaption")
        chain_caption = QLabel(TEXT["resolved_chain_broadest_first"])
        chain_caption.setObjectName("sectionCaption")

        left_top = QWidget()
        lt = QVBoxLayout(left_top)
        lt.setContentsMargins(0, 0, 0, 0)
        lt.setSpacing(6)
        lt.addWidget(chain_caption)
        lt.addWidget(self.chain_view, 1)
        self.empty_hint = QLabel(lookup("InstructionsTab", EMPTY_TEXT))
        self.empty_hint.setObjectName("instructionsEmpty")
        self.empty_hint.setWordWrap(True)
        self.empty_hint.hide()
        lt.addWidget(self.empty_hint)
        left_bottom = QWidget()
        lb = QVBoxLayout(left_bottom)
        lb.setContentsMargins(0, 0, 0, 0)
        lb.setSpacing(6)
        lb.addWidget(self.diag_caption)
        lb.addWidget(self.diag_table, 1)
        lb.addWidget(self.diag_detail)
        left = fixed_split(Qt.Orientation.Vertical, (left_top, 3), (left_bottom, 2))

        self.doc_pane = DocumentPane()
        self.doc_label, self.doc_path = self.doc_pane.doc_label, self.doc_pane.doc_path
        self.editor = self.doc_pane.editor
        self.editor.modificationChanged.connect(self._on_modified)
        self.btn_save, self.btn_revert = self.doc_pane.btn_save, self.doc_pane.btn_revert
        self.btn_save.clicked.connect(self.on_save)
        self.btn_revert.clicked.connect(self.on_revert)
        self.prefix_pane = PrefixPane()
        self.prefix_view = self.prefix_pane.prefix_view
        self.prefix_length = self.prefix_pane.prefix_length
        self.prefix_warning = warning_banner()
        self.target_warning = TargetWarning()

        self.right_tabs = QTabWidget()
        self.right_tabs.setObjectName("instructionPanes")
        self.right_tabs.addTab(self.doc_pane, TEXT["document"])
        self.right_tabs.addTab(self.prefix_pane, TEXT["prefix_preview"])
        self.compare_view = CompareView()
        self.compare_view.setObjectName("compareView")
        self.compare_view.sig_open.connect(lambda path: self.open_file(path))
        self.right_tabs.addTab(self.compare_view, TEXT["compare"])
        self.right_tabs.currentChanged.connect(self._on_pane_changed)
        right = QFrame()
        right.setObjectName("detailPane")
        rl = QVBoxLayout(right)
        rl.setContentsMargins(4, 4, 4, 4)
        rl.addWidget(self.right_tabs)

        self.right_pane = right
        self.splitter = splitter = fixed_split(
            Qt.Orientation.Horizontal, (left, 11), (right, 9), sizes=[660, 540]
        )
        splitter.splitterMoved.connect(self._on_dragged)
        splitter.installEventFilter(self)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(10)
        layout.addLayout(top)
        layout.addLayout(rules)
        layout.addWidget(self.target_warning)
        layout.addWidget(self.prefix_warning)
        layout.addWidget(splitter, 1)
        self._set_doc(None)

    # -- loading --------------------------------------------------------------------------

    def target_path(self) -> Path:
        text = self.target_combo.currentText().strip() or "."
        path = Path(text).expanduser()
        return path if path.is_absolute() else self.ctx.engine.workspace / path

    async def refresh(self) -> None:
        engine = self.ctx.engine
        agent = str(self.agent_combo.currentData())
        compare = self.right_tabs.currentIndex() == COMPARE_PANE
        if self.target_warning.missing(self):  # no folder, no chain: the banner says why
            return
        data = await self.ctx.run(load_chain, engine, self.target_path(), agent, compare)
        self.data = data
        self._fill_targets(data.targets)
        build_chain_model(self.chain_model, data.resolution)
        self.empty_hint.setVisible(not data.resolution.documents)
        self.chain_view.expandAll()
        header = self.chain_view.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in (1, 2, 3):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        diags = [DiagRow.of(d) for d in data.resolution.diagnostics]
        self.diag_model.set_rows(diags)
        self.diag_detail.hide()
        self.diag_caption.setText(
            TEXT["diagnostics_n_double_click"].format(n=len(diags))
            if diags
            else TEXT["diagnostics_none"]
        )
        self._show_prefix(data.prefix)
        if data.comparison is not None:
            self.compare_view.set_comparison(data.comparison)
        await self._reload_doc_if_clean()

    def _show_prefix(self, prefix: Prefix) -> None:
        self.prefix_pane.show_prefix(prefix, self.agent_combo.currentText())
        self.right_tabs.setTabText(
            1,
            TEXT["prefix_preview_n_chars"].format(n=f"{prefix.length:,}"),
        )
        self._fit_pane_tabs()
        if prefix.warnings:
            self.prefix_warning.setText(
                TEXT["a_large_prefix_warnings"].format(
                    warnings="; ".join(prefix_warning(w) for w in prefix.warnings)
                )
            )
            self.prefix_warning.show()
        else:
            self.prefix_warning.hide()

    def _fit_pane_tabs(self) -> None:
        fit_panes(self.right_pane, self.right_tabs)
        self._balance()

    def _balance(self) -> None:
        """The width shared between chain and panes (``instruction_split``), until the person
        drags the splitter; the Compare pane takes its own width."""
        if not self._dragged and self.right_tabs.currentIndex() != COMPARE_PANE:
            balance(self.splitter, self.chain_view, self.right_pane)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        """The splitter got a new width: share it once it has laid out its two sides."""
        if watched is self.splitter and event.type() == QEvent.Type.Resize:
            QTimer.singleShot(0, self, self._balance)
        return super().eventFilter(watched, event)

    def _on_dragged(self, _pos: int, _index: int) -> None:
        self._dragged = True

    def _on_pane_changed(self, index: int) -> None:
        """The Compare pane gets more width (given back on leaving it) and is computed now."""
        sizes = self.splitter.sizes()
        total = sum(sizes)
        if index == COMPARE_PANE:
            if total and sizes[1] < total * 0.55:
                self._sizes_before = sizes
                self.splitter.setSizes([int(total * 0.4), total - int(total * 0.4)])
            self.refresh_now()
        elif self._sizes_before is not None:
            self.splitter.setSizes(self._sizes_before)
            self._sizes_before = None

    def set_agent(self, agent: str) -> None:
        self.agent_combo.setCurrentIndex(self.agent_combo.findData(agent))

    def _fill_targets(self, targets: list[str]) -> None:
        current = self.target_combo.currentText().strip() or "."
        self.target_combo.blockSignals(True)
        self.target_combo.clear()
        for t in targets:
            self.target_combo.addItem(t)
        if current not in targets:
            self.target_combo.addItem(current)
        self.target_combo.setCurrentText(current)
        self.target_combo.blockSignals(False)

    def set_target(self, relative: str) -> None:
        self.target_combo.setCurrentText(relative)
        self.refresh_now()

    def _browse(self) -> None:
        chosen = QFileDialog.getExistingDirectory(
            self, TEXT["target_directory"], str(self.ctx.engine.workspace)
        )
        if chosen:
            try:
                rel = Path(chosen).relative_to(self.ctx.engine.workspace).as_posix()
            except ValueError:
                rel = chosen
            self.set_target(rel or ".")

    # -- the editor -----------------------------------------------------------------------

    def _set_doc(self, doc: LoadedDoc | None, *, line: int | None = None) -> None:
        self.doc = doc
        if doc is None:
            self.editor.setPlainText("")
            self.editor.document().setModified(False)
            self._on_modified(False)
            self.editor.setReadOnly(True)
            self.update_actions()  # nothing to save or revert
            return
        self.doc_label.setText(f"<b>{self._label_for(doc.path)}</b>")
        self.doc_path.set_full_text(str(doc.path))
        self.editor.setReadOnly(False)
        self.editor.setPlainText(doc.text)
        self.editor.document().setModified(False)
        self._on_modified(False)
        if line:
            self.go_to_line(line)

    def _label_for(self, path: Path) -> str:
        engine = self.ctx.engine
        for root, prefix in ((engine.workspace, "workspace"), (engine.home, "user")):
            try:
                rel = path.relative_to(root).as_posix()
            except ValueError:
                continue
            return f"{prefix}/{rel}"
        return path.name

    def go_to_line(self, line: int) -> None:
        block = self.editor.document().findBlockByLineNumber(max(line - 1, 0))
        cursor = QTextCursor(block)
        self.editor.setTextCursor(cursor)
        self.editor.centerCursor()
        highlight = QTextEdit.ExtraSelection()
        highlight.format.setBackground(QColor(tone("line_bg")))
        highlight.format.setForeground(QColor(tone("text")))
        highlight.format.setProperty(QTextFormat.Property.FullWidthSelection, True)
        highlight.cursor = cursor
        self.editor.setExtraSelections([highlight])
        self.editor.setFocus()

    def current_line(self) -> int:
        return self.editor.textCursor().blockNumber() + 1

    def update_actions(self) -> None:
        modified = self.editor.document().isModified() and self.doc is not None
        self.btn_save.setEnabled(modified)
        self.btn_revert.setEnabled(modified)

    def _on_modified(self, _modified: bool) -> None:
        modified = self.doc is not None and self.editor.document().isModified()
        self.update_actions()
        document, index = TEXT["document"], self.right_tabs.indexOf(self.doc_pane)
        self.right_tabs.setTabText(index, f"{document} •" if modified else document)

    async def _reload_doc_if_clean(self) -> None:
        doc = self.doc
        if doc is None or self.editor.document().isModified():
            return
        engine = self.ctx.engine
        if not any(doc.path.is_relative_to(root) for root in (engine.workspace, engine.home)):
            self._set_doc(None)  # the workspace changed: this file belongs to another one
            self.doc_label.setText(TEXT["select_a_document_in"])
            self.doc_path.set_full_text("")
            return
        try:
            fresh = await self.ctx.run(self.ctx.engine.read_instruction_file, doc.path)
        except Exception:
            return  # gone or unreadable: keep showing what we had
        if fresh.sha256 != doc.sha256 and not self.editor.document().isModified():
            line = self.current_line()
            self._set_doc(fresh, line=line)

    def _on_chain_clicked(self, index: QModelIndex) -> None:
        first = index.siblingAtColumn(0)
        path = first.data(PATH_ROLE)
        line = first.data(LINE_ROLE)
        if path:
            self.open_file(Path(path), line)

    def _on_diag_selected(self, *_args: object) -> None:
        rows = self.diag_table.selectionModel().selectedRows()
        if not rows:
            self.diag_detail.hide()
            return
        row = self.diag_model.rows[rows[0].row()]
        where = (
            TEXT["file_line_line"].format(file=row.file, line=row.line) if row.line else row.file
        )
        self.diag_detail.setText(
            TEXT["diag_detail"].format(code=row.code, where=where, message=row.message)
        )
        self.diag_detail.show()

    def _on_diag_activated(self, index: QModelIndex) -> None:
        row = self.diag_model.rows[index.row()]
        if row.open_path is not None:
            self.open_file(row.open_path, row.line)

    @asyncSlot()
    async def open_file(self, path: Path, line: int | None = None) -> None:
        """Open ``path`` in the editor at ``line`` (asks nothing: unsaved edits are kept)."""
        if self.editor.document().isModified() and self.doc is not None and self.doc.path != path:
            keep = await self.ctx.confirm(
                self,
                TEXT["unsaved_changes"],
                TEXT["discard_your_unsaved_changes"].format(name=self.doc.path.name),
                ok_text=TEXT["discard"],
                destructive=True,
            )
            if not keep:
                return
        if self.doc is not None and self.doc.path == path and self.editor.document().isModified():
            if line:
                self.go_to_line(line)
            self.right_tabs.setCurrentIndex(0)
            return
        try:
            doc = await self.ctx.run(self.ctx.engine.read_instruction_file, path)
        except Exception as exc:
            self.ctx.report(exc, self)
            return
        self._set_doc(doc, line=line)
        self.right_tabs.setCurrentIndex(0)

    @asyncSlot()
    @busy("btn_save", "btn_revert")
    async def on_save(self) -> None:
        doc = self.doc
        if doc is None:
            return
        text = self.editor.toPlainText()
        changes = await self.ctx.run(self.ctx.engine.save_instruction_file, doc, text)
        saved = changes.value
        self.doc = saved
        self.editor.document().setModified(False)
        self.ctx.status(TEXT["saved_file"].format(file=self._label_for(saved.path)))
        self.ctx.apply(changes, self)

    @asyncSlot()
    @busy("btn_revert")
    async def on_revert(self) -> None:
        doc = self.doc
        if doc is None:
            return
        fresh = await self.ctx.run(self.ctx.engine.read_instruction_file, doc.path)
        self._set_doc(fresh, line=self.current_line())

    # -- rules ----------------------------------------------------------------------------

    @asyncSlot()
    @busy("btn_add_rule")
    async def on_add_rule(self) -> None:
        note = self.rule_edit.text()
        scope = RuleScope(self.rule_scope.currentData())
        changes = await self.ctx.run(self.ctx.engine.add_rule, note, scope)
        self.rule_edit.clear()
        self.ctx.status(TEXT["added_the_rule_to"].format(file=self._label_for(Path(changes.value))))
        self.ctx.apply(changes, self)
