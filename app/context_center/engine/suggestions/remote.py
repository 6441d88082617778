"""Whether a workspace (or a transcript folder) can be confirmed to be on this machine.

Suggestions read only local session history of a local workspace and fail closed otherwise: a
workspace URI (``ssh://…``, ``vscode-remote://…``), a ``host:/path``, a path that does not exist
here, and a path on a network file system (NFS, SMB, sshfs …, learned from the mount table where
the platform has one) are all refused with a plain explanation.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

Mounts = Callable[[], list[tuple[str, str]] | None]

_URI_RE = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*:/")  # ssh://, vscode-remote://, file:/ …
_SCP_RE = re.compile(r"^(?:[^@/\s]+@)?[^/\s:]+:")  # host:/path, user@host:path
_WINDOWS_DRIVE_RE = re.compile(r"^[A-Za-z]:[\\/]")
_MANGLED_SCHEME_RE = re.compile(
    r"^(?:ssh|sftp|vscode-remote|vscode-vfs|file|smb|nfs|https?|[\w.\-]+\+[\w.\-]+):$"
)
NETWORK_FILESYSTEMS = frozenset(
    {
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "ncpfs", "afs", "coda", "ceph", "glusterfs",
        "lustre", "gpfs", "beegfs", "davfs", "9p.remote", "fuse.sshfs", "sshfs", "fuse.rclone",
        "fuse.s3fs", "fuse.gcsfuse", "fuse.glusterfs", "fuse.cephfs", "fuse.davfs2",
    }
)  # fmt: skip


def read_mount_table() -> list[tuple[str, str]] | None:
    """(mount point, file system type) pairs from /proc/self/mounts; None where there is none."""
    try:
        with open("/proc/self/mounts", encoding="utf-8", errors="replace") as handle:
            rows = handle.read().splitlines()
    except OSError:
        return None
    table: list[tuple[str, str]] = []
    for row in rows:
        parts = row.split()
        if len(parts) >= 3:
            point = re.sub(r"\\([0-7]{3})", lambda m: chr(int(m.group(1), 8)), parts[1])
            table.append((point, parts[2]))
    return table


def _filesystem_of(path: str, table: list[tuple[str, str]]) -> str | None:
    best: tuple[int, str] | None = None
    for point, fstype in table:
        root = point.rstrip("/") or "/"
        inside = root == "/" or path == root or path.startswith(root + "/")
        if inside and (best is None or len(root) > best[0]):
            best = (len(root), fstype)
    return best[1] if best else None


def network_filesystem(path: str, mounts: Mounts) -> str | None:
    """The network file system type ``path`` lives on, or None when it is local or unknown.

    Where the platform has no mount table (macOS, Windows) nothing can be learned and the path
    is treated as local; a workspace URI or ``host:path`` is still refused by ``remote_reason``.
    """
    table = mounts()
    if not table:
        return None
    fstype = _filesystem_of(path, table)
    if fstype and (fstype in NETWORK_FILESYSTEMS or fstype.startswith("nfs")):
        return fstype
    return None


def remote_reason(workspace: Path | str, mounts: Mounts = read_mount_table) -> str | None:
    """Why the workspace cannot be treated as local, or None when it can."""
    text = str(workspace)
    if os.name == "nt" and _WINDOWS_DRIVE_RE.match(text):
        pass
    elif _URI_RE.match(text) or (not text.startswith(("/", "\\", ".")) and _SCP_RE.match(text)):
        return (
            f"The workspace {text!r} is a remote location. Suggestions read only local session "
            "history of a local workspace and never fall back to this machine's history for it, "
            "so nothing was scanned."
        )
    path = Path(text)
    if not path.exists() and any(_MANGLED_SCHEME_RE.match(part) for part in path.parts[1:]):
        # "ssh://host/x" made absolute by a caller becomes "/cwd/ssh:/host/x".
        return (
            f"The workspace {text!r} looks like a remote location. Suggestions read only local "
            "session history of a local workspace, so nothing was scanned."
        )
    if not path.is_absolute():
        return f"The workspace {text!r} is not an absolute local path, so nothing was scanned."
    if not path.is_dir():
        return (
            f"The workspace {text!r} does not exist on this machine (it may live on a remote "
            "host). Suggestions fail closed: nothing was scanned."
        )
    fstype = network_filesystem(os.path.realpath(path), mounts)
    if fstype:
        return (
            f"The workspace {text!r} is on a network file system ({fstype}), so it cannot be "
            "confirmed local. Suggestions fail closed: nothing was scanned."
        )
    return None


def is_remote_location(workspace: Path | str) -> bool:
    """True for a workspace named as a remote location: a URI (``ssh://…``), an scp-style
    ``host:/path``, or such a URI made absolute by a caller (``/cwd/ssh:/host/x``)."""
    text = str(workspace)
    if os.name == "nt" and _WINDOWS_DRIVE_RE.match(text):
        return False
    if _URI_RE.match(text) or (not text.startswith(("/", "\\", ".")) and _SCP_RE.match(text)):
        return True
    path = Path(text)
    return not path.exists() and any(_MANGLED_SCHEME_RE.match(p) for p in path.parts[1:])
