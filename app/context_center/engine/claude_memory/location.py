"""Where Claude Code keeps its auto memory for a workspace (read-only; nothing here writes).

Claude Code (2.1) keeps one memory folder per repository:
``<config>/projects/<encoded project root>/memory/``, where

* ``<config>`` is ``$CLAUDE_CONFIG_DIR``, else ``~/.claude`` (the home is a parameter here);
* the project root is the canonical git root of the working directory: the repository's top
  folder, and for a linked worktree (``.git`` is a file pointing into ``<repo>/.git/worktrees/``)
  the main worktree's, so every worktree and subfolder of a repository shares one memory; a
  folder outside any repository is its own root;
* ``<encoded>`` replaces every character that is not an ASCII letter or digit by ``-`` (runs are
  kept), and a name longer than 200 characters is cut to 200 and gets ``-`` and a hash
  (``engine.agents.claude_memory.encode_project``);
* ``autoMemoryDirectory`` in the user's ``<config>/settings.json`` names the folder itself
  instead (a project's own settings cannot, so a repository cannot redirect it).

Both spellings of the root (as given and with links resolved) are looked up, then the workspace
itself when it differs from the root (the folder of a session started there by an older build).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from context_center.engine.agents.claude_memory import encode_project

MEMORY_DIR = "memory"
SETTINGS_FILE = "settings.json"
SETTINGS_KEY = "autoMemoryDirectory"
DISABLE_ENV = "CLAUDE_CODE_DISABLE_AUTO_MEMORY"
MAX_SETTINGS_BYTES = 1_000_000


@dataclass(frozen=True, slots=True)
class MemoryLocation:
    """The folder Claude Code would use, and how it was found."""

    config_dir: Path
    project_root: Path
    folder: Path  # the memory folder (it may not exist)
    encoded: str  # the ``projects/`` folder name ("" when the settings name the folder)
    tried: tuple[Path, ...]  # every folder looked at, the chosen one first when it exists
    from_settings: bool = False
    disabled: bool = False  # CLAUDE_CODE_DISABLE_AUTO_MEMORY is set in this environment

    @property
    def exists(self) -> bool:
        return is_dir(self.folder)


def is_dir(path: Path) -> bool:
    """``path.is_dir()``, False (not an error) when it cannot be looked at."""
    try:
        return path.is_dir()
    except OSError:
        return False


def config_dir(
    home: Path | None = None, claude_root: Path | None = None, env: Mapping[str, str] | None = None
) -> Path:
    """``claude_root`` if given, else ``$CLAUDE_CONFIG_DIR``, else ``<home>/.claude``."""
    if claude_root is not None:
        return Path(claude_root).expanduser()
    configured = (os.environ if env is None else env).get("CLAUDE_CONFIG_DIR", "").strip()
    if configured:
        return Path(configured).expanduser()
    return (Path.home() if home is None else Path(home)) / ".claude"


def _main_worktree(dot_git: Path) -> Path | None:
    """The main worktree of a linked worktree whose ``.git`` file is ``dot_git``."""
    try:
        text = dot_git.read_text(encoding="utf-8", errors="replace")[:4096]
    except OSError:
        return None
    line = next((ln for ln in text.splitlines() if ln.startswith("gitdir:")), "")
    gitdir = Path(line.removeprefix("gitdir:").strip())
    if not line or not str(gitdir):
        return None
    if not gitdir.is_absolute():
        gitdir = dot_git.parent / gitdir
    parts = gitdir.parts
    if len(parts) >= 3 and parts[-2] == "worktrees" and parts[-3] == ".git":
        return Path(*parts[:-3])
    return None  # a submodule (.git/modules/…) is its own repository root


def canonical_root(workspace: Path) -> Path:
    """The folder Claude Code keys the memory on: the canonical git root, else the folder."""
    start = Path(os.path.abspath(workspace))
    for folder in (start, *start.parents):
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return folder
        if dot_git.is_file():
            return _main_worktree(dot_git) or folder
    return start


def _settings_folder(config: Path, home: Path | None) -> Path | None:
    path = config / SETTINGS_FILE
    try:
        with open(path, "rb") as handle:
            data = json.loads(handle.read(MAX_SETTINGS_BYTES))
    except (OSError, ValueError, UnicodeDecodeError, RecursionError):
        return None
    value = data.get(SETTINGS_KEY) if isinstance(data, dict) else None
    if not isinstance(value, str) or not value.strip():
        return None
    text = value.strip()
    if text == "~" or text.startswith("~/"):
        text = str(Path.home() if home is None else home) + text[1:]
    folder = Path(text)
    return folder if folder.is_absolute() else None


def locate(
    workspace: Path,
    *,
    home: Path | None = None,
    claude_root: Path | None = None,
    env: Mapping[str, str] | None = None,
) -> MemoryLocation:
    """Where Claude Code's auto memory for ``workspace`` is (read-only)."""
    environ = os.environ if env is None else env
    config = config_dir(home, claude_root, environ)
    disabled = environ.get(DISABLE_ENV, "").strip().lower() in ("1", "true", "yes", "on")
    root = canonical_root(workspace)
    configured = _settings_folder(config, home)
    if configured is not None:
        return MemoryLocation(config, root, configured, "", (configured,), True, disabled)
    spellings: list[Path] = []
    for path in (root, Path(os.path.realpath(root)), Path(os.path.abspath(workspace))):
        if path not in spellings:
            spellings.append(path)
    folders: list[Path] = []
    for path in spellings:
        folder = config / "projects" / encode_project(str(path)) / MEMORY_DIR
        if folder not in folders:
            folders.append(folder)
    chosen = next((f for f in folders if is_dir(f)), folders[0])
    tried = (chosen, *[f for f in folders if f != chosen])
    return MemoryLocation(config, root, chosen, chosen.parent.name, tried, False, disabled)
