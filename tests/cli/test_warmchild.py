"""Stopping the warm server child: a child that does not stop on SIGTERM is killed, and the
socket file it could not remove is removed for it (no stale socket is left for clients)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from context_center import entry
from context_center.warmchild import stop_child

STUBBORN = """
import os, signal, sys, time
signal.signal(signal.SIGTERM, signal.SIG_IGN)
folder = sys.argv[1]
for part in (os.path.dirname(folder), folder):
    os.makedirs(part, mode=0o700, exist_ok=True)
open(os.path.join(folder, f"{os.getpid()}.sock"), "w").close()
print("ready", flush=True)
time.sleep(60)
"""


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_a_killed_child_leaves_no_socket(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path / "run"))
    (tmp_path / "run").mkdir(mode=0o700)
    home = tmp_path / "home"
    folder = entry.socket_dir(entry.home_path(str(home)))
    child = subprocess.Popen(
        [sys.executable, "-c", STUBBORN, folder], stdout=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
    sock = Path(folder) / f"{child.pid}.sock"
    assert sock.exists()
    started = time.monotonic()
    stop_child(child, home)  # type: ignore[arg-type]
    assert child.poll() is not None and time.monotonic() - started >= 2.5  # it was killed
    assert not sock.exists()
    child.stdout.close()
