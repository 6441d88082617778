"""The application's look: the Fusion style, a light or dark palette, one stylesheet.

The palette follows the system's colour scheme (``QStyleHints.colorScheme()``, Qt ≥ 6.5; a dark
system palette counts as dark on older Qt) and changes with it while the window is open; the
font is the desktop's own (Qt reads it from the platform theme), only its size scales the few
headings here. ``tone(name)`` gives the current colour of a role for widgets that write HTML or
colour text themselves, so they follow the scheme too. Object names used in the stylesheet
(``conflictBanner``, ``detailTitle``, ``hint``…) are set by the widgets that want them.
"""

from __future__ import annotations

import os
import tempfile
import weakref
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import (
    QColor,
    QFont,
    QFontDatabase,
    QGuiApplication,
    QPainter,
    QPalette,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import QApplication

from context_center.ui.stylesheet import build

MONO_FAMILIES = ("DejaVu Sans Mono", "Noto Sans Mono CJK SC", "Noto Sans Mono", "monospace")


@dataclass(frozen=True)
class Tones:
    """Every colour the window uses, by role."""

    accent: str
    link: str
    on_accent: str
    accent_disabled: str
    on_accent_disabled: str  # a disabled primary button's label: visibly faded
    text: str
    muted: str
    faint: str  # disabled text, line numbers
    border: str
    grid: str
    window: str
    base: str
    alt_base: str
    hover: str
    pressed: str
    selection: str
    text_selection: str
    warn_bg: str
    warn_border: str
    warn_text: str
    line_bg: str  # the line an editor jumped to
    caution: str  # amber text on the base colour (a warning's code, an import to review)
    notice_bg: str
    notice_border: str
    error_bg: str
    error_border: str
    error_text: str
    danger: str
    badge_bg: str
    badge_border: str
    badge_text: str
    fresh: str
    current: str
    stale: str
    add_bg: str
    add_fg: str
    del_bg: str
    del_fg: str
    hunk_bg: str
    hunk_fg: str
    code_bg: str
    sensitive_bg: str
    sensitive_fg: str


LIGHT = Tones(
    accent="#0a63c9",
    link="#0a63c9",
    on_accent="#ffffff",
    accent_disabled="#9ec5f0",
    on_accent_disabled="#ffffff",
    text="#1f2328",
    muted="#57606a",
    faint="#656d76",
    border="#d0d7de",
    grid="#eaeef2",
    window="#f6f8fa",
    base="#ffffff",
    alt_base="#f8fafc",
    hover="#f3f4f6",
    pressed="#e5e7eb",
    selection="#dbeafe",
    text_selection="#b6d4fe",
    warn_bg="#fff8c5",
    warn_border="#d4a72c",
    warn_text="#4d3800",
    line_bg="#fff8c5",
    caution="#9a6700",
    notice_bg="#ddf4ff",
    notice_border="#9cd1f5",
    error_bg="#ffebe9",
    error_border="#f5a3a3",
    error_text="#82071e",
    danger="#cf222e",
    badge_bg="#fff1e5",
    badge_border="#f0b37e",
    badge_text="#953800",
    fresh="#1a7f37",
    current="#57606a",
    stale="#bc4c00",
    add_bg="#e6ffec",
    add_fg="#116329",
    del_bg="#ffebe9",
    del_fg="#82071e",
    hunk_bg="#ddf4ff",
    hunk_fg="#0550ae",
    code_bg="#f0f2f5",
    sensitive_bg="#ffd7d5",
    sensitive_fg="#82071e",
)

DARK = Tones(
    accent="#1f6feb",
    link="#58a6ff",
    on_accent="#ffffff",
    accent_disabled="#1b2838",
    on_accent_disabled="#5d6d82",
    text="#e6edf3",
    muted="#9da7b3",
    faint="#7d8590",
    border="#3d444d",
    grid="#2a3038",
    window="#161b22",
    base="#0d1117",
    alt_base="#131920",
    hover="#21262d",
    pressed="#30363d",
    selection="#1c3a5e",
    text_selection="#264f78",
    warn_bg="#2e2611",
    warn_border="#9e6a03",
    warn_text="#f2cc60",
    line_bg="#3d3213",
    caution="#d29922",
    notice_bg="#0c2d4a",
    notice_border="#1f6feb",
    error_bg="#2d1618",
    error_border="#8e1519",
    error_text="#ffa198",
    danger="#ff7b72",
    badge_bg="#3d2410",
    badge_border="#9b4d1a",
    badge_text="#ffb77c",
    fresh="#3fb950",
    current="#9da7b3",
    stale="#f0883e",
    add_bg="#12361f",
    add_fg="#7ee2a8",
    del_bg="#3c1618",
    del_fg="#ffa198",
    hunk_bg="#0c2d4a",
    hunk_fg="#79c0ff",
    code_bg="#1f242c",
    sensitive_bg="#5c1a1d",
    sensitive_fg="#ffdcd7",
)

_state: dict[str, object] = {"tones": LIGHT, "connected": False}


_followers: list[weakref.WeakMethod[Callable[[], None]]] = []


def follow_scheme(method: Callable[[], None]) -> None:
    """Call ``method`` (a bound method) after the window switched between the light and the
    dark scheme (the system's setting changed while it was open), for as long as its object
    lives. The palette and the stylesheet follow by themselves; a widget that wrote colours
    of the old scheme into its own content (HTML, text formats, item colours) shows that
    content again. Held weakly: following never keeps a closed widget alive."""
    if len(_followers) >= 256:  # dialogs come and go: forget the closed ones now and then
        _followers[:] = [ref for ref in _followers if ref() is not None]
    _followers.append(weakref.WeakMethod(method))


def _scheme_switched() -> None:
    alive = []
    for ref in list(_followers):
        method = ref()
        if method is None:
            continue
        try:
            method()
        except RuntimeError:  # its Qt object was deleted before its Python object
            continue
        alive.append(ref)
    _followers[:] = alive


def tones() -> Tones:
    """The colours of the scheme in use now."""
    tones_now = _state["tones"]
    assert isinstance(tones_now, Tones)
    return tones_now


def tone(name: str) -> str:
    """One colour of the scheme in use now (``tone("muted")``)."""
    return str(getattr(tones(), name))


def is_dark() -> bool:
    return tones() is DARK


def system_prefers_dark(app: QGuiApplication) -> bool:
    """The system's light/dark setting (Qt ≥ 6.5), else the lightness of its palette."""
    scheme = getattr(Qt, "ColorScheme", None)
    hints = app.styleHints()
    if scheme is not None and hasattr(hints, "colorScheme"):
        value = hints.colorScheme()
        if value == scheme.Dark:
            return True
        if value == scheme.Light:
            return False
    return QGuiApplication.palette().color(QPalette.ColorRole.Window).lightness() < 128


def palette_for(t: Tones) -> QPalette:
    pal = QPalette()
    roles = QPalette.ColorRole
    for role, colour in (
        (roles.Window, t.window),
        (roles.Base, t.base),
        (roles.AlternateBase, t.alt_base),
        (roles.Text, t.text),
        (roles.WindowText, t.text),
        (roles.ButtonText, t.text),
        (roles.Button, t.base),
        (roles.Highlight, t.selection),
        (roles.HighlightedText, t.text),
        (roles.Link, t.link),
        (roles.ToolTipBase, t.base),
        (roles.ToolTipText, t.text),
        (roles.PlaceholderText, t.faint),
        (roles.BrightText, t.on_accent),
        (roles.Light, t.hover),
        (roles.Midlight, t.grid),
        (roles.Mid, t.border),
        (roles.Dark, t.faint),
        (roles.Shadow, t.faint),
    ):
        pal.setColor(role, QColor(colour))
    for role in (roles.Text, roles.WindowText, roles.ButtonText):
        pal.setColor(QPalette.ColorGroup.Disabled, role, QColor(t.faint))
    return pal


def stylesheet(t: Tones, base_pt: float, arrow: Path) -> str:
    return build(asdict(t), base_pt, arrow.as_posix())


def apply_style(app: QApplication, *, dark: bool | None = None) -> None:
    """Fusion, the palette of the system's scheme (or ``dark`` when given), the stylesheet.
    The first call also follows the system when it switches scheme later, and the desktop's
    font when it changes (the stylesheet's headings are sized from it)."""
    if _state.get("applying"):
        return
    _state["applying"] = True
    try:
        _apply(app, dark)
    finally:
        _state["applying"] = False


def _apply(app: QApplication, dark: bool | None) -> None:
    app.setStyle("Fusion")
    chosen = DARK if (system_prefers_dark(app) if dark is None else dark) else LIGHT
    switched = _state.get("applied") is not None and _state["applied"] is not chosen
    _state["tones"] = _state["applied"] = chosen
    app.setPalette(palette_for(chosen))
    font = app.font()
    base_pt = font.pointSizeF() if font.pointSizeF() > 0 else 10.0
    app.setStyleSheet(stylesheet(chosen, base_pt, _arrow_file(chosen.muted)))
    hints = app.styleHints()
    if dark is None and not _state["connected"] and hasattr(hints, "colorSchemeChanged"):
        hints.colorSchemeChanged.connect(lambda _scheme: apply_style(app))
        app.fontChanged.connect(lambda _font: apply_style(app))
        _state["connected"] = True
    if switched:
        _scheme_switched()


def _arrow_file(colour: str) -> Path:
    """A small chevron for combo boxes, drawn once per user and colour into the temp directory.

    Qt style sheets take images only from files or resources; drawing it here keeps the
    package free of a compiled resource file.
    """
    folder = (
        Path(tempfile.gettempdir())
        / f"context-center-{os.getuid() if hasattr(os, 'getuid') else 'user'}"
    )
    path = folder / f"chevron-down-v2-{colour.lstrip('#')}.png"
    if path.is_file():
        return path
    folder.mkdir(parents=True, exist_ok=True)
    pix = QPixmap(20, 20)
    pix.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pix)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    pen = QPen(QColor(colour), 2.4)
    pen.setCapStyle(Qt.PenCapStyle.RoundCap)
    pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
    painter.setPen(pen)
    painter.drawPolyline([QPointF(4, 7), QPointF(10, 13), QPointF(16, 7)])
    painter.end()
    tmp = folder / f".chevron-{os.getpid()}.png"
    pix.save(str(tmp), "PNG")
    os.replace(tmp, path)
    return path


