"""Diagnostics in the window's language: an instruction file's (the Instructions tab), a fact
file's (the Memory tab's broken-file banner) and why a Claude Code memory file is not read or
not imported (the Claude Code tab).

Each diagnostic code is written in a few English forms (``engine/instructions/**`` and
``engine/store/**``); ``instruction_message`` and ``fact_message`` find the form a message was
written from and fill its translation with the same names, paths and numbers
(``engine_text.Forms``). A code this module does not list, or a message in no known form, is
shown as the engine wrote it.
"""

from __future__ import annotations

from context_center.ui.engine_text import Forms, shown_by_code
from context_center.ui.i18n import QT_TRANSLATE_NOOP
from context_center.ui.secret_text import secret_labels
from context_center.ui.terms import scope_label

# What follows "was not loaded:" / "refused:" (engine/instructions/model.py REASONS).
INSTRUCTION_REASONS = Forms(
    "DiagnosticText",
    {
        "absolute": QT_TRANSLATE_NOOP("DiagnosticText", "absolute paths are not allowed"),
        "home": QT_TRANSLATE_NOOP("DiagnosticText", "paths starting with ~ are not allowed"),
        "parent_escape": QT_TRANSLATE_NOOP(
            "DiagnosticText", "the path leaves the directory that owns the instruction file"
        ),
        "symlink": QT_TRANSLATE_NOOP(
            "DiagnosticText", "a symbolic link on the way leads outside the owning directory"
        ),
        "missing": QT_TRANSLATE_NOOP("DiagnosticText", "it does not exist"),
        "permission_denied": QT_TRANSLATE_NOOP("DiagnosticText", "permission denied"),
        "directory": QT_TRANSLATE_NOOP("DiagnosticText", "it is a directory"),
        "not_regular_file": QT_TRANSLATE_NOOP(
            "DiagnosticText", "it is not a regular file (FIFO, device or socket)"
        ),
        "os_error": QT_TRANSLATE_NOOP("DiagnosticText", "it cannot be read"),
        "changed": QT_TRANSLATE_NOOP("DiagnosticText", "it changed while being read"),
        "too_large": QT_TRANSLATE_NOOP("DiagnosticText", "it is larger than {n} bytes"),
        "undecodable": QT_TRANSLATE_NOOP(
            "DiagnosticText", "it is neither valid UTF-8 nor valid GB18030"
        ),
        "cycle": QT_TRANSLATE_NOOP("DiagnosticText", "it is already being imported on this chain"),
        "depth": QT_TRANSLATE_NOOP("DiagnosticText", "imports nest at most {n} levels deep"),
        "package": QT_TRANSLATE_NOOP(
            "DiagnosticText", "it looks like a package name, not a file; no such file exists"
        ),
        "external": QT_TRANSLATE_NOOP("DiagnosticText", "it is outside the working directory"),
    },
)

# A Claude Code rule's front matter problem (engine/instructions/profiles/claude_rules.py).
RULE_PROBLEMS = Forms(
    "DiagnosticText",
    {
        "too_large": QT_TRANSLATE_NOOP("DiagnosticText", "the frontmatter is too large"),
        "yaml": QT_TRANSLATE_NOOP(
            "DiagnosticText", "the frontmatter is not valid YAML; quote globs"
        ),
        "yaml_line": QT_TRANSLATE_NOOP(
            "DiagnosticText", "the frontmatter is not valid YAML (line {line}); quote globs"
        ),
        "paths": QT_TRANSLATE_NOOP("DiagnosticText", "paths: must be a glob or a list of globs"),
    },
)

# A Codex config.toml problem (engine/instructions/profiles/codex.py read_config); the
# reason a config could not be read at all is the parser's own text, kept as written.
CONFIG_PROBLEMS = Forms(
    "DiagnosticText",
    {
        "max_bytes": QT_TRANSLATE_NOOP(
            "DiagnosticText", "project_doc_max_bytes must be a non-negative integer"
        ),
        "string_list": QT_TRANSLATE_NOOP("DiagnosticText", "{key} must be a list of strings"),
        "not_read": QT_TRANSLATE_NOOP("DiagnosticText", "config.toml was not read: {error}"),
    },
)


