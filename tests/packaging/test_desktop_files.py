"""Desktop integration: the .desktop entry, the AppStream metainfo, the icons, the install script.

The validators (desktop-file-validate from desktop-file-utils, appstreamcli from appstream)
run when installed and skip with the package to install otherwise. The bundle build itself
(packaging/check) runs only with CONTEXT_CENTER_BUILD_BUNDLE=1: it takes minutes and
needs PyPI or a pip cache.
"""

from __future__ import annotations

import configparser
import os
import shutil
import struct
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
APP_ID = "io.github.contextcenter.ContextCenter"
PACKAGING = REPO / "packaging"
DESKTOP = PACKAGING / "linux" / f"{APP_ID}.desktop"
METAINFO = PACKAGING / "linux" / f"{APP_ID}.metainfo.xml"
HICOLOR = REPO / "resources" / "icons" / "hicolor"
SVG = HICOLOR / "scalable" / "apps" / f"{APP_ID}.svg"
PACKAGE_ICONS = REPO / "app" / "context_center" / "resources" / "icons"
INSTALL = PACKAGING / "install-desktop.sh"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _pyproject() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _desktop_entry(path: Path = DESKTOP) -> dict[str, str]:
    parser = configparser.ConfigParser(interpolation=None, strict=True)
    parser.optionxform = str  # type: ignore[assignment,method-assign]  # keys are case-sensitive
    parser.read(path, encoding="utf-8")
    return dict(parser["Desktop Entry"])


def _png_header(path: Path) -> tuple[int, int, int, int]:
    """(width, height, bit depth, colour type) from a PNG's IHDR chunk."""
    data = path.read_bytes()
    assert data[:8] == PNG_SIGNATURE, f"{path} is not a PNG"
    length, kind = struct.unpack(">I4s", data[8:16])
    assert kind == b"IHDR" and length == 13, f"{path}: first chunk is not IHDR"
    width, height, depth, colour = struct.unpack(">IIBB", data[16:26])
    assert data.rstrip(b"\x00").endswith(b"IEND\xaeB`\x82"), f"{path}: truncated (no IEND)"
    return width, height, depth, colour


