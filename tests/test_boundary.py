"""Front ends reach the engine only through ``context_center.engine``, never its submodules.

The CLI, the window, the agent server (``mcp``) and the demo builder are front ends: any
``from context_center.engine.<x> import …``, ``import context_center.engine.<x>`` or
``importlib.import_module("context_center.engine.<x>")`` in them is a boundary violation.
Every name the package exports must also resolve, so a stale entry fails here and not in use.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import context_center
import context_center.engine as engine

PACKAGE = Path(context_center.__file__).parent
FRONT_ENDS = ("cli", "ui", "mcp", "demo.py")


def _front_end_files() -> list[Path]:
    files: list[Path] = []
    for name in FRONT_ENDS:
        path = PACKAGE / name
        if path.is_dir():
            files.extend(sorted(path.rglob("*.py")))
        elif path.is_file():
            files.append(path)
    return files


def _engine_submodule_imports(source: str, label: str) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(source)):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module]
            if node.level:
                names = []  # a relative import stays inside its own front end
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names = [node.args[0].value]
        found.extend(
            f"{label}:{node.lineno}: {name}"
            for name in names
            if name.startswith("context_center.engine.")
        )
    return found


def test_front_ends_import_only_the_engine_package() -> None:
    files = _front_end_files()
    assert len(files) > 20, "front-end modules not found"
    offenders = [
        hit
        for path in files
        for hit in _engine_submodule_imports(
            path.read_text(encoding="utf-8"), str(path.relative_to(PACKAGE))
        )
    ]
    assert offenders == []


def test_the_check_sees_each_form_of_violation() -> None:
    source = (
        "import context_center.engine.store.atomic\n"
        "from context_center.engine.gate.secrets import find_sensitive\n"
        "from context_center.engine import Engine\n"
        "importlib.import_module('context_center.engine.recall.index')\n"
    )
    assert _engine_submodule_imports(source, "x.py") == [
        "x.py:1: context_center.engine.store.atomic",
        "x.py:2: context_center.engine.gate.secrets",
        "x.py:4: context_center.engine.recall.index",
    ]


@pytest.mark.parametrize("name", engine.__all__)
def test_every_exported_name_resolves(name: str) -> None:
    assert getattr(engine, name) is not None
