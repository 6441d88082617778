"""An engine refusal's own message (``EngineError.message``) in the window's language.

``error_text`` gives a refusal its translated title and explanation by code; the message is the
detail: which fact, which revision, which file. ``refusal_message`` finds the English form the
engine wrote it in (``engine/store``, ``engine/instructions``, ``engine/suggestions``,
``engine/facade``) for the refusals a person meets in the window — a conflict, a name or id
taken, a fact gone, a recover refused, a busy store, a rule refused — and fills its translation
with the same refs and numbers. Any other message is shown as the engine wrote it.
"""

from __future__ import annotations

from context_center.engine import EngineError
from context_center.ui.diagnostic_text import OS_ERRORS
from context_center.ui.engine_text import Forms, shown_by_code
from context_center.ui.i18n import QT_TRANSLATE_NOOP
from context_center.ui.terms import scope_label

FORMS = Forms(
    "RefusalText",
    {
        # revision_conflict / content_conflict
        "revision_conflict": QT_TRANSLATE_NOOP(
            "RefusalText", "revision conflict on {ref}: expected {expected}, found {found}"
        ),
        "changed_on_disk": QT_TRANSLATE_NOOP(
            "RefusalText",
            "{ref} changed on disk since you read it (revision {revision}, content differs); "
            "read it again before saving",
        ),
        "edited_by_hand": QT_TRANSLATE_NOOP(
            "RefusalText",
            "{ref} was edited by hand after revision {revision} was written (its revision was "
            "not bumped); read it again and save with its content hash",
        ),
        "forget_changed": QT_TRANSLATE_NOOP(
            "RefusalText", "{ref} changed since the forget was queued (content differs)"
        ),
        "document_changed": QT_TRANSLATE_NOOP(
            "RefusalText",
            "{file} changed on disk since you opened it; your text was not saved. Copy it, "
            "reload the file and apply your change again.",
        ),
        # already_exists
        "create_exists": QT_TRANSLATE_NOOP(
            "RefusalText",
            "{ref} already exists; creates never overwrite (choose another name or update it)",
        ),
        "name_used": QT_TRANSLATE_NOOP("RefusalText", "{ref} is already used by another fact"),
        "rescope_id_taken": QT_TRANSLATE_NOOP(
            "RefusalText",
            "id {id} is already active in the {scope} store as {ref}; resolve that pair first",
        ),
        "rescope_name_taken": QT_TRANSLATE_NOOP(
            "RefusalText",
            "{ref} already exists: rename one of the two facts first (nothing was moved)",
        ),
        "skill_exists": QT_TRANSLATE_NOOP(
            "RefusalText", "{path} already exists; skills are never overwritten"
        ),
        "skill_named": QT_TRANSLATE_NOOP(
            "RefusalText",
            "a skill named '{name}' already exists ({path}); skills are never overwritten: "
            "choose another name",
        ),
        # not_found
        "no_id": QT_TRANSLATE_NOOP("RefusalText", "no active fact has id {id}"),
        "no_name": QT_TRANSLATE_NOOP(
            "RefusalText", "no active fact named '{name}' in the project or global store"
        ),
        "does_not_exist": QT_TRANSLATE_NOOP("RefusalText", "{ref} does not exist"),
        "no_longer_active": QT_TRANSLATE_NOOP("RefusalText", "{ref} is no longer active"),
        "no_revision": QT_TRANSLATE_NOOP("RefusalText", "{ref} has no saved revision {revision}"),
        "no_item": QT_TRANSLATE_NOOP("RefusalText", "no approval item {id}"),
        "no_pending_item": QT_TRANSLATE_NOOP("RefusalText", "no pending approval item {id}"),
        "no_suggestion": QT_TRANSLATE_NOOP(
            "RefusalText",
            "no current suggestion has id '{id}' (scan again to see the current ones)",
        ),
        "target_missing": QT_TRANSLATE_NOOP(
            "RefusalText", "the target folder {label} does not exist"
        ),
        # recover_refused
        "recover_name": QT_TRANSLATE_NOOP(
            "RefusalText", "cannot recover: {ref} is already active (another fact has that name)"
        ),
        "recover_id": QT_TRANSLATE_NOOP(
            "RefusalText", "cannot recover: id {id} is already active as {ref}"
        ),
        "recover_link": QT_TRANSLATE_NOOP(
            "RefusalText",
            "cannot recover {file}: it is a hard link shared with another file (link count {n})",
        ),
        # invalid_name
        "name_no_letters": QT_TRANSLATE_NOOP(
            "RefusalText", "name '{name}' has no letters or digits to make a file name from"
        ),
        "name_reserved": QT_TRANSLATE_NOOP(
            "RefusalText", "name '{name}' is reserved ('{slug}' cannot be a fact file name)"
        ),
        # store_unavailable
        "busy": QT_TRANSLATE_NOOP(
            "RefusalText",
            "{what} is busy: another process has held its lock for more than {seconds} s; try "
            "again",
        ),
        "cannot_read": QT_TRANSLATE_NOOP("RefusalText", "cannot read {file}: {error}"),
        # invalid_request
        "already_decided": QT_TRANSLATE_NOOP(
            "RefusalText", "suggestion {id} was already {decision}"
        ),
        "empty_note": QT_TRANSLATE_NOOP("RefusalText", "the note is empty"),
        "note_too_long": QT_TRANSLATE_NOOP(
            "RefusalText", "the note is {n} characters; a standing rule is at most {limit}"
        ),
        "memory_body": QT_TRANSLATE_NOOP("RefusalText", "an accepted memory needs a body"),
        "skill_description": QT_TRANSLATE_NOOP(
            "RefusalText", "an accepted skill needs a description"
        ),
        "skill_step": QT_TRANSLATE_NOOP("RefusalText", "an accepted skill needs at least one step"),
        "skill_body": QT_TRANSLATE_NOOP("RefusalText", "an accepted skill needs a body"),
    },
)

