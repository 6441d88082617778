"""The Suggestions tab's engine text in the window's language: a memory candidate's Why (the
marker the engine found), the scan's notes on what it left out, a source's note and the
fail-closed explanation of a workspace that is not local.

The forms are those of ``engine/suggestions`` (mining.py's markers, service.py's notes with
known.py's ``Origin.describe``, the sources' notes, remote.py's reasons); a text in no known
form is shown as the engine wrote it (``engine_text.Forms``).
"""

from __future__ import annotations

from context_center.ui.engine_text import Forms
from context_center.ui.i18n import QT_TRANSLATE_NOOP

# A memory candidate's ``reason``: why the turn reads as a standing rule (mining._MARKERS).
REASONS = Forms(
    "SuggestionText",
    {
        "remember": QT_TRANSLATE_NOOP("SuggestionText", "explicit remember request"),
        "future": QT_TRANSLATE_NOOP("SuggestionText", "future-facing preference"),
        "persistent": QT_TRANSLATE_NOOP("SuggestionText", "persistent working rule"),
        "repeated": QT_TRANSLATE_NOOP("SuggestionText", "repeated workflow preference"),
        "default": QT_TRANSLATE_NOOP("SuggestionText", "default behaviour preference"),
        "negative": QT_TRANSLATE_NOOP("SuggestionText", "negative working preference"),
        "stated": QT_TRANSLATE_NOOP("SuggestionText", "stated preference"),
        "durable": QT_TRANSLATE_NOOP("SuggestionText", "durable rule"),
        "convention": QT_TRANSLATE_NOOP("SuggestionText", "project convention"),
    },
)

# Where a left-out candidate is already said (known.Origin.describe).
ORIGINS = Forms(
    "SuggestionText",
    {
        "fact": QT_TRANSLATE_NOOP("SuggestionText", "the fact {label} (“{title}”)"),
        "instruction": QT_TRANSLATE_NOOP("SuggestionText", "the instruction file {label}"),
        "candidate": QT_TRANSLATE_NOOP("SuggestionText", "the candidate {label} above"),
    },
)

NOTES = Forms(
    "SuggestionText",
    {
        "left_out": QT_TRANSLATE_NOOP(
            "SuggestionText", "Left out “{title}”: {origin} already says this."
        ),
        "more_left_out": QT_TRANSLATE_NOOP(
            "SuggestionText",
            "… and {n} more left out because a fact or instruction already says them.",
        ),
    },
)

SOURCE_NOTES = Forms(
    "SuggestionText",
    {
        "no_history": QT_TRANSLATE_NOOP(
            "SuggestionText", "no history log yet (context-center history append writes one)"
        ),
        "network": QT_TRANSLATE_NOOP(
            "SuggestionText", "on a network file system ({fstype}); not read"
        ),
        "no_claude": QT_TRANSLATE_NOOP(
            "SuggestionText", "no Claude Code transcripts for this workspace"
        ),
        "no_codex": QT_TRANSLATE_NOOP("SuggestionText", "no Codex CLI sessions"),
    },
)

# Why a workspace is not scanned (suggestions/remote.py remote_reason).
EXPLANATIONS = Forms(
    "SuggestionText",
    {
        "remote": QT_TRANSLATE_NOOP(
            "SuggestionText",
            "The workspace '{workspace}' is a remote location. Suggestions read only local "
            "session history of a local workspace and never fall back to this machine's history "
            "for it, so nothing was scanned.",
        ),
        "looks_remote": QT_TRANSLATE_NOOP(
            "SuggestionText",
            "The workspace '{workspace}' looks like a remote location. Suggestions read only "
            "local session history of a local workspace, so nothing was scanned.",
        ),
        "relative": QT_TRANSLATE_NOOP(
            "SuggestionText",
            "The workspace '{workspace}' is not an absolute local path, so nothing was scanned.",
        ),
        "missing": QT_TRANSLATE_NOOP(
            "SuggestionText",
            "The workspace '{workspace}' does not exist on this machine (it may live on a remote "
            "host). Suggestions fail closed: nothing was scanned.",
        ),
        "network": QT_TRANSLATE_NOOP(
            "SuggestionText",
            "The workspace '{workspace}' is on a network file system ({fstype}), so it cannot be "
            "confirmed local. Suggestions fail closed: nothing was scanned.",
        ),
    },
)

_NOTE_PARTS = {"origin": ORIGINS.part()}


def reason_text(reason: str) -> str:
    """A memory candidate's Why."""
    return REASONS.shown(reason)


def note_text(note: str) -> str:
    """One of the scan's notes (what it left out)."""
    return NOTES.shown(note, parts=_NOTE_PARTS)


def source_note(note: str) -> str:
    return SOURCE_NOTES.shown(note)


def explanation_text(explanation: str) -> str:
    return EXPLANATIONS.shown(explanation)
