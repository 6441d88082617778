"""Extracting the window's strings: lupdate over ``ui/`` into the ``.ts`` sources.

``tools/i18n_update`` runs ``update_ts()`` after strings change (new ones arrive as
``type="unfinished"`` for a translator; ``-no-obsolete`` drops removed ones), and
``tests/ui/test_i18n.py`` runs ``extract()`` into a scratch file to check that every string
lupdate finds has a finished translation. Not imported by the window.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from context_center.ui.i18n import TRANSLATED, ts_path

UI_DIR = Path(__file__).resolve().parent


def source_files() -> list[Path]:
    """Every module of ``ui/`` (sorted: the .ts does not churn)."""
    return sorted(p for p in UI_DIR.rglob("*.py") if "__pycache__" not in p.parts)


def lupdate_command() -> list[str]:
    import PySide6

    folder = Path(PySide6.__file__).resolve().parent
    for name in ("lupdate.exe", "lupdate") if sys.platform == "win32" else ("lupdate",):
        if (folder / name).is_file():
            return [str(folder / name)]
    found = shutil.which("pyside6-lupdate") or shutil.which("lupdate")
    if found is None:
        raise FileNotFoundError("lupdate: PySide6's lupdate is missing")
    return [found]


def extract(ts: Path, language: str) -> str:
    """lupdate ``source_files()`` into ``ts`` (merging what it holds); lupdate's report."""
    done = subprocess.run(
        [
            *lupdate_command(),
            *(str(p) for p in source_files()),
            "-locations",
            "none",
            "-no-obsolete",
            "-source-language",
            "en",
            "-target-language",
            language,
            "-ts",
            str(ts),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return done.stdout + done.stderr


def update_ts() -> list[str]:
    """Refresh every ``.ts`` in the package from the sources; lupdate's reports."""
    return [extract(ts_path(language), language) for language in TRANSLATED]


@dataclass(frozen=True)
class Message:
    context: str
    source: str
    disambiguation: str
    translation: str
    finished: bool


def read_ts(ts: Path) -> list[Message]:
    """The messages of a ``.ts`` file."""
    out = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            translation = message.find("translation")
            text = (translation.text or "") if translation is not None else ""
            kind = translation.get("type", "") if translation is not None else "unfinished"
            out.append(
                Message(
                    name,
                    message.findtext("source") or "",
                    message.findtext("comment") or "",
                    text,
                    kind not in ("unfinished", "vanished", "obsolete") and bool(text),
                )
            )
    return out
