"""Reading instruction files safely, and naming paths with provider-safe labels.

Every read is vetted first: ``stat_regular`` follows links and insists on a regular file no
larger than ``MAX_FILE_BYTES`` before anything opens it, so a FIFO or a device never blocks;
``read_bytes`` opens with ``O_NONBLOCK`` as a belt and re-checks the inode it opened.

``Labeller`` turns a path into a label that never contains an absolute path: ``workspace/…``
inside the workspace, ``<prefix>/…`` inside a named root (the Context Center home as
``user``, ``~/.claude``, ``~/.codex``), else ``above/<n>/…`` relative to the nearest common
ancestor of the path and the workspace root, ``n`` levels above the root.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from context_center.engine.store.guarded import UnsafeFile, read_regular

MAX_FILE_BYTES = 1024 * 1024  # an instruction file larger than this is refused, not read


def abspath(path: Path | str) -> Path:
    return Path(os.path.abspath(os.fspath(path)))


def realpath(path: Path | str) -> Path:
    try:
        return Path(os.path.realpath(os.fspath(path)))
    except (OSError, ValueError):  # ELOOP on some platforms, NUL bytes
        return abspath(path)


def within(path: Path | str, root: Path | str) -> bool:
    path_s, root_s = os.fspath(path), os.fspath(root)
    try:
        return os.path.commonpath([path_s, root_s]) == root_s
    except ValueError:  # different drives
        return False


def find_workspace_root(target: Path, markers: Sequence[str] = (".git",)) -> Path:
    """The nearest ancestor of ``target`` (inclusive) holding a marker, else ``target``."""
    target = abspath(target)
    for candidate in (target, *target.parents):
        for marker in markers:
            try:
                if os.path.lexists(candidate / marker):
                    return candidate
            except (OSError, ValueError):
                continue
    return target


def rel_label(prefix: str, path: Path, root: Path) -> str:
    rel = os.path.relpath(path, root)
    if rel == ".":
        return prefix
    return prefix + "/" + Path(rel).as_posix()


@dataclass(frozen=True)
class Labeller:
    """Labels for paths: the workspace, named roots, or ``above/<n>/…``."""

    workspace: Path
    roots: tuple[tuple[Path, str], ...] = ()

    def __call__(self, path: Path) -> str:
        path = abspath(path)
        if within(path, self.workspace):
            return rel_label("workspace", path, self.workspace)
        for root, prefix in self.roots:
            if within(path, root):
                return rel_label(prefix, path, root)
        for levels, ancestor in enumerate(self.workspace.parents, start=1):
            if within(path, ancestor):
                return rel_label(f"above/{levels}", path, ancestor)
        return "outside/" + path.name  # another drive


class ReadError(Exception):
    def __init__(self, kind: Literal["unreadable", "undecodable", "too_large"], reason: str):
        super().__init__(reason)
        self.kind = kind
        self.reason = reason  # a key of model.REASONS


def decode_instruction_bytes(data: bytes) -> str | None:
    """UTF-8 (a BOM is dropped), else GB18030 when the bytes are valid GB18030, else None."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        pass
    try:
        return data.decode("gb18030")
    except UnicodeDecodeError:
        return None


def normalise_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def stat_regular(path: Path, limit: int | None = None) -> os.stat_result:
    """Stat (following links) and insist on a regular file, before anything opens it."""
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        st = os.stat(path)
    except FileNotFoundError as exc:
        raise ReadError("unreadable", "missing") from exc
    except PermissionError as exc:
        raise ReadError("unreadable", "permission_denied") from exc
    except (OSError, ValueError) as exc:
        raise ReadError("unreadable", "os_error") from exc
    if stat.S_ISDIR(st.st_mode):
        raise ReadError("unreadable", "directory")
    if not stat.S_ISREG(st.st_mode):
        raise ReadError("unreadable", "not_regular_file")
    if st.st_size > limit:
        raise ReadError("too_large", "too_large")
    return st


def read_bytes(path: Path, expected: os.stat_result, limit: int | None = None) -> bytes:
    """The bytes of a file already vetted by ``stat_regular`` (same inode, bounded size),
    through the store's one guarded read (``store/guarded.py``)."""
    limit = MAX_FILE_BYTES if limit is None else limit
    try:
        return read_regular(path, max_bytes=limit, expect=expected)[0]
    except UnsafeFile as exc:
        if exc.code == "too_large":
            raise ReadError("too_large", "too_large") from exc
        if exc.code == "symlink":
            raise ReadError("unreadable", "os_error") from exc
        raise ReadError("unreadable", "changed") from exc
    except PermissionError as exc:
        raise ReadError("unreadable", "permission_denied") from exc
    except (OSError, ValueError) as exc:
        raise ReadError("unreadable", "os_error") from exc


def read_text(path: Path, expected: os.stat_result) -> str:
    """Decoded text (UTF-8 or GB18030) with LF newlines, of a vetted file."""
    text = decode_instruction_bytes(read_bytes(path, expected))
    if text is None:
        raise ReadError("undecodable", "undecodable")
    return normalise_newlines(text)


def load_text(path: Path) -> tuple[str, os.stat_result]:
    """Stat, read and decode ``path`` (links followed). Raises ``ReadError``."""
    real = realpath(path)
    st = stat_regular(real)
    return read_text(real, st), st


def identity(st: os.stat_result) -> tuple[int, int]:
    return (st.st_dev, st.st_ino)


def try_identity(path: Path) -> tuple[int, int] | None:
    """The (device, inode) of a regular file, or None (missing, a directory, a FIFO…)."""
    try:
        return identity(stat_regular(realpath(path)))
    except ReadError:
        return None


def try_size(path: Path) -> int:
    """Bytes of a file on disk, 0 when it cannot be stat'ed."""
    try:
        return os.stat(path).st_size
    except (OSError, ValueError):
        return 0
