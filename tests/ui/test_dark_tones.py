"""The dark palette: colours the window paints itself stay readable against the scheme's text.

The Instructions editor's line highlight, the large-prefix banner and Compare's state cells
used to be the light scheme's yellows and greens whatever the scheme, so the dark scheme's
light text on them could not be read. Each is measured here as painted (WCAG contrast ratio,
at least 4.5 for text), and a disabled primary button must look faded next to an enabled one.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication

from context_center.ui import style
from context_center.ui.style import DARK, LIGHT, contrast, tone

READABLE = 4.5


@pytest.fixture(params=["dark", "light"])
def scheme(request: pytest.FixtureRequest, qapp: QApplication) -> Iterator[str]:
    """The window's real look in each scheme; the application is put back afterwards."""
    font, sheet, palette = qapp.font(), qapp.styleSheet(), qapp.palette()
    style_name = qapp.style().name()
    style.apply_style(qapp, dark=request.param == "dark")
    yield request.param
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)
    qapp.setStyle(style_name)
    qapp.setFont(font)
    style._state["tones"] = LIGHT


@pytest.fixture
def tab(qtbot, ctx, scheme, home: Path, workspace: Path, wait_idle):  # type: ignore[no-untyped-def]
    from context_center.ui.tabs.instructions import InstructionsTab

    (workspace / "AGENTS.md").write_text("# Project\n\n- Run tests.\n\n@../outside.md\n")
    (workspace / "CLAUDE.md").write_text("- Claude only\n")
    (workspace / "AGENTS.local.md").write_text("- a long local rule that repeats\n" * 400)
    (workspace.parent / "outside.md").write_text("outside\n")
    widget = InstructionsTab(ctx)
    qtbot.addWidget(widget)
    widget.resize(1200, 760)
    widget.show()
    wait_idle()
    return widget


def test_the_editor_line_highlight_is_readable(qtbot, tab, workspace: Path, wait_idle) -> None:  # type: ignore[no-untyped-def]
    tab.open_file(workspace / "AGENTS.md", 5)
    qtbot.waitUntil(lambda: bool(tab.editor.extraSelections()))
    selection = tab.editor.extraSelections()[0]
    background = selection.format.background().color().name()
    foreground = selection.format.foreground()
    painted = foreground.color() if foreground.style() != Qt.BrushStyle.NoBrush else None
    shown = (painted or tab.editor.palette().text().color()).name()
    assert contrast(shown, background) >= READABLE, (shown, background)
    assert contrast(tone("text"), background) >= READABLE, (tone("text"), background)


def test_the_large_prefix_banner_is_readable(qtbot, tab) -> None:  # type: ignore[no-untyped-def]
    banner = tab.prefix_warning
    qtbot.waitUntil(lambda: banner.isVisible())
    image = banner.grab().toImage()
    background = image.pixelColor(6, image.height() // 2).name()
    label = banner.palette().windowText().color().name()
    assert contrast(label, background) >= READABLE, (label, background)
    # a dark box in the dark scheme, a light one in the light scheme
    assert contrast(tone("text"), background) >= READABLE, (tone("text"), background)


def test_compare_state_cells_are_readable(tab, workspace: Path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QStandardItemModel

    from context_center.ui.widgets.instruction_compare import fill_table

    model = QStandardItemModel()
    fill_table(model, tab.ctx.engine.compare_instructions(workspace))
    cells = [
        model.item(row, col)
        for row in range(model.rowCount())
        for col in range(2, model.columnCount())
    ]
    painted = [c for c in cells if c is not None and c.text()]
    assert len(painted) >= 6
    for cell in painted:
        fg, bg = cell.foreground().color().name(), cell.background().color().name()
        assert contrast(fg, bg) >= READABLE, (cell.text(), fg, bg)
        assert contrast(tone("text"), bg) >= READABLE, (cell.text(), bg)


@pytest.mark.parametrize("tones", [LIGHT, DARK], ids=["light", "dark"])
def test_a_disabled_primary_button_looks_faded(tones: style.Tones) -> None:
    assert contrast(tones.on_accent, tones.accent) >= READABLE
    assert contrast(tones.on_accent_disabled, tones.accent_disabled) < 3.0
    sheet = style.stylesheet(tones, 10.0, Path("arrow.png"))
    rule = sheet[sheet.index('QPushButton[primary="true"]:disabled') :].split("}", 1)[0]
    assert f"color: {tones.on_accent_disabled}" in rule and tones.accent_disabled in rule


def test_every_tone_is_a_colour() -> None:
    for tones in (LIGHT, DARK):
        for name, value in vars(tones).items():
            assert QColor(value).isValid(), name


def test_state_words_in_tables_follow_the_scheme(scheme: str) -> None:
    """Connections' states and outcomes and the Suggestions sources' warnings are coloured
    by the scheme's tones (fixed light-scheme colours measured ~3.5 on the dark base)."""
    from context_center.engine import SourceCount
    from context_center.ui.models.suggestion_models import SourceCountsModel
    from context_center.ui.tabs.connections import OUTCOME_TONES, STATE_TONES, _toned

    base = tone("base")
    for key in (*STATE_TONES, *OUTCOME_TONES):
        colour = _toned(STATE_TONES, key) or _toned(OUTCOME_TONES, key)
        assert colour is not None and contrast(colour, base) >= READABLE, (scheme, key)
    assert _toned(STATE_TONES, "not connected") is None
    model = SourceCountsModel()
    model.set_rows(
        [
            SourceCount(
                source="history",
                root="~/x",
                status="unconfirmed",
                files=1,
                sessions=1,
                turns=2,
                malformed=3,
            )
        ]
    )
    cells = [
        model.data(model.index(0, col), Qt.ItemDataRole.ForegroundRole)
        for col in range(model.columnCount())
    ]
    coloured = [c for c in cells if c is not None]
    assert coloured, "the skipped lines are coloured"
    for brush in coloured:
        colour = brush.color() if hasattr(brush, "color") else QColor(brush)
        assert contrast(colour.name(), base) >= READABLE, scheme
