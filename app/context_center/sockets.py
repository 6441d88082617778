"""Where a home's warm server listens: the socket folder rule the client (``entry.py``), the
server (``cli/serve.py``) and the hosts that start and stop it (``warmchild.py``) share.
Standard library only (a client pays for every import)."""

from __future__ import annotations

import os
import stat

HOME_ENV = "CONTEXT_CENTER_HOME"

__all__ = [
    "HOME_ENV",
    "_private_dir",
    "home_path",
    "private_socket_dir",
    "socket_base",
    "socket_dir",
]


def home_path(explicit: str | None) -> str:
    """The home as the engine resolves it (``store.paths.resolve_home``; a test keeps their real
    paths equal): ``--home``, else ``$CONTEXT_CENTER_HOME``, else the user data folder."""
    chosen = explicit or os.environ.get(HOME_ENV)
    if not chosen:
        import platformdirs

        chosen = platformdirs.user_data_dir("context-center", "context-center")
    # No normalisation of "..": like ``Path.absolute()``; ``socket_dir`` takes the real path.
    return os.path.join(os.getcwd(), os.path.expanduser(chosen))


def _private_dir(path: str) -> bool:
    """A real folder (not a link) of this user that nobody else can enter."""
    try:
        st = os.lstat(path)
    except OSError:
        return False
    return (
        stat.S_ISDIR(st.st_mode)
        and st.st_uid == os.getuid()
        and stat.S_IMODE(st.st_mode) & 0o077 == 0
    )


def socket_base() -> str:
    """``$XDG_RUNTIME_DIR/context-center`` when that is private to this user, else
    ``<tmp>/context-center-sockets-<uid>`` (short: a socket path has about 100 bytes)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and _private_dir(runtime):
        base = os.path.join(runtime, "context-center")
        if len(base) < 60:
            return base
    tmp = os.environ.get("TMPDIR") or "/tmp"
    if len(tmp) > 40 or not os.path.isabs(tmp):
        tmp = "/tmp"
    return os.path.join(tmp, f"context-center-sockets-{os.getuid()}")


def socket_dir(home: str) -> str:
    """The folder of one home's server sockets, keyed by the home's real path."""
    key = _sha256_hex(os.path.realpath(home).encode("utf-8", "surrogateescape"))
    return os.path.join(socket_base(), key[:20])


def _sha256_hex(data: bytes) -> str:
    """SHA-256 of ``data`` in hex, by the interpreter's built-in implementation when it has
    one (``_sha256`` in 3.11, ``_sha2`` later): ``hashlib`` loads OpenSSL first, about 3 ms of
    a served client's 30. The same digest either way."""
    for name in ("_sha256", "_sha2"):
        try:
            module = __import__(name)
        except ImportError:
            continue
        return str(module.sha256(data).hexdigest())
    import hashlib

    return hashlib.sha256(data).hexdigest()


def private_socket_dir(home: str) -> str | None:
    """The socket folder when it and its parent are private to this user (else None)."""
    folder = socket_dir(home)
    if _private_dir(os.path.dirname(folder)) and _private_dir(folder):
        return folder
    return None
