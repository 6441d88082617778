"""Every user-visible string of instructions.py, in one place (English is the source text)."""

from __future__ import annotations

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts

TEXT = Texts(
    "InstructionsTab",
    {
        "whose_rules_what_reasonix": QT_TRANSLATE_NOOP(
            "InstructionsTab", "Whose rules: what Reasonix, Claude Code or Codex loads here"
        ),
        "the_directory_the_agent": QT_TRANSLATE_NOOP(
            "InstructionsTab", "The directory the agent works in, relative to the workspace"
        ),
        "browse": QT_TRANSLATE_NOOP("InstructionsTab", "Browse…"),
        "a_standing_rule_e": QT_TRANSLATE_NOOP(
            "InstructionsTab", "A standing rule, e.g. Run the tests before committing"
        ),
        "project_agents_md": QT_TRANSLATE_NOOP("InstructionsTab", "project (AGENTS.md)"),
        "local_agents_local_md": QT_TRANSLATE_NOOP("InstructionsTab", "local (AGENTS.local.md)"),
        "user_home_agents_md": QT_TRANSLATE_NOOP("InstructionsTab", "user (home AGENTS.md)"),
        "add_rule": QT_TRANSLATE_NOOP("InstructionsTab", "Add rule"),
        "diagnostics": QT_TRANSLATE_NOOP("InstructionsTab", "Diagnostics"),
        "resolved_chain_broadest_first": QT_TRANSLATE_NOOP(
            "InstructionsTab", "Resolved chain — broadest first; later entries win"
        ),
        "document": QT_TRANSLATE_NOOP("InstructionsTab", "Document"),
        "prefix_preview": QT_TRANSLATE_NOOP("InstructionsTab", "Prefix preview"),
        "compare": QT_TRANSLATE_NOOP("InstructionsTab", "Compare"),
        "target_directory": QT_TRANSLATE_NOOP("InstructionsTab", "Target directory"),
        "agent": QT_TRANSLATE_NOOP("InstructionsTab", "Agent"),
        "diagnostics_none": QT_TRANSLATE_NOOP("InstructionsTab", "Diagnostics — none"),
        "select_a_document_in": QT_TRANSLATE_NOOP(
            "InstructionsTab", "Select a document in the chain to view or edit it."
        ),
        "prefix_preview_n_chars": QT_TRANSLATE_NOOP("InstructionsTab", "Prefix ({n} chars)"),
        "file_line_line": QT_TRANSLATE_NOOP("InstructionsTab", "{file}, line {line}"),
        "diag_detail": QT_TRANSLATE_NOOP("InstructionsTab", "{code} — {where}: {message}"),
        "unsaved_changes": QT_TRANSLATE_NOOP("InstructionsTab", "Unsaved changes"),
        "saved_file": QT_TRANSLATE_NOOP("InstructionsTab", "Saved {file}"),
        "added_the_rule_to": QT_TRANSLATE_NOOP("InstructionsTab", "Added the rule to {file}"),
        "diagnostics_n_double_click": QT_TRANSLATE_NOOP(
            "InstructionsTab", "Diagnostics ({n}) — double-click to open the file at that line"
        ),
        "a_large_prefix_warnings": QT_TRANSLATE_NOOP(
            "InstructionsTab", "⚠ A large prefix: {warnings}."
        ),
        "discard": QT_TRANSLATE_NOOP("InstructionsTab", "Discard"),
        "discard_your_unsaved_changes": QT_TRANSLATE_NOOP(
            "InstructionsTab", "Discard your unsaved changes to {name}?"
        ),
    },
)
