"""A store's lock, and what every locked write leaves for readers: the stamp and the journal.

``LockedStore.locked()`` holds the store's lock (``<store>/.lock``, an ``flock`` through
filelock, released by the kernel when a process dies) and refuses a store whose index or lock
file is unsafe. The outermost locked section notes the folder's (mtime, inode) when it gets
the lock and the file stems the write touches (``touched``, ``index_change``); when it ends
it bumps the store's write counter and journals the write (``stamp.bump``), so a reader with
an older stamp can tell exactly which files changed, and ``MEMORY.md`` can be spliced when
nobody else changed the folder since our last write.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine.errors import StoreUnavailable
from context_center.engine.kinds import Scope
from context_center.engine.model import Fact
from context_center.engine.store import memory_index, stamp
from context_center.engine.store.loader import check_index_file
from context_center.engine.store.locking import file_lock, hold

if TYPE_CHECKING:
    from filelock import FileLock

    from context_center.engine.store.entries import Snapshot


class LockedStore:
    """The lock and the write bookkeeping of one store folder (``FactStore`` adds the rest)."""

    def __init__(self, root: Path, scope: Scope) -> None:
        self.root = root
        self.scope = scope
        self._lock: FileLock | None = None
        self._folder_at_lock: tuple[int, int] | None = None
        self._touched: set[str] = set()  # file stems written or removed under the lock

    def load(self, *, persist_cache: bool = True) -> Snapshot:
        raise NotImplementedError

    def _file_lock(self) -> FileLock:
        if self._lock is None:
            self._lock = file_lock(self.root / ".lock")
        return self._lock

    @contextlib.contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the store's lock; refuses a store whose index or lock file is unsafe."""
        created = self._make_folder()
        with hold(self._file_lock(), f"the {self.scope.value} store"):
            check_index_file(self.root)
            if self._folder_at_lock is not None:  # nested: the outer section journals
                yield
                return
            # the folder as the lock found it, before this write changes it
            self._folder_at_lock = before = stamp.folder_stamp(self.root)
            self._touched = set()
            try:
                yield
            except OSError as exc:  # a read-only folder, a full disk: a refusal, not a crash
                raise StoreUnavailable(
                    f"cannot write the {self.scope.value} store: {exc.strerror or exc}"
                ) from exc
            finally:
                touched, self._touched, self._folder_at_lock = self._touched, set(), None
                # readers holding a stamp of this store look again (the journal says where)
                stamp.bump(self.root, before, touched, made_folder=created)

    def _make_folder(self) -> bool:
        """Make the store folder if it is missing; True when this call made it."""
        try:
            self.root.mkdir(parents=True)
            return True
        except FileExistsError:
            if self.root.is_dir():
                return False
            raise StoreUnavailable(
                f"cannot create the {self.scope.value} store: it is not a folder"
            ) from None
        except OSError as exc:
            raise StoreUnavailable(
                f"cannot create the {self.scope.value} store: {exc.strerror}"
            ) from exc

    def touched(self, *stems: str) -> None:
        """Note file stems this locked write creates, replaces or removes (for the journal)."""
        self._touched.update(stems)

    def index_change(self, *, put: Fact | None = None, remove: str | None = None) -> None:
        """Update ``MEMORY.md`` for one change (lock held): one line spliced when nobody else
        touched the folder or the index since our last write, else rewritten whole from the
        store as it is now (``memory_index.apply_change``)."""
        if put is not None:
            self._touched.add(put.name)
        if remove is not None:
            self._touched.add(remove)
        memory_index.apply_change(
            self.root,
            put=put,
            remove=remove,
            before=self._folder_at_lock,
            current=lambda: _facts(self.load(persist_cache=False)),
        )


def _facts(snap: Snapshot) -> Iterable[Fact]:
    return [e.fact for e in snap.entries.values()]
