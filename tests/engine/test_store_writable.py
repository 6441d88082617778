"""Every save leaves a fact the store can read back, forget and restore: what the loader would
reject is refused before anything is written, and the longest names can be archived."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine import Engine, FactType, InvalidRequest
from context_center.engine.store.factfile import MAX_FILE_BYTES

MERGE = "x\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> other\n"


def _tree(root: Path) -> list[tuple[str, bytes]]:
    return sorted((str(p), p.read_bytes()) for p in root.rglob("*") if p.is_file())


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ("a\0b", "nul_bytes"),
        (MERGE, "git_conflict_markers"),
        ("x" * (MAX_FILE_BYTES + 1), "too_large"),
        ("lone \ud800 surrogate", "invalid_utf8"),
    ],
    ids=["nul", "conflict-markers", "too-large", "surrogate"],
)
def test_a_body_the_loader_would_reject_is_refused(engine: Engine, body: str, code: str) -> None:
    engine.create_fact(name="keep", type=FactType.PROJECT, body="fine")
    before = _tree(engine.home)
    with pytest.raises(InvalidRequest) as create:
        engine.create_fact(name="bad", type=FactType.PROJECT, body=body)
    assert create.value.code == code
    with pytest.raises(InvalidRequest) as update:
        engine.update_fact("project/keep.md", expected_revision=1, body=body)
    assert update.value.code == code
    assert _tree(engine.home) == before  # no file, no snapshot, no index line
    assert engine.read_fact("project/keep.md").fact.body == "fine"


def test_the_longest_names_can_be_forgotten_and_recovered(engine: Engine) -> None:
    for name in ("a" * 300, "中" * 100):
        fact = engine.create_fact(name=name, type=FactType.PROJECT, body="long").value
        assert len(fact.name.encode()) > 232  # longer than an archive entry's room
        _, dest = engine.forget_fact(fact.ref).value
        assert len(dest.name.encode()) <= 255
        back = engine.recover_fact(engine.archive_ref(engine.archived()[0])).value
        assert back.name == fact.name and back.id == fact.id
