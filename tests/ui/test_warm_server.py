"""The window keeps a warm server for its home once it has settled (ui/launch.py)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from context_center import entry
from context_center.ui.launch import _WarmServer


def test_the_window_starts_a_warm_server_and_stops_it_on_exit(
    qtbot, home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.delenv("CONTEXT_CENTER_NO_SERVER")
    warm = _WarmServer(str(home), start_after_ms=0)
    qtbot.waitUntil(lambda: warm.child is not None, timeout=5000)
    folder = Path(entry.socket_dir(str(home)))
    qtbot.waitUntil(lambda: folder.is_dir() and any(folder.glob("*.sock")), timeout=30000)
    warm.stop()
    assert warm.child.poll() is not None
    deadline = time.monotonic() + 5
    while any(folder.glob("*.sock")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not any(folder.glob("*.sock"))


def test_no_warm_server_when_turned_off_or_for_a_smoke_test(qtbot, home: Path) -> None:  # type: ignore[no-untyped-def]
    off = _WarmServer(str(home), start_after_ms=0)  # CONTEXT_CENTER_NO_SERVER=1 in tests
    smoke = _WarmServer(str(home), start_after_ms=None)
    qtbot.wait(100)
    assert off.child is None and smoke.child is None
    off.stop()
    smoke.stop()
