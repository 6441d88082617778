"""A cold per-turn process hands the recall cache's rewrite to a detached child: the turn is
answered at once, the child writes the cache, and the answers are the same either way."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.engine.recall import catchup, rewrite


def _recall(home: Path, workspace: Path, message: str, *, detach: bool) -> dict[str, object]:
    env = dict(os.environ)
    if detach:
        env.pop("CONTEXT_CENTER_NO_DETACH", None)
    argv = [sys.executable, "-m", "context_center", "--home", str(home)]
    argv += ["--workspace", str(workspace), "recall", message, "--json"]
    out = subprocess.run(argv, env=env, capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    data["trace"].pop("elapsed_ms", None)
    data["trace"].pop("at", None)
    return data  # type: ignore[no-any-return]


def _wait_gone(path: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while path.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not path.exists(), "the detached child never finished"


def test_the_rewrite_goes_to_a_detached_child(home: Path, workspace: Path) -> None:
    engine = Engine(home=home, workspace=workspace)
    for i in range(20):
        engine.create_fact(
            name=f"deploy-{i}", type=FactType.PROJECT, body=f"Deploy step {i} uses the blue pool."
        )
    message = "how do we deploy to the blue pool"
    first = _recall(home, workspace, message, detach=True)  # no cache yet: loads and writes it
    cache = engine.recaller.cache_path
    assert cache is not None and cache.exists()
    written = cache.stat().st_mtime_ns
    for i in range(catchup.SAVE_AFTER + 2):  # our own writes, in the journal
        engine.create_fact(
            name=f"more-{i}", type=FactType.PROJECT, body=f"More about deploys, note {i}."
        )
    after = _recall(home, workspace, message, detach=True)  # catches up, hands the rewrite off
    # the turn was answered while the child still imports (a Python start is ~0.3 s here)
    assert rewrite.marker_path(cache).exists()
    _wait_gone(rewrite.marker_path(cache))
    assert cache.stat().st_mtime_ns != written  # the child wrote it
    plain = _recall(home, workspace, message, detach=False)
    assert after == plain != first  # the same answer as a process that writes it itself
    again = Engine(home=home, workspace=workspace)
    again.recall(message, persist=False)
    assert again.recaller.last_source == "cache"  # the child's cache describes the stores


def test_one_child_at_a_time_and_a_stale_marker_is_taken_over(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = tmp_path / "recall-index.cache"
    marker = rewrite.marker_path(cache)
    started: list[list[str]] = []

    class FakePopen:
        def __init__(self, argv: list[str], **_kw: object) -> None:
            started.append(argv)

    monkeypatch.setattr(subprocess, "Popen", FakePopen)
    assert rewrite.spawn(tmp_path / "home", tmp_path / "ws", cache) is True
    assert marker.exists() and len(started) == 1
    token = started[0][-1]
    assert marker.read_text() == token  # the child is told whose marker it is
    rewrite.release(marker, "another child's token")
    assert marker.exists()  # never someone else's
    assert rewrite.spawn(tmp_path / "home", tmp_path / "ws", cache) is True  # one is on it
    assert len(started) == 1
    old = time.time() - rewrite.STALE_S - 5
    os.utime(marker, (old, old))  # that child died long ago
    assert rewrite.spawn(tmp_path / "home", tmp_path / "ws", cache) is True
    assert len(started) == 2
    rewrite.release(marker, token)  # the first child, late: the marker is no longer its own
    assert marker.exists()
    rewrite.release(marker, started[1][-1])
    assert not marker.exists()

    def refuse(*_a: object, **_k: object) -> None:
        raise OSError("no more processes")

    monkeypatch.setattr(subprocess, "Popen", refuse)
    assert rewrite.spawn(tmp_path / "home", tmp_path / "ws", cache) is False  # write it here
    assert not marker.exists()
    assert (
        rewrite.spawn(tmp_path / "home", tmp_path / "missing" / "ws", tmp_path / "no" / "c")
        is False
    )
