"""How the Instructions tab shares its width between the chain (left) and the panes (right).

The right pane is never narrower than its tab bar (Document, Prefix (n chars), Compare — the
current one drawn bold), so its tabs never scroll; in a narrow window (900 px) what the panes do
not need goes to the chain, so its document names are not cut, and in a wide one the split
keeps its 11:9 proportion.
"""

from __future__ import annotations

from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QSplitter, QTabWidget, QTreeView, QWidget

RIGHT_SHARE = 9 / 20  # the right pane's share of a wide window
FRAME = 4  # the panes' frame and the tree's, both sides


def tabs_need(tabs: QTabWidget) -> int:
    """Width of every tab of ``tabs`` side by side, whichever one is current (bold)."""
    bar = tabs.tabBar()
    texts = [bar.tabText(i) for i in range(bar.count())]
    bold_font = QFont(bar.font())
    bold_font.setWeight(QFont.Weight.DemiBold)
    normal, bold = bar.fontMetrics(), QFontMetrics(bold_font)
    extra = [max(bold.horizontalAdvance(t) - normal.horizontalAdvance(t), 0) for t in texts]
    current = bar.currentIndex()
    hints = sum(bar.tabSizeHint(i).width() for i in range(bar.count()))
    # the current tab's hint is already bold: count the widest bold text once instead
    return hints - (extra[current] if 0 <= current < len(extra) else 0) + max(extra, default=0)


def chain_need(tree: QTreeView) -> int:
    """Width of the chain with no column cut (headings and contents)."""
    header = tree.header()
    widths = [
        max(tree.sizeHintForColumn(c), header.sectionSizeHint(c)) for c in range(header.count())
    ]
    return sum(widths) + FRAME


def fit_panes(right: QWidget, tabs: QTabWidget) -> None:
    """The right pane's minimum width: its tabs, its margins and frame."""
    layout = right.layout()
    sides = 0
    if layout is not None:
        margins = layout.contentsMargins()
        sides = margins.left() + margins.right()
    right.setMinimumWidth(tabs_need(tabs) + sides + FRAME)


def balance(splitter: QSplitter, tree: QTreeView, right: QWidget) -> None:
    """Split the width: the right pane its share of a wide window, but in a narrow one only
    what it needs when the chain (``tree``, alone on the left side) would otherwise be cut."""
    sizes = splitter.sizes()
    total = sum(sizes)
    if len(sizes) != 2 or total <= 0:
        return
    share = round(total * RIGHT_SHARE)
    room = total - chain_need(tree)
    want = max(right.minimumWidth(), min(share, room))
    if want != sizes[1]:
        splitter.setSizes([total - want, want])
