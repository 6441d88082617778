"""A match only inside a secret does not count: no hit, no reason naming it (no oracle)."""

from __future__ import annotations

from context_center.engine import Engine, FactType

BODY = "The AWS key is AKIAIOSFODNN7EXAMPLE. The staging password is hunter2."


def test_search_is_no_oracle_for_a_secret_in_a_body(engine: Engine) -> None:
    engine.create_fact(
        name="staging-db", title="Staging database", type=FactType.PROJECT, body=BODY
    )
    for probe in ("hunter2", "AKIAIOSFODNN7EXAMPLE", "akiaiosfodnn7example"):
        assert engine.search(probe) == []
    hits = engine.search("staging")
    assert [h.fact.name for h in hits] == ["staging-db"]
    assert "hunter2" not in hits[0].snippet


def test_recall_never_names_a_secret_it_matched(engine: Engine) -> None:
    engine.create_fact(
        name="staging-db", title="Staging database", type=FactType.PROJECT, body=BODY
    )
    result = engine.recall("is the staging password hunter2")
    assert "hunter2" not in result.block
    assert all("hunter2" not in m for s in result.trace.selected for m in s.matched)
