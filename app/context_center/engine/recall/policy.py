"""The recall policy in one place: numbers, generic turns, what counts as a distinctive match.

Everything here is a pure function or a constant; ``recaller.py`` applies it to index scores.
The figures follow the reference implementation (see design/REFERENCE.md, "Recall").
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from enum import StrEnum

from context_center.engine.errors import InvalidRequest
from context_center.engine.recall.tokenize import WORD_OR_CJK_RUN, QueryTerm

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
# at least this long (a Chinese word: this many characters), unless it is a common English word.
SHORT_QUERY_TERMS = 2
LONG_TERM_CHARS = 6
LONG_CJK_CHARS = 3
# A fact that matched fewer concepts than the best one needs this share of its score.
THIN_CUT = 0.5
# A match through the bilingual vocabulary (deploy -> 部署) counts this much of a direct one.
EXPANSION_WEIGHT = 0.6
# A single matched word is distinctive on its own, whatever the message's length, when it is
# rare in the store -- idf at least RARE_IDF (ln(1 + (N - df + 0.5) / (df + 0.5)), df counted
# over all forms of the word: about 30 facts before a word in one of them gets there, 50 for a
# word in two) and in at most RARE_SHARE of the facts (at least RARE_MIN_DF) -- and is not a
# common English word (data/common_en.tsv) or the Chinese word for one. An all-capitals word
# (API, FATAL) is identifier-like only then.
RARE_IDF = 3.0
RARE_SHARE = 0.005
RARE_MIN_DF = 2
# ... and the fact names it: some form of it is in its name, title or description. A term
# whose weighted frequency is at least HEAD_TF is taken to be there (a body word alone counts
# 1), then checked exactly for at most HEAD_CHECK facts per turn.
HEAD_TF = 2
HEAD_CHECK = 32
# ... and it has at least this many characters (a Chinese vocabulary word: two).
RARE_MIN_CHARS = 5
# A fact is about the message when a matched term is in its head fields, it matched an
# identifier, or at least ABOUT_SPECIFIC matched words not frequent in the store, or at least
# ABOUT_COUNT terms; otherwise it is body_only.
ABOUT_SPECIFIC = 2
ABOUT_COUNT = 3
# At most this many facts matched only on words frequent in the store, with no distinctive
# term, are injected per turn (the others are side_match), in a store of at least
# SIDE_MIN_FACTS facts (1 / FREQUENT_SHARE: below that, 5 % of the store is under one fact and
# any word shared by three facts counts as frequent).
SIDE_CAP = 2
SIDE_MIN_FACTS = 20
# Facts matched only on frequent words, none of them in the fact's head fields, score this
# much (broad_match when that puts them under the relative cut); "frequent" is in at least
# FREQUENT_SHARE of the facts (and at least FREQUENT_MIN_DF).
BROAD_FACTOR = 0.5
FREQUENT_SHARE = 0.05
FREQUENT_MIN_DF = 3

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
    WEAK_MATCH = "weak_match"
    PROJECT_OVERRIDE = "project_override"
    STABLE_GUIDANCE = "stable_guidance"
    SUPERSEDED = "superseded"
    BROAD_MATCH = "broad_match"
    THIN_MATCH = "thin_match"
    SIDE_MATCH = "side_match"
    BODY_ONLY = "body_only"
    OVER_BUDGET = "over_budget"

    @property
    def text(self) -> str:
        return _REASON_TEXT[self]


_REASON_TEXT = {
    Reason.GENERIC_TURN: "generic user turn",
    Reason.NO_SEARCHABLE_TERMS: "no searchable terms (only common words)",
    Reason.STORE_EMPTY: "memory store is empty",
    Reason.NO_DISTINCTIVE_MATCH: "no sufficiently distinctive match",
    Reason.WEAK_MATCH: (
        f"score under {RELATIVE_CUT:.2f} × the best eligible match's score (relative cut)"
    ),
    Reason.PROJECT_OVERRIDE: "an equivalent project fact overrides this global fact",
    Reason.STABLE_GUIDANCE: "global user/feedback fact is already in the stable guidance",
    Reason.SUPERSEDED: "a newer fact on the same subject replaces this one",
    Reason.BROAD_MATCH: (
        f"a broad fact matched only on words frequent in this store (score x {BROAD_FACTOR}), "
        f"then under {RELATIVE_CUT:.2f} x the best eligible match's score"
    ),
    Reason.THIN_MATCH: (
        f"matched fewer of the message's terms than the best fact and scored under {THIN_CUT:.2f}"
        " x its score"
    ),
    Reason.OVER_BUDGET: "matched facts exceeded the recall budget",
    Reason.SIDE_MATCH: (
        "matched only words frequent in this store, beside a distinctive match or more such facts"
    ),
    Reason.BODY_ONLY: (
        "matched only in the fact's body: no matched term in its name, title or description, "
        "no identifier, fewer than two words rare in the store and fewer than three terms"
    ),
}

# A turn is generic when every word in it is one of these (after folding case, width, spaces
# and punctuation): "ok continue", "please continue then", "keep going, continue" ...
_GENERIC_WORDS_EN = """
    ok okay k kk yes y yep yeah yup ya sure no n nope nah
    please pls plz thanks thank thx ty you
    continue continuing proceed go going gone on keep carry ahead next step steps then
    do it that this now again retry try once more
    done good great nice cool fine alright all right got sounds lgtm perfect
    let lets s and to the with a
    hi hello hey