# The parts that are words of the engine's own ("the project store", "accepted").
WHATS = Forms(
    "RefusalText",
    {
        "store": QT_TRANSLATE_NOOP("RefusalText", "the {scope} store"),
        "queue": QT_TRANSLATE_NOOP("RefusalText", "the approval queue"),
    },
)
DECISIONS = Forms(
    "RefusalText",
    {
        "accepted": QT_TRANSLATE_NOOP("RefusalText", "accepted"),
        "dismissed": QT_TRANSLATE_NOOP("RefusalText", "dismissed"),
    },
)

_CONFLICT = (
    "revision_conflict",
    "changed_on_disk",
    "edited_by_hand",
    "forget_changed",
    "document_changed",
)
_EXISTS = ("create_exists", "name_used", "rescope_name_taken", "skill_exists", "skill_named")
_NOT_FOUND = (
    "no_id",
    "no_name",
    "does_not_exist",
    "no_longer_active",
    "no_revision",
    "no_item",
    "no_pending_item",
    "no_suggestion",
)
CODES: dict[str, tuple[str, ...]] = {
    "revision_conflict": _CONFLICT,
    "content_conflict": _CONFLICT,
    "already_exists": _EXISTS,
    "rescope_id_taken": ("rescope_id_taken",),
    "rescope_name_taken": ("rescope_name_taken",),
    "not_found": _NOT_FOUND,
    "target_not_found": ("target_missing",),
    "recover_refused": ("recover_name", "recover_id", "recover_link"),
    "invalid_name": ("name_no_letters", "name_reserved"),
    "store_unavailable": ("busy", "cannot_read"),
    "invalid_request": (
        "already_decided",
        "memory_body",
        "skill_description",
        "skill_step",
        "skill_body",
        "cannot_read",
    ),
    "empty_note": ("empty_note",),
    "note_too_long": ("note_too_long",),
}

_PARTS = {
    "scope": scope_label,
    "what": lambda text: WHATS.shown(text, parts={"scope": scope_label}),
    "decision": DECISIONS.part(),
    "error": OS_ERRORS.part(),
}


def refusal_message(code: str, message: str) -> str:
    """An ``EngineError``'s message (``code`` its code) in the window's language."""
    return shown_by_code(code, message, CODES, FORMS, _PARTS)


# A refused recover as the Archive tab says it, after "<ref> was not recovered:" (the engine's
# "cannot recover: " taken off).
RECOVER_REASONS = Forms(
    "RefusalText",
    {
        "name": QT_TRANSLATE_NOOP(
            "RefusalText", "{ref} is already active (another fact has that name)"
        ),
        "id": QT_TRANSLATE_NOOP("RefusalText", "id {id} is already active as {ref}"),
    },
)


def recover_reason(code: str, message: str) -> str:
    """Why a recover was refused (``message`` without "cannot recover: ")."""
    if code == "recover_refused" and RECOVER_REASONS.parse(message) is not None:
        return RECOVER_REASONS.shown(message)
    return refusal_message(code, message)


def error_message(exc: EngineError) -> str:
    """An engine refusal's message, in the window's language."""
    return refusal_message(exc.code, str(exc))
