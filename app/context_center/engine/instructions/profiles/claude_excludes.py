"""Claude Code's ``claudeMdExcludes`` setting: memory files it skips by glob.

The setting is an array of glob patterns matched against a file's absolute path; arrays from
every settings file merge (``~/.claude/settings.json``, the project's ``.claude/settings.json``
and ``.claude/settings.local.json``), so a local file cannot take back a pattern set above it.
A matching ``CLAUDE.md``, ``.claude/CLAUDE.md``, ``CLAUDE.local.md`` or rule file is not loaded
(Claude Code's memory and large-codebases documentation). Patterns use the rules' glob syntax
(``claude_rules.glob_regex_body``: ``**``, ``*``, ``?``, ``[…]``, ``{a,b}``). A settings file
that is missing, too large or not a JSON object adds nothing; the managed policy's files are
not read here.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from context_center.engine.instructions.profiles.claude_rules import glob_regex_body

MAX_SETTINGS_BYTES = 1024 * 1024
MAX_PATTERNS = 100

Excludes = tuple[tuple[re.Pattern[str], str], ...]  # (pattern, label of its settings file)


def _patterns(path: Path) -> list[str]:
    try:
        if os.path.getsize(path) > MAX_SETTINGS_BYTES:
            return []
        with open(path, encoding="utf-8") as handle:
            data = json.load(handle)
    except (OSError, ValueError, RecursionError):
        return []
    found = data.get("claudeMdExcludes") if isinstance(data, dict) else None
    if not isinstance(found, list):
        return []
    return [p for p in found if isinstance(p, str) and p.strip()][:MAX_PATTERNS]


def read_excludes(files: Sequence[Path], labeller: Callable[[Path], str]) -> Excludes:
    """Every ``claudeMdExcludes`` pattern of ``files`` (settings files, in order), compiled."""
    out: list[tuple[re.Pattern[str], str]] = []
    for path in files:
        for pattern in _patterns(path):
            try:
                out.append((re.compile(glob_regex_body(pattern.strip())), labeller(path)))
            except re.error:
                continue
    return tuple(out)


def excluded_by(excludes: Excludes, path: Path) -> str | None:
    """The settings file whose pattern matches ``path`` (absolute, as written or resolved),
    or None."""
    if not excludes:
        return None
    forms = {os.fspath(path), os.path.realpath(path)}
    for pattern, source in excludes:
        if any(pattern.fullmatch(form) for form in forms):
            return source
    return None