def pick_family(candidates: tuple[str, ...]) -> str | None:
    available = set(QFontDatabase.families())
    for name in candidates:
        if name in available:
            return name
    return None


def mono_font() -> QFont:
    """The font of code and plain-text editors: the first installed of ``MONO_FAMILIES``.

    Never ``QFontDatabase.systemFont(FixedFont)``: with Qt's GTK 3 platform theme (Qt 6.11),
    asking it for the fixed font once makes the next theme change (the desktop switching
    between light and dark) hand that fixed font to the whole application as its normal font,
    so every label and table turned monospace the moment the scheme changed.
    """
    family = pick_family(MONO_FAMILIES)
    font = QFont(family or "monospace")
    font.setStyleHint(QFont.StyleHint.Monospace)
    font.setPointSizeF(max(QApplication.font().pointSizeF() - 0.5, 8.0))
    return font


def contrast(foreground: str, background: str) -> float:
    """WCAG contrast ratio of two colours (1 to 21)."""

    def luminance(name: str) -> float:
        c = QColor(name)
        channels = []
        for v in (c.redF(), c.greenF(), c.blueF()):
            channels.append(v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4)
        r, g, b = channels
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    a, b = sorted((luminance(foreground), luminance(background)), reverse=True)
    return (a + 0.05) / (b + 0.05)
