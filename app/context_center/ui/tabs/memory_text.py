"""Every user-visible string of the Memory tab, in one place (English is the source text)."""

from __future__ import annotations

TEXT = {
    "search": "Search titles, names, descriptions and bodies…  (Ctrl+F)",
    "all_types": "All types",
    "both_scopes": "Both scopes",
    "any_freshness": "Any freshness",
    "loading": "Loading facts…",
    "new": "New fact…",
    "new_tip": "Create a fact in this workspace or globally",
    "edit": "Edit…",
    "edit_tip": "Edit the selected fact",
    "forget": "Forget…",
    "forget_tip": "Move the selected fact to the archive (recoverable)",
    "revisions": "Revisions",
    "revisions_tip": "Show the revision history of the selected fact",
    "counts": "{project} project · {global_} global",
    "skipped": " · {n} file(s) left out (see the banner)",
    "shown": "{shown} of {total} facts",
    "total": "{total} facts",
    "created": "Created {ref}",
    "saved": "Saved {ref} as revision {revision}",
    "forget_title": "Forget fact",
    "forget_text": "Forget {ref}?",
    "forget_info": (
        "“{title}” leaves active recall and moves to the archive. You can recover it from "
        "the Archive tab as a new revision."
    ),
    "forget_ok": "Forget",
    "forget_many_text": "Forget {n} facts?",
    "forget_many_info": (
        "They leave active recall and move to the archive ({refs}). You can recover them "
        "from the Archive tab, or press Undo in the status bar right away."
    ),
    "forgot_many": "Forgot {n} facts (archived)",
    "recovered": "Recovered {n} fact(s) from the archive",
    "forgot": "Forgot {ref} (archived as {archived})",
    "link_blocked": "Link not opened: {url}",
    "link_title": "Open link?",
    "link_text": "Open this link in your web browser?",
    "link_ok": "Open",
    "discard_title": "Discard changes?",
    "discard_text": "The fact editor has unsaved changes.",
    "discard_info": "Discard them, or go back to the editor?",
    "discard_ok": "Discard changes",
}
