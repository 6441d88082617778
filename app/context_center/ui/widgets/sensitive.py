"""Marking the engine's sensitive spans (secrets, e-mail addresses) in a plain-text view.

``SensitiveHighlighter`` recomputes the spans with the engine's own detector whenever the
document changes, so an edited copy is checked as the person types; ``sensitive_summary``
says what was found where without ever repeating a value.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor, QFont, QSyntaxHighlighter, QTextCharFormat

from context_center.engine import SensitiveSpan, find_sensitive
from context_center.ui.i18n import translate
from context_center.ui.secret_text import secret_label
from context_center.ui.style import follow_scheme, tone

SENSITIVE_BG = "#ffd7d5"  # the light scheme's marking (``style.LIGHT.sensitive_bg``)
SENSITIVE_FG = "#82071e"


def utf16_offsets(text: str) -> list[int] | None:
    """Map code-point offsets to UTF-16 offsets (Qt's units); None when they are the same."""
    if all(ord(ch) < 0x10000 for ch in text):
        return None
    out = [0]
    for ch in text:
        out.append(out[-1] + (2 if ord(ch) >= 0x10000 else 1))
    return out


def sensitive_summary(text: str, spans: list[SensitiveSpan]) -> str:
    """ "GitHub token (line 7), email address (line 3)": what was found where, never the value."""
    seen: list[str] = []
    for span in spans:
        line = text.count("\n", 0, span.start) + 1
        item = translate("ApprovalDialog", "{label} (line {line})").format(
            label=secret_label(span.kind, span.label), line=line
        )
        if item not in seen:
            seen.append(item)
    return ", ".join(seen)


class SensitiveHighlighter(QSyntaxHighlighter):
    """Marks the engine's sensitive spans (offsets into the whole document) in a text view.

    The spans are recomputed from the document's text whenever it changes, so an edited copy
    is checked as the person types.
    """

    def __init__(self, document: Any) -> None:
        # Connect before the document is set: Qt re-highlights the changed blocks from its own
        # contentsChange connection, which must already see the new spans.
        super().__init__(None)  # type: ignore[call-overload]  # no parent; the document comes next
        self.spans: list[SensitiveSpan] = []
        self._units: list[tuple[int, int]] = []
        self._fmt = QTextCharFormat()
        self._fmt.setFontWeight(QFont.Weight.DemiBold)
        self._fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.WaveUnderline)
        self._colour_format()
        follow_scheme(self._restyle)
        self._text: str | None = None
        document.contentsChange.connect(self._on_contents_change)
        self.setDocument(document)
        self._scan()
        self.rehighlight()

    def _colour_format(self) -> None:
        self._fmt.setBackground(QColor(tone("sensitive_bg")))
        self._fmt.setForeground(QColor(tone("sensitive_fg")))
        self._fmt.setUnderlineColor(QColor(tone("sensitive_fg")))

    def _restyle(self) -> None:
        """The marks in the colours of the scheme now."""
        self._colour_format()
        self.rehighlight()

    def _scan(self) -> bool:
        """Recompute the spans; True when they changed."""
        text = self.document().toPlainText()
        if text == self._text:
            return False
        self._text = text
        before = self._units
        self.spans = find_sensitive(text)
        units = utf16_offsets(text)
        self._units = [
            (s.start, s.end) if units is None else (units[s.start], units[s.end])
            for s in self.spans
        ]
        return self._units != before

    def _on_contents_change(self, *_: Any) -> None:
        # The changed blocks are re-highlighted right after this; blocks elsewhere only need it
        # when a span moved across them (offsets are document-wide).
        if self._scan():
            QTimer.singleShot(0, self, self.rehighlight)

    def highlightBlock(self, text: str) -> None:
        block = self.currentBlock()
        start = block.position()
        end = start + block.length()
        for s, e in self._units:
            if e <= start or s >= end:
                continue
            lo = max(s, start) - start
            hi = min(e, end) - start
            if hi > lo:
                self.setFormat(lo, hi - lo, self._fmt)
