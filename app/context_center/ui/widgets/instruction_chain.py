"""The Instructions tab's chain tree and diagnostics rows, for any agent's resolution.

``build_chain_model`` fills a tree: each document in load order with its nested imports
(loaded, already loaded, rejected, missing, waiting for approval), each row carrying the local
file and line to open. ``DiagRow`` is one diagnostic for the table, coloured by severity.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QStandardItem, QStandardItemModel

from context_center.engine import (
    ImportStatus,
    InstructionDiagnostic,
    InstructionDocument,
    InstructionImport,
    Resolution,
)
from context_center.ui.diagnostic_text import instruction_message
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts, translate
from context_center.ui.models.row_table import Column
from context_center.ui.style import tone
from context_center.ui.widgets.toned import set_tone

PATH_ROLE = Qt.ItemDataRole.UserRole + 1
LINE_ROLE = Qt.ItemDataRole.UserRole + 2
# tones of the scheme in use (``style.tone``): readable on the light and the dark base
SEVERITY_TONES = {"error": "stale", "warning": "caution", "note": "muted"}
GREY = "muted"
RED = "danger"
AMBER = "caution"


@dataclass(frozen=True)
class DiagRow:
    code: str
    file: str
    line: int | None
    message: str
    open_path: Path | None
    severity: str = "error"

    @staticmethod
    def of(d: InstructionDiagnostic) -> DiagRow:
        holder = d.source_path or d.path
        open_path = d.local_source_path or d.local_path
        message = instruction_message(d.code, d.message)
        return DiagRow(d.code, holder, d.line, message, open_path, d.severity.value)


DIAG_COLUMNS: list[Column[DiagRow]] = [
    Column(
        QT_TRANSLATE_NOOP("Columns", "Code"),
        lambda r: r.code,
        colour=lambda r: tone(SEVERITY_TONES.get(r.severity, RED)),
    ),
    Column(QT_TRANSLATE_NOOP("Columns", "File"), lambda r: r.file),
    Column(
        QT_TRANSLATE_NOOP("Columns", "Line"), lambda r: str(r.line) if r.line else "", numeric=True
    ),
    Column(
        QT_TRANSLATE_NOOP("Columns", "Message"), lambda r: r.message, tooltip=lambda r: r.message
    ),
]


INSTRUCTION_SCOPES = Texts(
    "InstructionChain",
    {
        "user": QT_TRANSLATE_NOOP("InstructionChain", "user"),
        "project": QT_TRANSLATE_NOOP("InstructionChain", "project"),
        "ancestor": QT_TRANSLATE_NOOP("InstructionChain", "ancestor"),
        "local": QT_TRANSLATE_NOOP("InstructionChain", "local"),
        "above": QT_TRANSLATE_NOOP("InstructionChain", "above"),
        "rule": QT_TRANSLATE_NOOP("InstructionChain", "rule"),
    },
)
IMPORT_KINDS = Texts(
    "InstructionChain",
    {
        "rejected": QT_TRANSLATE_NOOP("InstructionChain", "rejected"),
        "duplicate": QT_TRANSLATE_NOOP("InstructionChain", "duplicate"),
        "missing": QT_TRANSLATE_NOOP("InstructionChain", "missing"),
        "needs approval": QT_TRANSLATE_NOOP("InstructionChain", "needs approval"),
        "import": QT_TRANSLATE_NOOP("InstructionChain", "import"),
    },
)


def _kind(name: str) -> QStandardItem:
    return _item(IMPORT_KINDS[name])


def _item(text: str, *, path: Path | None = None, line: int | None = None) -> QStandardItem:
    item = QStandardItem(text)
    item.setEditable(False)
    if path is not None:
        item.setData(str(path), PATH_ROLE)
    if line is not None:
        item.setData(line, LINE_ROLE)
    return item


def build_chain_model(model: QStandardItemModel, resolution: Resolution) -> None:
    """Documents in load order (broadest first), each with its nested import tree."""
    model.clear()
    model.setHorizontalHeaderLabels(
        [
            translate("InstructionChain", "Document / import"),
            translate("InstructionChain", "Scope"),
            translate("InstructionChain", "Applies to"),
            translate("InstructionChain", "Precedence"),
        ]
    )
    header = model.horizontalHeaderItem(2)
    if header is not None:  # a short heading (the chain fits 900 px); the tooltip says it all
        header.setToolTip(
            translate(
                "InstructionChain",
                "The folder a document applies to; for an import, the line that imports it",
            )
        )
    for doc in sorted(resolution.documents, key=lambda d: d.order):
        top = _item(doc.label, path=doc.local_path)
        top.setToolTip(
            translate("InstructionChain", "{label} — {size} bytes on disk").format(
                label=doc.label, size=f"{doc.size:,}"
            )
        )
        row = [
            top,
            _item(INSTRUCTION_SCOPES.get(doc.scope.value, doc.scope.value)),
            _item(doc.directory),
            _item(str(doc.precedence)),
        ]
        model.appendRow(row)
        _add_imports(top, doc)


def _styled(child: QStandardItem, kind: QStandardItem, name: str) -> None:
    """Both cells in the scheme's ``name`` tone."""
    set_tone(child, name)
    set_tone(kind, name)


