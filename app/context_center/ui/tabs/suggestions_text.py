"""Every user-visible string of suggestions.py, in one place (English is the source text)."""

from __future__ import annotations

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts

TEXT = Texts(
    "SuggestionsTab",
    {
        "suggestions_from_your_past": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "Suggestions from your past sessions"
        ),
        "scan_again": QT_TRANSLATE_NOOP("SuggestionsTab", "Scan again"),
        "read_your_recent_turns": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "Read your recent turns again (nothing is written)"
        ),
        "context_center_reads_what": QT_TRANSLATE_NOOP(
            "SuggestionsTab",
            "Context Center reads what you typed in recent sessions of this workspace and proposes rules worth remembering and workflows worth a skill. Scanning never writes anything; nothing is saved until you accept it.",
        ),
        "accept": QT_TRANSLATE_NOOP("SuggestionsTab", "Accept"),
        "save_it_now_with": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "Save it now, with your edits (Ctrl+S)"
        ),
        "dismiss": QT_TRANSLATE_NOOP("SuggestionsTab", "Dismiss"),
        "not_wanted_it_will": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "Not wanted: it will not be proposed again"
        ),
        "undo_edits": QT_TRANSLATE_NOOP("SuggestionsTab", "Undo edits"),
        "where_your_turns_came": QT_TRANSLATE_NOOP("SuggestionsTab", "Where your turns came from"),
        "scanning_has_not_run": QT_TRANSLATE_NOOP("SuggestionsTab", "Scanning has not run yet."),
        "scanning_your_recent_sessions": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "Scanning your recent sessions for suggestions…"
        ),
        "dismissed_it_will_not": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "Dismissed; it will not be proposed again"
        ),
        "discard_your_edits": QT_TRANSLATE_NOOP("SuggestionsTab", "Discard your edits?"),
        "scanned_sessions_session_s": QT_TRANSLATE_NOOP(
            "SuggestionsTab",
            "Sessions scanned: {sessions} · your turns read: {turns} (the {limit} most recent sessions across all sources).",
        ),
        "nothing_was_read": QT_TRANSLATE_NOOP("SuggestionsTab", "Nothing was read."),
        "suggestions_are_off_for": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "Suggestions are off for this workspace (not confirmed local)"
        ),
        "you_edited_1_suggestion": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "You edited 1 suggestion without accepting it."
        ),
        "accept_keeps_an_edited": QT_TRANSLATE_NOOP(
            "SuggestionsTab",
            "Accept keeps an edited suggestion; discarding drops the edits (the suggestions themselves stay).",
        ),
        "discard_edits": QT_TRANSLATE_NOOP("SuggestionsTab", "Discard edits"),
        "suggestions_are_not_available": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "Suggestions are not available here."
        ),
        "no_suggestions_this_workspace": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "No suggestions: this workspace is not confirmed local."
        ),
        "n_malformed_line_s_one": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "{n} malformed line was skipped."
        ),
        "n_malformed_line_s": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "{n} malformed lines were skipped."
        ),
        "memories_memory_and_skills": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "Suggestions: {memories} memory, {skills} skill"
        ),
        "no_suggestions_right_now": QT_TRANSLATE_NOOP(
            "SuggestionsTab",
            "No suggestions right now.\n\nWhen you state a lasting preference (“always…”, “以后…”) or ask for the same workflow in several sessions, it shows up here.",
        ),
        "saved_ref": QT_TRANSLATE_NOOP("SuggestionsTab", "Saved {ref}"),
        "wrote_ref": QT_TRANSLATE_NOOP("SuggestionsTab", "Wrote {ref}"),
        "you_edited_n_suggestions": QT_TRANSLATE_NOOP(
            "SuggestionsTab", "You edited {n} suggestions without accepting them."
        ),
    },
)
