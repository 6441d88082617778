"""An engine refusal's own message (``EngineError.message``) in the window's language.

``error_text`` gives a refusal its translated title and explanation by code; the message is the
detail: which fact, which revision, which file. ``refusal_message`` finds the English form the
engine wrote it in (``engine/store``, ``engine/gate``, ``engine/instructions``,
``engine/suggestions``, ``engine/facade``) for the refusals a person meets in the window — a
conflict, a name or id taken, a fact or archive entry gone, a recover refused, a busy or
unwritable store, an approval decided elsewhere or no longer the one reviewed, a sync conflict
that cannot be resolved, an instruction file or rule refused — and fills its
translation with the same refs and numbers (a part that is itself engine text, an OS error or a
fact file's problem, through its own table). Any other message is shown as the engine wrote it.
"""

from __future__ import annotations

from context_center.engine import EngineError
from context_center.ui.diagnostic_text import FACT_CODES, OS_ERRORS, fact_problem
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
        "not_dismissed_undo": QT_TRANSLATE_NOOP(
            "RefusalText", "suggestion {id} is not dismissed; there is nothing to undo"
        ),
        "skill_outside": QT_TRANSLATE_NOOP(
            "RefusalText",
            "{path} leads outside the workspace (to {real}); skills are only written inside the "
            "workspace: replace the link with a folder, or remove it",
        ),
        # a fact (engine/store, engine/facade/rescope.py)
        "cannot_be_used": QT_TRANSLATE_NOOP("RefusalText", "{ref} cannot be used: {problem}"),
        "cannot_be_read": QT_TRANSLATE_NOOP("RefusalText", "{ref} cannot be read: {error}"),
        "same_scope": QT_TRANSLATE_NOOP("RefusalText", "{ref} is already a {scope} fact"),
        "revision_current": QT_TRANSLATE_NOOP(
            "RefusalText", "revision {revision} of {ref} is already the current one"
        ),
        # the store's files and folders (engine/store/storelock.py, locking.py, private.py,
        # loader.py)
        "cannot_create_store": QT_TRANSLATE_NOOP(
            "RefusalText", "cannot create the {scope} store: {error}"
        ),
        "cannot_write_store": QT_TRANSLATE_NOOP(
            "RefusalText", "cannot write the {scope} store: {error}"
        ),
        "cannot_lock": QT_TRANSLATE_NOOP("RefusalText", "cannot take the lock of {what}: {error}"),
        "lock_link_decisions": QT_TRANSLATE_NOOP(
            "RefusalText",
            "the lock file of the suggestion decisions ({file}) ({lock}) is a symbolic link; "
            "refusing to follow it",
        ),
        "lock_link": QT_TRANSLATE_NOOP(
            "RefusalText",
            "the lock file of {what} ({file}) is a symbolic link; refusing to follow it",
        ),
        "index_link": QT_TRANSLATE_NOOP(
            "RefusalText",
            "the store's {index} is a symbolic link; refusing to read or replace it (remove the "
            "link and the index is rebuilt)",
        ),
        "index_not_plain": QT_TRANSLATE_NOOP(
            "RefusalText",
            "the store's {index} is not a plain file of its own (a folder, a device or a hard "
            "link shared with another file); refusing to read or replace it",
        ),
        "cannot_create_queue": QT_TRANSLATE_NOOP(
            "RefusalText", "cannot create the approval queue folder {folder}: {error}"
        ),
        "queue_link": QT_TRANSLATE_NOOP(
            "RefusalText",
            "the approval queue folder {folder} is a symbolic link or not a folder; refusing to "
            "write there",
        ),
        "audit_link": QT_TRANSLATE_NOOP(
            "RefusalText", "the approval audit log {file} is a symbolic link; refusing to follow it"
        ),
        "audit_open": QT_TRANSLATE_NOOP(
            "RefusalText", "cannot open the approval audit log {file}: {error}"
        ),
        "audit_not_regular": QT_TRANSLATE_NOOP(
            "RefusalText", "the approval audit log {file} is not a regular file"
        ),
        "decisions_invalid": QT_TRANSLATE_NOOP(
            "RefusalText",
            "{path} is not a valid decisions file ({problem}); fix or remove it, then try again",
        ),
        "cannot_create": QT_TRANSLATE_NOOP("RefusalText", "cannot create {path}: {error}"),
        # the approval queue (engine/gate)
        "approved_once": QT_TRANSLATE_NOOP(
            "RefusalText", "approval item {id} was already approved; approval is one-time"
        ),
        "rejected_once": QT_TRANSLATE_NOOP(
            "RefusalText", "approval item {id} was already rejected; approval is one-time"
        ),
        "not_reviewed": QT_TRANSLATE_NOOP(
            "RefusalText",
            "approval item {id} is not the one that was reviewed (content hash differs); show it "
            "again before approving",
        ),
        "record_altered": QT_TRANSLATE_NOOP(
            "RefusalText",
            "approval record {id} was altered after it was queued (content hash differs)",
        ),
        "not_applied": QT_TRANSLATE_NOOP(
            "RefusalText",
            "approval item {id} cannot be applied: {refusal}. Nothing was written; the item "
            "stays pending (reject it, or edit it and approve again).",
        ),
        "record_damaged": QT_TRANSLATE_NOOP(
            "RefusalText", "approval record {file} is damaged: {n} problem(s)"
        ),
        "record_other_id": QT_TRANSLATE_NOOP(
            "RefusalText", "approval record {file} names another id ({id})"
        ),
        "record_no_target": QT_TRANSLATE_NOOP(
            "RefusalText", "approval item {id} has no target or base revision"
        ),
        "record_unreadable": QT_TRANSLATE_NOOP(
            "RefusalText", "approval file {file} cannot be read: {problem}"
        ),
        "edited_no_body": QT_TRANSLATE_NOOP("RefusalText", "the edited fact has no body"),
        "edited_no_name": QT_TRANSLATE_NOOP("RefusalText", "the edited fact has no name"),
        "forget_no_edit": QT_TRANSLATE_NOOP(
            "RefusalText", "a forget has no content to edit; approve or reject it as it is"
        ),
        "pending_not_rejected": QT_TRANSLATE_NOOP(
            "RefusalText", "approval item {id} is pending, not rejected"
        ),
        "approved_not_rejected": QT_TRANSLATE_NOOP(
            "RefusalText", "approval item {id} is approved, not rejected"
        ),
        "already_requeued": QT_TRANSLATE_NOOP(
            "RefusalText", "approval item {id} was already put back in the queue"
        ),
        # the archive (engine/store/archive.py, factstore.py, memory.py)
        "archive_none": QT_TRANSLATE_NOOP(
            "RefusalText", "archived memory not found (this store has no archive)"
        ),
        "archive_folder": QT_TRANSLATE_NOOP(
            "RefusalText",
            "archived memory not found: the .archive folder is a symbolic link or not a folder",
        ),
        "archive_not_regular": QT_TRANSLATE_NOOP(
            "RefusalText", "archived memory not found: {file} is not a regular file"
        ),
        "archive_not_entry": QT_TRANSLATE_NOOP(
            "RefusalText",
            "archived memory not found: {path} is not an entry of this store's archive",
        ),
        "archive_not_workspace": QT_TRANSLATE_NOOP(
            "RefusalText",
            "archived memory not found: {path} is not an entry of this workspace's archives",
        ),
        "archive_missing": QT_TRANSLATE_NOOP("RefusalText", "archived memory not found: {file}"),
        "archive_unreadable": QT_TRANSLATE_NOOP(
            "RefusalText", "archived entry cannot be read: {problem}"
        ),
        # sync conflicts (engine/store/syncresolve.py)
        "copy_orphan": QT_TRANSLATE_NOOP(
            "RefusalText", "{file} is a conflict copy of a fact that is not active"
        ),
        "no_git_conflict": QT_TRANSLATE_NOOP(
            "RefusalText", "{file} holds no complete git conflict to resolve"
        ),
        "side_other_fact": QT_TRANSLATE_NOOP(
            "RefusalText", "the {side} side of {file} names another fact ({name})"
        ),
        "side_not_fact": QT_TRANSLATE_NOOP(
            "RefusalText", "the {side} side of {file} cannot be read as a fact: {problem}"
        ),
        "copy_not_fact": QT_TRANSLATE_NOOP(
            "RefusalText", "{file} cannot be read as a fact: {problem}"
        ),
        # the instruction editor and its rules (engine/instructions/docfile.py, rules.py)
        "not_regular": QT_TRANSLATE_NOOP("RefusalText", "{file} is not a regular file"),
        "doc_too_large": QT_TRANSLATE_NOOP("RefusalText", "{file} is larger than {n} bytes"),
        "doc_undecodable": QT_TRANSLATE_NOOP(
            "RefusalText", "{file} is neither UTF-8 nor GB18030 text"
        ),
        "rule_undecodable": QT_TRANSLATE_NOOP(
            "RefusalText", "{file} is neither UTF-8 nor GB18030; not changing it"
        ),
        "rule_link": QT_TRANSLATE_NOOP(
            "RefusalText", "{file} is a symbolic link leading outside {folder}"
        ),
        "cannot_use": QT_TRANSLATE_NOOP("RefusalText", "cannot use {file}: {error}"),
        "rule_no_folder": QT_TRANSLATE_NOOP(
            "RefusalText", "cannot create {file}: {folder} is not a folder"
        ),
        "rule_busy": QT_TRANSLATE_NOOP(
            "RefusalText",
            "the instruction file kept changing while the rule was being added; try again",
        ),
        "rule_controls": QT_TRANSLATE_NOOP(
            "RefusalText",
            "the note holds control characters ({controls}); a standing rule is plain text, so "
            "nothing was written",
        ),
    },
)

