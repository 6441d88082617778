"""Writing the recall cache in a detached process, so the turn that found it due is not slowed.

A cold per-turn process (``context-center recall``, the ``UserPromptSubmit`` hook) that catches
up with our own writes from the store journal rewrites the recall cache once it has applied
``catchup.SAVE_AFTER`` changed files: at 50,000 facts that rewrite costs about a second of CPU
and doubles the process's memory, on the agent's turn. Such a process hands it to a detached
child instead (``spawn``), like ``git gc --auto``: the child opens the same cache, catches up
from the journal exactly as the parent did, writes the cache atomically and exits; the parent
answers its turn at once. A cold process also hands one off when the cache it opened does not
know its facts' withheld spans by the scanner that runs here (a cache written before they were
kept, or after the scan was upgraded, ``secretmatch.signature``): the child finds them for every
fact (``RecallIndex.fill_withheld``) and writes the cache, so later turns scan nothing. Until the
child is done, the next processes catch up from the
journal as before (each reads at most ``catchup.MAX_FILES`` changed files), so nothing is ever
answered from a cache that does not describe the stores.

One child at a time: a marker file beside the cache (created exclusively, removed by the
child, taken over when older than ``STALE_S``). A child that cannot start costs nothing: the
parent then writes the cache itself, as before.

The child is ``python -m context_center.engine.facade.rewrite_child HOME WORKSPACE MARKER TOKEN``.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from pathlib import Path

CHILD_MODULE = "context_center.engine.facade.rewrite_child"
STALE_S = 120.0  # a marker this old belongs to a child that died: take it over
MARKER_SUFFIX = ".rewriting"


def marker_path(cache: Path) -> Path:
    return cache.with_name(cache.name + MARKER_SUFFIX)


def _claim(marker: Path, token: str) -> bool:
    """Create the marker holding ``token``; False when a live child holds it. (Two processes
    taking over one stale marker at once may both win: two children then write the same
    cache, each atomically -- only time is lost.)"""
    for _ in range(2):
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
        except FileExistsError:
            try:
                age = time.time() - os.stat(marker).st_mtime
            except OSError:
                continue  # just removed: try again
            if age < STALE_S:
                return False
            with contextlib.suppress(OSError):
                os.unlink(marker)
            continue
        except OSError:
            return False
        try:
            os.write(fd, token.encode())
        finally:
            os.close(fd)
        return True
    return False


def release(marker: Path, token: str) -> None:
    """Remove the marker if it is still the one holding ``token`` (a child that took long
    may find its marker taken over by another)."""
    with contextlib.suppress(OSError):
        if marker.read_text(encoding="ascii", errors="replace") == token:
            os.unlink(marker)


def spawn(home: Path, workspace: Path, cache: Path) -> bool:
    """Start the detached child for this home and workspace; True when a child (this one or
    one already running) will write the cache, False when the caller should write it."""
    marker = marker_path(cache)
    if not cache.parent.is_dir():
        return False
    token = f"{os.getpid()}-{time.time_ns()}"
    if not _claim(marker, token):
        return marker.exists()  # another child is on it (or the folder refuses markers)
    import subprocess  # here: only the one turn in many that hands a rewrite off needs it

    argv = [
        sys.executable,
        "-m",
        CHILD_MODULE,
        os.fspath(home),
        os.fspath(workspace),
        os.fspath(marker),
        token,
    ]
    try:
        subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            close_fds=True,
            start_new_session=True,  # it outlives this process, and no signal of ours hits it
        )
    except OSError:
        release(marker, token)
        return False
    return True
