"""Render the application icon's PNG sizes from its SVG source.

The SVG under resources/icons/hicolor/scalable/apps/ is the single source of
truth. This script renders it with Qt's own SVG renderer (QtSvg, offscreen
platform, no display needed) into the freedesktop hicolor layout:

    resources/icons/hicolor/<n>x<n>/apps/io.github.contextcenter.ContextCenter.png

and copies the SVG plus every PNG into the Python package
(app/context_center/resources/icons/) so the installed app and the PyInstaller
bundle can set their window icon without the repository around.

Rerun after editing the SVG:

    .venv/bin/python packaging/render_icons.py
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from pathlib import Path

APP_ID = "io.github.contextcenter.ContextCenter"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)

REPO = Path(__file__).resolve().parent.parent
HICOLOR = REPO / "resources" / "icons" / "hicolor"
SVG_SOURCE = HICOLOR / "scalable" / "apps" / f"{APP_ID}.svg"
PACKAGE_ICONS = REPO / "app" / "context_center" / "resources" / "icons"


def png_path(root: Path, size: int) -> Path:
    """Where the PNG of one size lives in a hicolor tree rooted at ``root``."""
    return root / f"{size}x{size}" / "apps" / f"{APP_ID}.png"


def render(svg: Path, hicolor: Path, package_icons: Path | None) -> list[Path]:
    """Render every size; return the files written."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    app = QGuiApplication.instance() or QGuiApplication([sys.argv[0]])
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"render_icons: {svg} is not a valid SVG for QtSvg")

    written: list[Path] = []
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform, True)
        renderer.render(painter, QRectF(0, 0, size, size))
        painter.end()
        target = png_path(hicolor, size)
        target.parent.mkdir(parents=True, exist_ok=True)
        if not image.save(str(target), "PNG"):
            raise SystemExit(f"render_icons: could not write {target}")
        written.append(target)

    if package_icons is not None:
        package_icons.mkdir(parents=True, exist_ok=True)
        svg_copy = package_icons / f"{APP_ID}.svg"
        shutil.copyfile(svg, svg_copy)
        written.append(svg_copy)
        for size in SIZES:
            copy = package_icons / f"{APP_ID}-{size}.png"
            shutil.copyfile(png_path(hicolor, size), copy)
            written.append(copy)
    del app
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--svg", type=Path, default=SVG_SOURCE, help="SVG source")
    parser.add_argument("--hicolor", type=Path, default=HICOLOR, help="hicolor tree to write")
    parser.add_argument(
        "--no-package-copy",
        action="store_true",
        help="do not copy the icons into app/context_center/resources/icons/",
    )
    args = parser.parse_args(argv)
    package_icons = None if args.no_package_copy else PACKAGE_ICONS
    for path in render(args.svg, args.hicolor, package_icons):
        print(path.relative_to(REPO) if path.is_relative_to(REPO) else path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