# The parts that are words of the engine's own ("the project store", "accepted").
WHATS = Forms(
    "RefusalText",
    {
        "store": QT_TRANSLATE_NOOP("RefusalText", "the {scope} store"),
        "queue": QT_TRANSLATE_NOOP("RefusalText", "the approval queue"),
        "decisions": QT_TRANSLATE_NOOP("RefusalText", "the suggestion decisions ({file})"),
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
_ARCHIVE = (
    "archive_none",
    "archive_folder",
    "archive_not_regular",
    "archive_not_entry",
    "archive_not_workspace",
    "archive_missing",  # last: it reads any file name
)
_NOT_FOUND = (
    "no_id",
    "no_name",
    "copy_orphan",
    "does_not_exist",
    "no_longer_active",
    "no_revision",
    "no_item",
    "no_pending_item",
    "no_suggestion",
    *_ARCHIVE,
)
_UNAVAILABLE = (
    "busy",
    "cannot_read",
    "cannot_create_store",
    "cannot_write_store",
    "cannot_lock",
    "cannot_create_queue",
    "queue_link",
    "audit_link",
    "audit_open",
    "audit_not_regular",
    "decisions_invalid",
    "cannot_create",  # after the folder it would also read
)
_UNWRITABLE = ("not_regular", "cannot_use", "cannot_read", "rule_no_folder", "cannot_create")
# A fact file's problem (its diagnostic's code) behind a refused read or write.
_FACT_PROBLEM = ("cannot_be_used", "side_not_fact", "copy_not_fact", "archive_unreadable")
CODES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(FACT_CODES, _FACT_PROBLEM),
    "unreadable": ("cannot_be_read", *_FACT_PROBLEM),
    "revision_conflict": _CONFLICT,
    "content_conflict": _CONFLICT,
    "already_exists": _EXISTS,
    "rescope_id_taken": ("rescope_id_taken",),
    "rescope_name_taken": ("rescope_name_taken",),
    "not_found": _NOT_FOUND,
    "target_not_found": ("target_missing",),
    "recover_refused": ("recover_name", "recover_id", "recover_link", *_ARCHIVE),
    "invalid_name": ("name_no_letters", "name_reserved"),
    "store_unavailable": _UNAVAILABLE,
    "unsafe_store_file": ("lock_link_decisions", "lock_link", "index_link", "index_not_plain"),
    "invalid_request": (
        "already_decided",
        "memory_body",
        "skill_description",
        "skill_step",
        "skill_body",
        "cannot_read",
        "revision_current",
        "record_damaged",
        "record_other_id",
        "record_unreadable",
        "record_no_target",
        "edited_no_body",
        "edited_no_name",
        "forget_no_edit",
        "no_git_conflict",
        "side_other_fact",
        "not_regular",
        "doc_too_large",
        "doc_undecodable",
    ),
    "empty_note": ("empty_note",),
    "note_too_long": ("note_too_long",),
    "control_characters": ("rule_controls",),
    "instruction_busy": ("rule_busy",),
    "instruction_file_undecodable": ("rule_undecodable",),
    "instruction_symlink_escape": ("rule_link",),
    "instruction_unwritable": _UNWRITABLE,
    "not_dismissed": ("not_dismissed_undo",),
    "outside_workspace": ("skill_outside",),
    "same_scope": ("same_scope",),
    "already_decided": ("approved_once", "rejected_once"),
    "approval_refused": ("not_reviewed", "record_altered"),
    "approval_conflict": ("not_applied",),
    "not_rejected": ("pending_not_rejected", "approved_not_rejected"),
    "already_requeued": ("already_requeued",),
}


def _refusal(text: str) -> str:
    """The store's refusal inside an approval that could not be applied."""
    return FORMS.shown(text, (*_CONFLICT, *_EXISTS, *_NOT_FOUND), _PARTS)


_PARTS = {
    "scope": scope_label,
    "what": lambda text: WHATS.shown(text, parts={"scope": scope_label}),
    "decision": DECISIONS.part(),
    "error": OS_ERRORS.part(),
    "problem": fact_problem,
    "refusal": _refusal,
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
