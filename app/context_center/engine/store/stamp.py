"""Store generation stamps: an O(1) proof that a store folder is as it was when last looked at.

A stamp is ``(folder st_mtime_ns, folder st_ino, write counter)``. Every write of ours and of
Reasonix replaces, creates or removes a file *by a rename or link in the store folder*, which
moves the folder's mtime; the counter (``generation`` in the store's private cache folder,
``paths.store_cache_dir``) is bumped after each of our writes, under the store lock, so two
writes within one tick of the file system's clock still give two stamps. A missing folder has
the stamp ``(0, 0, counter)``.

What a stamp does not see: a file edited *in place* (opened and rewritten without a rename).
Readers that trust a stamp therefore still check the files they actually read (size, mtime and
inode), and a stamp taken within ``racy_window`` of the folder's last change (two seconds on a
file system that keeps whole seconds, 50 ms on one with finer times) is *racy*: a foreign
rename later in the same clock tick would not move the mtime, so a racy stamp is never trusted
on its own (``is_racy``).

Each write also appends one line to the store's *journal* (``journal`` beside the counter):
its counter, the folder's (mtime, inode) before and after it, and the file stems it created,
replaced or removed. A reader whose stamp no longer matches asks ``journal_between`` for the
writes that took the store from its stamp to the current one: when every one of them is
ours and each starts where the previous one left the folder, the changed files are exactly
the stems listed, and only those need reading; anything else (another program's write, a
gap, a write whose files are not known) means loading the store.

``folder_files`` lists a folder's fact files with their inode numbers without a ``stat`` per
file (``readdir`` returns them), which is how a reader whose stamp no longer matches finds the
few files that were replaced.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat as stat_mod
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from context_center.engine.store.paths import store_cache_dir

GENERATION_FILE = "generation"
JOURNAL_FILE = "journal"
JOURNAL_MAX_BYTES = 256 * 1024
# A stamp observed this close to the folder's last change may miss a same-tick rename: on a
# file system whose times are whole seconds (FAT keeps two), and on one with finer times (ext4,
# xfs, btrfs, tmpfs, APFS: nanoseconds), whose clock for file times moves at least once per
# kernel tick (10 ms at most; every change since Linux 6.13) -- see ``racy_window``.
RACY_NS = 2_000_000_000
FINE_RACY_NS = 50_000_000
INDEX_NAME = "MEMORY.md"
O_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)

Stamp = tuple[int, int, int]


def _counter_path(root: Path) -> Path:
    return store_cache_dir(root) / GENERATION_FILE


def read_counter(root: Path) -> int:
    """The store's write counter (0 when it was never written or cannot be read)."""
    try:
        fd = os.open(_counter_path(root), os.O_RDONLY | O_NOFOLLOW)
    except (OSError, ValueError):
        return 0
    try:
        data = os.read(fd, 32)
    except OSError:
        return 0
    finally:
        os.close(fd)
    try:
        return int(data.strip() or b"0")
    except ValueError:
        return 0


def bump(
    root: Path,
    before: tuple[int, int] | None = None,
    stems: Iterable[str] | None = None,
    *,
    made_folder: bool = False,
) -> None:
    """Count one more write to the store (call with the store lock held, after the write),
    and journal it: the folder's (mtime, inode) before and after it, and the file stems it
    created, replaced or removed (None: not known -- a reader must load the store).

    ``made_folder``: this write made the folder. When every fact file in it, listed after
    the ``after`` stamp is taken, is one of ``stems``, the entry starts at (0, 0), the stamp
    of a missing folder, so a reader that saw none reads just those files (the first fact of
    a new workspace). A file another program renamed in without our lock keeps ``before``
    (a reader then loads the store); one renamed in later moves the folder past ``after``.

    Best effort: a counter that cannot be written leaves the folder mtime, which every write
    moves anyway; a write missing from the journal makes readers load the store."""
    from context_center.engine.store.cachedirs import FILE_MODE, writable_store_cache

    if writable_store_cache(root) is None:
        return
    path = _counter_path(root)
    with contextlib.suppress(OSError, ValueError):
        fd = os.open(path, os.O_RDWR | os.O_CREAT | O_NOFOLLOW, FILE_MODE)
        try:
            if not stat_mod.S_ISREG(os.fstat(fd).st_mode):
                return
            try:
                value = int(os.pread(fd, 32, 0).strip() or b"0")
            except ValueError:
                value = 0
            after = folder_stamp(root)
            if made_folder and stems is not None:
                stems = list(stems)
                files = folder_files(root)
                if files is not None and set(files) <= set(stems):
                    before = (0, 0)
            _journal(root, value + 1, before, after, stems)
            data = f"{value + 1:020d}\n".encode()
            os.pwrite(fd, data, 0)  # one small write at offset 0: never seen torn in practice
        finally:
            os.close(fd)


