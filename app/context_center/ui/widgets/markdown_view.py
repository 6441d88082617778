"""Untrusted Markdown, shown safely: raw HTML escaped, links never followed, nothing loaded.

Fact bodies and proposals come from agents. markdown-it-py renders with ``html`` off, so any
``<script>`` or ``<img onerror>`` in a body becomes visible text. ``SafeBrowser`` never opens a
link by itself (a click asks ``sig_link_clicked`` listeners) and its ``loadResource`` returns
nothing, so an image or stylesheet URL in a body is never fetched, remote or local.
"""

from __future__ import annotations

import functools
import html
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QWidget

from context_center.ui.style import tone

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

DOCUMENT_CSS = """
body { line-height: 140%; }
h1 { font-size: 17pt; margin: 6px 0 6px 0; }
h2 { font-size: 14pt; margin: 10px 0 4px 0; }
h3 { font-size: 12pt; margin: 8px 0 4px 0; }
p { margin: 4px 0 8px 0; }
code { font-family: "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace;
       background-color: @code@; }
pre { font-family: "DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace;
      background-color: @code@; padding: 8px; }
table { border-collapse: collapse; margin: 6px 0 10px 0; }
th { background-color: @header@; font-weight: 600; }
th, td { border: 1px solid @border@; padding: 4px 8px; }
blockquote { color: @muted@; margin-left: 12px; }
a { color: @link@; }
"""


def document_css() -> str:
    """The rendered Markdown's stylesheet in the current colour scheme."""
    css = DOCUMENT_CSS
    for key, name in (
        ("@code@", "code_bg"),
        ("@header@", "window"),
        ("@border@", "border"),
        ("@muted@", "muted"),
        ("@link@", "link"),
    ):
        css = css.replace(key, tone(name))
    return css


def commonmark() -> MarkdownIt:
    """A new parser with the window's options: CommonMark, raw HTML escaped (html=False),
    tables and strikethrough. markdown-it is imported here, on the first render, not on the
    window's way to its first paint (~30 ms)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    return md.enable(["table", "strikethrough"])


_renderer = functools.cache(commonmark)


def render_markdown(text: str) -> str:
    """Markdown to HTML with raw HTML escaped (html=False) and tables enabled."""
    return str(_renderer().render(text))


def escape(text: str) -> str:
    return html.escape(text, quote=True)


class SafeBrowser(QTextBrowser):
    """A QTextBrowser that never loads resources and never follows links on its own."""

    sig_link_clicked = Signal(QUrl)
    """A link in the shown text was clicked; nothing was opened."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenLinks(False)
        self.setOpenExternalLinks(False)
        self.document().setDefaultStyleSheet(document_css())
        self.document().setDocumentMargin(10)
        self.anchorClicked.connect(self.sig_link_clicked)
        self.blocked: list[str] = []  # URLs that were asked for and refused (for tests)

    def loadResource(self, type: int, name: QUrl | str) -> Any:
        self.blocked.append(name.toString() if isinstance(name, QUrl) else str(name))
        return None

    def setHtml(self, text: str) -> None:
        """Every document gets the stylesheet of the scheme in use when it is shown."""
        self.document().setDefaultStyleSheet(document_css())
        super().setHtml(text)

    def set_markdown(self, text: str, *, header_html: str = "", footer_html: str = "") -> None:
        self.setHtml(header_html + render_markdown(text) + footer_html)
