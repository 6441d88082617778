"""Fact bodies rendered with bare ``http(s)://`` URLs turned into links.

A markdown-it core rule (no extra package): after inline parsing it walks the text tokens —
never code spans, code blocks or existing links, which are other tokens — and wraps each
``http://`` or ``https://`` URL in a link. Trailing sentence punctuation stays outside the link.
Links still go through the body view's "Open link?" question; other schemes are left as text.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING

from context_center.ui.widgets.markdown_view import commonmark

if TYPE_CHECKING:  # markdown-it is imported on the first render (not on the window's way up)
    from markdown_it import MarkdownIt
    from markdown_it.rules_core import StateCore
    from markdown_it.token import Token

# Full-width punctuation ends a URL too (Chinese text runs straight on after it).
_URL = re.compile(r"https?://[^\s<>\"'`，。；：！？、（）《》「」【】]+", re.IGNORECASE)
_TRAILING = ".,;:!?'\""
_PAIRS = {")": "(", "]": "[", "}": "{"}


def _trim(url: str) -> str:
    """Drop trailing punctuation, and closing brackets that have no opening one in the URL."""
    while url:
        last = url[-1]
        if last in _TRAILING or (last in _PAIRS and url.count(last) > url.count(_PAIRS[last])):
            url = url[:-1]
        else:
            break
    return url


def _split(token: Token, md: MarkdownIt, new: type[Token]) -> list[Token]:
    text = token.content
    out: list[Token] = []
    pos = 0
    for match in _URL.finditer(text):
        url = _trim(match.group(0))
        if "://" not in url or url.endswith("://"):
            continue
        href = md.normalizeLink(url)
        if not md.validateLink(href):
            continue
        start = match.start()
        if start > pos:
            out.append(_text(text[pos:start], new))
        link = new("link_open", "a", 1, attrs={"href": href})
        out += [link, _text(url, new), new("link_close", "a", -1)]
        pos = start + len(url)
    if not out:
        return [token]
    if pos < len(text):
        out.append(_text(text[pos:], new))
    return out


def _text(content: str, new: type[Token]) -> Token:
    token = new("text", "", 0)
    token.content = content
    return token


def _linkify(state: StateCore) -> None:
    for block in state.tokens:
        if block.type != "inline" or not block.children:
            continue
        children: list[Token] = []
        depth = 0  # inside an existing link
        for child in block.children:
            if child.type == "link_open":
                depth += 1
            elif child.type == "link_close":
                depth -= 1
            if child.type == "text" and depth == 0:
                children += _split(child, state.md, type(child))  # markdown-it's Token
            else:
                children.append(child)
        block.children = children


@functools.cache
def _renderer() -> MarkdownIt:
    md = commonmark()
    md.core.ruler.push("bare_http_links", _linkify)
    return md


def render_with_links(text: str) -> str:
    """Markdown to HTML like ``markdown_view.render_markdown``, bare http(s) URLs as links."""
    return str(_renderer().render(text))
