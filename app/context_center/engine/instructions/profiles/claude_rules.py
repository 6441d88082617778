"""Claude Code's ``.claude/rules/**/*.md``: discovery, ``paths:`` frontmatter and matching.

A rule file without ``paths:`` loads at launch. One with ``paths:`` (a glob or a list of globs,
relative to the directory that holds ``.claude``) loads only when Claude reads a matching
file, so it is never part of the launch text; ``reaches`` says whether files in a target
directory can match (``src/api/**/*.ts`` covers ``src/api`` and everything below it, not
``src``; ``**/*.ts`` covers everywhere), as the file's status then says.

Globs: ``**`` any number of path segments, ``*`` and ``?`` within one segment, ``[…]``
character classes and ``{a,b}`` alternatives; a pattern is matched segment by segment against
the target's path below the base. Discovery is bounded (``MAX_RULE_FILES`` per
rules folder, ``MAX_RULE_DEPTH`` folders deep) and follows linked folders, each real folder
once.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import yaml

from context_center.engine.instructions.markdown import split_frontmatter

MAX_RULE_FILES = 100
MAX_RULE_DEPTH = 5
MAX_FRONTMATTER_CHARS = 16 * 1024
MAX_PATTERNS = 50


@dataclass(frozen=True)
class RuleFront:
    paths: tuple[str, ...] | None  # None: no paths (loads at launch)
    body: str  # the text without the frontmatter
    offset: int  # lines the frontmatter took (for line numbers)
    problem: str = ""  # why the frontmatter was not understood


def parse_rule(text: str) -> RuleFront:
    front, body, offset = split_frontmatter(text)
    if front is None:
        return RuleFront(None, text, 0)
    if len(front) > MAX_FRONTMATTER_CHARS:
        return RuleFront(None, body, offset, "the frontmatter is too large")
    try:
        data = yaml.safe_load(front) if front.strip() else {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark is not None else ""
        return RuleFront(
            None, body, offset, f"the frontmatter is not valid YAML{where}; quote globs"
        )
    if not isinstance(data, dict) or "paths" not in data:
        return RuleFront(None, body, offset)
    paths = data["paths"]
    if isinstance(paths, str):
        paths = [p.strip() for p in paths.split(",")]
    if not isinstance(paths, list) or not all(isinstance(p, str) for p in paths):
        return RuleFront(None, body, offset, "paths: must be a glob or a list of globs")
    cleaned = tuple(p.strip() for p in paths if p.strip())[:MAX_PATTERNS]
    return RuleFront(cleaned, body, offset)


def _class(pattern: str, i: int) -> tuple[str, int] | None:
    end = pattern.find("]", i + 2)
    if end < 0:
        return None
    inner = pattern[i + 1 : end]
    if inner.startswith("!"):
        inner = "^" + inner[1:]
    return "[" + inner.replace("\\", "\\\\") + "]", end + 1


def _braces(pattern: str, i: int) -> tuple[str, int] | None:
    end = pattern.find("}", i)
    if end < 0:
        return None
    options = pattern[i + 1 : end].split(",")[:MAX_PATTERNS]
    return "(?:" + "|".join(glob_regex_body(o) for o in options) + ")", end + 1


def glob_regex_body(pattern: str) -> str:
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] in "[{":
            made = (_class if pattern[i] == "[" else _braces)(pattern, i)
            if made is None:
                out.append(re.escape(pattern[i]))
                i += 1
            else:
                out.append(made[0])
                i = made[1]
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


def _segment_matches(pattern: str, segment: str) -> bool:
    try:
        return re.fullmatch(glob_regex_body(pattern), segment) is not None
    except re.error:
        return False


def reaches(pattern: str, rel: str) -> bool:
    """Whether ``pattern`` (relative to a rules base) covers directory ``rel`` ("" = the base):
    ``rel`` lies inside the region the glob names, so files Claude works on there can match.
    ``src/api/**/*.ts`` covers ``src/api`` and below, not ``src``; ``src/*.ts`` covers ``src``;
    ``**/*.ts`` covers everything; ``packages/{api,web}/**`` covers ``packages/web``."""
    pattern = pattern.strip()
    while pattern.startswith("./"):
        pattern = pattern[2:]
    parts = [p for p in pattern.strip("/").split("/") if p]
    if not parts:
        return False
    for index, segment in enumerate(p for p in rel.split("/") if p):
        if index >= len(parts):
            return False
        if parts[index] == "**":
            return True
        if not _segment_matches(parts[index], segment):
            return False
    rest = parts[len([p for p in rel.split("/") if p]) :]
    return len(rest) <= 1 or rest[0] == "**"


def rule_files(rules_dir: Path) -> tuple[list[Path], bool]:
    """``*.md`` under ``rules_dir`` in sorted order, and whether the walk was cut short.
    Linked folders are followed, as Claude Code does (a shared set of rules linked into
    several projects); a folder already walked (a link cycle, two links to one folder) is
    not walked again."""
    found: list[Path] = []
    truncated = False
    base_depth = len(rules_dir.parts)
    walked: set[str] = set()
    try:
        walker = os.walk(rules_dir, followlinks=True)
        for root, dirs, files in walker:
            real = os.path.realpath(root)
            if real in walked:
                dirs[:] = []
                continue
            walked.add(real)
            dirs.sort()
            if len(Path(root).parts) - base_depth >= MAX_RULE_DEPTH:
                truncated = truncated or bool(dirs)
                dirs[:] = []
            for name in sorted(files):
                if name.endswith(".md"):
                    if len(found) >= MAX_RULE_FILES:
                        return found, True
                    found.append(Path(root) / name)
    except (OSError, ValueError):
        truncated = True
    return found, truncated
