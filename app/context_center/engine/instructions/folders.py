"""The workspace's folders that hold an instruction file of any agent: the targets to pick.

A bounded walk (``MAX_FOLDER_DEPTH`` levels, ``MAX_FOLDERS`` results) that skips hidden and
build folders and never follows a linked folder. A folder counts when it holds a Reasonix,
Claude Code or Codex file (``AGENTS.md``, ``CLAUDE.local.md``, ``AGENTS.override.md``,
``.claude/CLAUDE.md``, ``.claude/rules/``…).
"""

from __future__ import annotations

import os
from pathlib import Path

SKIP_DIRS = frozenset({"node_modules", "venv", "__pycache__", "target", "dist", "build"})
MAX_FOLDER_DEPTH = 6
MAX_FOLDERS = 200
NAMES = frozenset(
    {
        "REASONIX.md",
        "AGENTS.md",
        "CLAUDE.md",
        "REASONIX.local.md",
        "AGENTS.local.md",
        "CLAUDE.local.md",
        "AGENTS.override.md",
    }
)


def _has_claude_dir(root: str) -> bool:
    claude = os.path.join(root, ".claude")
    try:
        return os.path.isfile(os.path.join(claude, "CLAUDE.md")) or os.path.isdir(
            os.path.join(claude, "rules")
        )
    except (OSError, ValueError):
        return False


def instruction_folders(workspace: Path, extra_names: frozenset[str] = frozenset()) -> list[str]:
    """Workspace folders (relative, ``"."`` first) holding an instruction file."""
    names = NAMES | extra_names
    found = ["."]
    base_depth = len(workspace.parts)
    for root, dirs, files in os.walk(workspace, followlinks=False):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
        if len(Path(root).parts) - base_depth >= MAX_FOLDER_DEPTH:
            dirs[:] = []
        if root != str(workspace) and (names & set(files) or _has_claude_dir(root)):
            found.append(Path(os.path.relpath(root, workspace)).as_posix())
        if len(found) >= MAX_FOLDERS:
            break
    return found
