"""A hostile tree never hangs or crashes any profile: FIFOs, huge files, deep nesting, symlink
cycles and escapes are diagnostics, and no absolute path reaches the text."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest
from instruction_trees import write_tree

from context_center.engine.instructions.model import Resolution
from context_center.engine.instructions.service import Places, resolve_for

AGENTS = ("reasonix", "claude-code", "codex")


def run_bounded(agent: str, places: Places, target: Path, seconds: float = 20) -> Resolution:
    result: list[Resolution] = []
    errors: list[BaseException] = []

    def work() -> None:
        try:
            result.append(resolve_for(agent, places, target))
        except BaseException as exc:
            errors.append(exc)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    worker.join(timeout=seconds)
    assert not worker.is_alive(), f"{agent} hung"
    assert errors == [], errors
    return result[0]


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Places, Path]:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write_tree(tmp_path, {"secret/outside.md": "OUTSIDE-SECRET\n"})
    os.mkfifo(repo / "AGENTS.override.md")  # Codex's first choice: a FIFO
    os.mkfifo(repo / "pipe.md")
    (repo / "huge.md").write_bytes(b"x" * (1024 * 1024 + 10))
    (repo / "loop-a.md").symlink_to(repo / "loop-b.md")
    (repo / "loop-b.md").symlink_to(repo / "loop-a.md")
    (repo / "escape.md").symlink_to(tmp_path / "secret" / "outside.md")
    (repo / ".claude" / "rules").mkdir(parents=True)
    (repo / ".claude" / "rules" / "self").symlink_to(repo / ".claude" / "rules")  # a dir cycle
    (repo / ".claude" / "rules" / "r.md").write_text("- a rule\n")
    deep_quote = ">" * 5000 + " @pipe.md\n"
    nested_list = "".join("  " * i + "- @huge.md\n" for i in range(300))
    imports = "\n".join(
        f"@{name}" for name in ("pipe.md", "huge.md", "loop-a.md", "escape.md", "missing.md")
    )
    for name in ("AGENTS.md", "CLAUDE.md"):
        (repo / name).write_text(f"# Rules\n{imports}\n{deep_quote}{nested_list}", encoding="utf-8")
    deep = repo
    for level in range(60):
        deep = deep / f"d{level}"
    deep.mkdir(parents=True)
    places = Places(
        home=tmp_path / "home", workspace=None, user_home=tmp_path / "user", ceiling=tmp_path
    )
    return places, deep


@pytest.mark.parametrize("agent", AGENTS)
def test_hostile_tree_is_resolved_with_diagnostics(
    hostile: tuple[Places, Path], agent: str, tmp_path: Path
) -> None:
    places, deep = hostile
    res = run_bounded(agent, places, deep)
    dumped = res.model_dump_json()
    assert str(tmp_path) not in dumped and str(tmp_path) not in res.text
    assert "x" * 1000 not in res.text  # the huge file is never loaded
    codes = {d.code for d in res.diagnostics}
    if agent == "reasonix":
        assert {"import_unreadable", "import_too_large", "import_symlink_escape"} <= codes
        assert "OUTSIDE-SECRET" not in res.text
    elif agent == "claude-code":
        assert {"import_unreadable", "import_too_large", "import_missing"} <= codes
        assert "OUTSIDE-SECRET" not in res.text  # external: waits for approval, never read
        assert "import_needs_approval" in codes
    else:
        labels = [d.label for d in res.documents]
        assert labels == ["workspace/AGENTS.md"]  # the FIFO override is no file to Codex


def test_deep_nesting_target_and_long_paths_do_not_crash(tmp_path: Path) -> None:
    repo = tmp_path / "r"
    (repo / ".git").mkdir(parents=True)
    deep = repo
    for level in range(120):
        deep = deep / f"level-{level:03d}"
        deep.mkdir()
        (deep / "AGENTS.md").write_text(f"- level {level}\n")
        (deep / "CLAUDE.md").write_text(f"- claude level {level}\n")
    places = Places(home=tmp_path / "h", workspace=None, user_home=tmp_path / "u", ceiling=tmp_path)
    for agent in AGENTS:
        res = run_bounded(agent, places, deep)
        assert res.documents, agent


def test_refused_absolute_and_home_imports_are_no_paths_in_the_json(tmp_path: Path) -> None:
    import json

    from context_center.engine.facade import Engine
    from context_center.engine.instructions.render import OUTSIDE, render_instructions_json

    ws, outside = tmp_path / "ws", tmp_path / "elsewhere"
    (ws / ".git").mkdir(parents=True)
    outside.mkdir()
    (outside / "rules.md").write_text("hi\n", encoding="utf-8")
    (ws / "REASONIX.md").write_text(
        f"rules\n@{outside}/rules.md\n@/etc/hostname\n@~/notes.md\n", encoding="utf-8"
    )
    engine = Engine(home=tmp_path / "home", workspace=ws)
    for shown in (
        json.dumps(engine.agent_instructions()),
        json.dumps(render_instructions_json(engine.instructions(ws))),
    ):
        assert "elsewhere" not in shown and "/etc/hostname" not in shown, shown
        assert "notes.md" not in shown and OUTSIDE in shown
    local = json.dumps(render_instructions_json(engine.instructions(ws), local_paths=True))
    assert "/etc/hostname" in local  # a local tool asked for them
