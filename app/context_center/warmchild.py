"""Start and stop the warm server (``context-center serve``) as a child of a long-lived host:
the window and ``context-center mcp``. Standard library only, so a host pays nothing for it."""

from __future__ import annotations

import logging
import os
import subprocess
import sys

from context_center import NO_SERVER_ENV

log = logging.getLogger(__name__)


def start_child(home: str | os.PathLike[str] | None) -> subprocess.Popen[bytes] | None:
    """Start ``serve`` as a child of this process (None when turned off or it cannot start).
    It stops when this process does; ``stop_child`` stops it sooner."""
    if os.environ.get(NO_SERVER_ENV) == "1":
        return None
    argv = [sys.executable, "-m", "context_center"]
    if home is not None:
        argv += ["--home", os.fspath(home)]
    argv += ["serve", "--parent", str(os.getpid())]
    try:
        return subprocess.Popen(
            argv,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            close_fds=True,
            start_new_session=True,  # a Ctrl+C for the window is not meant for it
        )
    except OSError as exc:
        log.warning("could not start the warm server: %s", exc)
        return None


def stop_child(
    child: subprocess.Popen[bytes] | None, home: str | os.PathLike[str] | None = None
) -> None:
    """Stop the child: SIGTERM (it closes and removes its socket), then SIGKILL after 3 s;
    a killed child's socket file is removed here, so no stale one is left for clients."""
    if child is None or child.poll() is not None:
        return
    child.terminate()
    try:
        child.wait(timeout=3)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        _remove_socket(child.pid, home)


def _remove_socket(pid: int, home: str | os.PathLike[str] | None) -> None:
    from context_center import sockets

    try:
        folder = sockets.private_socket_dir(
            sockets.home_path(None if home is None else os.fspath(home))
        )
        if folder is not None:
            os.unlink(os.path.join(folder, f"{pid}.sock"))
    except OSError:
        pass