"""
GENERIC_WORDS_EN = frozenset(_GENERIC_WORDS_EN.split())

# Chinese (and other CJK) generic phrases: a CJK run is generic when it can be split entirely
# into these ("好的，继续执行吧" = 好的 + 继续执行 + 吧).
_GENERIC_PHRASES_ZH = """
    继续 执行 继续执行 进行 继续进行 好 好的 好吧 好啊 好哒 是 是的 否 不 不是 不用
    下一步 下一个 一下 一次 再来一次 再试一次 吧 呢 啊 呀 嘛 哦 噢 喔 了 的 吗 请 请继续 然后 接着 接着来 开始
    可以 行 对 对的 嗯 嗯嗯 谢谢 多谢 感谢 没问题 收到 明白 知道了 再来 再 重试 你好 现在 做
"""
GENERIC_PHRASES_ZH = frozenset(_GENERIC_PHRASES_ZH.split())
_PHRASE_LENGTHS = sorted({len(p) for p in GENERIC_PHRASES_ZH}, reverse=True)
# A generic turn is short; anything longer than this (after folding) asks for something.
GENERIC_MAX_CHARS = 80

_TURN_RUN = WORD_OR_CJK_RUN


def _generic_cjk(run: str) -> bool:
    """Can ``run`` be split entirely into generic phrases? (longest phrase first, with
    backtracking over a reachability table, so no split is missed and none is exponential)"""
    n = len(run)
    reach = [False] * (n + 1)
    reach[n] = True
    for i in range(n - 1, -1, -1):
        for size in _PHRASE_LENGTHS:
            if i + size <= n and reach[i + size] and run[i : i + size] in GENERIC_PHRASES_ZH:
                reach[i] = True
                break
    return reach[0]


def is_generic_turn(message: str) -> bool:
    """ "continue", "OK!", "ok continue", "keep going, continue", "请继续。", "好的，继续执行吧"
    ...: a turn made only of generic and filler words, which asks for nothing new."""
    low = unicodedata.normalize("NFKC", message).lower()
    if len(low) > 4 * GENERIC_MAX_CHARS:
        return False
    seen = 0
    for m in _TURN_RUN.finditer(low):
        word = m.group("word")
        if word is not None:
            if word not in GENERIC_WORDS_EN:
                return False
        elif not _generic_cjk(m.group("cjk")):
            return False
        seen += len(m.group(0))
        if seen > GENERIC_MAX_CHARS:
            return False
    return seen > 0


def clamp_max_facts(value: int | None) -> int:
    """The fact limit: None is the default (4); 9 and more become 8; 0 or less is refused."""
    if value is None:
        return DEFAULT_MAX_FACTS
    if value < 1:
        raise InvalidRequest(f"max_facts must be at least 1 (got {value})")
    return min(value, MAX_MAX_FACTS)


def clamp_max_chars(value: int | None) -> int:
    """The block's character budget: None is the default (2,400); 1 to 479 become 480; 0 or
    less is refused."""
    if value is None:
        return DEFAULT_MAX_CHARS
    if value < 1:
        raise InvalidRequest(f"max_chars must be at least 1 (got {value})")
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
