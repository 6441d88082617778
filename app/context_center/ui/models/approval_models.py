"""The table model of the approval inbox: pending agent writes, one row each (no content)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from context_center.engine import ApprovalRecord, Operation
from context_center.ui.gate_text import reason_label, reason_text
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts, translate
from context_center.ui.models.row_table import Column, RowTableModel
from context_center.ui.terms import controller_label, scope_label, type_and_scope, type_label

# keyed by Operation's values (a StrEnum: OPERATION_LABELS[Operation.CREATE] works)
OPERATION_LABELS = Texts(
    "Approvals",
    {
        Operation.CREATE.value: QT_TRANSLATE_NOOP("Approvals", "Create"),
        Operation.UPDATE.value: QT_TRANSLATE_NOOP("Approvals", "Update"),
        Operation.FORGET.value: QT_TRANSLATE_NOOP("Approvals", "Forget"),
    },
)


def queued_at(record: ApprovalRecord) -> str:
    """The queue time in local time, to the minute."""
    try:
        when = datetime.fromisoformat(record.created_at)
    except ValueError:
        return record.created_at
    return when.astimezone().strftime("%Y-%m-%d %H:%M")


def target_label(record: ApprovalRecord) -> str:
    """``project/<name>.md`` for the fact written, or the name a create proposes."""
    return record.ref


def scope_and_type(record: ApprovalRecord) -> str:
    """ "type: project · scope: global" (the type a create left out: "project (implicit)")."""
    content = record.content
    if record.operation is Operation.CREATE:
        if content.type:
            return type_and_scope(content.type.value, content.fact_scope.value)
        implicit = translate("Approvals", "{type} (implicit)").format(
            type=type_label(content.fact_type.value)
        )
        return translate("Terms", "type: {type} · scope: {scope}").format(
            type=implicit, scope=scope_label(content.fact_scope.value)
        )
    scope = (record.target_ref or "").split("/", 1)[0] or "?"
    if content.type:
        return type_and_scope(content.type.value, scope)
    return translate("Terms", "scope: {scope}").format(scope=scope_label(scope))


def reasons_summary(record: ApprovalRecord) -> str:
    """Every reason the gate gave, in full (the column wraps; nothing hides in a tooltip)."""
    return "; ".join(reason_label(r) for r in record.reasons)


def reasons_tooltip(record: ApprovalRecord) -> str:
    return "\n".join(f"• {reason_text(r)}" for r in record.reasons)


FACT_COLUMN = 4
SCOPE_COLUMN = 5
REASONS_COLUMN = 6
WORKSPACE_COLUMN = 7


class PendingWritesModel(RowTableModel[ApprovalRecord]):
    def all_here(self) -> bool:
        """Every listed write is for the window's own workspace."""
        here = str(self.workspace) if self.workspace is not None else None
        return all(r.workspace == here for r in self.rows)

    """Pending approval records, oldest first (``ROW_ROLE`` gives the ApprovalRecord)."""

    def __init__(self, workspace: Path | None = None, parent: Any = None) -> None:
        self.workspace = workspace

        def where(record: ApprovalRecord) -> str:
            if self.workspace is not None and record.workspace == str(self.workspace):
                return translate("Approvals", "this workspace")
            return Path(record.workspace).name or record.workspace

        super().__init__(
            [
                Column(QT_TRANSLATE_NOOP("Columns", "Queued"), queued_at),
                Column(QT_TRANSLATE_NOOP("Columns", "Agent"), lambda r: r.agent),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Controller"),
                    lambda r: controller_label(r.controller.value),
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Operation"),
                    lambda r: OPERATION_LABELS.get(r.operation, r.operation.value),
                ),
                Column(QT_TRANSLATE_NOOP("Columns", "Fact"), target_label),
                Column(QT_TRANSLATE_NOOP("Columns", "Type · scope"), scope_and_type),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Why it needs you"),
                    reasons_summary,
                    tooltip=reasons_tooltip,
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Workspace"), where, tooltip=lambda r: r.workspace
                ),  # WORKSPACE_COLUMN
            ],
            parent,
        )
