"""The application icon, from the PNG renders in package data (no QtSvg plugin needed)."""

from __future__ import annotations

from importlib import resources

from PySide6.QtGui import QIcon

APP_ID = "io.github.contextcenter.ContextCenter"  # the .desktop / metainfo / icon name
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def app_icon() -> QIcon:
    icon = QIcon()
    folder = resources.files("context_center") / "resources" / "icons"
    for size in SIZES:
        path = folder / f"{APP_ID}-{size}.png"
        if path.is_file():
            icon.addFile(str(path))
    return icon
