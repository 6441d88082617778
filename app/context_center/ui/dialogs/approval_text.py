"""The approval dialog's texts: the heading, the who/what/where rows and the banners.

Split from ``approval.py`` (the widgets); every string is translated (context
``ApprovalDialog``); a row's label is its English source, which the dialog shows translated
and keys ``meta_values`` by.
"""

from __future__ import annotations

from context_center.engine import ApprovalRecord, Fact, Operation
from context_center.ui.dialogs.approval_content import Review
from context_center.ui.i18n import QT_TRANSLATE_NOOP, translate
from context_center.ui.models.approval_models import OPERATION_LABELS, queued_at, target_label
from context_center.ui.terms import controller_label, scope_label, type_label


def heading_text(review: Review) -> str:
    r = review.record
    heading = {
        Operation.CREATE: translate("ApprovalDialog", "{agent} wants to create {target}"),
        Operation.UPDATE: translate("ApprovalDialog", "{agent} wants to update {target}"),
        Operation.FORGET: translate("ApprovalDialog", "{agent} wants to forget {target}"),
    }
    return heading[r.operation].format(agent=r.agent, target=target_label(r))


def meta_rows(review: Review) -> list[tuple[str, str]]:
    """(label, value) rows; each label is its English source, shown translated."""
    r = review.record
    rows = [
        (QT_TRANSLATE_NOOP("ApprovalDialog", "Operation"), OPERATION_LABELS[r.operation]),
        (QT_TRANSLATE_NOOP("ApprovalDialog", "Agent"), r.agent),
        (QT_TRANSLATE_NOOP("ApprovalDialog", "Controller"), controller_label(r.controller.value)),
        (QT_TRANSLATE_NOOP("ApprovalDialog", "Queued"), queued_at(r)),
    ]
    content = r.content
    scope_key = QT_TRANSLATE_NOOP("ApprovalDialog", "Scope")
    type_key = QT_TRANSLATE_NOOP("ApprovalDialog", "Type")
    if r.operation is Operation.CREATE:
        rows.append((scope_key, scope_label(content.fact_scope.value)))
        rows.append(
            (
                type_key,
                type_label(content.type.value)
                if content.type
                else translate("ApprovalDialog", "{type} (not given by the agent)").format(
                    type=type_label(content.fact_type.value)
                ),
            )
        )
    else:
        current = review.current
        scope = (r.target_ref or "").split("/", 1)[0]
        rows.append((scope_key, scope_label(scope) if scope else "?"))
        kind = current.type.value if current else (content.type.value if content.type else "?")
        rows.append((type_key, type_label(kind)))
        rows.append(
            (
                QT_TRANSLATE_NOOP("ApprovalDialog", "Target"),
                translate("ApprovalDialog", "{ref} (id {id})").format(
                    ref=r.target_ref, id=r.target_id
                ),
            )
        )
        rows.append(
            (
                QT_TRANSLATE_NOOP("ApprovalDialog", "Based on"),
                translate("ApprovalDialog", "revision {n}").format(n=r.expected_revision),
            )
        )
    here = translate("ApprovalDialog", "this workspace")
    where = here if review.this_workspace else r.workspace
    rows.append((QT_TRANSLATE_NOOP("ApprovalDialog", "Workspace"), where))
    rows.append((QT_TRANSLATE_NOOP("ApprovalDialog", "Item"), r.id))
    return rows


def missing_text(ref: str | None, missing: str | None) -> str:
    return translate(
        "ApprovalDialog",
        "{ref} cannot be read now ({why}). Approving would fail, with or without "
        "edits. Reject this write; if the fact should still change, ask the agent "
        "to propose it again.",
    ).format(
        ref=ref,
        why=missing or translate("ApprovalDialog", "it is no longer active"),
    )


def moved_text(current: Fact, record: ApprovalRecord) -> str:
    r = record
    return translate(
        "ApprovalDialog",
        "{ref} has moved on: it is at revision {current}, and this write was "
        "proposed against revision {base}. It cannot be approved (nothing newer is "
        "overwritten, and editing the proposal does not change what it was based "
        "on). Reject it, or ask the agent to propose it again against revision "
        "{current}; the changes below are against the current revision.",
    ).format(ref=current.ref, current=current.revision, base=r.expected_revision)


def sensitive_text(found: str) -> str:
    return translate(
        "ApprovalDialog",
        "Sensitive information detected, highlighted below: {found}. Approving "
        "writes it into memory as it is; edit it out first if it should not be kept.",
    ).format(found=found)
