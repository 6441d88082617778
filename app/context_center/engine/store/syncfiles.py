"""Files that sync tools leave in a store, recognised so they never load as legacy facts.

People keep homes in sync with git, Syncthing or Dropbox. What those tools leave behind is
reported as a diagnostic with its own code and excluded (the file is never changed):

* ``sync_conflict_copy``: a conflict copy, named by its tool:
  ``<name>.sync-conflict-<date>-<time>-<device>.md`` (Syncthing),
  ``<name> (… conflicted copy …).md`` (Dropbox, Nextcloud, ownCloud), and
  ``<name>_LOCAL_<n>.md`` / ``_REMOTE_`` / ``_BASE_`` / ``_BACKUP_`` (git mergetool);
  ``conflict_copy_of`` names the file it is a copy of;
* ``git_conflict_markers``: a file holding an unresolved git merge (lines ``<<<<<<<``,
  ``=======``, ``>>>>>>>``); ``conflict_sides`` splits it into the two versions;
* ``empty_file``: nothing but whitespace (a sync tool's placeholder or a truncated write);
* ``not_frontmatter_markdown``: text without a frontmatter block (raised by ``factfile``).
"""

from __future__ import annotations

import re

SYNC_CONFLICT = "sync_conflict_copy"
GIT_CONFLICT = "git_conflict_markers"
EMPTY = "empty_file"
NOT_FRONTMATTER = "not_frontmatter_markdown"
CODES = (SYNC_CONFLICT, GIT_CONFLICT, EMPTY, NOT_FRONTMATTER)

_COPY_PATTERNS = (
    re.compile(r"^(?P<base>.+?)\.sync-conflict-\d{8}-\d{6}(?:-[A-Z0-9]+)?$"),
    re.compile(r"^(?P<base>.+?) \([^()]*conflicted copy[^()]*(?:\(\d+\))?\)$", re.IGNORECASE),
    re.compile(r"^(?P<base>.+?)_(?:LOCAL|REMOTE|BASE|BACKUP)_\d+$"),
)
_OURS = re.compile(r"^<{7}(?: |$)")
_SPLIT = re.compile(r"^={7}$")
_BASE = re.compile(r"^\|{7}(?: |$)")
_THEIRS = re.compile(r"^>{7}(?: |$)")


class ShapeError(Exception):
    """Raised by ``check_shape``; ``factfile`` turns it into its FactFileError."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def conflict_copy_of(stem: str) -> str | None:
    """The stem of the file ``stem`` is a sync-conflict copy of, or None."""
    for pattern in _COPY_PATTERNS:
        m = pattern.match(stem)
        if m:
            return m.group("base")
    return None


def has_conflict_markers(text: str) -> bool:
    lines = text.splitlines()
    return any(_OURS.match(line) for line in lines) and any(_THEIRS.match(line) for line in lines)


def conflict_sides(text: str) -> tuple[str, str] | None:
    """The two versions of a file with git conflict markers: (ours, theirs), or None.

    Text outside the conflicted hunks belongs to both; a diff3 base section is dropped.
    """
    if not has_conflict_markers(text):
        return None
    ours: list[str] = []
    theirs: list[str] = []
    state = "both"
    for line in text.splitlines(keepends=True):
        bare = line.rstrip("\r\n")
        if _OURS.match(bare) and state == "both":
            state = "ours"
        elif _BASE.match(bare) and state == "ours":
            state = "base"
        elif _SPLIT.match(bare) and state in ("ours", "base"):
            state = "theirs"
        elif _THEIRS.match(bare) and state == "theirs":
            state = "both"
        elif state == "both":
            ours.append(line)
            theirs.append(line)
        elif state == "ours":
            ours.append(line)
        elif state == "theirs":
            theirs.append(line)
    if state != "both":
        return None  # an unterminated hunk: no reliable split
    return "".join(ours), "".join(theirs)


def check_shape(stem: str, text: str) -> None:
    """Refuse what a sync tool left behind (raises ShapeError with a code)."""
    original = conflict_copy_of(stem)
    if original is not None:
        raise ShapeError(
            SYNC_CONFLICT,
            f"a sync tool's conflict copy of {original}.md; compare the two and keep one side",
        )
    if not text.strip():
        raise ShapeError(EMPTY, "the file is empty")
    if has_conflict_markers(text):
        raise ShapeError(
            GIT_CONFLICT,
            "the file holds an unresolved merge (git conflict markers <<<<<<< ======= >>>>>>>); "
            "keep one side",
        )
