"""The instruction chain as plain, frozen data, shared by every agent profile.

Provider-visible fields carry only stable labels (``user/<file>``, ``workspace/<path>``,
``~/.claude/<file>``, ``above/<n>/<path>``); absolute paths live in ``local_*`` fields that are
excluded from ``model_dump`` and never rendered into a prompt.
"""

from __future__ import annotations

import hashlib
from enum import StrEnum
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from context_center.engine.instructions.fsread import MAX_FILE_BYTES as MAX_FILE_BYTES

MAX_IMPORT_DEPTH = 5  # Reasonix

# Diagnostic codes (part of the CLI's JSON contract).
TARGET_OUTSIDE_WORKSPACE = "target_outside_workspace"
DOCUMENT_SYMLINK_ESCAPE = "document_symlink_escape"
DOCUMENT_UNREADABLE = "document_unreadable"
DOCUMENT_UNDECODABLE = "document_undecodable"
DOCUMENT_TOO_LARGE = "document_too_large"
IMPORT_OUTSIDE_SOURCE = "import_outside_source"  # a relative path whose `..` leaves the owner
IMPORT_ABSOLUTE_PATH = "import_absolute_path"  # `/abs/path.md`, `C:\\x.md`
IMPORT_HOME_PATH = "import_home_path"  # `~/x.md`, `~user/x.md`
IMPORT_SYMLINK_ESCAPE = "import_symlink_escape"
IMPORT_UNREADABLE = "import_unreadable"
IMPORT_UNDECODABLE = "import_undecodable"
IMPORT_TOO_LARGE = "import_too_large"
IMPORT_CYCLE = "import_cycle"
IMPORT_DEPTH = "import_depth"
IMPORT_MISSING = "import_missing"  # Claude Code: a missing file is skipped (a note)
IMPORT_NEEDS_APPROVAL = "import_needs_approval"  # Claude Code: outside the working directory
INSTRUCTION_SECRET_WITHHELD = "instruction_secret_withheld"
DOCUMENT_NOT_UTF8 = "document_not_utf8"  # Codex reads bytes as lossy UTF-8
DOCUMENT_CUT_OFF = "document_cut_off"  # Codex: project_doc_max_bytes reached inside the file
DOCUMENT_NOT_REACHED = "document_not_reached"  # Codex: the budget ran out before the file
CODEX_CONFIG_INVALID = "codex_config_invalid"
CLAUDE_RULE_FRONTMATTER = "claude_rule_frontmatter"
CLAUDE_RULES_TRUNCATED = "claude_rules_truncated"
CLAUDE_MD_LARGE = "claude_md_large"  # Claude Code: a memory file over 40,000 characters


class Agent(StrEnum):
    REASONIX = "reasonix"
    CLAUDE_CODE = "claude-code"
    CODEX = "codex"


class InstructionScope(StrEnum):
    USER = "user"
    PROJECT = "project"  # the workspace root directory
    ANCESTOR = "ancestor"  # a directory below the root, down to the target
    LOCAL = "local"  # a .local.md variant in any workspace directory
    ABOVE = "above"  # Claude Code: a directory above the workspace root
    RULE = "rule"  # Claude Code: a .claude/rules/*.md file


class ImportStatus(StrEnum):
    LOADED = "loaded"
    ALREADY_LOADED = "already_loaded"  # included once; the second place gets a note
    REJECTED = "rejected"
    MISSING = "missing"  # Claude Code skips a missing file silently
    NEEDS_APPROVAL = "needs_approval"  # Claude Code asks before loading it


class Severity(StrEnum):
    ERROR = "error"  # a refusal: something written in a file was not loaded
    WARNING = "warning"  # loaded, but worth a look (a secret withheld, a cut)
    NOTE = "note"  # how the agent behaves, nothing wrong


class InstructionImport(BaseModel):
    """One ``@path`` found in a document or in one of its imports."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    source: str  # label of the file holding the line
    target: str  # label of the imported file, or the path as written when it has no label
    line: int  # 1-based line in the source file
    depth: int  # nesting level: 1 for a line in the top-level document
    status: ImportStatus
    code: str | None = None  # the diagnostic code when rejected
    loaded_as: str | None = None  # the chain document that already carries this file
    local_path: Path | None = Field(default=None, exclude=True, repr=False)


class InstructionDocument(BaseModel):
    """One top-level instruction file with its imports expanded."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    label: str  # user/<file> or workspace/<relative path>
    scope: InstructionScope
    directory: str  # label of the directory it applies to: "user", "workspace", "workspace/a/b"
    precedence: int  # higher wins: user 0; depth d below the root: plain 10+2d, local 11+2d
    order: int  # position in the resolved list (after dedup), 0-based
    imports: tuple[InstructionImport, ...] = ()
    body: str  # expanded body, trimmed
    size: int = 0  # bytes on disk of the top-level file
    local_path: Path = Field(exclude=True, repr=False)
    local_directory: Path = Field(exclude=True, repr=False)

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.body.encode("utf-8")).hexdigest()


