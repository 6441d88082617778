"""A fact's name becomes its ref, which agents are shown as it is: a name holding a secret or
a local path is refused, for an agent's write (the gate) and a person's (the facade) alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine.errors import InvalidName
from context_center.engine.facade import Engine
from context_center.engine.gate.decision import Outcome, assess
from context_center.engine.gate.reasons import NAME_UNDERIVABLE
from context_center.engine.model import FactType

AWS = "AKIA" + "IOSFODNN7EXAMPLQ"
GHP = "gh" + "p_" + "Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2"


@pytest.fixture
def private_names(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Names holding a secret or a path in the (test's) home."""
    home = tmp_path / "users" / "zed"
    monkeypatch.setenv("HOME", str(home))
    return [AWS, GHP, f"{home}/private", f"notes in {home}/x"]


def test_an_agent_cannot_name_a_fact_with_a_secret_or_a_local_path(
    engine: Engine, private_names: list[str]
) -> None:
    for name in private_names:
        request = {
            "operation": "create",
            "controller": "interactive",
            "owns_store": True,
            "agent": "claude-code",
            "name": name,
            "title": "Build notes",
            "description": "how the build runs",
            "type": "project",
            "body": "Run make all from the repository root.",
        }
        decision = assess(request, engine.memory)
        assert decision.outcome is Outcome.REFUSED, name
        assert NAME_UNDERIVABLE in decision.codes
        assert engine.memory.view().entries == []


def test_a_person_cannot_either_and_an_ordinary_name_is_fine(
    engine: Engine, private_names: list[str]
) -> None:
    for name in private_names:
        with pytest.raises(InvalidName, match="secret or a local path"):
            engine.create_fact(name=name, type=FactType.PROJECT, body="x")
    fact = engine.create_fact(name="CI/CD notes", type=FactType.PROJECT, body="x").value
    assert fact.name == "ci-cd-notes"
    with pytest.raises(InvalidName):
        engine.update_fact(fact.ref, expected_revision=1, name=GHP)
