"""Build hook: compile the window's translations (``.ts`` → ``.qm``) when the package is built.

All metadata is in pyproject.toml; this file only adds a ``build_py`` step that runs PySide6's
``lrelease`` over ``context_center/resources/i18n/*.ts`` and puts each ``.qm`` beside its
``.ts`` in the build (the wheel, ``pip install .``, the PyInstaller bundle's install). The
``.qm`` files are never committed. An editable install (``pip install -e .``) builds nothing
here: the window compiles a missing or stale ``.qm`` into its cache folder at start-up with
the same lrelease (``context_center/ui/i18n.py``).
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

I18N = Path("context_center") / "resources" / "i18n"


def lrelease() -> list[str] | None:
    """PySide6's lrelease (a build requirement), else one on PATH."""
    try:
        import PySide6

        folder = Path(PySide6.__file__).resolve().parent
        for name in ("lrelease.exe", "lrelease"):
            if (folder / name).is_file():
                return [str(folder / name)]
    except ImportError:
        pass
    found = shutil.which("pyside6-lrelease") or shutil.which("lrelease")
    return [found] if found else None


class BuildPyWithTranslations(build_py):
    """``build_py``, then ``lrelease`` on every ``.ts`` copied into the build."""

    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # the sources are used in place; the window compiles into its cache
        folder = Path(self.build_lib) / I18N
        sources = sorted(folder.glob("*.ts"))
        if not sources:
            return
        command = lrelease()
        if command is None:
            sys.stderr.write(
                "warning: no lrelease found; the window compiles its translations at start-up\n"
            )
            return
        for ts in sources:
            qm = ts.with_suffix(".qm")
            subprocess.run([*command, "-silent", str(ts), "-qm", str(qm)], check=True)
            # the window uses this .qm while the .ts beside it is the one it was built from
            digest = hashlib.sha256(ts.read_bytes()).hexdigest()
            qm.with_name(qm.name + ".source-sha256").write_text(digest + "\n", encoding="ascii")


setup(cmdclass={"build_py": BuildPyWithTranslations})
