"""What the window says about an engine refusal, keyed by ``EngineError.code``.

The engine's own message (English, with the names and revisions involved) stays the detail;
the title and the one-line explanation come from here and are translated.
"""

from __future__ import annotations

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts

TITLES = Texts(
    "Errors",
    {
        "revision_conflict": QT_TRANSLATE_NOOP("Errors", "Someone else changed this first"),
        "content_conflict": QT_TRANSLATE_NOOP("Errors", "The file changed on disk"),
        "recover_refused": QT_TRANSLATE_NOOP("Errors", "Cannot recover"),
        "already_exists": QT_TRANSLATE_NOOP("Errors", "Already exists"),
        "not_found": QT_TRANSLATE_NOOP("Errors", "Not found"),
        "workspace_not_found": QT_TRANSLATE_NOOP("Errors", "Workspace not found"),
        "invalid_name": QT_TRANSLATE_NOOP("Errors", "Invalid name"),
        "invalid_request": QT_TRANSLATE_NOOP("Errors", "Cannot do that"),
        "store_unavailable": QT_TRANSLATE_NOOP("Errors", "Store unavailable"),
        "approval_refused": QT_TRANSLATE_NOOP("Errors", "Approval refused"),
        "engine_error": QT_TRANSLATE_NOOP("Errors", "Cannot do that"),
    },
)

EXPLANATIONS = Texts(
    "Errors",
    {
        "revision_conflict": QT_TRANSLATE_NOOP(
            "Errors", "A newer revision was saved meanwhile; nothing was overwritten."
        ),
        "content_conflict": QT_TRANSLATE_NOOP(
            "Errors", "The file was edited outside Context Center; nothing was overwritten."
        ),
        "recover_refused": QT_TRANSLATE_NOOP("Errors", "The archived fact was not recovered."),
        "already_exists": QT_TRANSLATE_NOOP("Errors", "Something with that name exists already."),
        "not_found": QT_TRANSLATE_NOOP("Errors", "It is no longer there."),
        "workspace_not_found": QT_TRANSLATE_NOOP("Errors", "That workspace folder does not exist."),
        "invalid_name": QT_TRANSLATE_NOOP("Errors", "That name cannot be used."),
        "invalid_request": QT_TRANSLATE_NOOP("Errors", "The request was refused."),
        "store_unavailable": QT_TRANSLATE_NOOP("Errors", "The memory store cannot be used now."),
        "approval_refused": QT_TRANSLATE_NOOP("Errors", "The write was not approved."),
        "engine_error": QT_TRANSLATE_NOOP("Errors", "The request was refused."),
    },
)

BUG = Texts(
    "Errors",
    {
        "title": QT_TRANSLATE_NOOP("Errors", "Context Center hit a bug"),
        "text": QT_TRANSLATE_NOOP(
            "Errors", "Something went wrong inside Context Center. This is a bug."
        ),
        "ok": QT_TRANSLATE_NOOP("Errors", "OK"),
    },
)


def error_title(code: str) -> str:
    return TITLES[code] if code in TITLES else TITLES["engine_error"]


def error_explanation(code: str) -> str:
    return EXPLANATIONS[code] if code in EXPLANATIONS else EXPLANATIONS["engine_error"]
