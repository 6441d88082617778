"""The engine never imports Qt: a walk over every module's imports, plus a clean-process import."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import context_center.engine as engine_pkg

FORBIDDEN = ("PySide6", "qasync", "shiboken6")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_no_engine_module_imports_qt() -> None:
    root = Path(engine_pkg.__file__).parent
    offenders = []
    files = sorted(root.rglob("*.py"))
    assert files, "the engine package has no modules?"
    for path in files:
        for name in _imports(path):
            if name.split(".")[0] in FORBIDDEN:
                offenders.append(f"{path.relative_to(root)}: {name}")
    assert offenders == []


def test_importing_every_engine_module_loads_no_qt() -> None:
    root = Path(engine_pkg.__file__).parent
    modules = sorted(
        "context_center.engine." + ".".join(p.relative_to(root).with_suffix("").parts)
        for p in root.rglob("*.py")
        if p.name != "__init__.py"
    )
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        f"bad = [m for m in sys.modules if m.split('.')[0] in {FORBIDDEN!r}]\n"
        "print(bad); sys.exit(1 if bad else 0)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
