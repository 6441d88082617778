"""Which files mean which change: the groups a file watcher follows for one engine.

The window's watcher stats these paths (cheap signatures) and watches these folders; when a
group's signature moves, the group's area changed on disk. The knowledge of *where* each kind
of state lives stays here, beside the ``Layout``, not in the front end.

A group with ``folder_contents`` owns every file directly inside its folders (a fact store, an
archive, the approval queue): a change notification naming any file there counts, which is
how an in-place edit of a fact file (an editor rewriting it, ``echo >>``) is seen — the
folder's own mtime does not move for that. Other groups own only their listed ``paths``
(the state folder also holds the recall index cache, whose rebuild must not look like a
change).

``chain_files`` lists what an instruction chain reads — every document, every import it
loaded, and the other instruction names beside each document (so a new ``AGENTS.local.md``
next to one is seen) — for ``watch_groups(extra_instruction_files=...)``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from context_center.engine.changes import Area
from context_center.engine.instructions.folders import NAMES as FOLDER_NAMES
from context_center.engine.instructions.model import ImportStatus, InstructionDocument
from context_center.engine.instructions.resolve import DOCUMENT_NAMES, LOCAL_DOCUMENT_NAMES
from context_center.engine.store.paths import Layout

# Files in <project>/state that views show (the recall index cache there is deliberately left
# out: rebuilding it must not look like a change).
TRACE_FILES = ("recall-trace.json",)
SUGGESTION_FILES = ("history.jsonl", "suggestions.json")
INSTRUCTION_NAMES = tuple(dict.fromkeys((*DOCUMENT_NAMES, *LOCAL_DOCUMENT_NAMES, *FOLDER_NAMES)))


@dataclass(frozen=True)
class WatchGroup:
    area: Area
    paths: tuple[Path, ...]  # stat'ed for the signature
    folders: tuple[Path, ...]  # folders to watch for notifications
    folder_contents: bool = False  # every file directly inside ``folders`` belongs here

    def covers(self, path: Path) -> bool:
        """Whether a change to ``path`` (a file a notification named) is a change here."""
        if path in self.paths:
            return True
        # dot files there are locks, temp files of an atomic write (its rename names the real
        # file) and the .archive / .revisions folders: never a change of their own
        return (
            self.folder_contents and path.parent in self.folders and not path.name.startswith(".")
        )


def chain_files(documents: Iterable[InstructionDocument]) -> tuple[Path, ...]:
    """The files an instruction chain reads, and the instruction names beside each document."""
    out: dict[Path, None] = {}
    for doc in documents:
        out[doc.local_path] = None
        for name in INSTRUCTION_NAMES:
            out[doc.local_path.parent / name] = None
        for imp in doc.imports:
            if imp.local_path is not None and imp.status is not ImportStatus.REJECTED:
                out[imp.local_path] = None
    return tuple(out)


def watch_groups(
    layout: Layout, *, extra_instruction_files: tuple[Path, ...] = ()
) -> list[WatchGroup]:
    """The groups for ``layout``; ``extra_instruction_files`` adds files the chain imports or
    nested instruction files (``chain_files``), so edits there are followed too."""
    stores = (layout.project_store, layout.global_store)
    archives = tuple(store / ".archive" for store in stores)
    decided = ("pending", "approved", "rejected")
    approvals = (layout.approvals_dir, *(layout.approvals_dir / name for name in decided))
    state = layout.state_dir
    roots = (layout.home, layout.workspace)
    instruction_files = tuple(
        dict.fromkeys(
            (
                *(base / name for base in roots for name in DOCUMENT_NAMES + LOCAL_DOCUMENT_NAMES),
                *extra_instruction_files,
            )
        )
    )
    folders = dict.fromkeys((*roots, *(p.parent for p in extra_instruction_files)))
    instruction_folders = tuple(folders)
    return [
        WatchGroup(Area.FACTS, stores, stores, folder_contents=True),
        WatchGroup(Area.ARCHIVE, archives, archives, folder_contents=True),
        WatchGroup(Area.APPROVALS, approvals, approvals, folder_contents=True),
        WatchGroup(Area.TRACE, tuple(state / n for n in TRACE_FILES), (state,)),
        WatchGroup(Area.SUGGESTIONS, tuple(state / n for n in SUGGESTION_FILES), (state,)),
        WatchGroup(Area.INSTRUCTIONS, instruction_files, instruction_folders),
    ]