def _import_row(
    doc: InstructionDocument, imp: InstructionImport
) -> tuple[QStandardItem, QStandardItem]:
    where = translate("InstructionChain", "line {line} of {source}").format(
        line=imp.line, source=imp.source
    )
    if imp.status is ImportStatus.REJECTED:
        child = _item(f"@{imp.target}", path=_source_path(doc, imp.source), line=imp.line)
        kind = _kind("rejected")
        _styled(child, kind, RED)
        tip = translate("InstructionChain", "Rejected ({code}) — {where}")
    elif imp.status is ImportStatus.ALREADY_LOADED:
        child = _item(imp.target, path=imp.local_path)
        kind = _kind("duplicate")
        _styled(child, kind, GREY)
        tip = (
            translate("InstructionChain", "Already loaded as {loaded_as} — {where}")
            if imp.loaded_as
            else translate("InstructionChain", "Already loaded above — {where}")
        )
    elif imp.status is ImportStatus.MISSING:
        child = _item(f"@{imp.target}", path=_source_path(doc, imp.source), line=imp.line)
        kind = _kind("missing")
        _styled(child, kind, GREY)
        tip = translate("InstructionChain", "No such file; the agent skips it — {where}")
    elif imp.status is ImportStatus.NEEDS_APPROVAL:
        child = _item(imp.target, path=imp.local_path)
        kind = _kind("needs approval")
        _styled(child, kind, AMBER)
        tip = translate(
            "InstructionChain",
            "Outside the working directory: loaded only after you approve — {where}",
        )
    else:
        child = _item(imp.target, path=imp.local_path)
        kind = _kind("import")
        set_tone(kind, GREY)
        tip = translate("InstructionChain", "Imported by {where}")
    child.setToolTip(tip.format(code=imp.code, where=where, loaded_as=imp.loaded_as))
    return child, kind


def _add_imports(top: QStandardItem, doc: InstructionDocument) -> None:
    stack: list[tuple[int, str, QStandardItem]] = [(0, doc.label, top)]
    for imp in doc.imports:
        while stack and stack[-1][0] >= imp.depth:
            stack.pop()
        parent = stack[-1][2] if stack else top
        child, kind = _import_row(doc, imp)
        line = translate("InstructionChain", "line {line}").format(line=imp.line)
        parent.appendRow([child, kind, _item(line), _item("")])
        if imp.status is ImportStatus.LOADED:
            stack.append((imp.depth, imp.target, child))


def _source_path(doc: InstructionDocument, source_label: str) -> Path | None:
    if source_label == doc.label:
        return doc.local_path
    for imp in doc.imports:
        if imp.target == source_label and imp.local_path is not None:
            return imp.local_path
    return None
