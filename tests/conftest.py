"""Shared fixtures: a temporary home and workspace for every test, never the real home."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _isolate_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Point every default location at a temp dir so no test can touch the real home."""
    base = tmp_path_factory.mktemp("isolated")
    monkeypatch.setenv("CONTEXT_CENTER_HOME", str(base / "default-home"))
    monkeypatch.setenv("XDG_DATA_HOME", str(base / "xdg-data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(base / "xdg-config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(base / "xdg-cache"))
    runtime = base / "run"
    runtime.mkdir(mode=0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    # Hosts (the window, `mcp`) start no warm server in tests, and no CLI process looks for
    # one, unless a test asks for it (tests/cli/test_serve.py).
    monkeypatch.setenv("CONTEXT_CENTER_NO_SERVER", "1")
    # Per-turn CLI processes write the recall cache themselves, instead of in a detached
    # child that would outlive the test (tests/cli/test_recall_detached_rewrite.py opts in).
    monkeypatch.setenv("CONTEXT_CENTER_NO_DETACH", "1")


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "workspace"
    path.mkdir()
    (path / ".git").mkdir()
    return path


@pytest.fixture
def engine(home: Path, workspace: Path):  # type: ignore[no-untyped-def]
    from context_center.engine.facade import Engine

    return Engine(home=home, workspace=workspace)


@pytest.fixture
def cli_env(home: Path, workspace: Path) -> dict[str, str]:
    """Environment for running the CLI in a subprocess against the temp home."""
    env = dict(os.environ)
    env["CONTEXT_CENTER_HOME"] = str(home)
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env
