"""Fixtures for the recall tests."""

from __future__ import annotations

import pytest
from recall_env import MakeFact, fact


@pytest.fixture
def make_fact() -> MakeFact:
    return fact
