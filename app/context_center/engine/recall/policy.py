"""The recall policy in one place: numbers, generic turns, what counts as a distinctive match.

Everything here is a pure function or a constant; ``recaller.py`` applies it to index scores.
The figures follow the reference implementation (see design/REFERENCE.md, "Recall").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from enum import StrEnum

from context_center.engine.recall.tokenize import QueryTerm

# BM25
K1 = 1.2
B = 0.75
# Re-weighting after BM25: a slight boost for this workspace's facts, a slight penalty for
# stale facts (never a removal).
PROJECT_BOOST = 1.08
STALE_FACTOR = 0.92
# Hits under this share of the best hit's score are dropped.
RELATIVE_CUT = 0.24
# A single matched term is enough when the query has at most this many terms and the term is
# at least this long.
SHORT_QUERY_TERMS = 2
LONG_TERM_CHARS = 6

# Budget
DEFAULT_MAX_FACTS = 4
MAX_MAX_FACTS = 8
DEFAULT_MAX_CHARS = 2400
MIN_MAX_CHARS = 480
SNIPPET_CHARS = 520
TITLE_CHARS = 160
ELLIPSIS = "…"


class Reason(StrEnum):
    """Why recall left something out: the whole turn (no fact) or one fact."""

    GENERIC_TURN = "generic_turn"
    NO_SEARCHABLE_TERMS = "no_searchable_terms"
    STORE_EMPTY = "store_empty"
    NO_DISTINCTIVE_MATCH = "no_distinctive_match"
    PROJECT_OVERRIDE = "project_override"
    STABLE_GUIDANCE = "stable_guidance"
    OVER_BUDGET = "over_budget"

    @property
    def text(self) -> str:
        return _REASON_TEXT[self]


_REASON_TEXT = {
    Reason.GENERIC_TURN: "generic user turn",
    Reason.NO_SEARCHABLE_TERMS: "no searchable terms (only common words)",
    Reason.STORE_EMPTY: "memory store is empty",
    Reason.NO_DISTINCTIVE_MATCH: "no sufficiently distinctive match",
    Reason.PROJECT_OVERRIDE: "an equivalent project fact overrides this global fact",
    Reason.STABLE_GUIDANCE: "global user/feedback fact is already in the stable guidance",
    Reason.OVER_BUDGET: "matched facts exceeded the recall budget",
}

_GENERIC = [
    # English
    "continue", "please continue", "continue please", "go on", "go ahead", "keep going",
    "carry on", "proceed", "next", "next step", "ok", "okay", "k", "kk", "yes", "y", "yep",
    "yeah", "yup", "sure", "no", "n", "nope", "thanks", "thank you", "thx", "ty", "done",
    "good", "great", "nice", "cool", "fine", "got it", "sounds good", "lgtm", "do it",
    "go", "again", "retry", "try again", "hi", "hello", "hey",
    # Chinese
    "继续", "请继续", "继续吧", "接着", "接着来", "继续下一步", "下一步", "下一个", "好的", "好",
    "好吧", "好啊", "行", "可以", "嗯", "嗯嗯", "是", "是的", "对", "对的", "否", "不", "不是",
    "不用", "谢谢", "多谢", "感谢", "收到", "明白", "知道了", "没问题", "开始", "再来", "重试",
    "你好",
]


def fold(text: str) -> str:
    """Lowercase, NFKC, keep only letters and digits (so case, spaces, punctuation vanish)."""
    low = unicodedata.normalize("NFKC", text).lower()
    return "".join(ch for ch in low if ch.isalnum())


GENERIC_TURNS = frozenset(fold(g) for g in _GENERIC)


def is_generic_turn(message: str) -> bool:
    """"continue", "OK!", "请继续。", "下一步" ...: a turn that asks for nothing new."""
    return fold(message) in GENERIC_TURNS


def clamp_max_facts(value: int | None) -> int:
    if value is None or value <= 0:
        return DEFAULT_MAX_FACTS
    return min(value, MAX_MAX_FACTS)


def clamp_max_chars(value: int | None) -> int:
    if value is None or value <= 0:
        return DEFAULT_MAX_CHARS
    return max(value, MIN_MAX_CHARS)


def single_term_strong(terms: Sequence[QueryTerm]) -> list[bool]:
    """For each searchable query term: is a match of this term *alone* a distinctive match?

    Yes when the term was written distinctively (``#6928``, ``AuthHandler``, ``release_v2``),
    or the query has at most two terms and this one has at least six characters, or the
    whole query is exactly one CJK bigram (``缓存``). Two or more matched terms are always
    enough; that part is applied on the index's per-fact match counts.
    """
    short = len(terms) <= SHORT_QUERY_TERMS
    one_bigram = len(terms) == 1 and terms[0].cjk and len(terms[0].text) == 2
    return [
        t.distinctive or (short and len(t.text) >= LONG_TERM_CHARS) or one_bigram for t in terms
    ]


def reason_text(matched: Sequence[str], scope: str, *, limit: int = 5) -> str:
    """``matched authhandler, 6928; project scope``."""
    shown = list(matched[:limit])
    if len(matched) > limit:
        shown.append(f"+{len(matched) - limit} more")
    return f"matched {', '.join(shown)}; {scope} scope"