def _problem(text: str) -> str:
    """A rule's front matter problem or a config problem (both follow "…: ")."""
    shown = RULE_PROBLEMS.shown(text)
    return shown if shown != text else CONFIG_PROBLEMS.shown(text)


INSTRUCTION_FORMS = Forms(
    "DiagnosticText",
    {
        "not_loaded": QT_TRANSLATE_NOOP("DiagnosticText", "{label} was not loaded: {reason}"),
        "outside_home": QT_TRANSLATE_NOOP(
            "DiagnosticText", "{label} was not loaded: its real path is outside the home"
        ),
        "outside_workspace": QT_TRANSLATE_NOOP(
            "DiagnosticText", "{label} was not loaded: its real path is outside the workspace"
        ),
        "codex_link": QT_TRANSLATE_NOOP(
            "DiagnosticText", "{label} is a link to a file outside the workspace; Codex follows it"
        ),
        "import_refused_code": QT_TRANSLATE_NOOP(
            "DiagnosticText", "import of '{label}' refused ({code}): {reason}"
        ),
        "import_refused": QT_TRANSLATE_NOOP(
            "DiagnosticText", "import of '{label}' refused: {reason}"
        ),
        "target_outside": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "the target directory ({label}) is outside the workspace; resolved for the "
            "workspace root instead",
        ),
        "secret": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "a {what} on line {line} of {label} was withheld from the agent's text; move it out "
            "of the instruction file",
        ),
        "not_utf8": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "{label} is not valid UTF-8: Codex reads it with replacement characters",
        ),
        "config_invalid": QT_TRANSLATE_NOOP(
            "DiagnosticText", "config.toml: {problem}; the default is used"
        ),
        "not_reached": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "{label} never reaches Codex: the {n}-byte project_doc_max_bytes was used up before it",
        ),
        "not_reached_blank": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "{label} never reaches Codex: project_doc_max_bytes ({limit}) left {n} bytes for it, "
            "only whitespace",
        ),
        "read_cap": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "{label} is {size} bytes: Codex reads {n} of them; only the first {shown} are shown "
            "here",
        ),
        "claude_large": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "{label} has {n} characters: Claude Code warns at start-up that a memory file over "
            "{limit} will impact performance",
        ),
        "cut_off": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "project_doc_max_bytes ({limit}) cuts {label} at byte {byte} (line {line}, column "
            "{column}): {size} bytes, {lines} non-empty lines never reach Codex",
        ),
        "cut_off_from": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "project_doc_max_bytes ({limit}) cuts {label} at byte {byte} (line {line}, column "
            "{column}): {size} bytes, {lines} non-empty lines never reach Codex, from: {preview}",
        ),
        "missing": QT_TRANSLATE_NOOP(
            "DiagnosticText", "@{written} names no file; Claude Code skips it without a word"
        ),
        "missing_package": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "@{written} names no file; Claude Code skips it without a word (it looks like a "
            "package name)",
        ),
        "claude_depth": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "Claude Code follows imports at most {n} levels deep; {label} is not loaded",
        ),
        "needs_approval": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "{label} is outside the working directory: Claude Code asks once per project before "
            "loading external imports, and loads nothing from them until you agree",
        ),
        "rules_truncated": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "{label} holds more rule files or folders than are read here; only the first ones "
            "are shown",
        ),
        "rule_frontmatter": QT_TRANSLATE_NOOP("DiagnosticText", "{label}: {problem}"),
    },
)

