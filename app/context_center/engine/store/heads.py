"""The head ledger: what this engine last wrote for each fact, to catch hand edits.

``heads/<id>`` in the store's private cache folder (outside the home, see
``paths.store_cache_dir``) holds the sha256 of the bytes the engine last wrote (and, while a write
is in flight, the previous one too). A file whose hash is in neither was edited by hand
without bumping its revision, and an update that did not pass the hash it read is refused.
The ledger is advisory: it is never written or read through a symlink, and a failed write
only loses the hand-edit check.
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from context_center.engine.errors import ContentConflict
from context_center.engine.store import atomic
from context_center.engine.store.cachedirs import FILE_MODE, private_folder, readable_store_cache
from context_center.engine.store.entries import Entry
from context_center.engine.store.guarded import is_link, read_regular
from context_center.engine.store.paths import store_cache_dir

HEADS_DIR = "heads"


class HeadLedger:
    def __init__(self, root: Path) -> None:
        self.root = root

    @property
    def folder(self) -> Path:
        return store_cache_dir(self.root) / HEADS_DIR

    def _usable(self) -> bool:
        return readable_store_cache(self.root) is not None and not is_link(self.folder)

    def record(self, fact_id: str, sha: str, previous: str | None = None) -> None:
        """Record what is about to be written, before writing it. The previous hash stays
        acceptable too, so a writer killed between the two steps is not taken for a hand edit."""
        if private_folder(self.folder) is None:
            return  # an advisory cache is never written through a link
        text = sha if previous is None else f"{sha} {previous}"
        with contextlib.suppress(OSError):
            atomic.write_bytes(self.folder / fact_id, text.encode(), mode=FILE_MODE, sync_dir=False)

    def check(self, entry: Entry, expected_sha: str | None) -> None:
        """Refuse an update of a file that changed since it was read (or since we wrote it)."""
        if expected_sha is not None:
            if expected_sha != entry.sha256 and not self._rewrote(entry, expected_sha):
                raise ContentConflict(
                    f"{entry.fact.ref} changed on disk since you read it (revision "
                    f"{entry.fact.revision}, content differs); read it again before saving",
                    current_revision=entry.fact.revision,
                )
            return
        head = self._head(entry.fact.id)
        if head and entry.sha256 not in head:
            raise ContentConflict(
                f"{entry.fact.ref} was edited by hand after revision {entry.fact.revision} was "
                "written (its revision was not bumped); read it again and save with its content hash",
                current_revision=entry.fact.revision,
            )

    def _head(self, fact_id: str) -> list[str]:
        """The ledger line of ``fact_id``: the hash last written, then the one it replaced."""
        if not self._usable():
            return []
        try:
            return read_regular(self.folder / fact_id, max_bytes=4096)[0].decode().split()
        except (OSError, UnicodeDecodeError):
            return []

    def _rewrote(self, entry: Entry, expected_sha: str) -> bool:
        """True when this engine itself replaced the bytes ``expected_sha`` names with the
        file as it is now, without a new revision: a legacy file upgraded in place (``memory
        migrate``, or the migration a person's write runs first), whose content is the one
        that was read. The hash ``memory read`` printed before it still names that content."""
        head = self._head(entry.fact.id)
        return len(head) == 2 and head[0] == entry.sha256 and head[1] == expected_sha
