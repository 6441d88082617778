"""Provider-visible text through the engine: the recall block, its trace, search snippets and
the prefix show no secret, no local path and no raw control character (issue 17)."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope

GHP = "gh" + "p_" + "A1b2C3d4E5" * 3 + "f6G7h8"
RAW_CONTROLS = ("\x1b", "\x07", "\u202e", "\x9b")


@pytest.fixture
def hostile_engine(engine: Engine, home: Path, workspace: Path) -> Engine:
    body = (
        f"The zanzibar deploy reads {workspace}/deploy/zanzibar.yaml and {home}/approvals; "
        f"the old copy is in /root/zanzibar and %2Fhome%2Fann%2Fzanzibar and ~ann/zanzibar. "
        f"Token {GHP}; the staging password is hunter2. "
        "Colour \x1b[31mred\x1b[0m, bell \x07, \x1b[2J, reversed \u202egnp.exe and \x9b."
    )
    engine.create_fact(
        name="zanzibar-deploy",
        title=f"Zanzibar deploy in {workspace}",
        description="zanzibar deployment notes",
        type=FactType.PROJECT,
        scope=Scope.PROJECT,
        body=body,
    )
    return engine


def _assert_clean(text: str, home: Path, workspace: Path) -> None:
    assert str(workspace) not in text
    assert str(home) not in text
    assert GHP not in text
    assert "hunter2" not in text
    assert "/root/" not in text and "%2Fhome%2Fann" not in text and "~ann" not in text
    for ch in RAW_CONTROLS:
        assert ch not in text


def test_recall_block_and_trace(hostile_engine: Engine, home: Path, workspace: Path) -> None:
    result = hostile_engine.recall("how does the zanzibar deploy work?")
    block = result.block
    assert "zanzibar" in block.lower()
    _assert_clean(block, home, workspace)
    assert "&lt;workspace&gt;" not in block and "<workspace>/deploy" in block
    assert "[withheld: GitHub token]" in block
    assert "\\x1b[31m" in block  # visible, not interpreted
    trace = result.trace.model_dump_json()
    _assert_clean(result.trace.selected[0].title, home, workspace)
    assert str(workspace) not in trace


def test_search_snippets(hostile_engine: Engine, home: Path, workspace: Path) -> None:
    hits = hostile_engine.search("zanzibar deploy")
    assert hits
    _assert_clean(hits[0].snippet, home, workspace)


def test_prefix_index_and_guidance(engine: Engine, home: Path, workspace: Path) -> None:
    engine.create_fact(
        name="tone",
        title="Tone",
        description="how to write",
        type=FactType.FEEDBACK,
        scope=Scope.GLOBAL,
        body=f"Keep notes in {workspace}/notes and /root/x; key {GHP}; \x1b[2J \u202e",
    )
    engine.create_fact(
        name="paths",
        title=f"Paths under {home}",
        description="/home/ann/work and %2Fhome%2Fann",
        type=FactType.PROJECT,
        body="x",
    )
    text = engine.prefix().text
    assert "Keep notes in" in text
    _assert_clean(text, home, workspace)