_IMPORT = ("import_refused_code", "import_refused", "claude_depth")
INSTRUCTION_CODES: dict[str, tuple[str, ...]] = {
    "document_unreadable": ("not_loaded",),
    "document_undecodable": ("not_loaded",),
    "document_too_large": ("not_loaded", "read_cap"),
    "document_symlink_escape": ("outside_home", "outside_workspace", "codex_link"),
    "import_outside_source": _IMPORT,
    "import_absolute_path": _IMPORT,
    "import_home_path": _IMPORT,
    "import_symlink_escape": _IMPORT,
    "import_unreadable": _IMPORT,
    "import_undecodable": _IMPORT,
    "import_too_large": _IMPORT,
    "import_cycle": _IMPORT,
    "import_depth": _IMPORT,
    "import_missing": ("missing", "missing_package", *_IMPORT),
    "import_needs_approval": ("needs_approval",),
    "target_outside_workspace": ("target_outside",),
    "instruction_secret_withheld": ("secret",),
    "document_not_utf8": ("not_utf8",),
    "codex_config_invalid": ("config_invalid",),
    "document_not_reached": ("not_reached", "not_reached_blank"),
    "document_cut_off": ("cut_off", "cut_off_from"),
    "claude_rule_frontmatter": ("rule_frontmatter",),
    "claude_rules_truncated": ("rules_truncated",),
    "claude_md_large": ("claude_large",),
}

_INSTRUCTION_PARTS = {
    "reason": INSTRUCTION_REASONS.part(),
    "problem": _problem,
    "what": secret_labels,
}


def instruction_message(code: str, message: str) -> str:
    """An instruction diagnostic's message in the window's language."""
    return shown_by_code(code, message, INSTRUCTION_CODES, INSTRUCTION_FORMS, _INSTRUCTION_PARTS)


# What the Instructions tab warns about a large prefix (engine/instructions/prefix.py).
PREFIX_WARNINGS = Forms(
    "DiagnosticText",
    {
        "document_large": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "{label} adds {n} characters to every session (more than {limit}); move what is not "
            "a rule into memory",
        ),
        "document_adds": QT_TRANSLATE_NOOP(
            "DiagnosticText", "{label} adds {n} characters to every session"
        ),
        "instructions_large": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "the instructions are {n} characters (more than {limit}); every session carries all "
            "of them",
        ),
    },
)


def prefix_warning(warning: str) -> str:
    """One of a prefix's warnings (``Prefix.warnings``) in the window's language."""
    return PREFIX_WARNINGS.shown(warning)


def instruction_text(message: str) -> str:
    """A message in any instruction diagnostic's form (one whose code is not at hand)."""
    return INSTRUCTION_FORMS.shown(message, parts=_INSTRUCTION_PARTS)


# -- fact files (engine/store/loader.py, factfile.py, factcache.py, guarded.py, syncfiles.py)

OS_ERRORS = Forms(
    "DiagnosticText",
    {
        "denied": QT_TRANSLATE_NOOP("DiagnosticText", "Permission denied"),
        "missing": QT_TRANSLATE_NOOP("DiagnosticText", "No such file or directory"),
        "io": QT_TRANSLATE_NOOP("DiagnosticText", "Input/output error"),
        "loop": QT_TRANSLATE_NOOP("DiagnosticText", "Too many levels of symbolic links"),
        "read_only": QT_TRANSLATE_NOOP("DiagnosticText", "Read-only file system"),
        "no_space": QT_TRANSLATE_NOOP("DiagnosticText", "No space left on device"),
        "quota": QT_TRANSLATE_NOOP("DiagnosticText", "Disk quota exceeded"),
        "not_a_directory": QT_TRANSLATE_NOOP("DiagnosticText", "Not a directory"),
        "is_a_directory": QT_TRANSLATE_NOOP("DiagnosticText", "Is a directory"),
        "name_too_long": QT_TRANSLATE_NOOP("DiagnosticText", "File name too long"),
        "not_permitted": QT_TRANSLATE_NOOP("DiagnosticText", "Operation not permitted"),
        "exists": QT_TRANSLATE_NOOP("DiagnosticText", "File exists"),
    },
)