class InstructionDiagnostic(BaseModel):
    """A refusal or problem, naming the file and line. Never part of the provider prefix."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    code: str
    path: str  # label of the file concerned (or the import path as written)
    reason: str | None = None  # machine-readable detail, a key of REASONS
    source_path: str | None = None  # label of the file holding the offending line
    line: int | None = None
    message: str  # never contains an absolute path
    severity: Severity = Severity.ERROR
    local_path: Path | None = Field(default=None, exclude=True, repr=False)
    local_source_path: Path | None = Field(default=None, exclude=True, repr=False)


class DuplicateDocument(BaseModel):
    """A document dropped because a more specific one has a byte-identical expanded body."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    label: str
    kept: str


class FileState(StrEnum):
    """How one agent treats one instruction file (the Compare table)."""

    LOADED = "loaded"  # a top-level document of the agent's chain
    IMPORTED = "imported"  # reached through an import
    NOT_LOADED = "not_loaded"  # found, but this agent never reads it
    CUT_OFF = "cut_off"  # Codex: partly loaded, the byte limit fell inside it
    NOT_REACHED = "not_reached"  # Codex: the byte limit was used up before it
    NEEDS_APPROVAL = "needs_approval"  # Claude Code: an external import not yet approved
    REFUSED = "refused"  # read, then refused (unreadable, escape, …)
    DUPLICATE = "duplicate"  # dropped: another file has the same text


class FileStatus(BaseModel):
    """One file an agent considered, with what it did with it."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    label: str
    state: FileState
    size: int  # bytes on disk (0 when unknown)
    loaded_bytes: int = 0  # bytes that reach the agent (Codex: up to the cut)
    detail: str = ""  # why (e.g. "paths: src/**/*.ts does not match")
    local_path: Path | None = Field(default=None, exclude=True, repr=False)


class CodexCut(BaseModel):
    """Where ``project_doc_max_bytes`` cut the concatenated project docs."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    label: str  # the file the cut falls in
    byte_offset: int  # bytes of that file that were kept
    line: int  # 1-based line of the file where the cut falls
    column: int  # 1-based character column of that line
    limit: int


class Resolution(BaseModel):
    """The instruction chain one agent loads for one (home, workspace, target)."""

    model_config = ConfigDict(defer_build=True, frozen=True, extra="forbid")

    target: str  # label of the directory resolved for ("workspace", "workspace/services/api")
    documents: tuple[InstructionDocument, ...] = ()
    diagnostics: tuple[InstructionDiagnostic, ...] = ()
    duplicates: tuple[DuplicateDocument, ...] = ()
    agent: Agent = Agent.REASONIX
    files: tuple[FileStatus, ...] = ()  # every file considered, in load order
    text: str = ""  # the instruction text exactly as this agent assembles it (labels, withheld)
    limits: dict[str, int] = Field(default_factory=dict)
    cut: CodexCut | None = None
    local_home: Path = Field(exclude=True, repr=False)
    local_workspace: Path = Field(exclude=True, repr=False)
    local_target: Path = Field(exclude=True, repr=False)


# Machine-readable detail of a refusal (the diagnostic's ``reason``) and its wording.
REASONS: dict[str, str] = {
    "absolute": "absolute paths are not allowed",
    "home": "paths starting with ~ are not allowed",
    "parent_escape": "the path leaves the directory that owns the instruction file",
    "symlink": "a symbolic link on the way leads outside the owning directory",
    "missing": "it does not exist",
    "permission_denied": "permission denied",
    "directory": "it is a directory",
    "not_regular_file": "it is not a regular file (FIFO, device or socket)",
    "os_error": "it cannot be read",
    "changed": "it changed while being read",
    "too_large": f"it is larger than {MAX_FILE_BYTES} bytes",
    "undecodable": "it is neither valid UTF-8 nor valid GB18030",
    "cycle": "it is already being imported on this chain",
    "depth": f"imports nest at most {MAX_IMPORT_DEPTH} levels deep",
    "package": "it looks like a package name, not a file; no such file exists",
    "external": "it is outside the working directory",
}
