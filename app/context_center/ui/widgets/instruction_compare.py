"""The Compare view: every instruction file and what Reasonix, Claude Code and Codex each do
with it, cross-agent diagnostics, each agent's exact text, and a diff between any two.

``CompareView.set_comparison`` fills it from an engine ``Comparison``; double-clicking a file
emits ``sig_open(path)`` so the tab opens it in the editor.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import Comparison, FileState
from context_center.ui.compare_text import cell_detail, cross_message
from context_center.ui.i18n import QT_TRANSLATE_NOOP, lookup, translate
from context_center.ui.style import mono_font
from context_center.ui.terms import plural
from context_center.ui.widgets.diff_view import DiffView
from context_center.ui.widgets.tables import fixed_split
from context_center.ui.widgets.toned import TonedModel, set_tone

AGENTS = (("reasonix", "Reasonix"), ("claude-code", "Claude Code"), ("codex", "Codex"))
PATH_ROLE = Qt.ItemDataRole.UserRole + 1
STATE_STYLE: dict[FileState, tuple[str, str, str]] = {  # text, foreground tone, background tone
    FileState.LOADED: (QT_TRANSLATE_NOOP("InstructionCompare", "loaded"), "add_fg", "add_bg"),
    FileState.IMPORTED: (QT_TRANSLATE_NOOP("InstructionCompare", "imported"), "add_fg", "base"),
    FileState.NOT_LOADED: (
        QT_TRANSLATE_NOOP("InstructionCompare", "not loaded"),
        "muted",
        "window",
    ),
    FileState.CUT_OFF: (
        QT_TRANSLATE_NOOP("InstructionCompare", "cut off"),
        "error_text",
        "error_bg",
    ),
    FileState.NOT_REACHED: (
        QT_TRANSLATE_NOOP("InstructionCompare", "not reached"),
        "error_text",
        "error_bg",
    ),
    FileState.NEEDS_APPROVAL: (
        QT_TRANSLATE_NOOP("InstructionCompare", "needs approval"),
        "warn_text",
        "warn_bg",
    ),
    FileState.REFUSED: (
        QT_TRANSLATE_NOOP("InstructionCompare", "refused"),
        "error_text",
        "error_bg",
    ),
    FileState.DUPLICATE: (
        QT_TRANSLATE_NOOP("InstructionCompare", "duplicate"),
        "muted",
        "window",
    ),
}  # the text is an English source, shown translated


def _size(n: int) -> str:
    return f"{n:,} B" if n < 10_000 else f"{n / 1024:,.1f} KiB"


def _cell(text: str, *, tooltip: str = "") -> QStandardItem:
    item = QStandardItem(text)
    item.setEditable(False)
    if tooltip:
        item.setToolTip(tooltip)
    return item


def fill_table(model: QStandardItemModel, cmp: Comparison) -> None:
    """One row per file; a cell per agent with its state (coloured) and the reason."""
    local = {
        item.label: item.local_path
        for res in cmp.profiles.values()
        for item in res.files
        if item.local_path is not None
    }
    model.clear()
    model.setHorizontalHeaderLabels(
        [
            translate("InstructionCompare", "File"),
            translate("InstructionCompare", "Size"),
            *(name for _, name in AGENTS),
        ]
    )
    for row in cmp.rows:
        first = _cell(row.label, tooltip=row.label)
        if row.label in local:
            first.setData(str(local[row.label]), PATH_ROLE)
        cells = [first, _cell(_size(row.size))]
        for agent, _name in AGENTS:
            cell = row.agents.get(agent)
            if cell is None:
                cells.append(_cell(""))
                continue
            source, fg, bg = STATE_STYLE[cell.state]
            text = lookup("InstructionCompare", source)
            if cell.state is FileState.CUT_OFF:
                text = translate("InstructionCompare", "{state} at {n} B").format(
                    state=text, n=f"{cell.loaded_bytes:,}"
                )
            item = _cell(text, tooltip=cell_detail(cell.detail) or text)
            set_tone(item, fg, bg)
            cells.append(item)
        model.appendRow(cells)


def summary_text(cmp: Comparison) -> str:
    parts = []
    for summary in cmp.summaries:
        name = dict(AGENTS)[summary.agent.value]
        text = plural(
            summary.documents,
            translate("InstructionCompare", "{name}: {n} file, {chars} characters"),
            translate("InstructionCompare", "{name}: {n} files, {chars} characters"),
        ).format(name=name, n=summary.documents, chars=f"{summary.chars:,}")
        limit = summary.limits.get("project_doc_max_bytes")
        if limit is not None:
            used = summary.limits.get("project_bytes_used", 0)
            text += " " + translate(
                "InstructionCompare", "({used} of {limit} project bytes)"
            ).format(used=f"{used:,}", limit=f"{limit:,}")
        parts.append(text)
    return " · ".join(parts)


class CompareView(QWidget):
    """The Compare pane of the Instructions tab."""

    sig_open = Signal(object)  # Path of a file to open in the editor

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.comparison: Comparison | None = None
        self.summary = QLabel(
            translate("InstructionCompare", "Open this pane to compare what each agent loads.")
        )
        self.summary.setObjectName("compareSummary")
        self.summary.setWordWrap(True)
        self.model = TonedModel(self)
        self.table = QTableView()
        self.table.setObjectName("compareTable")
        self.table.setModel(self.model)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableView.EditTrigger.NoEditTriggers)
        self.table.doubleClicked.connect(self._on_activated)
        self.cross = QPlainTextEdit()
        self.cross.setObjectName("crossDiagnostics")
        self.cross.setReadOnly(True)
        self.text_agent = self._agent_combo("textAgent", 0)
        self.text_view = QPlainTextEdit()
        self.text_view.setObjectName("agentText")
        self.text_view.setReadOnly(True)
        self.text_view.setFont(mono_font())
        self.text_agent.currentIndexChanged.connect(lambda _i: self._show_text())
        self.diff_a = self._agent_combo("diffFrom", 0)
        self.diff_b = self._agent_combo("diffTo", 2)
        self.diff_view = DiffView()
        self.diff_view.setObjectName("agentDiff")
        self.diff_a.currentIndexChanged.connect(lambda _i: self._show_diff())
        self.diff_b.currentIndexChanged.connect(lambda _i: self._show_diff())
        self._layout()

    def _agent_combo(self, name: str, index: int) -> QComboBox:
        combo = QComboBox()
        combo.setObjectName(name)
        for agent, label in AGENTS:
            combo.addItem(label, agent)
        combo.setCurrentIndex(index)
        return combo

    def _layout(self) -> None:
        text_page = QWidget()
        tl = QVBoxLayout(text_page)
        tl.setContentsMargins(0, 6, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel(translate("InstructionCompare", "Exact text of")))
        row.addWidget(self.text_agent)
        row.addStretch(1)
        tl.addLayout(row)
        tl.addWidget(self.text_view, 1)
        diff_page = QWidget()
        dl = QVBoxLayout(diff_page)
        dl.setContentsMargins(0, 6, 0, 0)
        row = QHBoxLayout()
        row.addWidget(QLabel(translate("InstructionCompare", "Diff")))
        row.addWidget(self.diff_a)
        row.addWidget(QLabel("→"))
        row.addWidget(self.diff_b)
        row.addStretch(1)
        dl.addLayout(row)
        dl.addWidget(self.diff_view, 1)
        cross_page = QWidget()
        cl = QVBoxLayout(cross_page)
        cl.setContentsMargins(0, 6, 0, 0)
        cl.addWidget(self.cross, 1)
        self.panes = QTabWidget()
        self.panes.setObjectName("comparePanes")
        self.panes.addTab(cross_page, translate("InstructionCompare", "Cross-agent diagnostics"))
        self.panes.addTab(text_page, translate("InstructionCompare", "Exact text"))
        self.panes.addTab(diff_page, translate("InstructionCompare", "Diff"))
        split = fixed_split(Qt.Orientation.Vertical, (self.table, 3), (self.panes, 2))
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 10, 10, 10)
        layout.setSpacing(8)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)

    def set_comparison(self, cmp: Comparison) -> None:
        self.comparison = cmp
        fill_table(self.model, cmp)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for col in range(1, self.model.columnCount()):
            header.setSectionResizeMode(col, QHeaderView.ResizeMode.ResizeToContents)
        self.summary.setText(f"{cmp.target} — {summary_text(cmp)}")
        lines = [f"• {cross_message(d.code, d.message)}" for d in cmp.diagnostics]
        self.cross.setPlainText(
            "\n".join(lines)
            if lines
            else translate("InstructionCompare", "The agents agree: no differences.")
        )
        self.panes.setTabText(
            0,
            translate("InstructionCompare", "Cross-agent diagnostics ({n})").format(n=len(lines)),
        )
        self._show_text()
        self._show_diff()

    def _show_text(self) -> None:
        if self.comparison is not None:
            agent = self.text_agent.currentData()
            self.text_view.setPlainText(self.comparison.text_of(agent) or "(nothing)")

    def _show_diff(self) -> None:
        if self.comparison is None:
            return
        a, b = self.diff_a.currentData(), self.diff_b.currentData()
        self.diff_view.set_texts(
            self.comparison.text_of(a), self.comparison.text_of(b), f"a/{a}", f"b/{b}"
        )

    def state_of(self, label: str, agent: str) -> str:
        """The table's text for ``label`` under ``agent`` (tests, screenshots)."""
        column = 2 + [a for a, _ in AGENTS].index(agent)
        for row in range(self.model.rowCount()):
            if self.model.index(row, 0).data() == label:
                return str(self.model.index(row, column).data())
        raise KeyError(label)

    def _on_activated(self, index: QModelIndex) -> None:
        path = index.siblingAtColumn(0).data(PATH_ROLE)
        if path:
            self.sig_open.emit(Path(path))