FACT_FORMS = Forms(
    "DiagnosticText",
    {
        "os_error": QT_TRANSLATE_NOOP("DiagnosticText", "{error}"),
        "unsafe_index": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "the index is a symbolic link or not a plain file of its own; changes to this store "
            "are refused until it is removed",
        ),
        "symlink_fact": QT_TRANSLATE_NOOP(
            "DiagnosticText", "a symlink stands in place of a fact file"
        ),
        "symlink_file": QT_TRANSLATE_NOOP(
            "DiagnosticText", "a symlink stands in place of the file"
        ),
        "not_regular": QT_TRANSLATE_NOOP("DiagnosticText", "not a regular file"),
        "changed": QT_TRANSLATE_NOOP(
            "DiagnosticText", "the file changed while it was being opened"
        ),
        "duplicate_id": QT_TRANSLATE_NOOP("DiagnosticText", "id {id} is also used by {others}"),
        "duplicate_name": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "declares the name '{name}', which {others} also uses; rename one of them (its name "
            "field)",
        ),
        "alias": QT_TRANSLATE_NOOP("DiagnosticText", "YAML aliases are not allowed (line {line})"),
        "tag": QT_TRANSLATE_NOOP(
            "DiagnosticText", "frontmatter uses the tag '{tag}', which is not allowed (line {line})"
        ),
        "key_text": QT_TRANSLATE_NOOP(
            "DiagnosticText", "frontmatter keys must be text (line {line})"
        ),
        "bad_yaml": QT_TRANSLATE_NOOP("DiagnosticText", "frontmatter is not valid YAML: {detail}"),
        "duplicate_key": QT_TRANSLATE_NOOP(
            "DiagnosticText", "duplicate frontmatter key '{key}' (line {line})"
        ),
        "never_closed": QT_TRANSLATE_NOOP(
            "DiagnosticText", "frontmatter starts with '---' but is never closed"
        ),
        "no_split": QT_TRANSLATE_NOOP(
            "DiagnosticText", "frontmatter could not be split from the body"
        ),
        "not_mapping": QT_TRANSLATE_NOOP(
            "DiagnosticText", "frontmatter must be a mapping of keys to values"
        ),
        "timestamp": QT_TRANSLATE_NOOP("DiagnosticText", "{field} must be a timestamp"),
        "not_rfc3339": QT_TRANSLATE_NOOP(
            "DiagnosticText", "{field} is not an RFC 3339 timestamp: '{value}'"
        ),
        "must_be_text": QT_TRANSLATE_NOOP("DiagnosticText", "{field} must be text"),
        "metadata": QT_TRANSLATE_NOOP("DiagnosticText", "metadata must be a mapping"),
        "scope_value": QT_TRANSLATE_NOOP(
            "DiagnosticText", "scope '{value}' is not project or global"
        ),
        "revision_value": QT_TRANSLATE_NOOP(
            "DiagnosticText", "revision '{value}' is not a positive integer"
        ),
        "revision_range": QT_TRANSLATE_NOOP("DiagnosticText", "revision '{value}' is out of range"),
        "type_value": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "{field} '{value}' is not one of user, feedback, project, reference",
        ),
        "scope_mismatch": QT_TRANSLATE_NOOP(
            "DiagnosticText", "file declares scope '{value}' but lies in the {scope} store"
        ),
        "too_large": QT_TRANSLATE_NOOP("DiagnosticText", "file is {n} bytes; the limit is {limit}"),
        "over_limit": QT_TRANSLATE_NOOP(
            "DiagnosticText", "file is over the limit of {limit} bytes"
        ),
        "nul": QT_TRANSLATE_NOOP("DiagnosticText", "file contains NUL bytes"),
        "utf8": QT_TRANSLATE_NOOP("DiagnosticText", "file is not valid UTF-8 (byte {n})"),
        "sync_copy": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "a sync tool's conflict copy of {original}; compare the two and keep one side",
        ),
        "empty": QT_TRANSLATE_NOOP("DiagnosticText", "the file is empty"),
        "git_conflict": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "the file holds an unresolved merge (git conflict markers <<<<<<< ======= "
            ">>>>>>>); keep one side",
        ),
        "not_a_fact": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "not a fact: the file has no frontmatter block (a first line '---', 'key: value' "
            "lines, a closing '---')",
        ),
    },
)

