"""Every user-visible string of the Memory tab, in one place (English is the source text)."""

from __future__ import annotations

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts

TEXT = Texts(
    "MemoryTab",
    {
        "search": QT_TRANSLATE_NOOP(
            "MemoryTab", "Search titles, names, descriptions and bodies…  (Ctrl+F)"
        ),
        "all_types": QT_TRANSLATE_NOOP("MemoryTab", "All types"),
        "both_scopes": QT_TRANSLATE_NOOP("MemoryTab", "Both scopes"),
        "any_freshness": QT_TRANSLATE_NOOP("MemoryTab", "Any freshness"),
        "loading": QT_TRANSLATE_NOOP("MemoryTab", "Loading facts…"),
        "new": QT_TRANSLATE_NOOP("MemoryTab", "New fact…"),
        "new_tip": QT_TRANSLATE_NOOP("MemoryTab", "Create a fact in this workspace or globally"),
        "edit": QT_TRANSLATE_NOOP("MemoryTab", "Edit…"),
        "edit_tip": QT_TRANSLATE_NOOP("MemoryTab", "Edit the selected fact"),
        "forget": QT_TRANSLATE_NOOP("MemoryTab", "Forget…"),
        "forget_tip": QT_TRANSLATE_NOOP(
            "MemoryTab", "Move the selected fact to the archive (recoverable)"
        ),
        "revisions": QT_TRANSLATE_NOOP("MemoryTab", "Revisions"),
        "revisions_tip": QT_TRANSLATE_NOOP(
            "MemoryTab", "Show the revision history of the selected fact"
        ),
        "counts": QT_TRANSLATE_NOOP("MemoryTab", "{project} project · {global_} global"),
        "skipped_one": QT_TRANSLATE_NOOP("MemoryTab", " · {n} file left out (see the banner)"),
        "skipped": QT_TRANSLATE_NOOP("MemoryTab", " · {n} files left out (see the banner)"),
        "shown": QT_TRANSLATE_NOOP("MemoryTab", "{shown} of {total} facts"),
        "total": QT_TRANSLATE_NOOP("MemoryTab", "{total} facts"),
        "created": QT_TRANSLATE_NOOP("MemoryTab", "Created {ref}"),
        "saved": QT_TRANSLATE_NOOP("MemoryTab", "Saved {ref} as revision {revision}"),
        "forget_title": QT_TRANSLATE_NOOP("MemoryTab", "Forget fact"),
        "forget_text": QT_TRANSLATE_NOOP("MemoryTab", "Forget {ref}?"),
        "forget_info": (
            QT_TRANSLATE_NOOP(
                "MemoryTab",
                "“{title}” leaves active recall and moves to the archive. You can recover it from "
                "the Archive tab as a new revision.",
            )
        ),
        "forget_ok": QT_TRANSLATE_NOOP("MemoryTab", "Forget"),
        "forget_many_text": QT_TRANSLATE_NOOP("MemoryTab", "Forget {n} facts?"),
        "forget_many_info": (
            QT_TRANSLATE_NOOP(
                "MemoryTab",
                "They leave active recall and move to the archive ({refs}). You can recover them "
                "from the Archive tab, or press Undo in the status bar right away.",
            )
        ),
        "forgot_many": QT_TRANSLATE_NOOP(
            "MemoryTab",
            "Forgot {n} facts (archived). Undo recovers them from the archive as new revisions.",
        ),
        "recovered_one": QT_TRANSLATE_NOOP("MemoryTab", "Recovered {n} fact from the archive"),
        "recovered": QT_TRANSLATE_NOOP("MemoryTab", "Recovered {n} facts from the archive"),
        "undo_name_title": QT_TRANSLATE_NOOP("MemoryTab", "Recover under a new name"),
        "undo_name_label": QT_TRANSLATE_NOOP(
            "MemoryTab",
            "{ref} is taken by another fact now. Recover the forgotten fact as (a file name in "
            "{scope}):",
        ),
        "undo_name_ok": QT_TRANSLATE_NOOP("MemoryTab", "Recover"),
        "undo_not_recovered": QT_TRANSLATE_NOOP(
            "MemoryTab", "{ref} was not recovered: {reason}. It stays in the Archive tab."
        ),
        "forgot": QT_TRANSLATE_NOOP(
            "MemoryTab",
            "Forgot {ref} (archived as {archived}). Undo recovers it from the archive as a new "
            "revision.",
        ),
        "link_blocked": QT_TRANSLATE_NOOP("MemoryTab", "Link not opened: {url}"),
        "link_title": QT_TRANSLATE_NOOP("MemoryTab", "Open link?"),
        "link_text": QT_TRANSLATE_NOOP("MemoryTab", "Open this link in your web browser?"),
        "link_ok": QT_TRANSLATE_NOOP("MemoryTab", "Open"),
        "discard_title": QT_TRANSLATE_NOOP("MemoryTab", "Discard changes?"),
        "discard_text": QT_TRANSLATE_NOOP("MemoryTab", "The fact editor has unsaved changes."),
        "discard_info": QT_TRANSLATE_NOOP("MemoryTab", "Discard them, or go back to the editor?"),
        "discard_ok": QT_TRANSLATE_NOOP("MemoryTab", "Discard changes"),
    },
)
