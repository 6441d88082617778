"""Context Center: see, edit and govern the context AI coding agents carry."""

from importlib.metadata import PackageNotFoundError, version

APP_NAME = "context-center"
APP_DISPLAY_NAME = "Context Center"
ORGANIZATION = "context-center"

try:
    __version__ = version("context-center")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+source"
