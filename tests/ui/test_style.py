"""The palette follows the system's light/dark setting, keeps readable contrast in both, and
the window uses the desktop's font."""

from __future__ import annotations

from dataclasses import fields

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from context_center.ui import style
from context_center.ui.style import DARK, LIGHT, apply_style, contrast

# (foreground, background) pairs people read; WCAG AA asks 4.5 for text.
READ = [
    ("text", "base"),
    ("text", "window"),
    ("text", "alt_base"),
    ("text", "selection"),
    ("muted", "base"),
    ("muted", "window"),
    ("link", "base"),
    ("on_accent", "accent"),
    ("warn_text", "warn_bg"),
    ("error_text", "error_bg"),
    ("danger", "base"),
    ("badge_text", "badge_bg"),
    ("fresh", "base"),
    ("stale", "base"),
    ("add_fg", "add_bg"),
    ("del_fg", "del_bg"),
    ("hunk_fg", "hunk_bg"),
    ("sensitive_fg", "sensitive_bg"),
]


@pytest.mark.parametrize("tones", [LIGHT, DARK], ids=["light", "dark"])
def test_contrast_is_readable(tones: style.Tones) -> None:
    low = {
        f"{fg}/{bg}": round(contrast(getattr(tones, fg), getattr(tones, bg)), 2)
        for fg, bg in READ
        if contrast(getattr(tones, fg), getattr(tones, bg)) < 4.5
    }
    assert low == {}
    assert {f.name for f in fields(LIGHT)} == {f.name for f in fields(DARK)}


@pytest.fixture
def restore_light(app_style):  # type: ignore[no-untyped-def]
    yield


def test_dark_and_light_palettes(qapp: QApplication, restore_light) -> None:  # type: ignore[no-untyped-def]
    apply_style(qapp, dark=True)
    assert style.is_dark() and style.tone("text") == DARK.text
    window = qapp.palette().color(QPalette.ColorRole.Window)
    assert window.lightness() < 60
    assert DARK.window.lstrip("#") in qapp.styleSheet()
    apply_style(qapp, dark=False)
    assert not style.is_dark()
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() > 200


def test_follows_the_system_scheme(qapp: QApplication, restore_light, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(style, "system_prefers_dark", lambda _app: True)
    apply_style(qapp)
    assert style.is_dark()
    monkeypatch.setattr(style, "system_prefers_dark", lambda _app: False)
    apply_style(qapp)
    assert not style.is_dark()


def test_the_desktop_font_is_kept(qapp: QApplication, restore_light) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QFont

    desktop = QFont("DejaVu Serif", 13)
    qapp.setFont(desktop)
    apply_style(qapp)
    assert qapp.font().family() == "DejaVu Serif" and qapp.font().pointSize() == 13
    assert f"font-size: {13 * 1.45:.1f}pt" in qapp.styleSheet()  # headings follow its size
