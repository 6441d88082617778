"""Readable, coloured diffs between two texts (difflib), as HTML for a ``SafeBrowser``.

Everything from the compared texts is HTML-escaped; the view adds only its own markup.
"""

from __future__ import annotations

import difflib
from collections.abc import Mapping

from PySide6.QtWidgets import QWidget

from context_center.ui.i18n import translate
from context_center.ui.style import tone
from context_center.ui.widgets.markdown_view import MONO_CSS as MONO
from context_center.ui.widgets.markdown_view import SafeBrowser, escape


def fact_document(fields: Mapping[str, object], body: str) -> str:
    """The text of a fact as people compare it: a few header lines, a blank line, the body."""
    head = [f"{key}: {value}" for key, value in fields.items()]
    return "\n".join(head) + "\n\n" + body.rstrip("\n") + "\n"


def _lines(text: str) -> list[str]:
    return text.splitlines()


def unified_html(a: str, b: str, a_label: str, b_label: str, *, context: int = 3) -> str:
    diff = list(
        difflib.unified_diff(_lines(a), _lines(b), a_label, b_label, n=context, lineterm="")
    )
    if not diff:
        same = translate("DiffView", "No differences between {a} and {b}.").format(
            a=escape(a_label), b=escape(b_label)
        )
        return f"<p style='color:{tone('muted')}'>{same}</p>"
    return diff_lines_html(diff)


def diff_lines_html(diff: list[str]) -> str:
    """The lines of a unified diff, coloured: file headers, hunks, added and removed lines."""
    out = [f"<table width='100%' cellspacing='0' cellpadding='1' style='font-family:{MONO}'>"]
    for line in diff:
        text = escape(line) or "&nbsp;"
        if line.startswith(("+++", "---")):
            style = f"font-weight:600; color:{tone('muted')}"
        elif line.startswith("@@"):
            style = f"color:{tone('hunk_fg')}; background-color:{tone('hunk_bg')}"
        elif line.startswith("+"):
            style = f"color:{tone('add_fg')}; background-color:{tone('add_bg')}"
        elif line.startswith("-"):
            style = f"color:{tone('del_fg')}; background-color:{tone('del_bg')}"
        else:
            style = f"color:{tone('text')}"
        out.append(f"<tr><td style='{style}; white-space:pre-wrap'>{text}</td></tr>")
    out.append("</table>")
    return "".join(out)


def side_by_side_html(a: str, b: str, a_label: str, b_label: str) -> str:
    la, lb = _lines(a), _lines(b)
    matcher = difflib.SequenceMatcher(None, la, lb, autojunk=False)
    cell = "white-space:pre-wrap; padding:1px 6px; vertical-align:top"
    num = f"color:{tone('faint')}; padding:1px 4px; text-align:right; vertical-align:top; white-space:nowrap"
    out = [
        f"<table width='100%' cellspacing='0' cellpadding='0' style='font-family:{MONO}'>",
        f"<tr><th colspan='2' style='text-align:left; padding:4px 6px'>{escape(a_label)}</th>"
        f"<th colspan='2' style='text-align:left; padding:4px 6px'>{escape(b_label)}</th></tr>",
    ]

    def row(i: int | None, left: str | None, j: int | None, right: str | None, tag: str) -> None:
        base = tone("base")
        lbg = tone("del_bg") if tag in ("replace", "delete") and left is not None else base
        rbg = tone("add_bg") if tag in ("replace", "insert") and right is not None else base
        out.append(
            "<tr>"
            f"<td style='{num}'>{'' if i is None else i + 1}</td>"
            f"<td width='50%' style='{cell}; background-color:{lbg}'>"
            f"{escape(left) if left else '&nbsp;'}</td>"
            f"<td style='{num}'>{'' if j is None else j + 1}</td>"
            f"<td width='50%' style='{cell}; background-color:{rbg}'>"
            f"{escape(right) if right else '&nbsp;'}</td>"
            "</tr>"
        )

    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                row(i1 + k, la[i1 + k], j1 + k, lb[j1 + k], tag)
            continue
        for k in range(max(i2 - i1, j2 - j1)):
            i = i1 + k if i1 + k < i2 else None
            j = j1 + k if j1 + k < j2 else None
            row(i, la[i] if i is not None else None, j, lb[j] if j is not None else None, tag)
    out.append("</table>")
    return "".join(out)


class DiffView(SafeBrowser):
    """Shows a diff; ``set_texts`` picks unified or side-by-side from ``side_by_side``."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("diffView")
        self.side_by_side = False
        self._last: tuple[str, str, str, str] | None = None

    def set_texts(self, a: str, b: str, a_label: str, b_label: str) -> None:
        self._last = (a, b, a_label, b_label)
        render = side_by_side_html if self.side_by_side else unified_html
        self.show_html(lambda: render(a, b, a_label, b_label))

    def set_unified(self, diff: str) -> None:
        """Show a unified diff made elsewhere (the engine's, of a config file)."""
        self._last = None
        lines = diff.splitlines()
        self.show_html(lambda: diff_lines_html(lines))

    def set_side_by_side(self, on: bool) -> None:
        self.side_by_side = on
        if self._last is not None:
            self.set_texts(*self._last)

    def clear_diff(self, message: str = "") -> None:
        self._last = None
        if message:
            self.show_html(lambda: f"<p style='color:{tone('muted')}'>{escape(message)}</p>")
        else:
            self.setHtml("")
