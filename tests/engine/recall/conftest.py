"""Fixtures for the recall tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from recall_env import MakeFact, fact

from context_center.engine.store.paths import Layout


@pytest.fixture
def make_fact() -> MakeFact:
    return fact


@pytest.fixture
def layout(home: Path, workspace: Path) -> Layout:
    """The store layout of the test's home and workspace (for recall's cache files)."""
    return Layout(home, workspace)
