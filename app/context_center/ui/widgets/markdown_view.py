"""Untrusted Markdown, shown safely: raw HTML escaped, links never followed, nothing loaded.

Fact bodies and proposals come from agents. markdown-it-py renders with ``html`` off, so any
``<script>`` or ``<img onerror>`` in a body becomes visible text. ``SafeBrowser`` never opens a
link by itself (a click asks ``sig_link_clicked`` listeners) and its ``loadResource`` returns
nothing, so an image or stylesheet URL in a body is never fetched, remote or local.
"""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QTextBrowser, QWidget

from context_center.ui.style import follow_scheme, tone

if TYPE_CHECKING:
    from markdown_it import MarkdownIt

# the font-family of code in rich text (``style.mono_font`` is the editors' font)
MONO_CSS = '"DejaVu Sans Mono", "Noto Sans Mono CJK SC", monospace'

DOCUMENT_CSS = """
body { line-height: 140%; }
h1 { font-size: 17pt; margin: 6px 0 6px 0; }
h2 { font-size: 14pt; margin: 10px 0 4px 0; }
h3 { font-size: 12pt; margin: 8px 0 4px 0; }
p { margin: 4px 0 8px 0; }
.code { font-family: @mono@; background-color: @code@; }
.pre { font-family: @mono@; background-color: @code@; white-space: pre-wrap;
       margin: 4px 0 8px 0; }
table { border-collapse: collapse; margin: 6px 0 10px 0; }
th { background-color: @header@; font-weight: 600; }
th, td { border: 1px solid @border@; padding: 4px 8px; }
blockquote { color: @muted@; margin-left: 12px; }
a { color: @link@; }
"""


def document_css() -> str:
    """The rendered Markdown's stylesheet in the current colour scheme."""
    css = DOCUMENT_CSS.replace("@mono@", MONO_CSS)
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
    window's way to its first paint (~30 ms).

    Code is rendered as ``<span class="code">`` and ``<div class="pre">``, not as ``<code>``
    and ``<pre>``: for those tags Qt asks the platform theme for its fixed font, and Qt's
    GTK 3 theme (6.11) then leaves the "monospace" class on the style context it reads the
    desktop's font from, so at the next theme change (light to dark) the whole window's font
    turned monospace. The stylesheet gives both the same monospace font and background."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.add_render_rule("code_inline", _code_inline)
    md.add_render_rule("code_block", _code_block)
    md.add_render_rule("fence", _code_block)
    return md.enable(["table", "strikethrough"])


def _code_inline(_self: object, tokens: Any, idx: int, _options: object, _env: object) -> str:
    return f'<span class="code">{escape(tokens[idx].content)}</span>'


def _code_block(_self: object, tokens: Any, idx: int, _options: object, _env: object) -> str:
    return f'<div class="pre">{escape(tokens[idx].content.rstrip(chr(10)))}</div>\n'


def mono_spans(text: str) -> str:
    """Rich text with ``<code>`` spans written as spans in the monospace font (see
    ``commonmark`` for why a window never shows a ``<code>`` tag)."""
    return text.replace("<code>", f"<span style='font-family:{MONO_CSS}'>").replace(
        "</code>", "</span>"
    )


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
        self._render: Callable[[], str] | None = None  # what is shown, to show it again
        follow_scheme(self.restyle)

    def loadResource(self, type: int, name: QUrl | str) -> Any:
        self.blocked.append(name.toString() if isinstance(name, QUrl) else str(name))
        return None

    def setHtml(self, text: str) -> None:
        """Every document gets the stylesheet of the scheme in use when it is shown."""
        self._render = None if text == "" else (lambda: text)
        self._set(text)

    def show_html(self, render: Callable[[], str]) -> None:
        """Show ``render()``, HTML that writes colours of the scheme (``tone``) into itself:
        when the scheme switches, it is rendered again in the new colours."""
        self._render = render
        self._set(render())

    def _set(self, text: str) -> None:
        self.document().setDefaultStyleSheet(document_css())
        super().setHtml(text)

    def restyle(self) -> None:
        """Show the same content in the colours of the scheme now, at the same scroll place."""
        if self._render is None:
            return
        bar = self.verticalScrollBar()
        at = bar.value()
        self._set(self._render())
        bar.setValue(at)

    def set_markdown(self, text: str, *, header_html: str = "", footer_html: str = "") -> None:
        self.setHtml(header_html + render_markdown(text) + footer_html)
