"""Private folders and files: 0700 folders, 0600 files, for what other local users must not read.

The history log holds what a person typed, the decisions file what they accepted or
dismissed, the recall trace the user's message, and the approval queue proposed memory; none
should be readable by other local users. Folders and files created with looser modes, or by an older version, are
tightened on the next write. A symlink in place of the log or the folder is refused rather
than followed, so a write never lands (or changes modes) somewhere else.
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from context_center.engine.errors import StoreUnavailable

DIR_MODE = 0o700
FILE_MODE = 0o600
# Refuse to open a symlink at the last path component (where the platform has the flag).
O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def ensure_private_dir(folder: Path, what: str = "the state folder") -> None:
    """Create ``folder`` (and its parents) and make ``folder`` itself 0700.

    ``what`` names the folder in errors; a symlink or non-folder in its place is refused.
    """
    try:
        folder.mkdir(mode=DIR_MODE, parents=True, exist_ok=True)
        st = os.lstat(folder)
    except OSError as exc:
        raise StoreUnavailable(f"cannot create {what} {folder}: {exc.strerror}") from exc
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        raise StoreUnavailable(
            f"{what} {folder} is a symbolic link or not a folder; refusing to write there"
        )
    if stat.S_IMODE(st.st_mode) != DIR_MODE:
        with contextlib.suppress(OSError):  # not ours to change (another owner): leave it
            os.chmod(folder, DIR_MODE)


def tighten_fd(fd: int) -> None:
    """Make the open file 0600 if it is looser (a file an older version created 0644)."""
    with contextlib.suppress(OSError):
        if stat.S_IMODE(os.fstat(fd).st_mode) != FILE_MODE:
            os.fchmod(fd, FILE_MODE)
