"""The Compare pane's engine text in the window's language: why an agent does or does not read
a file (a cell's ``detail``) and the cross-agent diagnostics (``engine/instructions/compare.py``
and the profiles' ``FileStatus.detail``).

A detail may be a refusal's reason key (``missing``, ``too_large``…) or one of the forms below;
a cell refused with an instruction diagnostic carries that diagnostic's message. Anything else
is shown as the engine wrote it (``engine_text.Forms``).
"""

from __future__ import annotations

from context_center.ui.diagnostic_text import INSTRUCTION_REASONS, instruction_text
from context_center.ui.engine_text import Forms, shown_by_code
from context_center.ui.i18n import ENGLISH, QT_TRANSLATE_NOOP, Texts, current_language

DETAILS = Forms(
    "CompareText",
    {
        "empty": QT_TRANSLATE_NOOP("CompareText", "empty"),
        "imported_by": QT_TRANSLATE_NOOP("CompareText", "imported by {source}"),
        "already_loaded": QT_TRANSLATE_NOOP("CompareText", "already loaded as {label}"),
        "same_text": QT_TRANSLATE_NOOP("CompareText", "same text as {label}"),
        "used_up": QT_TRANSLATE_NOOP(
            "CompareText", "project_doc_max_bytes ({n}) was used up before this file"
        ),
        "rule_paths": QT_TRANSLATE_NOOP(
            "CompareText", "paths: {paths} (loads when Claude reads a matching file)"
        ),
        "own_home": QT_TRANSLATE_NOOP("CompareText", "{prefix} is {agent}'s own home"),
        "claude_only_imported": QT_TRANSLATE_NOOP(
            "CompareText", "Claude Code reads {name} only when a file it loads imports it"
        ),
        "claude_not_imported": QT_TRANSLATE_NOOP(
            "CompareText", "no file Claude Code loads here imports it"
        ),
        "codex_names": QT_TRANSLATE_NOOP(
            "CompareText",
            "Codex reads only AGENTS.override.md, AGENTS.md or a fallback name, not {name}",
        ),
        "codex_no_imports": QT_TRANSLATE_NOOP("CompareText", "Codex follows no imports"),
        "reasonix_never": QT_TRANSLATE_NOOP("CompareText", "Reasonix never reads {name}"),
        "reasonix_imports": QT_TRANSLATE_NOOP(
            "CompareText",
            "Reasonix imports only an @path alone on its line, inside the file's folder",
        ),
        "not_here": QT_TRANSLATE_NOOP("CompareText", "{agent} does not read it here"),
    },
)

CROSS = Forms(
    "CompareText",
    {
        "reasonix_skips": QT_TRANSLATE_NOOP(
            "CompareText",
            "{source}:{line} imports {target} for Claude Code; Reasonix reads only an @path "
            "alone on its line and skips it",
        ),
        "reasonix_refuses": QT_TRANSLATE_NOOP(
            "CompareText",
            "{source}:{line}: Claude Code follows the import of {target}; Reasonix refuses it "
            "({code})",
        ),
        "codex_never": QT_TRANSLATE_NOOP(
            "CompareText",
            "{source}:{line} imports {target} for {agent}; Codex follows no imports, so it "
            "never sees it",
        ),
        "unseen": QT_TRANSLATE_NOOP("CompareText", "{label} reaches {agents}; {never}"),
        "codex_cut": QT_TRANSLATE_NOOP(
            "CompareText",
            "Codex stops at byte {byte} of {label} (line {line}, column {column}): "
            "project_doc_max_bytes is {limit}",
        ),
        "codex_cut_lost": QT_TRANSLATE_NOOP(
            "CompareText",
            "Codex stops at byte {byte} of {label} (line {line}, column {column}): "
            "project_doc_max_bytes is {limit}; never reached: {lost}",
        ),
        "duplicate_rule": QT_TRANSLATE_NOOP(
            "CompareText", "“{rule}” is in {agent}'s context {n} times ({places})"
        ),
    },
)
NEVER = Forms("CompareText", {"never": QT_TRANSLATE_NOOP("CompareText", "never {agent} ({why})")})
SEPARATORS = Texts("CompareText", {"clauses": QT_TRANSLATE_NOOP("CompareText", "; ")})
CROSS_CODES: dict[str, tuple[str, ...]] = {
    "cross_import_ignored": ("reasonix_skips", "reasonix_refuses", "codex_never"),
    "cross_file_unseen": ("unseen",),
    "cross_codex_cut": ("codex_cut_lost", "codex_cut"),
    "cross_duplicate_rule": ("duplicate_rule",),
}


def cell_detail(detail: str) -> str:
    """Why an agent reads a file this way (a compare cell's tooltip)."""
    if not detail or current_language() == ENGLISH:
        return detail
    reason = INSTRUCTION_REASONS.source.get(detail)
    if reason is not None:  # a refusal's reason key (its number is the engine's to say)
        return INSTRUCTION_REASONS[detail] if "{" not in reason else detail
    shown = DETAILS.shown(detail)
    return shown if shown != detail else instruction_text(detail)


def _never(text: str) -> str:
    pieces = text.split("; ")
    shown = [NEVER.shown(p, parts={"why": cell_detail}) for p in pieces]
    return SEPARATORS["clauses"].join(shown)


def cross_message(code: str, message: str) -> str:
    """A cross-agent diagnostic in the window's language."""
    return shown_by_code(code, message, CROSS_CODES, CROSS, {"never": _never})
