"""Every folder under the cache root is 0700 and every file 0600, whoever made the folder."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from context_center.engine import Engine, FactType, Scope
from context_center.engine.store.cachedirs import private_levels


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    root = tmp_path / "cache"
    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(root))
    old = os.umask(0o022)  # a usual umask: a level made without a mode would be 0755
    try:
        yield root
    finally:
        os.umask(old)


def _modes(root: Path) -> dict[str, int]:
    out = {}
    for folder, dirs, files in os.walk(root):
        for name in [*dirs, *files]:
            path = Path(folder) / name
            out[str(path.relative_to(root))] = stat.S_IMODE(path.lstat().st_mode)
    return out


def test_a_recall_and_a_phrase_index_leave_only_private_folders_and_files(
    cache: Path, home: Path, workspace: Path
) -> None:
    engine = Engine(home=home, workspace=workspace)
    engine.create_fact(
        name="deploy",
        title="Deploy to staging",
        description="how staging deploys",
        type=FactType.PROJECT,
        scope=Scope.PROJECT,
        body="Run the rollout from the release branch; 滚动发布.",
    )
    engine.recall("how do we deploy to staging?")
    engine.index_fact_phrases(claude_root=None, codex_root=None)
    modes = _modes(cache)
    assert any(p.startswith("workspaces") and p.endswith("recall-index.cache") for p in modes)
    for path, mode in modes.items():
        want = 0o700 if (cache / path).is_dir() else 0o600
        assert mode == want, f"{path}: {oct(mode)}"


def test_private_levels_makes_and_tightens_every_level_below_the_root(cache: Path) -> None:
    cache.mkdir(mode=0o700)
    (cache / "workspaces").mkdir(mode=0o755)  # left loose by an earlier version
    private_levels(cache / "workspaces" / "k" / "deeper")
    assert {p: oct(m) for p, m in _modes(cache).items()} == {
        "workspaces": "0o700",
        "workspaces/k": "0o700",
        "workspaces/k/deeper": "0o700",
    }
