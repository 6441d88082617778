"""The workspace's phrase index, brought up to date by a child process of the window.

The Suggestions scan reads the workspace's phrase index (what every fact says, cut into
phrases) and cuts only the facts changed since it was written. Writing it the first time cuts
every fact: seconds of pure Python at 20,000 facts, which on the window's own threads would hold
the interpreter lock its other work needs (a save made meanwhile would show late). So the
window runs ``context-center suggestions index`` as a child process, at a lower priority, on
the other core: once per workspace and window, a few seconds after the window has settled
(``launch.py`` asks for it), or when a scan finds the index behind: the tab scans asking the
engine to cut no more than a few thousand facts (``max_cuts``); told the index is behind, it
waits for the child and scans again.

The child writes that one private cache file and nothing else, and only for a workspace with
recent user turns (a scan of the others never reads the facts). If it cannot start or fails,
nothing is lost but speed: the scan cuts in-process whatever the index does not describe.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable

from context_center import NO_SERVER_ENV
from context_center.engine import Engine

log = logging.getLogger(__name__)

POLL_S = 0.05  # how often the window looks whether the child is done
NICENESS = 10
STOP_WAIT_S = 2.0


def index_argv(engine: Engine) -> list[str]:
    """The child's command line for ``engine``'s home and workspace."""
    argv = [
        sys.executable,
        "-m",
        "context_center",
        "--home",
        os.fspath(engine.home),
        "--workspace",
        os.fspath(engine.workspace),
        "suggestions",
        "index",
        "--json",
    ]
    nice = shutil.which("nice")
    return [nice, "-n", str(NICENESS), *argv] if nice else argv


class IndexChildren:
    """One ``suggestions index`` child per home and workspace in this window's life."""

    def __init__(self) -> None:
        self._runs: dict[tuple[str, str], asyncio.Task[bool]] = {}
        self._children: set[subprocess.Popen[bytes]] = set()
        self.started = 0  # children started so far (tests count them)
        self._stopped = False

    def ensure(self, engine: Engine, *, again: bool = False) -> asyncio.Task[bool]:
        """The run for ``engine``'s workspace: started now unless one was already (running, or
        done and not ``again``). Await it for True (the child brought the index up to date)
        or False (it failed)."""
        key = (os.fspath(engine.home), os.fspath(engine.workspace))
        task = self._runs.get(key)
        if task is None or task.cancelled() or (again and task.done()):
            task = asyncio.get_running_loop().create_task(self._run(engine))
            self._runs[key] = task
        return task

    async def _run(self, engine: Engine) -> bool:
        env = {**os.environ, NO_SERVER_ENV: "1"}
        try:
            child = subprocess.Popen(
                index_argv(engine),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                env=env,
                close_fds=True,
                start_new_session=True,  # a Ctrl+C for the window is not meant for it
            )
        except OSError as exc:
            log.warning("could not start the phrase index child: %s", exc)
            return False
        self.started += 1
        self._children.add(child)
        try:
            while child.poll() is None:
                await asyncio.sleep(POLL_S)
        except asyncio.CancelledError:
            _stop(child)
            raise
        finally:
            self._children.discard(child)
        return child.returncode == 0

    def prewarm(self, engine: Callable[[], Engine], delay_s: float) -> None:
        """In ``delay_s`` seconds, start the run for the workspace current then (``engine``
        is asked at that moment: the person may have switched workspace)."""
        loop = asyncio.get_running_loop()
        loop.call_later(delay_s, lambda: None if self._stopped else self.ensure(engine()))

    def stop(self) -> None:
        """The window is closing: stop the children (an index half written is never seen:
        the file is replaced whole) and cancel their runs."""
        self._stopped = True
        for task in self._runs.values():
            task.cancel()
        for child in list(self._children):
            _stop(child)
        self._children.clear()


def _stop(child: subprocess.Popen[bytes]) -> None:
    """End the child and the copy it may have forked to cut on two cores (``forkcut``): they
    share the session and process group the child was started in."""
    if child.poll() is not None:
        return
    if not _signal_group(child, "SIGTERM"):
        child.terminate()
    try:
        child.wait(timeout=STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        _signal_group(child, "SIGKILL")
        child.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=STOP_WAIT_S)


def _signal_group(child: subprocess.Popen[bytes], name: str) -> bool:
    """Send signal ``name`` to the child's process group (False where there is none)."""
    killpg, number = getattr(os, "killpg", None), getattr(signal, name, None)
    if killpg is None or number is None:
        return False
    try:
        killpg(child.pid, number)
    except OSError:
        return False
    return True
