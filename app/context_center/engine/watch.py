"""Which files mean which change: the groups a file watcher follows for one engine.

The window's watcher stats these paths (cheap signatures) and watches these folders; when a
group's signature moves, the group's area changed on disk. The knowledge of *where* each kind
of state lives stays here, beside the ``Layout``, not in the front end.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from context_center.engine.changes import Area
from context_center.engine.instructions.resolve import DOCUMENT_NAMES, LOCAL_DOCUMENT_NAMES
from context_center.engine.store.paths import Layout

# Files in <project>/state that views show (the recall index cache there is deliberately left
# out: rebuilding it must not look like a change).
TRACE_FILES = ("recall-trace.json",)
SUGGESTION_FILES = ("history.jsonl", "suggestions.json")


@dataclass(frozen=True)
class WatchGroup:
    area: Area
    paths: tuple[Path, ...]  # stat'ed for the signature
    folders: tuple[Path, ...]  # folders to watch for notifications


def watch_groups(
    layout: Layout, *, extra_instruction_files: tuple[Path, ...] = ()
) -> list[WatchGroup]:
    """The groups for ``layout``; ``extra_instruction_files`` adds files the chain imports or
    nested instruction files, so edits there are followed too."""
    stores = (layout.project_store, layout.global_store)
    archives = tuple(store / ".archive" for store in stores)
    decided = ("pending", "approved", "rejected")
    approvals = (layout.approvals_dir, *(layout.approvals_dir / name for name in decided))
    state = layout.state_dir
    roots = (layout.home, layout.workspace)
    instruction_files = tuple(
        base / name for base in roots for name in DOCUMENT_NAMES + LOCAL_DOCUMENT_NAMES
    ) + tuple(extra_instruction_files)
    folders = dict.fromkeys((*roots, *(p.parent for p in extra_instruction_files)))
    instruction_folders = tuple(folders)
    return [
        WatchGroup(Area.FACTS, stores, stores),
        WatchGroup(Area.ARCHIVE, archives, archives),
        WatchGroup(Area.APPROVALS, approvals, approvals),
        WatchGroup(Area.TRACE, tuple(state / n for n in TRACE_FILES), (state,)),
        WatchGroup(Area.SUGGESTIONS, tuple(state / n for n in SUGGESTION_FILES), (state,)),
        WatchGroup(Area.INSTRUCTIONS, instruction_files, instruction_folders),
    ]
