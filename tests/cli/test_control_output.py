"""What the CLI prints to a terminal never carries a raw control character from a fact:
``memory read``, ``memory list``, ``memory search`` and ``recall`` show ``\\x1b``, ``\\u202e``…
as text (issue 17). The facts are a person's own (``memory save``), which the gate does not
see."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inproc import run_inprocess

from context_center.engine.facade import Engine
from context_center.engine.model import FactType

RAW = ("\x1b", "\x07", "\u202e", "\x9b", "\r")
BODY = (
    "The quokka deploy: \x1b[31mred\x1b[0m \x1b]0;owned\x07 \x1b[8mhidden\x1b[28m \x1b[2J "
    "reversed \u202egnp.exe C1 \x9b31m overwrite\rshown"
)


@pytest.fixture
def hostile(home: Path, workspace: Path) -> tuple[Path, Path]:
    Engine(home=home, workspace=workspace).create_fact(
        name="quokka-deploy",
        title="Quokka deploy",
        description="quokka deployment notes",
        type=FactType.PROJECT,
        body=BODY,
    )
    return home, workspace


def text_of(home: Path, workspace: Path, *args: str) -> str:
    result = run_inprocess(["--home", str(home), "--workspace", str(workspace), *args])
    assert result.returncode == 0, result.stderr
    return result.stdout


def assert_escaped(out: str) -> None:
    for ch in RAW:
        assert ch not in out, repr(ch)


def test_memory_read(hostile: tuple[Path, Path]) -> None:
    out = text_of(*hostile, "memory", "read", "project/quokka-deploy.md")
    assert_escaped(out)
    assert "\\x1b[31mred" in out and "\\u202egnp.exe" in out and "\\x9b31m" in out


def test_memory_search(hostile: tuple[Path, Path]) -> None:
    out = text_of(*hostile, "memory", "search", "quokka")
    assert "project/quokka-deploy.md" in out
    assert_escaped(out)
    hits = json.loads(text_of(*hostile, "memory", "search", "quokka", "--json"))["hits"]
    snippet = hits[0]["snippet"]  # what the memory tool hands a model
    assert_escaped(snippet)
    assert "\\u202egnp.exe" in snippet


def test_recall_text(hostile: tuple[Path, Path]) -> None:
    out = text_of(*hostile, "recall", "how does the quokka deploy work?")
    assert "<memory-recall>" in out and "quokka" in out.lower()
    assert_escaped(out)
    assert "\\x1b[2J" in out


def test_recall_message_with_controls_is_escaped_in_the_trace(hostile: tuple[Path, Path]) -> None:
    out = text_of(*hostile, "recall", "quokka \x1b[2J deploy")
    assert_escaped(out)
    out = text_of(*hostile, "memory", "recall")
    assert_escaped(out)


def test_memory_list_and_revisions(hostile: tuple[Path, Path]) -> None:
    assert_escaped(text_of(*hostile, "memory", "list"))
    assert_escaped(text_of(*hostile, "memory", "revisions", "project/quokka-deploy.md"))
