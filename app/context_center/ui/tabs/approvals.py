"""The approval inbox: agent writes the gate queued for a person, and one dialog per item.

The list holds every pending write of this home (a write proposed in another workspace is
labelled with its folder and applied to that workspace's stores). ``sig_pending_count`` feeds
the toolbar badge; the list reloads on the ``approvals`` change flag even while the tab is
hidden, so the badge follows writes queued by other processes. Opening an item shows an
``ApprovalDialog``; only the person's click on Approve (or Reject) in it decides anything.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)
from qasync import asyncSlot

from context_center.engine import (
    ApprovalRecord,
    ApprovalResult,
    Changes,
    Engine,
    EngineError,
    Operation,
)
from context_center.ui.context import APPROVALS, FACTS, WORKSPACE, busy
from context_center.ui.i18n import QT_TRANSLATE_NOOP, translate
from context_center.ui.models.approval_models import (
    FACT_COLUMN,
    OPERATION_LABELS,
    REASONS_COLUMN,
    SCOPE_COLUMN,
    WORKSPACE_COLUMN,
    PendingWritesModel,
    target_label,
)
from context_center.ui.models.row_table import ROW_ROLE
from context_center.ui.refusal_text import error_message
from context_center.ui.tabs.approvals_bulk import TEXT as BULK_TEXT
from context_center.ui.tabs.approvals_bulk import reject_selected
from context_center.ui.tabs.base import Tab
from context_center.ui.widgets.decision_undo import offer_reject_undo
from context_center.ui.widgets.labels import tab_heading
from context_center.ui.widgets.shared_columns import share_columns
from context_center.ui.widgets.tables import WrappedTable

if TYPE_CHECKING:  # the dialog's modules are imported when a review first opens
    from context_center.ui.dialogs.approval import ApprovalDialog
    from context_center.ui.dialogs.approval_content import Review

# -- engine work (worker thread) ------------------------------------------------------------


def _is_here(engine: Engine, workspace: str | Path) -> bool:
    return str(workspace) == str(engine.workspace)


def list_pending(engine: Engine) -> list[ApprovalRecord]:
    return engine.pending_approvals()


def load_review(engine: Engine, record: ApprovalRecord) -> Review:
    """The record with the fact it changes, read now (for the diff and the stale warning)."""
    from context_center.ui.dialogs.approval_content import Review

    here = _is_here(engine, record.workspace)
    if record.operation is Operation.CREATE or not record.target_id:
        return Review(record, None, here)
    try:
        entry = engine.approval_target(record)
    except EngineError as exc:
        return Review(record, None, here, error_message(exc))
    return Review(record, entry.fact, here)


def approve_item(
    engine: Engine, item_id: str, edited: dict[str, str] | None, reviewed_sha256: str
) -> Changes[ApprovalResult]:
    """Apply exactly the item the person reviewed (its content hash), once."""
    return engine.approve(item_id, edited, expected_sha256=reviewed_sha256)


def reject_item(engine: Engine, item_id: str, reason: str) -> Changes[ApprovalRecord]:
    return engine.reject(item_id, reason or None)


# -- the tab ----------------------------------------------------------------------------------


class ApprovalsTab(Tab):
    """Pending agent writes; Review opens the explicit approval dialog for one of them."""

    title = QT_TRANSLATE_NOOP("MainWindow", "Approvals")
    flags = frozenset({APPROVALS, WORKSPACE})
    skip_own_changes = True  # decisions reload the list themselves

    sig_pending_count = Signal(int)
    """How many writes wait for a person (all workspaces of this home), after every reload."""

    sig_decided = Signal(str, str)
    """(item id, "approved" | "rejected") a person decided an item in this window."""

    def __init__(self, ctx: Any, parent: QWidget | None = None) -> None:
        super().__init__(ctx, parent)
        self.setObjectName("approvalsTab")
        self.dialog: ApprovalDialog | None = None
        self.pending_count = -1

        heading = tab_heading(translate("ApprovalsTab", "Approval inbox"))
        self.count_label = QLabel()
        self.count_label.setObjectName("countLabel")
        self.refresh_button = QPushButton(translate("ApprovalsTab", "Reload"))
        self.refresh_button.setObjectName("reloadApprovals")
        self.refresh_button.clicked.connect(self._on_reload)
        self.review_button = QPushButton(translate("ApprovalsTab", "Review…"))
        self.review_button.setObjectName("reviewButton")
        self.review_button.setToolTip(
            translate("ApprovalsTab", "Open the selected write to approve, edit or reject it")
        )
        self.review_button.clicked.connect(self._on_review)
        self.reject_button = QPushButton(BULK_TEXT["reject_selected"])
        self.reject_button.setObjectName("rejectSelected")
        self.reject_button.setToolTip(BULK_TEXT["reject_selected_tip"])
        self.reject_button.setProperty("destructive", True)
        self.reject_button.clicked.connect(self._on_reject_selected)
        top = QHBoxLayout()
        top.setSpacing(10)
        top.addWidget(heading)
        top.addWidget(self.count_label)
        top.addStretch(1)
        top.addWidget(self.refresh_button)
        top.addWidget(self.reject_button)
        top.addWidget(self.review_button)

        intro = QLabel(
            translate(
                "ApprovalsTab",
                "Memory writes proposed by agents that need a person: global or personal facts, "
                "updates, forgets, possible duplicates and anything that looks sensitive. Nothing "
                "is written until you approve it in the review dialog.",
            )
        )
        intro.setObjectName("hint")
        intro.setWordWrap(True)

        self.model = PendingWritesModel(ctx.engine.workspace, self)
        self.table = WrappedTable()
        self.table.setObjectName("pendingTable")
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setAlternatingRowColors(True)
        # the fact and "type · scope" wrap beyond a fifth of the room each: the reasons
        # keep at least 60 % of it (readable at 900×600)
        share_columns(self.table, {FACT_COLUMN: 0.2, SCOPE_COLUMN: 0.2}, REASONS_COLUMN)
        self.table.activated.connect(self._on_review)
        self.table.selectionModel().currentRowChanged.connect(self._update_buttons)
        self.table.selectionModel().selectionChanged.connect(self._update_buttons)

        self.empty = QLabel(
            translate(
                "ApprovalsTab",
                "No writes are waiting for you.\n\nWhen an agent proposes a memory write that "
                "needs a person, it appears here and the toolbar shows a count.",
            )
        )
        self.empty.setObjectName("emptyInbox")
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setWordWrap(True)
        self.stack = QStackedWidget()
        self.stack.addWidget(self.empty)
        self.stack.addWidget(self.table)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.setSpacing(8)
        layout.addLayout(top)
        layout.addWidget(intro)
        layout.addWidget(self.stack, 1)
        self._update_buttons()
        ctx.sig_engine_changed.connect(self._on_engine_changed)
        # Load once the event loop runs, so the badge is right before the tab is ever shown.
        QTimer.singleShot(0, self, self.refresh_now)

    # -- unsaved text -----------------------------------------------------------------------

    def has_unsaved_changes(self) -> bool:
        """Edits made in an open review dialog and not approved yet."""
        return self.dialog is not None and self.dialog.has_unsaved_changes()

    async def discard_or_keep(self) -> bool:
        dialog = self.dialog
        if dialog is None:
            return True
        ok = await self.ctx.confirm(
            dialog,
            translate("ApprovalsTab", "Discard your edits?"),
            translate(
                "ApprovalsTab", "You edited the proposal in the review dialog without approving it."
            ),
            informative=translate(
                "ApprovalsTab", "The write stays pending either way; only your edits are dropped."
            ),
            ok_text=translate("ApprovalsTab", "Discard edits"),
            destructive=True,
        )
        if ok and self.dialog is dialog:
            dialog.discard()
        return ok

    # -- list -------------------------------------------------------------------------------

    def _on_changed(self, changes: Changes[object], source: object | None) -> None:
        if self.dialog is not None and FACTS in changes.areas:
            self._recheck_dialog()  # the fact under review may have moved meanwhile
        # Unlike other tabs, reload while hidden too: the toolbar badge depends on it.
        if self.skip_own_changes and source is self:
            return
        if changes.areas & self.flags:
            self.refresh_now()

    @asyncSlot()
    async def _recheck_dialog(self) -> None:
        """Read the open review's target again: a fact changed elsewhere while the person is
        deciding shows the stale banner (and disables Approve) at once, not after a click."""
        if self.dialog is not None:
            await self._reload_review(self.dialog)

    async def _reload_review(self, dialog: ApprovalDialog) -> None:
        """Give the dialog its target fact as it is now (if it is still the open one)."""
        review = await self.ctx.run(load_review, self.ctx.engine, dialog.review.record)
        if self.dialog is dialog:
            dialog.set_current(review.current, review.missing_target)

    def _on_engine_changed(self, engine: Engine) -> None:
        self.model.workspace = engine.workspace

    @property
    def current(self) -> ApprovalRecord | None:
        index = self.table.currentIndex()
        return self.model.data(index, ROW_ROLE) if index.isValid() else None

    def update_actions(self) -> None:
        """Recompute which buttons apply (``@busy`` calls this after a handler)."""
        self._update_buttons()

    def _update_buttons(self, *_: Any) -> None:
        self.review_button.setEnabled(self.current is not None)
        self.reject_button.setEnabled(bool(self.table.selectionModel().selectedRows()))

    def selected_records(self) -> list[ApprovalRecord]:
        """The selected writes, in table order."""
        rows = sorted(i.row() for i in self.table.selectionModel().selectedRows())
        return [self.model.rows[r] for r in rows if r < len(self.model.rows)]

    @asyncSlot()
    @busy("reject_button", "review_button")
    async def _on_reject_selected(self) -> None:
        if await reject_selected(self):
            await self._reload()

    async def refresh(self) -> None:
        records = await self.ctx.run(list_pending, self.ctx.engine)
        selected = self.current.id if self.current is not None else None
        self.model.set_rows(records)
        # the Workspace column only when a write of another workspace is listed
        self.table.setColumnHidden(WORKSPACE_COLUMN, self.model.all_here())
        row = self.model.row_of(lambda r: r.id == selected) if selected else -1
        if row < 0 and records:
            row = 0
        if row >= 0:  # ClearAndSelect: selectRow would toggle an already selected row
            self.table.selectionModel().setCurrentIndex(
                self.model.index(row, 0),
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows,
            )
        self.stack.setCurrentIndex(1 if records else 0)
        n = len(records)
        self.count_label.setText(
            (
                translate("ApprovalsTab", "1 write waiting for you")
                if n == 1
                else translate("ApprovalsTab", "{n} writes waiting for you").format(n=n)
            )
            if n
            else translate("ApprovalsTab", "nothing waiting")
        )
        self._update_buttons()
        if n != self.pending_count:
            self.pending_count = n
            self.sig_pending_count.emit(n)

    @asyncSlot()
    async def _on_reload(self) -> None:
        task = self.refresh_now()
        if task is not None:
            await task

    # -- the dialog -------------------------------------------------------------------------

    @asyncSlot()
    @busy("review_button")
    async def _on_review(self, *_: Any) -> None:
        record = self.current
        if record is None or self.dialog is not None:
            return
        review = await self.ctx.run(load_review, self.ctx.engine, record)
        from context_center.ui.dialogs.approval import ApprovalDialog

        dialog = ApprovalDialog(review, self)
        dialog.sig_approve.connect(self._on_approve)
        dialog.sig_reject.connect(self._on_reject)
        dialog.finished.connect(self._on_dialog_finished)
        self.dialog = dialog
        self.ctx.last_dialog = dialog
        dialog.open()  # window-modal, no nested event loop

    def _on_dialog_finished(self, _code: int) -> None:
        dialog, self.dialog = self.dialog, None
        if dialog is not None:
            dialog.deleteLater()

    @asyncSlot(object)
    @busy()
    async def _on_approve(self, edited: dict[str, str] | None) -> None:
        dialog = self.dialog
        if dialog is None:
            return
        record = dialog.review.record
        dialog.set_working(True)
        try:
            try:
                changes = await self.ctx.run(
                    approve_item, self.ctx.engine, record.id, edited, record.content_sha256
                )
            except EngineError as exc:
                # Shown in the dialog, never swallowed: a conflict (the store moved on), an
                # item decided elsewhere, an edit the engine refuses. Nothing was written.
                dialog.show_conflict(error_message(exc))
                await self._reload_review(dialog)
                self.ctx.status(
                    translate("ApprovalDialog", "Not approved: {reason}").format(
                        reason=error_message(exc)
                    )
                )
                self.refresh_now()
                return
        finally:
            dialog.set_working(False)
        result = changes.value
        ref = (result.record.decision.result or {}).get("ref") if result.record.decision else None
        dialog.accept()
        self.ctx.apply(changes, source=self)
        self.ctx.status(
            translate("ApprovalsTab", "Approved: {operation} {target}").format(
                operation=OPERATION_LABELS[record.operation].lower(),
                target=ref or target_label(record),
            )
        )
        self.sig_decided.emit(record.id, "approved")
        await self._reload()

    @asyncSlot(str)
    @busy()
    async def _on_reject(self, reason: str) -> None:
        dialog = self.dialog
        if dialog is None:
            return
        record = dialog.review.record
        dialog.set_working(True)
        try:
            try:
                changes = await self.ctx.run(reject_item, self.ctx.engine, record.id, reason)
            except EngineError as exc:
                dialog.show_conflict(error_message(exc))
                self.refresh_now()
                return
        finally:
            dialog.set_working(False)
        dialog.done(QDialog.DialogCode.Accepted)
        self.ctx.apply(changes, source=self)
        self.ctx.status(
            translate("ApprovalsTab", "Rejected: {operation} {target}").format(
                operation=OPERATION_LABELS[record.operation].lower(), target=target_label(record)
            )
        )
        self.sig_decided.emit(record.id, "rejected")
        offer_reject_undo(self.ctx, [record])
        await self._reload()

    async def _reload(self) -> None:
        task = self.refresh_now()
        if task is not None:
            await task
