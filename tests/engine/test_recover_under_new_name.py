"""Recovering an archived fact under a new name when its own name is active again (the window's
"Recover under a new name…"): the id and the revision history stay, the name is slugged, an
active id is still refused."""

from __future__ import annotations

import pytest

from context_center.engine import ArchiveRefused, FactChangeKind
from context_center.engine.facade import Engine
from context_center.engine.model import FactType


def _archived_with_name_taken(engine: Engine) -> tuple[str, str]:
    old = engine.create_fact(name="board", title="Board", type=FactType.REFERENCE, body="old")
    engine.forget_fact(old.value.id)
    engine.create_fact(name="board", title="New board", type=FactType.REFERENCE, body="new")
    (entry,) = engine.archived()
    return engine.archive_ref(entry), old.value.id


def test_recover_under_a_new_name_keeps_id_and_history(engine: Engine) -> None:
    ref, fact_id = _archived_with_name_taken(engine)
    with pytest.raises(ArchiveRefused, match="has that name"):
        engine.recover_fact(ref)
    changes = engine.recover_fact(ref, name="Board (old)")
    fact = changes.value
    assert fact.name == "board-old" and fact.id == fact_id and fact.revision == 2
    assert fact.body == "old"
    assert [c.kind for c in changes.facts] == [FactChangeKind.RECOVERED]
    assert engine.read_fact("project/board-old.md").fact.id == fact_id
    assert engine.read_fact("project/board.md").fact.body == "new"  # untouched
    assert [r.revision for r in engine.revisions(fact_id)] == [2, 1]
    assert engine.archived() == []


def test_a_new_name_that_is_taken_too_is_refused(engine: Engine) -> None:
    ref, _ = _archived_with_name_taken(engine)
    with pytest.raises(ArchiveRefused, match=r"project/board\.md"):
        engine.recover_fact(ref, name="board")
    assert len(engine.archived()) == 1
