"""The archive (``.archive/``): forgotten facts, named ``<UTC stamp>-<name>[-n].md``.

Entries are listed newest first. An entry that is a leftover of an interrupted forget (the
same inode as an active fact: a forget killed between link and unlink by an older build) or
of an interrupted recover (its fact is active again and its exact bytes are saved as a
revision) is not listed: it is a copy of something active, and repair removes it.

``owns_archive_entry`` is the gate for recover: a regular file directly inside this store's
own archive, with no other hard link (a link count above one means its bytes are shared with
a file elsewhere), named by a path the system can take (no NUL, no over-long name).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from datetime import UTC, datetime
from pathlib import Path

from context_center.engine.errors import ArchiveRefused, InvalidRequest, NotFound
from context_center.engine.kinds import Scope
from context_center.engine.store import atomic
from context_center.engine.store.entries import ArchivedEntry, Entry, Snapshot
from context_center.engine.store.factcache import read_fact_file
from context_center.engine.store.factfile import FactFileError
from context_center.engine.store.loader import snapshot_hashes

ARCHIVE_DIR = ".archive"
NAME_MAX = 255


def archive_time(name: str) -> datetime | None:
    try:
        return datetime.strptime(name[:19], "%Y%m%d-%H%M%S.%f").replace(tzinfo=UTC)
    except ValueError:
        return None


def archive_stem(name: str) -> str:
    stem = name[:-3]
    if archive_time(name) is not None and len(stem) > 20 and stem[19] == "-":
        stem = stem[20:]
    return stem


def archive_name(now: datetime, name: str, n: int) -> str:
    """``<YYYYMMDD-HHMMSS.mmm>-<name>[-n].md``, the name cut (at a character boundary) so the
    whole file name fits in ``NAME_MAX`` bytes: a fact whose name is already 252 bytes can be
    forgotten too. The archived file keeps its frontmatter name, which is what recover uses."""
    stamp = now.astimezone(UTC).strftime("%Y%m%d-%H%M%S.") + f"{now.microsecond // 1000:03d}"
    suffix = ("" if n == 0 else f"-{n}") + ".md"
    room = NAME_MAX - len(stamp.encode()) - 1 - len(suffix.encode())
    cut = name.encode("utf-8")[:room].decode("utf-8", errors="ignore").rstrip("-")
    return f"{stamp}-{cut or 'fact'}{suffix}"


def _is_leftover(
    root: Path, path: Path, entry: ArchivedEntry, sha: str, current: Entry | None
) -> bool:
    """A copy of an active fact: its inode, or a revision it has already moved past."""
    if current is None or entry.fact is None:
        return False
    try:
        st = os.lstat(path)
        cur = os.lstat(current.path)
    except OSError:
        return False
    if (st.st_dev, st.st_ino) == (cur.st_dev, cur.st_ino):
        return True
    return entry.fact.revision < current.fact.revision and sha in snapshot_hashes(
        root, entry.fact.id
    )


def list_archived(
    root: Path, scope: Scope, active: Snapshot | None = None, *, leftovers: list[Path] | None = None
) -> list[ArchivedEntry]:
    """The archive of the store ``root``, newest first. With ``active`` (the loaded store),
    leftovers of interrupted writes are left out (and appended to ``leftovers``)."""
    folder = root / ARCHIVE_DIR
    try:
        st = os.lstat(folder)
    except OSError:  # none, or a store folder this user cannot read (memory list says so)
        return []
    if not stat.S_ISDIR(st.st_mode):  # a symbolic link or a file: no archive
        return []
    out: list[ArchivedEntry] = []
    ids = active.by_id() if active is not None else {}
    try:
        names = sorted(os.listdir(folder), reverse=True)
    except OSError:
        return out
    for name in names:
        if not name.endswith(".md") or name.startswith("."):
            continue
        path = folder / name
        when = archive_time(name)
        try:
            parsed, _, _ = read_fact_file(
                path, stem=archive_stem(name), scope=scope, prefer_declared_name=True
            )
            entry = ArchivedEntry(path, when, parsed.fact)
        except (OSError, FactFileError) as exc:
            out.append(ArchivedEntry(path, when, None, error=str(exc)))
            continue
        if _is_leftover(root, path, entry, parsed.sha256, ids.get(parsed.fact.id)):
            if leftovers is not None:
                leftovers.append(path)
            continue
        out.append(entry)
    return out


def bring_back(entry_path: Path, target: Path, data: bytes) -> None:
    """Recover's write: the next revision (``data``) appears as ``target`` in one no-replace
    rename of a temp file written inside ``.archive``, then the entry goes. The temp file
    changes the archive folder, so the next open checks it: killed before the entry went, the
    entry is a revision its active fact has moved past (saved in ``.revisions/``), hidden from
    the listing and removed then. ``FileExistsError`` if ``target`` is taken."""
    tmp = atomic.write_temp(entry_path.parent, data)
    try:
        atomic.rename_noreplace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    os.unlink(entry_path)
    atomic.fsync_dir(entry_path.parent)


def check_path_text(text: str) -> None:
    """A path the system can take: no NUL, no component longer than a file name may be."""
    if "\0" in text:
        raise InvalidRequest("the path contains a NUL character", code="invalid_path")
    for part in text.replace("\\", "/").split("/"):
        if len(os.fsencode(part)) > NAME_MAX:
            raise InvalidRequest(
                f"a path component is {len(os.fsencode(part))} bytes long; the limit is {NAME_MAX}",
                code="invalid_path",
            )


def _candidate(root: Path, folder: Path, path: Path) -> Path:
    if path.is_absolute():
        return path
    return root / path if path.parent != Path(".") else folder / path


def owns_archive_entry(root: Path, path: Path) -> Path:
    """Validate that ``path`` is a regular file directly inside the store's own .archive."""
    check_path_text(str(path))
    folder = root / ARCHIVE_DIR
    try:
        root_st = os.lstat(folder)
    except OSError as exc:
        raise NotFound("archived memory not found (this store has no archive)") from exc
    if stat.S_ISLNK(root_st.st_mode) or not stat.S_ISDIR(root_st.st_mode):
        raise ArchiveRefused(
            "archived memory not found: the .archive folder is a symbolic link or not a folder"
        )
    candidate = _candidate(root, folder, path)
    inside = candidate.parent.absolute() == folder.absolute()
    if inside and not candidate.name.endswith(".md") and not os.path.lexists(candidate):
        raise NotFound(f"archived memory not found: {candidate.name[:80]}")  # as for a .md
    if not inside or not candidate.name.endswith(".md"):
        raise ArchiveRefused(
            f"archived memory not found: {path} is not an entry of this store's archive"
        )
    try:
        st = os.lstat(candidate)
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            raise InvalidRequest(
                "the archive entry's name is too long", code="invalid_path"
            ) from exc
        raise NotFound(f"archived memory not found: {candidate.name}") from exc
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
        raise ArchiveRefused(f"archived memory not found: {candidate.name} is not a regular file")
    if st.st_nlink > 1:
        raise ArchiveRefused(
            f"cannot recover {candidate.name}: it is a hard link shared with another file "
            f"(link count {st.st_nlink})"
        )
    if os.path.realpath(candidate.parent) != os.path.realpath(folder):
        raise ArchiveRefused("archived memory not found: the entry resolves outside this store")
    return candidate
