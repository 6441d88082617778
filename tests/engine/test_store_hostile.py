"""Hostile files and names (issue 17): symlinked index and lock, impossible paths, hard links.

Every case ends in a coded ``EngineError`` (the CLI's JSON contract), never a traceback, and
nothing from outside the store is read into it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from context_center.engine import Engine, EngineError, FactType, Scope


def make(engine: Engine, name: str = "note") -> None:
    engine.memory.create(name=name, type=FactType.PROJECT, body=f"body of {name}")


def test_a_symlinked_memory_md_is_refused_and_never_copied(engine: Engine, tmp_path: Path) -> None:
    make(engine)
    store = engine.layout.project_store
    outside = tmp_path / "outside.md"
    outside.write_text("SECRET LINE FROM OUTSIDE\n- [x](y.md) — [project/project] z\n")
    (store / "MEMORY.md").unlink()
    (store / "MEMORY.md").symlink_to(outside)
    before = outside.read_bytes()
    other = Engine(home=engine.home, workspace=engine.workspace)
    view = other.memory.load()
    assert [(d.code, d.path) for d in view.diagnostics] == [("unsafe_store_file", "MEMORY.md")]
    attempts = [
        lambda: other.memory.create(name="second", type=FactType.PROJECT, body="b"),
        lambda: other.memory.update("note", expected_revision=1, body="changed"),
        lambda: other.memory.forget("note"),
    ]
    for attempt in attempts:
        with pytest.raises(EngineError) as err:
            attempt()
        assert err.value.code == "unsafe_store_file"
        assert "MEMORY.md" in str(err.value)
    assert outside.read_bytes() == before
    assert (store / "MEMORY.md").is_symlink()
    for path in store.rglob("*"):
        if path.is_file() and not path.is_symlink():
            assert b"SECRET LINE FROM OUTSIDE" not in path.read_bytes(), path
    assert other.memory.resolve("note").fact.revision == 1


def test_a_symlinked_lock_is_a_coded_error(engine: Engine, tmp_path: Path) -> None:
    make(engine)
    store = engine.layout.project_store
    (store / ".lock").unlink()
    target = tmp_path / "elsewhere.lock"
    target.write_text("")
    (store / ".lock").symlink_to(target)
    other = Engine(home=engine.home, workspace=engine.workspace)
    with pytest.raises(EngineError) as err:
        other.memory.update("note", expected_revision=1, body="changed")
    assert err.value.code == "unsafe_store_file"
    assert ".lock" in str(err.value)
    # a dangling link too (the lock file would be created through it)
    (store / ".lock").unlink()
    (store / ".lock").symlink_to(tmp_path / "missing" / "x.lock")
    with pytest.raises(EngineError) as err:
        other.memory.create(name="second", type=FactType.PROJECT, body="b")
    assert err.value.code == "unsafe_store_file"
    assert not (tmp_path / "missing").exists()


@pytest.mark.parametrize(
    "ref",
    [
        "a" * 300 + ".md",
        ".archive/" + "a" * 300 + ".md",
        "project/.archive/" + "a" * 300 + ".md",
        "global/.archive/" + "b" * 256 + ".md",
        "project/.archive/a\0b.md",
        "a\0b.md",
        "/tmp/x\0y/.archive/z.md",
    ],
)
def test_impossible_archive_paths_are_coded_errors(engine: Engine, ref: str) -> None:
    make(engine)
    engine.memory.forget("note")
    engine.memory.create(name="g", type=FactType.USER, scope=Scope.GLOBAL, body="g")
    engine.memory.forget("global/g.md")
    with pytest.raises(EngineError) as err:
        engine.memory.recover(ref)
    assert err.value.code == "invalid_path"


def test_an_absolute_over_long_path_in_the_archive_is_a_coded_error(engine: Engine) -> None:
    make(engine)
    engine.memory.forget("note")
    path = engine.layout.project_store / ".archive" / ("c" * 300 + ".md")
    with pytest.raises(EngineError) as err:
        engine.memory.recover(str(path))
    assert err.value.code == "invalid_path"


def test_recover_with_an_over_long_name_through_the_cli_prints_a_json_error(
    engine: Engine, cli_env: dict[str, str]
) -> None:
    make(engine)
    engine.memory.forget("note")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "context_center",
            "--home",
            str(engine.home),
            "--workspace",
            str(engine.workspace),
            "memory",
            "recover",
            "a" * 300 + ".md",
            "--json",
        ],
        env=cli_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr
    error = json.loads(result.stdout)["error"]
    assert error["code"] == "invalid_path"


def test_a_hard_linked_archive_entry_is_refused_for_recover(engine: Engine, tmp_path: Path) -> None:
    make(engine)
    _, dest = engine.memory.forget("note")
    outside = tmp_path / "outside.md"
    os.link(dest, outside)  # the entry now shares its bytes with a file outside the store
    with pytest.raises(EngineError) as err:
        engine.memory.recover(dest)
    assert err.value.code == "recover_refused"
    assert "hard link" in str(err.value)
    assert dest.exists() and outside.exists()
    assert not (engine.layout.project_store / "note.md").exists()
    outside.unlink()
    assert engine.memory.recover(dest).name == "note"


def test_nul_and_over_long_names_elsewhere_are_coded_errors(engine: Engine) -> None:
    make(engine)
    for ref in ("a\0b", "project/a\0b.md", "x" * 400, "project/" + "x" * 400 + ".md"):
        with pytest.raises(EngineError):
            engine.memory.resolve(ref)
        with pytest.raises(EngineError):
            engine.memory.update(ref, expected_revision=1, body="b")
        with pytest.raises(EngineError):
            engine.memory.forget(ref)