def _need(tool: str, package: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.skip(f"{tool} is not installed (apt-get install {package})")
    return path


# --- validators -------------------------------------------------------------------------


def test_desktop_entry_validates() -> None:
    tool = _need("desktop-file-validate", "desktop-file-utils")
    result = subprocess.run([tool, str(DESKTOP)], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "error" not in (result.stdout + result.stderr).lower()


def test_metainfo_validates() -> None:
    tool = _need("appstreamcli", "appstream")
    result = subprocess.run(
        [tool, "validate", "--no-net", str(METAINFO)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


# --- content, without the validators ------------------------------------------------------


def test_desktop_entry_content() -> None:
    entry = _desktop_entry()
    assert entry["Type"] == "Application"
    assert entry["Name"] == "Context Center"
    assert entry["Icon"] == APP_ID
    assert entry["Exec"].split()[0] == "context-center"
    assert entry["Terminal"] == "false"
    assert "Development" in entry["Categories"].split(";")
    assert entry.get("Name[zh_CN]"), "the Chinese name is missing"


def test_metainfo_content_matches_project() -> None:
    project = _pyproject()
    root = ET.parse(METAINFO).getroot()
    assert root.tag == "component" and root.get("type") == "desktop-application"
    assert root.findtext("id") == APP_ID
    launchable = root.find("launchable")
    assert launchable is not None and launchable.get("type") == "desktop-id"
    assert launchable.text == DESKTOP.name
    assert root.findtext("project_license") == project["license"]["text"]
    assert root.find("content_rating") is not None
    assert root.findtext("developer/name")
    assert root.find("description/p") is not None
    versions = [release.get("version") for release in root.iter("release")]
    assert project["version"] in versions, (
        f"pyproject version {project['version']} has no <release> in the metainfo: {versions}"
    )
    assert root.findtext("provides/binary") == next(iter(project["scripts"]))


# --- icons --------------------------------------------------------------------------------


@pytest.mark.parametrize("size", SIZES)
def test_hicolor_png_has_the_right_size(size: int) -> None:
    path = HICOLOR / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
    assert path.is_file(), f"missing {path.relative_to(REPO)}; run packaging/render_icons.py"
    width, height, depth, colour = _png_header(path)
    assert (width, height) == (size, size)
    assert (depth, colour) == (8, 6), "expected 8-bit RGBA"


def test_scalable_svg_is_square_svg() -> None:
    root = ET.parse(SVG).getroot()
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    _, _, width, height = (float(v) for v in root.get("viewBox", "").split())
    assert width == height > 0


def test_package_copies_match_the_hicolor_icons() -> None:
    """The app loads its window icon from package data; it must be the same render."""
    assert (PACKAGE_ICONS / f"{APP_ID}.svg").read_bytes() == SVG.read_bytes()
    for size in SIZES:
        copy = PACKAGE_ICONS / f"{APP_ID}-{size}.png"
        original = HICOLOR / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        assert copy.read_bytes() == original.read_bytes(), (
            f"{copy.name} is stale; rerun render_icons.py"
        )


def test_render_icons_script_renders_every_size(tmp_path: Path) -> None:
    pytest.importorskip("PySide6.QtSvg")
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    result = subprocess.run(
        [
            sys.executable,
            str(PACKAGING / "render_icons.py"),
            "--hicolor",
            str(tmp_path),
            "--no-package-copy",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    for size in SIZES:
        width, height, _, _ = _png_header(tmp_path / f"{size}x{size}" / "apps" / f"{APP_ID}.png")
        assert (width, height) == (size, size)


# --- install-desktop.sh -------------------------------------------------------------------


def _fake_program(folder: Path, name: str = "context-center") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / name
    program.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    program.chmod(0o755)
    return program


def _run_install(
    script: Path, data_home: Path | str, *args: str, home: Path
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, XDG_DATA_HOME=str(data_home), HOME=str(home))
    return subprocess.run(
        ["bash", str(script), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=60,
    )


def _installed(data_home: Path) -> list[Path]:
    return sorted(p for p in data_home.rglob(f"{APP_ID}*") if p.is_file())


def test_install_script_installs_and_uninstalls(tmp_path: Path) -> None:
    program = _fake_program(tmp_path / "opt dir")  # a space: Exec must quote it
    data_home = tmp_path / "share"
    result = _run_install(INSTALL, data_home, "--exec", str(program), home=tmp_path)
    assert result.returncode == 0, result.stderr

    entry = _desktop_entry(data_home / "applications" / f"{APP_ID}.desktop")
    assert entry["Exec"] == f'"{program}"'
    assert entry["TryExec"] == str(program)
    assert (data_home / "metainfo" / f"{APP_ID}.metainfo.xml").read_bytes() == METAINFO.read_bytes()
    assert (data_home / "icons" / "hicolor" / "scalable" / "apps" / f"{APP_ID}.svg").is_file()
    for size in SIZES:
        assert (
            data_home / "icons" / "hicolor" / f"{size}x{size}" / "apps" / f"{APP_ID}.png"
        ).is_file()
    assert len(_installed(data_home)) == 2 + 1 + len(SIZES)
    if shutil.which("desktop-file-validate"):
        installed = data_home / "applications" / f"{APP_ID}.desktop"
        check = subprocess.run(
            ["desktop-file-validate", str(installed)], capture_output=True, text=True, check=False
        )
        assert check.returncode == 0, check.stdout

    result = _run_install(INSTALL, data_home, "--uninstall", home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _installed(data_home) == []


def test_install_script_from_a_bundle_points_at_the_bundle(tmp_path: Path) -> None:
    """Laid out as packaging/build does: install-desktop.sh beside the program and share/."""
    bundle = tmp_path / "context-center"
    program = _fake_program(bundle)
    (bundle / "share" / "applications").mkdir(parents=True)
    (bundle / "share" / "metainfo").mkdir(parents=True)
    shutil.copy(DESKTOP, bundle / "share" / "applications")
    shutil.copy(METAINFO, bundle / "share" / "metainfo")
    shutil.copytree(HICOLOR, bundle / "share" / "icons" / "hicolor")
    shutil.copy(INSTALL, bundle / "install-desktop.sh")

    data_home = tmp_path / "share"
    result = _run_install(bundle / "install-desktop.sh", data_home, home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _desktop_entry(data_home / "applications" / f"{APP_ID}.desktop")["Exec"] == str(program)


def test_install_script_honours_default_and_ignores_relative_xdg_data_home(tmp_path: Path) -> None:
    program = _fake_program(tmp_path / "bin")
    result = _run_install(INSTALL, "relative/path", "--exec", str(program), home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / ".local" / "share" / "applications" / f"{APP_ID}.desktop").is_file()
    assert not (tmp_path / "relative").exists()


def test_install_script_refuses_a_missing_program(tmp_path: Path) -> None:
    data_home = tmp_path / "share"
    result = _run_install(INSTALL, data_home, "--exec", str(tmp_path / "nope"), home=tmp_path)
    assert result.returncode == 1
    assert "not an executable" in result.stderr
    assert not data_home.exists()


def test_install_script_dry_run_changes_nothing(tmp_path: Path) -> None:
    program = _fake_program(tmp_path / "bin")
    data_home = tmp_path / "share"
    result = _run_install(INSTALL, data_home, "--dry-run", "--exec", str(program), home=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "install -m 0644" in result.stdout
    assert not data_home.exists()


# --- the PyInstaller spec and the full bundle check ----------------------------------------


def test_pyinstaller_spec_is_valid_python() -> None:
    spec = PACKAGING / "context-center.spec"
    compile(spec.read_text(encoding="utf-8"), str(spec), "exec")


@pytest.mark.packaging
@pytest.mark.skipif(
    os.environ.get("CONTEXT_CENTER_BUILD_BUNDLE") != "1",
    reason="builds the PyInstaller bundle (minutes, needs PyPI): set CONTEXT_CENTER_BUILD_BUNDLE=1",
)
def test_bundle_builds_and_runs() -> None:
    result = subprocess.run(
        ["bash", str(PACKAGING / "check")],
        capture_output=True,
        text=True,
        check=False,
        timeout=1800,
    )
    sys.stdout.write(result.stdout[-4000:])
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert "all checks passed" in result.stdout
