"""Accepting or dismissing by id acts on the candidate as the person's scan showed it: the scan
against the facts, where a candidate past the first few takes the place of those the facts
already hold, and its name is kept clear of the facts' names."""

from __future__ import annotations

from pathlib import Path

from context_center.engine import Engine
from context_center.engine.model import FactType, Scope

RULES = [
    "Always use black for formatting python code",
    "Never push directly to the main branch",
    "Always write docstrings in Google style",
    "I prefer short answers without preamble",
    "Always use type hints in new functions",
    "Never add new dependencies without asking",
    "Always use pathlib instead of os.path",
    "I prefer pytest fixtures over setUp methods",
    "Always keep functions under fifty lines",
]


def _engine(home: Path, workspace: Path, tmp_path: Path) -> tuple[Engine, dict[str, Path]]:
    engine = Engine(home=home, workspace=workspace)
    roots = {"claude_root": tmp_path / "no-claude", "codex_root": tmp_path / "no-codex"}
    for text in RULES:
        engine.append_history(text, session="s1")
    for name, title, type_, body in (
        ("fifty", "Short functions", FactType.FEEDBACK, "Always keep functions under fifty lines."),
        ("always-use-pathlib-instead-of-os-path", "Old note", FactType.USER, "cooking pasta"),
    ):
        engine.create_fact(scope=Scope.PROJECT, name=name, title=title, type=type_, body=body)
    return engine, roots


def test_the_last_candidate_shown_can_be_accepted_and_keeps_its_shown_name(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    engine, roots = _engine(home, workspace, tmp_path)
    shown = engine.scan_suggestions(**roots).memories
    names = [m.name for m in shown]
    assert "always-use-black-for-formatting-python-code" in names  # shown past the first 8
    last = shown[-1]
    result = engine.accept_suggestion(last.id, **roots).value
    assert result.ref == f"project/{last.name}.md"
    pathlib = next(m for m in engine.scan_suggestions(**roots).memories if "pathlib" in m.name)
    assert pathlib.name != "always-use-pathlib-instead-of-os-path"  # clear of the fact's name
    result = engine.accept_suggestion(pathlib.id, **roots).value
    assert result.ref == f"project/{pathlib.name}.md"


def test_the_last_candidate_shown_can_be_dismissed(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    engine, roots = _engine(home, workspace, tmp_path)
    last = engine.scan_suggestions(**roots).memories[-1]
    assert engine.dismiss_suggestion(last.id, **roots).value.id == last.id
    assert last.id not in {m.id for m in engine.scan_suggestions(**roots).memories}
