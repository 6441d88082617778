"""The system switching between light and dark while the window is open.

The palette and the stylesheet follow by themselves; content a widget coloured itself (a fact
body's code background, the detail line's greys, Compare's and the chain's item colours, the
approval editor's sensitive marks) is shown again in the new scheme's colours. And nothing the
window shows asks Qt's platform theme for its fixed font: with the GTK 3 theme that turned the
whole window monospace at the next theme change (a Qt bug seen live under Xvfb + xsettingsd).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtGui import QColor, QFont, QFontDatabase, QStandardItem, QTextDocument
from PySide6.QtWidgets import QApplication

from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.ui import style
from context_center.ui.style import DARK, LIGHT
from context_center.ui.tabs.memory import MemoryTab
from context_center.ui.widgets.markdown_view import SafeBrowser, mono_spans, render_markdown
from context_center.ui.widgets.sensitive import SensitiveHighlighter
from context_center.ui.widgets.toned import TonedModel, set_tone

BODY = "Send `X-Internal: 1` first.\n\n```\nmake check\nmake deploy\n```\n\n    indented code\n"


@pytest.fixture
def light(qapp: QApplication) -> Iterator[QApplication]:
    """The window's look, light first; the application is put back afterwards."""
    font, sheet, palette = qapp.font(), qapp.styleSheet(), qapp.palette()
    style_name = qapp.style().name()
    style.apply_style(qapp, dark=False)
    yield qapp
    qapp.setStyleSheet(sheet)
    qapp.setPalette(palette)
    qapp.setStyle(style_name)
    qapp.setFont(font)
    style._state["tones"] = LIGHT
    style._state.pop("applied", None)


def test_rendered_markdown_keeps_no_tag_that_asks_for_the_fixed_font() -> None:
    html = render_markdown(BODY)
    for tag in ("<code", "<pre", "<tt", "<kbd", "<samp"):
        assert tag not in html
    assert '<span class="code">X-Internal: 1</span>' in html
    assert '<div class="pre">make check\nmake deploy</div>' in html
    assert '<div class="pre">indented code</div>' in html
    assert mono_spans("a <code>b&lt;code&gt;</code>") == (
        "a <span style='font-family:" + '"DejaVu Sans Mono", "Noto Sans Mono CJK SC", '
        "monospace'>b&lt;code&gt;</span>"
    )


def test_code_is_still_shown_monospace_on_its_background(light: QApplication) -> None:
    view = SafeBrowser()
    view.set_markdown(BODY)
    doc: QTextDocument = view.document()
    block = doc.begin()
    fragments = {}
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            fragments[frag.text()] = frag.charFormat()
            it += 1
        block = block.next()
    code = fragments["X-Internal: 1"]
    assert "DejaVu Sans Mono" in code.fontFamilies()
    assert code.background().color() == QColor(LIGHT.code_bg)
    fence = next(f for text, f in fragments.items() if text.startswith("make check"))
    assert "DejaVu Sans Mono" in fence.fontFamilies()
    assert "make deploy" in doc.toPlainText()  # the line break is kept (pre-wrap)
    assert doc.toPlainText().count("\n") >= 3


def test_mono_font_never_asks_the_platform_theme(light: QApplication, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    def refuse(*_args: object) -> None:
        raise AssertionError("systemFont asked")

    monkeypatch.setattr(QFontDatabase, "systemFont", refuse)
    assert style.mono_font().family()  # an installed family
    monkeypatch.setattr(style, "pick_family", lambda _c: None)
    assert style.mono_font().family() == "monospace"


def test_a_switch_shows_self_coloured_content_again(
    qtbot, light: QApplication, ctx, engine: Engine, wait_idle
) -> None:  # type: ignore[no-untyped-def]
    engine.memory.create(name="limits", title="Limits", type=FactType.PROJECT, body=BODY)
    tab = MemoryTab(ctx)
    qtbot.addWidget(tab)
    tab.resize(1100, 800)
    tab.show()
    wait_idle()
    assert tab.select_fact(engine.memory.resolve("project/limits.md").fact.id)
    meta = tab.detail.detail_meta
    assert LIGHT.muted in meta.text() and DARK.muted not in meta.text()
    assert LIGHT.code_bg in tab.body_view.document().defaultStyleSheet()

    model = TonedModel()
    parent, child = QStandardItem("a"), QStandardItem("b")
    set_tone(parent, "danger", "warn_bg")
    set_tone(child, "muted")
    parent.appendRow(child)
    model.appendRow(parent)
    plain = QStandardItem("no tone")
    model.appendRow(plain)
    doc = QTextDocument("token = hunter2")
    marks = SensitiveHighlighter(doc)
    assert marks._fmt.background().color() == QColor(LIGHT.sensitive_bg)
    browser = SafeBrowser()
    browser.show_html(lambda: f"<p style='color:{style.tone('muted')}'>x</p>")

    style.apply_style(light, dark=True)

    assert DARK.muted in meta.text() and LIGHT.muted not in meta.text()
    sheet = tab.body_view.document().defaultStyleSheet()
    assert DARK.code_bg in sheet and LIGHT.code_bg not in sheet
    assert "X-Internal: 1" in tab.body_view.toPlainText()  # the same fact, shown again
    assert parent.foreground().color() == QColor(DARK.danger)
    assert parent.background().color() == QColor(DARK.warn_bg)
    assert child.foreground().color() == QColor(DARK.muted)
    assert plain.data(style.Qt.ItemDataRole.ForegroundRole) is None  # untouched
    assert marks._fmt.background().color() == QColor(DARK.sensitive_bg)
    assert DARK.muted in browser.toHtml().lower() or QColor(DARK.muted).name() in browser.toHtml()

    style.apply_style(light, dark=False)  # and back
    assert LIGHT.muted in meta.text()
    assert parent.foreground().color() == QColor(LIGHT.danger)


def test_followers_are_held_weakly(light: QApplication) -> None:
    calls: list[str] = []

    class Follower:
        def again(self) -> None:
            calls.append("again")

    kept, dropped = Follower(), Follower()
    style.follow_scheme(kept.again)
    style.follow_scheme(dropped.again)
    del dropped
    style.apply_style(light, dark=True)
    assert calls == ["again"]
    style.apply_style(light, dark=True)  # no switch: nobody is called
    assert calls == ["again"]


def test_a_desktop_font_change_restyles_the_headings(light: QApplication) -> None:
    """The stylesheet's headings are sized from the application's font: a font change
    (the desktop's, through the platform theme) applies the style again."""
    if not style._state.get("connected"):
        style.apply_style(light)  # the window's own call, which follows the system
    before, original = light.styleSheet(), light.font()
    font = QFont(original)
    font.setPointSizeF(original.pointSizeF() + 6)
    light.setFont(font)
    try:
        assert light.styleSheet() != before
        arrow = style._arrow_file(LIGHT.muted)
        assert light.styleSheet() == style.stylesheet(LIGHT, font.pointSizeF(), arrow)
    finally:
        light.setFont(original)  # so the teardown's font is this one and changes nothing
