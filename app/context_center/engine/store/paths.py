"""Where things live: the home, the two stores, slugs for fact names and workspaces.

Derived per-store data (the parsed-facts cache and the head ledger) lives outside the home, in
the platform's user cache directory (``$CONTEXT_CENTER_CACHE`` overrides it), in a private
folder per store keyed by the store's real path: reading a home never writes into it, so a
Reasonix home stays byte-identical under read-only commands.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from context_center.engine.errors import InvalidName

HOME_ENV = "CONTEXT_CENTER_HOME"
CACHE_ENV = "CONTEXT_CENTER_CACHE"
SLUG_MAX_BYTES = 252
_WINDOWS_RESERVED = (
    {"con", "prn", "aux", "nul"}
    | {f"com{i}" for i in range(1, 10)}
    | {f"lpt{i}" for i in range(1, 10)}
)
# Names whose file would collide with the store's own files on a case-insensitive disk.
_STORE_RESERVED = {"memory"}


def resolve_home(explicit: str | os.PathLike[str] | None = None) -> Path:
    """`--home` beats `$CONTEXT_CENTER_HOME` beats the platform's user data directory."""
    if explicit:
        return Path(explicit).expanduser().absolute()
    env = os.environ.get(HOME_ENV)
    if env:
        return Path(env).expanduser().absolute()
    import platformdirs

    return Path(platformdirs.user_data_dir("context-center", "context-center")).absolute()


def cache_root() -> Path:
    """`$CONTEXT_CENTER_CACHE`, else the platform's user cache directory."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env).expanduser().absolute()
    import platformdirs

    return Path(platformdirs.user_cache_dir("context-center", "context-center")).absolute()


def store_cache_dir(store_root: Path) -> Path:
    """The private folder of one store's derived data, keyed by the store's real path."""
    key = hashlib.sha256(os.path.realpath(store_root).encode("utf-8", "surrogateescape"))
    return cache_root() / "stores" / key.hexdigest()[:32]


def workspace_cache_dir(layout: Layout) -> Path:
    """The private folder of one (home, workspace)'s derived data (the recall index)."""
    key = hashlib.sha256(os.path.realpath(layout.project_dir).encode("utf-8", "surrogateescape"))
    return cache_root() / "workspaces" / key.hexdigest()[:32]


def workspace_slug(workspace: Path) -> str:
    """The absolute workspace path with separators and ':' replaced by '-' (Reasonix's rule)."""
    text = str(workspace.absolute())
    return re.sub(r"[/\\:]", "-", text)


def slugify(name: str) -> str:
    """Lowercase; runs of anything but letters and digits become '-'; capped at 252 bytes.

    Raises InvalidName when nothing usable is left or the result is a reserved device name.
    A path-like name (``../outside``, ``a/b``) is slugged, never treated as a path.
    """
    text = unicodedata.normalize("NFKC", name).lower()
    out: list[str] = []
    dash = False
    for ch in text:
        if ch.isalnum():
            out.append(ch)
            dash = False
        elif not dash:
            out.append("-")
            dash = True
    slug = "".join(out).strip("-")
    encoded = slug.encode("utf-8")
    if len(encoded) > SLUG_MAX_BYTES:
        slug = encoded[:SLUG_MAX_BYTES].decode("utf-8", errors="ignore").rstrip("-")
    if not slug:
        raise InvalidName(f"name {name!r} has no letters or digits to make a file name from")
    if slug in _WINDOWS_RESERVED or slug in _STORE_RESERVED:
        raise InvalidName(f"name {name!r} is reserved ({slug!r} cannot be a fact file name)")
    return slug


@dataclass(frozen=True)
class Layout:
    """The on-disk layout of one home for one workspace."""

    home: Path
    workspace: Path

    @property
    def global_store(self) -> Path:
        return self.home / "memory" / "global"

    @property
    def project_dir(self) -> Path:
        return self.home / "projects" / workspace_slug(self.workspace)

    @property
    def project_store(self) -> Path:
        return self.project_dir / "memory"

    @property
    def state_dir(self) -> Path:
        """Per-workspace engine state (recall trace, history log, suggestion decisions)."""
        return self.project_dir / "state"

    @property
    def cache_dir(self) -> Path:
        """Per-workspace derived data outside the home (the recall index cache)."""
        return workspace_cache_dir(self)

    @property
    def approvals_dir(self) -> Path:
        return self.home / "approvals"
