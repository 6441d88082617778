"""Where ``@path`` imports can be in a Markdown instruction file, and where they cannot.

``find_mentions(text)`` returns every ``@path`` written in Markdown *text*: a sentence, a list
item, a blockquote, a heading. Never one inside a fenced or indented code block, an inline code
span or an HTML comment (block or inline, one line or many). The block structure comes from
markdown-it's CommonMark parser; inside a block, code spans (CommonMark backtick matching),
comments and backslash escapes are skipped by a linear scan of the block's own text.

A mention starts at ``@`` at the start of a line or after whitespace, so ``a@example.com`` is
not one; it runs to the next unescaped whitespace (``\\ `` escapes a space). Each profile
decides which mentions are imports: Reasonix only a mention alone on its line, Claude Code any.

``split_frontmatter`` separates a leading ``---`` YAML block (``.claude/rules`` files).
``without_block_comments`` drops the HTML comments that stand as blocks of their own, which
Claude Code strips before a memory file reaches the model (since 2.1.72).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from markdown_it import MarkdownIt


MAX_PARSE_CHARS = 2 * 1024 * 1024
_MENTION_RE = re.compile(r"@((?:[^\s\\]|\\.)++)")
_FRONTMATTER_RE = re.compile(r"\A---[ \t]*\n(.*?\n)?---[ \t]*(?:\n|\Z)", re.DOTALL)
_TRAILING = ".,;:!?)]}>'\"，。；：！？）】」』"


@dataclass(frozen=True)
class Mention:
    """``@raw`` at 0-based ``line``; ``alone`` when the source line is exactly ``@raw``."""

    line: int
    raw: str
    alone: bool

    @property
    def path(self) -> str:
        """The path a profile resolves: ``\\ `` unescaped, ``#anchor`` dropped."""
        return clean_path(self.raw)


def clean_path(raw: str) -> str:
    path = raw.replace("\\ ", " ")
    if "#" in path:
        path = path.split("#", 1)[0]
    return path


def strip_trailing_punctuation(raw: str) -> str:
    """``@docs/a.md.`` or ``(@docs/a.md)`` at the end of a sentence: the punctuation is prose."""
    return raw.rstrip(_TRAILING)


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    from markdown_it import MarkdownIt  # on the first parse, not at import (~25 ms)

    return MarkdownIt("commonmark")


def split_frontmatter(text: str) -> tuple[str | None, str, int]:
    """(frontmatter text or None, body, number of lines the frontmatter took)."""
    match = _FRONTMATTER_RE.match(text)
    if not match:
        return None, text, 0
    consumed = match.group(0)
    lines = consumed.count("\n") + (0 if consumed.endswith("\n") else 1)
    return match.group(1) or "", text[match.end() :], lines


def _backtick_runs(text: str) -> dict[int, list[int]]:
    runs: dict[int, list[int]] = {}
    i, n = 0, len(text)
    while i < n:
        if text[i] == "`":
            j = i
            while j < n and text[j] == "`":
                j += 1
            runs.setdefault(j - i, []).append(i)
            i = j
        else:
            i += 1
    return runs


def visible_spans(text: str) -> list[tuple[int, int]]:
    """Ranges of ``text`` outside code spans and HTML comments (escaped characters included)."""
    runs = _backtick_runs(text) if "`" in text else {}
    spans: list[tuple[int, int]] = []
    start = i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch == "\\":
            i += 2
            continue
        if ch == "`":
            size = 1
            while i + size < n and text[i + size] == "`":
                size += 1
            positions = runs.get(size, [])
            k = bisect.bisect_right(positions, i)
            if k < len(positions):
                spans.append((start, i))
                i = start = positions[k] + size
            else:
                i += size  # unmatched: literal backticks
            continue
        if ch == "<" and text.startswith("<!--", i):
            end = text.find("-->", i + 4)
            if end >= 0:
                spans.append((start, i))
                i = start = end + 3
                continue
        i += 1
    spans.append((start, n))
    return [(a, b) for a, b in spans if b > a]


def _scan_block(content: str, first_line: int, lines: list[str], out: list[Mention]) -> None:
    if "@" not in content:
        return
    line_starts = [0]
    for m in re.finditer("\n", content):
        line_starts.append(m.end())
    for a, b in visible_spans(content):
        segment = content[a:b]
        if "@" not in segment:
            continue
        for m in _MENTION_RE.finditer(segment):
            pos = a + m.start()
            if pos > 0 and not content[pos - 1].isspace():
                continue
            offset = bisect.bisect_right(line_starts, pos) - 1
            line = first_line + offset
            raw = m.group(1)
            source = lines[line].strip() if 0 <= line < len(lines) else ""
            out.append(Mention(line=line, raw=raw, alone=source == "@" + raw))


def _is_comment(token: Any) -> bool:
    return str(token.content).lstrip().startswith("<!--")


def find_mentions(text: str) -> list[Mention]:
    """Every ``@…`` in Markdown text of ``text`` (LF newlines), in document order."""
    if "@" not in text or len(text) > MAX_PARSE_CHARS:
        return []
    lines = text.split("\n")
    try:
        tokens = _parser().parse(text)
    except RecursionError:  # pathological nesting: nothing there is trusted as an import
        return []
    out: list[Mention] = []
    for token in tokens:
        if token.map is None:
            continue
        if token.type == "inline" or (token.type == "html_block" and not _is_comment(token)):
            _scan_block(token.content, token.map[0], lines, out)
    return out


_ONLY_COMMENTS = re.compile(r"\s*(?:<!--.*?-->\s*)+", re.DOTALL)


def without_block_comments(text: str) -> str:
    """``text`` without its block-level HTML comments: the lines of an HTML block made of
    comments alone (one line or many). A comment inside a paragraph, after text on its line
    or in code is kept, as is text too large to parse."""
    if "<!--" not in text or len(text) > MAX_PARSE_CHARS:
        return text
    try:
        tokens = _parser().parse(text)
    except RecursionError:
        return text
    drop: list[tuple[int, int]] = [
        (t.map[0], t.map[1])
        for t in tokens
        if t.type == "html_block" and t.map is not None and _ONLY_COMMENTS.fullmatch(t.content)
    ]
    if not drop:
        return text
    lines = text.split("\n")
    keep = [True] * len(lines)
    for start, end in drop:
        for i in range(start, min(end, len(lines))):
            keep[i] = False
    return "\n".join(line for line, k in zip(lines, keep, strict=True) if k)
