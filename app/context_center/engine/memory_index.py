"""``MEMORY.md``: a derived index of a store, one line per fact; hand-written lines survive.

It is never a source of truth: loading ignores it, and every change rewrites the managed
lines (``- [Title](name.md) — [scope/type] description``) while leaving every other line as
the person wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

from context_center.engine import atomic
from context_center.engine.model import Fact

INDEX_NAME = "MEMORY.md"
HEADER = "# Memory index\n\nDerived from the fact files in this folder; the list is rebuilt after every change.\n"
_MANAGED = re.compile(r"^- \[.*\]\((?P<file>[^()\s]+\.md)\) — \[[a-z]+/[a-z]+\]")


def index_line(fact: Fact) -> str:
    title = fact.display_title.replace("[", "\\[").replace("]", "\\]").replace("\n", " ")
    desc = " ".join(fact.description.split())
    return f"- [{title}]({fact.name}.md) — [{fact.scope.value}/{fact.type.value}] {desc}".rstrip()


def _split(text: str) -> tuple[list[str], int | None, dict[str, str]]:
    """Hand-written lines, the position of the managed block, managed lines by file."""
    keep: list[str] = []
    where: int | None = None
    managed: dict[str, str] = {}
    for line in text.splitlines():
        m = _MANAGED.match(line)
        if m:
            if where is None:
                where = len(keep)
            managed[m.group("file")] = line
        else:
            keep.append(line)
    return keep, where, managed


def _render(keep: list[str], where: int | None, managed: dict[str, str]) -> str:
    block = [managed[k] for k in sorted(managed)]
    if where is None:
        where = len(keep)
        if keep and keep[-1].strip():
            block = ["", *block]
    lines = keep[:where] + block + keep[where:]
    return "\n".join(lines).rstrip("\n") + "\n"


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return HEADER
    except OSError:
        return HEADER


def rebuild(store_root: Path, facts: Iterable[Fact]) -> bool:
    """Rewrite the managed lines from the facts. Returns False when nothing changed."""
    path = store_root / INDEX_NAME
    old = _read(path)
    keep, where, _ = _split(old)
    managed = {f"{f.name}.md": index_line(f) for f in facts}
    new = _render(keep, where, managed)
    if path.exists() and new == old:
        return False
    atomic.write_text(path, new)
    return True


def apply_change(
    store_root: Path,
    *,
    put: Fact | None = None,
    remove: str | None = None,
    known: set[str] | None = None,
) -> None:
    """Update one fact's line (and drop another's, for renames and forgets).

    Lines for files that are neither ``known`` (the stems this process has loaded) nor on disk
    are stale and dropped, so the index never advertises a fact that is gone.
    """
    path = store_root / INDEX_NAME
    keep, where, managed = _split(_read(path))
    if known is not None:
        for file in list(managed):
            if file[:-3] not in known and not (store_root / file).is_file():
                del managed[file]
    if remove is not None:
        managed.pop(f"{remove}.md", None)
    if put is not None:
        managed[f"{put.name}.md"] = index_line(put)
    atomic.write_text(path, _render(keep, where, managed))
