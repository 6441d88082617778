"""The table model of the approval inbox: pending agent writes, one row each (no content)."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path
from typing import Any

from context_center.engine import ApprovalRecord, Operation
from context_center.ui.models.row_table import Column, RowTableModel

OPERATION_LABELS = {
    Operation.CREATE: "Create",
    Operation.UPDATE: "Update",
    Operation.FORGET: "Forget",
}


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
    content = record.content
    if record.operation is Operation.CREATE:
        kind_text = content.type.value if content.type else f"{content.fact_type.value} (implicit)"
        return f"{content.fact_scope.value} · {kind_text}"
    scope = (record.target_ref or "").split("/", 1)[0] or "?"
    return f"{scope} · {content.type.value}" if content.type else scope


def reasons_summary(record: ApprovalRecord) -> str:
    """Every reason the gate gave, in full (the column wraps; nothing hides in a tooltip)."""
    return "; ".join(r.message for r in record.reasons)


def reasons_tooltip(record: ApprovalRecord) -> str:
    return "\n".join(f"• {r.message}" for r in record.reasons)


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
                return "this workspace"
            return Path(record.workspace).name or record.workspace

        super().__init__(
            [
                Column("Queued", queued_at),
                Column("Agent", lambda r: r.agent),
                Column("Controller", lambda r: r.controller.value),
                Column("Operation", lambda r: OPERATION_LABELS.get(r.operation, r.operation.value)),
                Column("Fact", target_label),
                Column("Scope · type", scope_and_type),
                Column("Why it needs you", reasons_summary, tooltip=reasons_tooltip),
                Column("Workspace", where, tooltip=lambda r: r.workspace),  # WORKSPACE_COLUMN
            ],
            parent,
        )
