"""The explicit approval dialog for one pending agent write.

It shows the operation, the proposing agent and its controller kind, scope and type, the gate's
reasons, the full proposed content as plain text (nothing in it is interpreted: no HTML, no
links, no resources) with every sensitive span the engine detects highlighted, and for updates
a coloured diff against the fact's current revision. A person may approve it as it is, edit a
copy and approve that (the edited content is what gets written), or reject it with an optional
reason. The dialog never calls the engine: it emits ``sig_approve`` / ``sig_reject`` and the
inbox performs the decision; a conflict at approval time comes back through ``show_conflict``
and stays visible in the dialog. No button is a default button, so Enter never approves;
Ctrl+S in the Edit page approves the edited copy (like "Approve edited").

When the fact an update or forget targets has moved past the revision the agent proposed
against (or is gone), approving is refused by the engine whatever the person edits, so
Approve and Edit are disabled and the banner says what can be done: reject the write, or ask
the agent to propose it again against the current revision. Closing the dialog (Close,
Escape) with edits made in it asks first.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from context_center.engine import (
    CREATE_FIELDS,
    UPDATE_FIELDS,
    Fact,
    FactType,
    Operation,
    ProposedContent,
    Scope,
)
from context_center.ui.dialogs.approval_content import (
    Review,
    banner,
    base_moved,
    current_fields,
    document,
    effective_fields,
    plain_lines,
    text_view,
    without_generic_advice,
)
from context_center.ui.dialogs.approval_text import (
    heading_text,
    meta_rows,
    missing_text,
    moved_text,
    sensitive_text,
)
from context_center.ui.gate_text import reason_text
from context_center.ui.i18n import lookup, translate
from context_center.ui.models.approval_models import OPERATION_LABELS, target_label
from context_center.ui.style import mono_font
from context_center.ui.terms import scope_label, type_label
from context_center.ui.widgets.diff_view import DiffView
from context_center.ui.widgets.discard import ask_discard
from context_center.ui.widgets.labels import plain_label
from context_center.ui.widgets.sensitive import (
    SENSITIVE_BG,
    SENSITIVE_FG,
    SensitiveHighlighter,
    sensitive_summary,
    utf16_offsets,
)

__all__ = [
    "SENSITIVE_BG",
    "SENSITIVE_FG",
    "ApprovalDialog",
    "Review",
    "SensitiveHighlighter",
    "utf16_offsets",
]


class ApprovalDialog(QDialog):
    """Review one pending write; approve, edit then approve, or reject with a reason."""

    sig_approve = Signal(object)
    """(edited: dict[str, str] | None) the person clicked Approve; None approves it as queued."""

    sig_reject = Signal(str)
    """(reason: str, possibly empty) the person clicked Reject."""

    def __init__(self, review: Review, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("approvalDialog")
        self.review = review
        record = review.record
        self.editing = False
        self.conflicted = False
        self.working = False
        self.blocked = False  # approving is known to be refused (the base moved)
        self._conflict_message = ""
        self.discard_box: QMessageBox | None = None
        self.setWindowTitle(
            translate("ApprovalDialog", "Review: {operation} {target}").format(
                operation=OPERATION_LABELS[record.operation], target=target_label(record)
            )
        )
        self.setWindowModality(Qt.WindowModality.WindowModal)
        self.resize(900, 720)

        heading = QLabel(heading_text(self.review))
        heading.setObjectName("approvalHeading")
        heading.setTextFormat(Qt.TextFormat.PlainText)
        heading.setWordWrap(True)
        font = heading.font()
        font.setPointSizeF(font.pointSizeF() * 1.2)
        font.setBold(True)
        heading.setFont(font)

        # who, what, where
        meta = QGridLayout()
        meta.setHorizontalSpacing(16)
        meta.setVerticalSpacing(4)
        self.meta_values: dict[str, QLabel] = {}
        for i, (key, value) in enumerate(meta_rows(self.review)):
            row, col = divmod(i, 2)
            name = QLabel(lookup("ApprovalDialog", key))
            name.setObjectName("metaKey")
            name.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
            val = plain_label(value, f"meta_{key.lower().replace(' ', '_')}")
            self.meta_values[key] = val
            meta.addWidget(name, row, col * 2)
            meta.addWidget(val, row, col * 2 + 1)
        meta.setColumnStretch(1, 1)
        meta.setColumnStretch(3, 1)

        reasons_title = QLabel(translate("ApprovalDialog", "Why the gate asks you"))
        reasons_title.setObjectName("sectionCaption")
        bold = reasons_title.font()
        bold.setBold(True)
        reasons_title.setFont(bold)
        self.reasons = plain_label(
            "\n".join(f"•  {reason_text(r)}" for r in record.reasons)
            or "•  " + translate("ApprovalDialog", "(no reason recorded)"),
            "gateReasons",
        )

        self.stale_banner = banner("staleBanner")
        self.conflict_banner = banner("conflictBanner")
        self.sensitive_banner = banner("sensitiveBanner")

        # the content
        self.content_view = text_view("proposedContent")
        self.content_highlighter = SensitiveHighlighter(self.content_view.document())
        self.diff_view = DiffView()
        self.editor = self._build_editor()
        self.tabs = QTabWidget()
        self.tabs.setObjectName("approvalTabs")
        self.tabs.setDocumentMode(True)
        self.content_tab = self.tabs.addTab(
            self.content_view, translate("ApprovalDialog", "Proposed content")
        )
        self.diff_tab = -1
        if record.operation is Operation.UPDATE:
            self.diff_tab = self.tabs.addTab(self.diff_view, translate("ApprovalDialog", "Changes"))
        self.edit_tab = -1

        # decisions
        self.reject_reason = QLineEdit()
        self.reject_reason.setObjectName("rejectReason")
        self.reject_reason.setPlaceholderText(
            translate("ApprovalDialog", "Reason for rejecting (optional)")
        )
        self.reject_reason.setMaxLength(500)
        self.reject_button = self._button(translate("ApprovalDialog", "Reject"), "rejectButton")
        self.reject_button.setProperty("destructive", True)
        self.reject_button.setToolTip(
            translate("ApprovalDialog", "Nothing is written; the agent's write is dropped")
        )
        self.close_button = self._button(translate("ApprovalDialog", "Close"), "closeButton")
        self.close_button.setToolTip(
            translate("ApprovalDialog", "Decide later; the write stays pending")
        )
        self.edit_button = self._button(translate("ApprovalDialog", "Edit…"), "editButton")
        self.edit_button.setToolTip(
            translate(
                "ApprovalDialog", "Change a copy of the proposal; your edited content is written"
            )
        )
        self.approve_button = self._button(translate("ApprovalDialog", "Approve"), "approveButton")
        self.approve_button.setProperty("primary", True)
        if record.operation is Operation.FORGET:
            self.edit_button.hide()
            self.approve_button.setText(translate("ApprovalDialog", "Approve forget"))

        buttons = QHBoxLayout()
        buttons.setSpacing(8)
        buttons.addWidget(self.reject_reason, 1)
        buttons.addWidget(self.reject_button)
        buttons.addSpacing(16)
        buttons.addWidget(self.close_button)
        buttons.addWidget(self.edit_button)
        buttons.addWidget(self.approve_button)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(16, 14, 16, 14)
        layout.setSpacing(10)
        layout.addWidget(heading)
        layout.addLayout(meta)
        layout.addWidget(reasons_title)
        layout.addWidget(self.reasons)
        layout.addWidget(self.stale_banner)
        layout.addWidget(self.sensitive_banner)
        layout.addWidget(self.conflict_banner)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(buttons)

        self.approve_button.clicked.connect(self._on_approve)
        self.reject_button.clicked.connect(self._on_reject)
        self.close_button.clicked.connect(self.reject)  # QDialog.reject: close, decide later
        self.edit_button.clicked.connect(self.start_editing)

        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.setInterval(150)
        self._refresh_timer.timeout.connect(self.refresh_views)
        self.set_current(review.current, review.missing_target)

    # -- construction helpers ------------------------------------------------------------

    @staticmethod
    def _button(text: str, name: str) -> QPushButton:
        button = QPushButton(text)
        button.setObjectName(name)
        button.setAutoDefault(False)
        button.setDefault(False)
        return button

    def _build_editor(self) -> QWidget:
        r = self.review.record
        page = QWidget()
        form = QFormLayout(page)
        form.setContentsMargins(8, 10, 8, 8)
        form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        form.setHorizontalSpacing(10)
        form.setVerticalSpacing(6)
        fields, body = effective_fields(self.review, r.content)
        self.edit_name = QLineEdit(fields.get("name", ""))
        self.edit_name.setObjectName("editName")
        self.edit_title = QLineEdit(fields.get("title", ""))
        self.edit_title.setObjectName("editTitle")
        self.edit_description = QLineEdit(fields.get("description", ""))
        self.edit_description.setObjectName("editDescription")
        self.edit_type = QComboBox()
        self.edit_type.setObjectName("editType")
        for t in FactType:
            self.edit_type.addItem(type_label(t.value), t.value)
        self.edit_type.setCurrentIndex(max(0, self.edit_type.findData(fields.get("type", ""))))
        self.edit_scope = QComboBox()
        self.edit_scope.setObjectName("editScope")
        for s in Scope:
            self.edit_scope.addItem(scope_label(s.value), s.value)
        self.edit_scope.setCurrentIndex(max(0, self.edit_scope.findData(fields.get("scope", ""))))
        self.edit_body = QPlainTextEdit(plain_lines(body))
        self.edit_body.setObjectName("editBody")
        self.edit_body.setTabChangesFocus(True)
        self.edit_body.setFont(mono_font())
        self.edit_highlighter = SensitiveHighlighter(self.edit_body.document())
        form.addRow(translate("ApprovalDialog", "Name"), self.edit_name)
        form.addRow(translate("ApprovalDialog", "Title"), self.edit_title)
        form.addRow(translate("ApprovalDialog", "Description"), self.edit_description)
        form.addRow(translate("ApprovalDialog", "Type"), self.edit_type)
        if r.operation is Operation.CREATE:
            form.addRow(translate("ApprovalDialog", "Scope"), self.edit_scope)
        else:
            self.edit_scope.hide()
        form.addRow(translate("ApprovalDialog", "Body"), self.edit_body)
        for line in (self.edit_name, self.edit_title, self.edit_description):
            line.textChanged.connect(self._schedule_refresh)
        for combo in (self.edit_type, self.edit_scope):
            combo.currentIndexChanged.connect(self._schedule_refresh)
        self.edit_body.textChanged.connect(self._schedule_refresh)
        save = QShortcut(QKeySequence(QKeySequence.StandardKey.Save), page)
        save.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)  # in the Edit page only
        save.activated.connect(self._on_save_shortcut)
        page.hide()
        return page

    def _on_save_shortcut(self) -> None:
        """Ctrl+S in the Edit page approves the edited copy (what "Approve edited" does)."""
        if self.editing and self.approve_button.isEnabled():
            self.approve_button.click()

    # -- state from the inbox --------------------------------------------------------------

    def set_current(self, current: Fact | None, missing: str | None = None) -> None:
        """The target fact as it is now (after a conflict the inbox reloads it)."""
        self.review = Review(self.review.record, current, self.review.this_workspace, missing)
        r = self.review.record
        self.blocked = base_moved(self.review)
        if r.operation is not Operation.CREATE and current is None:
            self.stale_banner.setText(missing_text(r.target_ref, missing))
            self.stale_banner.show()
        elif current is not None and self.blocked:
            self.stale_banner.setText(moved_text(current, r))
            self.stale_banner.show()
        else:
            self.stale_banner.hide()
        if self.conflicted:
            self._show_conflict_text()
        self._update_decision_buttons()
        self.refresh_views()

    def show_conflict(self, message: str) -> None:
        """The engine refused at approval time; say so here (nothing was written)."""
        self.conflicted = True
        self._conflict_message = message
        self._show_conflict_text()

    def _show_conflict_text(self) -> None:
        message = self._conflict_message
        text = without_generic_advice(message) if self.blocked else " ".join(message.split())
        self.conflict_banner.setText(
            translate("ApprovalDialog", "Not approved: {reason}").format(reason=text)
        )
        self.conflict_banner.show()

    def set_working(self, working: bool) -> None:
        self.working = working
        self.close_button.setEnabled(not working)
        self.reject_button.setEnabled(not working)
        self.editor.setEnabled(not working)
        self._update_decision_buttons()

    def _update_decision_buttons(self) -> None:
        """Approve and Edit only when approving can succeed (and nothing is being applied)."""
        self.approve_button.setEnabled(not self.working and not self.blocked)
        self.edit_button.setEnabled(not self.working and not self.editing and not self.blocked)
        self.approve_button.setToolTip(
            translate(
                "ApprovalDialog",
                "It would be refused: the fact moved on since the agent proposed this",
            )
            if self.blocked
            else translate("ApprovalDialog", "Write it now")
        )

    # -- content -------------------------------------------------------------------------

    def edited_content(self) -> dict[str, str] | None:
        """The fields the person changed from the proposal (None when nothing changed)."""
        if not self.editing:
            return None
        r = self.review.record
        proposed, body = effective_fields(self.review, r.content)
        allowed = CREATE_FIELDS if r.operation is Operation.CREATE else UPDATE_FIELDS
        now = {
            "name": self.edit_name.text(),
            "title": self.edit_title.text(),
            "description": self.edit_description.text(),
            "type": str(self.edit_type.currentData()),
            "scope": str(self.edit_scope.currentData()),
            "body": self.edit_body.toPlainText(),
        }
        before = {**proposed, "body": plain_lines(body)}
        edited = {k: v for k, v in now.items() if k in allowed and v != before.get(k)}
        return edited or None

    def result_content(self) -> ProposedContent:
        """The content the approval would write: the proposal with the person's edits."""
        return self.review.record.content.merged(self.edited_content() or {})

    def refresh_views(self) -> None:
        r = self.review.record
        if r.operation is Operation.FORGET:
            if self.review.current is not None:
                fields, body = current_fields(self.review.current)
                text = document(fields, body)
            else:
                text = ""
            self.tabs.setTabText(
                self.content_tab,
                translate("ApprovalDialog", "Fact to forget (it is archived, not deleted)"),
            )
        else:
            fields, body = effective_fields(self.review, self.result_content())
            text = document(fields, body)
            self.tabs.setTabText(
                self.content_tab,
                translate("ApprovalDialog", "Edited content")
                if self.edited_content()
                else translate("ApprovalDialog", "Proposed content"),
            )
        if self.content_view.toPlainText() != text:
            self.content_view.setPlainText(text)
        spans = self.content_highlighter.spans
        if spans:
            self.sensitive_banner.setText(sensitive_text(sensitive_summary(text, spans)))
            self.sensitive_banner.show()
        else:
            self.sensitive_banner.hide()
        if self.diff_tab >= 0:
            current = self.review.current
            if current is None:
                self.diff_view.clear_diff(
                    translate("ApprovalDialog", "The current revision cannot be read.")
                )
            else:
                cf, cb = current_fields(current)
                self.diff_view.set_texts(
                    document(cf, cb),
                    text,
                    translate("ApprovalDialog", "{ref} (revision {n}, current)").format(
                        ref=current.ref, n=current.revision
                    ),
                    translate("ApprovalDialog", "edited proposal")
                    if self.edited_content()
                    else translate("ApprovalDialog", "proposed"),
                )

    def _schedule_refresh(self, *_: Any) -> None:
        self._refresh_timer.start()

    # -- buttons -------------------------------------------------------------------------

    def start_editing(self) -> None:
        if self.editing:
            self.tabs.setCurrentIndex(self.edit_tab)
            return
        self.editing = True
        self.editor.show()
        self.edit_tab = self.tabs.insertTab(0, self.editor, translate("ApprovalDialog", "Edit"))
        self.content_tab = self.tabs.indexOf(self.content_view)
        self.diff_tab = self.tabs.indexOf(self.diff_view)
        self.tabs.setCurrentIndex(self.edit_tab)
        self.edit_button.setText(translate("ApprovalDialog", "Editing"))
        self.edit_button.setEnabled(False)
        self.approve_button.setText(translate("ApprovalDialog", "Approve edited"))
        self.edit_body.setFocus()

    def reject(self) -> None:
        """Close without deciding (Close, Escape); not while a decision is being applied, and
        with edits made here only after asking."""
        if self.working:
            return
        if self.edited_content() is None:
            super().reject()
            return
        if self.discard_box is None:
            self.discard_box = ask_discard(
                self,
                translate("ApprovalDialog", "You edited this proposal without approving it."),
                self.discard,
            )
            self.discard_box.finished.connect(lambda _c: setattr(self, "discard_box", None))

    def has_unsaved_changes(self) -> bool:
        return self.edited_content() is not None

    def discard(self) -> None:
        """Close without deciding and without asking."""
        if not self.working:
            super().reject()

    def _on_approve(self) -> None:
        if self.blocked:
            return
        self._refresh_timer.stop()
        self.refresh_views()
        self.sig_approve.emit(self.edited_content())

    def _on_reject(self) -> None:
        self.sig_reject.emit(self.reject_reason.text().strip())