FACT_CODES: dict[str, tuple[str, ...]] = {
    "store_unreadable": ("os_error",),
    "unreadable": ("os_error",),
    "unsafe_store_file": ("unsafe_index",),
    "symlink": ("symlink_fact", "symlink_file"),
    "not_regular_file": ("not_regular",),
    "changed": ("changed",),
    "duplicate_id": ("duplicate_id",),
    "duplicate_name": ("duplicate_name",),
    "yaml_alias": ("alias",),
    "unsafe_yaml_tag": ("tag",),
    "malformed_yaml": ("key_text", "bad_yaml"),
    "duplicate_key": ("duplicate_key",),
    "malformed_frontmatter": ("never_closed", "no_split"),
    "frontmatter_not_mapping": ("not_mapping",),
    "invalid_field": (
        "timestamp",
        "not_rfc3339",
        "must_be_text",
        "metadata",
        "scope_value",
        "revision_value",
        "revision_range",
    ),
    "invalid_type": ("type_value",),
    "scope_mismatch": ("scope_mismatch",),
    "too_large": ("too_large", "over_limit"),
    "nul_bytes": ("nul",),
    "invalid_utf8": ("utf8",),
    "sync_conflict_copy": ("sync_copy",),
    "empty_file": ("empty",),
    "git_conflict_markers": ("git_conflict",),
    "not_frontmatter_markdown": ("not_a_fact",),
}

_FACT_PARTS = {"error": OS_ERRORS.part(), "scope": scope_label}


def fact_message(code: str, message: str) -> str:
    """A fact file's diagnostic message in the window's language."""
    return shown_by_code(code, message, FACT_CODES, FACT_FORMS, _FACT_PARTS)


# Every fact form but the bare OS error, which reads any text.
_PROBLEM_KEYS = tuple(key for key in FACT_FORMS.source if key != "os_error")


def fact_problem(message: str) -> str:
    """A fact file's problem whose code is not at hand (after "cannot be used:" in a refusal):
    in any fact form, else an OS error; as written when in neither."""
    shown = FACT_FORMS.shown(message, _PROBLEM_KEYS, _FACT_PARTS)
    return shown if shown != message else OS_ERRORS.shown(message)


# -- Claude Code's memory files (engine/claude_memory/reader.py, importer.py)

CLAUDE_MEMORY_FORMS = Forms(
    "DiagnosticText",
    {
        # why a file was not read
        "not_utf8": QT_TRANSLATE_NOOP("DiagnosticText", "not UTF-8 text"),
        "unreadable": QT_TRANSLATE_NOOP("DiagnosticText", "unreadable ({error})"),
        "link": QT_TRANSLATE_NOOP("DiagnosticText", "a link (not followed)"),
        "not_regular": QT_TRANSLATE_NOOP("DiagnosticText", "not a regular file"),
        "too_large": QT_TRANSLATE_NOOP("DiagnosticText", "larger than {n} KB"),
        # why a memory was skipped or is a duplicate
        "no_name": QT_TRANSLATE_NOOP("DiagnosticText", "no usable name"),
        "empty": QT_TRANSLATE_NOOP("DiagnosticText", "the memory is empty"),
        "sensitive": QT_TRANSLATE_NOOP(
            "DiagnosticText",
            "it holds sensitive content ({labels}); copy what you need by hand",
        ),
        "name_taken": QT_TRANSLATE_NOOP(
            "DiagnosticText", "a fact named '{name}' already exists in {scope}"
        ),
        "title_taken": QT_TRANSLATE_NOOP(
            "DiagnosticText", "the fact {ref} already has the title '{title}'"
        ),
        # the importer writes the title as Python's repr: in double quotes when it holds a '
        "title_taken_quoted": QT_TRANSLATE_NOOP(
            "DiagnosticText", 'the fact {ref} already has the title "{title}"'
        ),
    },
)

_CLAUDE_MEMORY_PARTS = {"error": OS_ERRORS.part(), "labels": secret_labels, "scope": scope_label}


def claude_memory_reason(reason: str) -> str:
    """Why a Claude Code memory file was not read (``ClaudeMemoryFile.problem``), or why its
    import was skipped or is a duplicate (``ImportItem.reason``), in the window's language."""
    return CLAUDE_MEMORY_FORMS.shown(reason, parts=_CLAUDE_MEMORY_PARTS)
