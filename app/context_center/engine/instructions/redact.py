"""No absolute local path in provider-visible text: the home, the workspace and the OS home
directory are replaced (longest first) by stable placeholders wherever a text quotes them."""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

LOCAL_HOME = "<local-home>"
LOCAL_WORKSPACE = "<workspace>"


class Redactor:
    """Replaces absolute local paths (longest first) with stable placeholders."""

    def __init__(self, pairs: Iterable[tuple[Path, str]]) -> None:
        table: dict[str, str] = {}
        for path, placeholder in pairs:
            for variant in {os.path.abspath(path), os.path.realpath(path)}:
                if len(Path(variant).parts) >= 2:  # never the filesystem root itself
                    table.setdefault(variant, placeholder)
        ordered = sorted(table, key=len, reverse=True)
        self._placeholders = table
        self._pattern = (
            re.compile("|".join(re.escape(p) + r"(?![\w-])" for p in ordered)) if ordered else None
        )

    def __call__(self, text: str) -> str:
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(lambda m: self._placeholders[m.group(0)], text)


def os_home() -> Path | None:
    try:
        return Path.home()
    except (RuntimeError, KeyError):
        return None


def redactor_for(workspace: Path, *homes: Path) -> Redactor:
    """The workspace as ``<workspace>``; each home and the OS home as ``<local-home>``."""
    pairs: list[tuple[Path, str]] = [(workspace, LOCAL_WORKSPACE)]
    pairs.extend((home, LOCAL_HOME) for home in homes)
    home = os_home()
    if home is not None:
        pairs.append((home, LOCAL_HOME))
    return Redactor(pairs)
