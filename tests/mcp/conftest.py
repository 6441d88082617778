"""Fixtures for the agent front ends: a seeded home and workspace, an isolated user home (so
``connect`` and the Claude Code folder never touch the real one), and helpers that drive the
real MCP server through the SDK's client."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine import Engine, FactType, Scope

SEED = [
    (
        "release-branch",
        "Release branch",
        "Releases are cut from release/* branches",
        FactType.PROJECT,
        Scope.PROJECT,
        "We cut every release from a release/* branch, never main.",
    ),
    (
        "deploy-window",
        "Deploy window",
        "Deploys happen Tuesday mornings",
        FactType.REFERENCE,
        Scope.PROJECT,
        "Production deploys: Tuesday 09:00-11:00 UTC (see the runbook).",
    ),
    (
        "数据库迁移",
        "数据库迁移规则",
        "迁移脚本必须可回滚",
        FactType.PROJECT,
        Scope.PROJECT,
        "每个数据库迁移脚本都必须提供回滚步骤。",
    ),
    (
        "prefers-pytest",
        "Prefers pytest",
        "The user prefers pytest over unittest",
        FactType.FEEDBACK,
        Scope.GLOBAL,
        "Write tests with pytest fixtures, not unittest classes.",
    ),
]


@pytest.fixture(autouse=True)
def user_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``Path.home()`` for this test: agent configs and ~/.claude live here."""
    path = tmp_path / "user-home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    return path


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def seeded(home: Path, workspace: Path) -> Engine:
    engine = Engine(home=home, workspace=workspace)
    for name, title, description, type_, scope, body in SEED:
        engine.create_fact(
            name=name, title=title, description=description, type=type_, scope=scope, body=body
        )
    return engine
