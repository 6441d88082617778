"""Memory detail pane: Copy buttons for reference, id and path; bare http(s) URLs are links."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMessageBox, QToolButton

from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.ui.tabs.memory import MemoryTab
from context_center.ui.widgets.bare_links import render_with_links

BODY = (
    "Board at https://example.invalid/board, docs (https://example.invalid/a_(b)).\n\n"
    "`https://example.invalid/in-code` and ftp://example.invalid/x and "
    "[named](https://example.invalid/named) 中文https://example.invalid/路径。后\n\n"
    "```\nhttps://example.invalid/in-fence\n```\n"
)


@pytest.fixture
def tab(qtbot, ctx, engine: Engine, wait_idle):  # type: ignore[no-untyped-def]
    engine.memory.create(name="board", title="Board", type=FactType.REFERENCE, body=BODY)
    widget = MemoryTab(ctx)
    qtbot.addWidget(widget)
    widget.resize(1100, 800)
    widget.show()
    wait_idle()
    return widget


def test_copy_buttons_put_the_full_text_on_the_clipboard(
    qtbot, ctx, tab: MemoryTab, engine: Engine
) -> None:
    entry = engine.memory.resolve("project/board.md")
    assert tab.select_fact(entry.fact.id)
    clipboard = QGuiApplication.clipboard()
    messages: list[str] = []
    ctx.sig_status.connect(messages.append)
    for name, expected in (
        ("copyRef", entry.fact.ref),
        ("copyId", entry.fact.id),
        ("copyPath", str(entry.path)),
    ):
        clipboard.setText("")
        tab.detail.findChild(QToolButton, name).click()
        assert clipboard.text() == expected
    assert messages == ["Copied reference", "Copied ID", "Copied path"]


def test_bare_urls_are_links_outside_code_only() -> None:
    html = render_with_links(BODY)
    assert '<a href="https://example.invalid/board">' in html
    assert '<a href="https://example.invalid/a_(b)">' in html  # balanced bracket kept
    assert "(b)</a>)." in html  # the closing bracket and the full stop stay outside
    assert '<a href="https://example.invalid/named">named</a>' in html
    assert '<span class="code">https://example.invalid/in-code</span>' in html
    assert '<div class="pre">https://example.invalid/in-fence</div>' in html
    assert "ftp://example.invalid/x" in html and 'href="ftp' not in html
    assert "路径</a>。后" in html


def test_clicking_a_bare_url_still_asks_first(qtbot, ctx, tab: MemoryTab, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    opened: list[str] = []
    monkeypatch.setattr(
        "context_center.ui.tabs.memory.QDesktopServices.openUrl", lambda url: opened.append(url)
    )
    anchors = tab.body_view.document().toHtml()
    assert 'href="https://example.invalid/board"' in anchors
    tab.body_view.sig_link_clicked.emit(QUrl("https://example.invalid/board"))
    qtbot.waitUntil(
        lambda: isinstance(ctx.last_dialog, QMessageBox) and ctx.last_dialog.isVisible()
    )
    next(b for b in ctx.last_dialog.buttons() if b.objectName() != "confirmOk").click()
    qtbot.wait(50)
    assert opened == []
