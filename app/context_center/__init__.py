"""Context Center: see, edit and govern the context AI coding agents carry."""

from __future__ import annotations

APP_NAME = "context-center"
APP_DISPLAY_NAME = "Context Center"
ORGANIZATION = "context-center"
# Set to 1: no process looks for a warm server, and no host starts one (``entry.py``).
NO_SERVER_ENV = "CONTEXT_CENTER_NO_SERVER"


def __getattr__(name: str) -> str:
    """``__version__`` from the installed metadata, read on first use: importlib.metadata
    costs tens of milliseconds, which every per-turn CLI process would otherwise pay."""
    if name != "__version__":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from importlib.metadata import PackageNotFoundError, version

    try:
        value = version("context-center")
    except PackageNotFoundError:  # running from a source tree without installation
        value = "0.0.0+source"
    globals()["__version__"] = value
    return value
