"""Where the server and the hooks log: standard error and a small private file in the
workspace's state folder. Never standard output (that is the protocol's, or the model's)."""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path

FORMAT = "%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"
MAX_BYTES = 1_000_000
BACKUPS = 2

_file_handlers: dict[str, logging.Handler] = {}


def to_stderr(level: int = logging.INFO) -> None:
    """Route the root logger to standard error (once)."""
    root = logging.getLogger()
    if not any(getattr(h, "_context_center_stderr", False) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(FORMAT))
        handler._context_center_stderr = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.setLevel(level)


def to_file(state_dir: Path, name: str) -> Path | None:
    """Also log to ``<state>/<name>`` (0600, rotated at 1 MB). None when it cannot be opened."""
    path = state_dir / name
    key = os.fspath(path)
    if key in _file_handlers:
        return path
    try:
        state_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        os.close(fd)
        handler = logging.handlers.RotatingFileHandler(
            path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
        )
    except OSError:
        return None
    handler.setFormatter(logging.Formatter(FORMAT))
    logging.getLogger().addHandler(handler)
    _file_handlers[key] = handler
    return path


def close_files() -> None:
    root = logging.getLogger()
    for handler in _file_handlers.values():
        root.removeHandler(handler)
        handler.close()
    _file_handlers.clear()