def _journal(
    root: Path,
    counter: int,
    before: tuple[int, int] | None,
    after: tuple[int, int],
    stems: Iterable[str] | None,
) -> None:
    from context_center.engine.store import atomic
    from context_center.engine.store.cachedirs import FILE_MODE

    path = store_cache_dir(root) / JOURNAL_FILE
    known = sorted(set(stems)) if stems is not None else None
    if known is not None and not known and before is not None and tuple(before) != after:
        known = None  # the folder changed, and nothing says how
    record = [counter, *(before or (-1, -1)), *after, known]
    line = json.dumps(record, ensure_ascii=False).encode("utf-8", "surrogatepass") + b"\n"
    with contextlib.suppress(OSError):
        if os.lstat(path).st_size > JOURNAL_MAX_BYTES:  # keep the newest half
            lines = path.read_bytes().splitlines(keepends=True)
            atomic.write_bytes(
                path, b"".join(lines[len(lines) // 2 :]), mode=FILE_MODE, durable=False
            )
    # not fsynced: a line lost in a crash only makes the next reader load the store
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | O_NOFOLLOW, FILE_MODE)
    try:
        if stat_mod.S_ISREG(os.fstat(fd).st_mode):
            os.write(fd, line)
    finally:
        os.close(fd)


@dataclass(frozen=True, slots=True)
class JournalEntry:
    counter: int
    before: tuple[int, int]
    after: tuple[int, int]
    stems: tuple[str, ...] | None  # None: unknown changes


def journal_between(root: Path, old: Stamp, new: Stamp) -> list[JournalEntry] | None:
    """Our writes that took the store from stamp ``old`` to stamp ``new``, in order; None
    unless the journal shows every one of them and nothing else changed the folder (each
    write starts where the previous one left it, from ``old`` to ``new``)."""
    if new == old:
        return []
    first, last = old[2] + 1, new[2]
    if last < first:
        return None
    try:
        raw = (store_cache_dir(root) / JOURNAL_FILE).read_bytes()
    except OSError:
        return None
    by_counter: dict[int, JournalEntry] = {}
    # newest first: a catch-up wants the last few of up to JOURNAL_MAX_BYTES of lines, and a
    # line's counter is read from its head before the line is parsed (appends come in counter
    # order; one out of order is at worst not found, and then the caller loads the stores)
    for line in reversed(raw.splitlines()):
        head = _head_counter(line)
        if head is not None and head > last:
            continue
        if head is not None and head < first:
            break
        try:
            rec = json.loads(line)
            counter = int(rec[0])
            if first <= counter <= last:
                stems = tuple(str(x) for x in rec[5]) if rec[5] is not None else None
                by_counter[counter] = JournalEntry(
                    counter, (int(rec[1]), int(rec[2])), (int(rec[3]), int(rec[4])), stems
                )
        except (ValueError, TypeError, IndexError, UnicodeDecodeError, RecursionError):
            continue
    out: list[JournalEntry] = []
    at = (old[0], old[1])
    for counter in range(first, last + 1):
        entry = by_counter.get(counter)
        if entry is None or entry.before != at:
            return None
        out.append(entry)
        at = entry.after
    return out if at == (new[0], new[1]) else None


def _head_counter(line: bytes) -> int | None:
    """The counter a journal line ``[counter, …]`` starts with, or None (read it whole)."""
    comma = line.find(b",", 1, 24)
    if line[:1] != b"[" or comma < 0:
        return None
    digits = line[1:comma].strip()
    return int(digits) if digits.isdigit() else None


def folder_stamp(root: Path) -> tuple[int, int]:
    try:
        st = os.stat(root)
    except (OSError, ValueError):
        return (0, 0)
    return (st.st_mtime_ns, st.st_ino)


def store_stamp(root: Path) -> Stamp:
    """The folder's (mtime_ns, inode) and the write counter, read in that order."""
    mtime, ino = folder_stamp(root)
    return (mtime, ino, read_counter(root))


def racy_window(mtime_ns: int) -> int:
    """How long after a folder's change (its mtime) a stamp of it may miss a rename made in
    the same tick of the file system's clock. The time itself tells the clock's grain: whole
    seconds (FAT, HFS+, many network shares) keep ``RACY_NS``; a time with sub-second digits
    gets ``FINE_RACY_NS``, or twice its grain when that is coarser (exFAT: 10 ms units; a time
    ending in zeros by chance only makes the window longer, never shorter)."""
    sub = mtime_ns % 1_000_000_000
    if sub == 0:
        return RACY_NS
    grain = 1
    while sub % (grain * 10) == 0:
        grain *= 10
    return min(RACY_NS, max(FINE_RACY_NS, 2 * grain))


def is_racy(stamp: Stamp, observed_ns: int) -> bool:
    """True when the folder changed less than its ``racy_window`` before the stamp was
    observed (or after it: a clock set back)."""
    return stamp[0] != 0 and observed_ns - stamp[0] < racy_window(stamp[0])


def now_ns() -> int:
    return time.time_ns()


def folder_files(root: Path) -> dict[str, int] | None:
    """``{stem: inode}`` of the fact files a loader would consider (``*.md``, not hidden, not
    the index); None when the folder cannot be listed (missing: an empty dict)."""
    try:
        it = os.scandir(root)
    except FileNotFoundError:
        return {}
    except (OSError, ValueError):
        return None
    try:
        with it:  # one comprehension: a racy stamp lists 40,000 names at 50k facts
            return {
                name[:-3]: e.inode()
                for e in it
                if (name := e.name).endswith(".md")
                and not name.startswith(".")
                and name != INDEX_NAME
            }
    except OSError:
        return None
