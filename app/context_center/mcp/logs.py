"""Where the server and the hooks log: standard error and a small private file in the
workspace's state folder. Never standard output (that is the protocol's, or the model's)."""

from __future__ import annotations

import logging
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
    except OSError:
        return None
    handler = _RotatingOnFirstRecord(path)
    handler.setFormatter(logging.Formatter(FORMAT))
    logging.getLogger().addHandler(handler)
    _file_handlers[key] = handler
    return path


class _RotatingOnFirstRecord(logging.Handler):
    """A ``RotatingFileHandler`` of ``path``, made when the first record comes: most hook runs
    log nothing, and importing ``logging.handlers`` (with ``socket``) cost each of them some
    8 ms. The file itself is created (0600) by ``to_file`` at once."""

    def __init__(self, path: Path) -> None:
        super().__init__()
        self._path = path
        self._inner: logging.Handler | None = None

    def emit(self, record: logging.LogRecord) -> None:
        if self._inner is None:
            import logging.handlers

            try:
                self._inner = logging.handlers.RotatingFileHandler(
                    self._path, maxBytes=MAX_BYTES, backupCount=BACKUPS, encoding="utf-8"
                )
            except OSError:
                self.handleError(record)
                return
            self._inner.setFormatter(self.formatter)
        self._inner.emit(record)

    def close(self) -> None:
        if self._inner is not None:
            self._inner.close()
        super().close()


def close_files() -> None:
    root = logging.getLogger()
    for handler in _file_handlers.values():
        root.removeHandler(handler)
        handler.close()
    _file_handlers.clear()
