"""Where the approval queue keeps its files, and reading them back.

``<home>/approvals/`` holds ``pending/``, ``approved/``, ``rejected/`` (one record per item,
named ``<id>.json``) and ``applying/`` (the intent of an approval in progress). Every read is
guarded (a regular file, never through a symlink, within a size cap); a record whose content no
longer has the hash it was queued with is refused. Nothing here writes except creating the
private folders and sweeping temp files a killed writer left behind.
"""

from __future__ import annotations

import contextlib
import logging
import os
from pathlib import Path

from pydantic import ValidationError

from context_center.engine.errors import ApprovalRefused, EngineError, InvalidRequest
from context_center.engine.gate.apply import Intent
from context_center.engine.gate.proposal import content_sha256
from context_center.engine.gate.records import ID_RE, ApprovalRecord, Status
from context_center.engine.store import atomic
from context_center.engine.store.factfile import MAX_FILE_BYTES
from context_center.engine.store.guarded import UnsafeFile, read_regular
from context_center.engine.store.private import ensure_private_dir

log = logging.getLogger(__name__)

APPLYING = "applying"
# A record holds one proposed fact (at most a fact file's size) plus its metadata, escaped.
_MAX_RECORD_BYTES = 4 * MAX_FILE_BYTES


def read_private(path: Path) -> bytes:
    """Read a queue file: a regular file, never through a symlink, within the size cap."""
    try:
        return read_regular(path, max_bytes=_MAX_RECORD_BYTES)[0]
    except UnsafeFile as exc:
        raise InvalidRequest(f"approval file {path.name} cannot be read: {exc}") from exc


def unlink(path: Path) -> None:
    """Remove ``path`` if it is there, durably."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
        atomic.fsync_dir(path.parent)


def _ids(names: list[str]) -> set[str]:
    return {n[:-5] for n in names if n.endswith(".json") and ID_RE.match(n[:-5])}


class QueueFolders:
    def __init__(self, root: Path) -> None:
        self.root = root

    def folder(self, status: Status) -> Path:
        return self.root / status.value

    @property
    def applying_dir(self) -> Path:
        return self.root / APPLYING

    def ensure(self) -> None:
        for folder in (self.root, *(self.folder(s) for s in Status), self.applying_dir):
            ensure_private_dir(folder, "the approval queue folder")

    def path(self, status: Status, item_id: str) -> Path:
        return self.folder(status) / f"{item_id}.json"

    def intent_path(self, item_id: str) -> Path:
        return self.applying_dir / f"{item_id}.json"

    # -- reading ---------------------------------------------------------------------------

    def load(self, path: Path) -> ApprovalRecord:
        try:
            record = ApprovalRecord.model_validate_json(read_private(path))
        except ValidationError as exc:
            raise InvalidRequest(
                f"approval record {path.name} is damaged: {exc.error_count()} problem(s)"
            ) from exc
        if f"{record.id}.json" != path.name:
            raise InvalidRequest(f"approval record {path.name} names another id ({record.id})")
        if content_sha256(record.content) != record.content_sha256:
            raise ApprovalRefused(
                f"approval record {record.id} was altered after it was queued (content hash differs)"
            )
        return record

    def decided(self, item_id: str) -> ApprovalRecord | None:
        for status in (Status.APPROVED, Status.REJECTED):
            path = self.path(status, item_id)
            if path.exists():
                return self.load(path)
        return None

    def read_intent(self, item_id: str) -> Intent | None:
        """The intent of an approval in progress; a damaged one is dropped (nothing can be
        done with it), which leaves the item to be found pending or applied by its records."""
        try:
            return Intent.model_validate_json(read_private(self.intent_path(item_id)))
        except FileNotFoundError:
            return None
        except (ValidationError, OSError, EngineError) as exc:
            log.warning("dropping the damaged intent of approval %s: %s", item_id, exc)
            unlink(self.intent_path(item_id))
            return None

    @staticmethod
    def names(folder: Path) -> list[str]:
        try:
            return os.listdir(folder)
        except OSError:
            return []

    def listing(self, status: Status) -> list[Path]:
        """The record files of one state, by name; temp files a killed writer left there are
        swept once they are old enough to be provably orphaned."""
        folder = self.folder(status)
        names = self.names(folder)
        if any(n.startswith(atomic.TEMP_PREFIX) for n in names):
            atomic.sweep_temp(folder)
        return sorted(folder / f"{i}.json" for i in _ids(names))

    def interrupted(self, only: set[str] | None = None) -> set[str]:
        """Items a crash left mid-way: an approval's intent, or a pending copy beside its
        decided record. No lock and no writes: cheap enough for every listing."""
        found = _ids(self.names(self.applying_dir))
        pending = _ids(self.names(self.folder(Status.PENDING)))
        if pending:
            for status in (Status.APPROVED, Status.REJECTED):
                found |= pending & _ids(self.names(self.folder(status)))
        return found if only is None else found & only
