"""Turning text into recall terms, for English and Chinese (and Japanese, Korean) alike.

* Text is NFKC-normalised (full-width letters become ASCII) and lowercased.
* Letter/digit/underscore runs are terms: ``AuthHandler`` -> ``authhandler``,
  ``release_v2`` -> ``release_v2``, ``#6928`` -> ``6928``. A run longer than
  ``MAX_TERM_CHARS`` is cut into pieces of that size (documents and queries alike).
* CJK runs (Han, kana, Hangul) become overlapping character bigrams; a lone CJK character is
  a unigram. ``自动召回`` -> ``自动``, ``动召``, ``召回``.

Documents keep every term (their lengths count every term, as BM25 expects). Queries
additionally drop common words (English function words, chat filler and vague programming
words such as "update the file"; Chinese function characters and vague words, and the
bigrams that merely straddle two of them), so a message made only of common words has no
searchable terms, and a fact that shares only common words with a message never matches it.

A query term remembers how it was written: *distinctive* (identifier-like) is ``#term``, or at
least two characters with a digit, an underscore or an inner capital (``AuthHandler``,
``release_v2``, ``v2``, ``#6928``). A bare number (``2026``, ``11``) is never identifier-like,
and an all-capitals word (``API``, ``FATAL``) is marked ``caps``: identifier-like only when it
is rare in the store, which recall decides against the index.

``tokens`` is the raw tokenizer; the index and queries stem English words (``stem.py``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from operator import add

from context_center.engine.rxcache import compile_all

# Bump when the terms produced for a document change: the on-disk index cache records it.
TOKENIZER_VERSION = 2  # 2: English words are stemmed, head fields weighted
MAX_TERM_CHARS = 80

# Han (with extensions and compatibility ideographs), iteration marks, kana, Hangul.
CJK_CLASS = (
    "\u1100-\u11ff"  # Hangul Jamo
    "\u3005-\u3007"  # 々 〆 〇
    "\u3040-\u30ff"  # Hiragana, Katakana
    "\u3130-\u318f"  # Hangul compatibility Jamo
    "\u31f0-\u31ff"  # Katakana phonetic extensions
    "\u3400-\u4dbf"  # Han extension A
    "\u4e00-\u9fff"  # Han
    "\ua960-\ua97f"  # Hangul Jamo extended A
    "\uac00-\ud7ff"  # Hangul syllables, Jamo extended B
    "\uf900-\ufaff"  # Han compatibility
    "\uff66-\uff9f"  # half-width Katakana (NFKC folds most of it anyway)
    "\U00020000-\U0003134f"  # Han extensions B-G
)
# Every compile of a class with CJK_CLASS costs a cold process about 2 ms (the compiler
# visits each of its ~40,000 BMP code points), so the modules of recall share CJK_RUN and
# WORD_OR_CJK_RUN, and a process after the first reads them compiled (``rxcache.py``).
_CJK_RUN, _WORD_RUN, _ANY_RUN, WORD_OR_CJK_RUN = compile_all(
    "tokenize",
    [
        (f"[{CJK_CLASS}]+", 0),
        (f"[^\\W{CJK_CLASS}]{{1,{MAX_TERM_CHARS}}}", 0),
        (f"(?P<cjk>[{CJK_CLASS}]+)|(?P<word>[^\\W{CJK_CLASS}]{{1,{MAX_TERM_CHARS}}})", 0),
        # a run of CJK or a run of other word characters (named ``cjk`` / ``word``)
        (f"(?P<cjk>[{CJK_CLASS}]+)|(?P<word>[^\\W{CJK_CLASS}]+)", 0),
    ],
)
CJK_RUN = _CJK_RUN
# A number right after letters and a hyphen is a ticket or document key (PAY-1234, ADR-0007).
_KEY_PREFIX = re.compile(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*-$")

# English words that carry no topic on their own: function words, chat filler, vague verbs.
_COMMON_EN_TEXT = """
    a about above after again against all also am an and any anything are aren as at
    be because been before being below between both but by
    can cannot could couldn
    did didn do does doesn doing don done down during
    each either else even ever every everything
    few for from further
    get gets getting go goes going gone got
    had hadn has hasn have haven having he her here hers herself him himself his how however
    i if in into is isn it its itself
    just
    kind know
    let lets like look looking
    made make makes making may me might mine more most much must my myself
    need needs no nor not now
    of off ok okay on once one only or other our ours ourselves out over own
    please pls
    quite
    rather really
    said same say see seem seems shall she should shouldn so some something somehow sort
    still stuff such sure
    take tell than thank thanks that the their theirs them themselves then there these they
    thing things think this those though through thx to too try
    under until up upon us use used using
    very
    want wants was wasn way we well were weren what whatever when where whether which while
    who whom whose why will with won would wouldn
    yeah yes yet you your yours yourself yourselves
    hi hello hey help helping maybe perhaps ask asking question questions anyone someone
    s t d ll m re ve
    continue continuing proceed keep keeps kept carry ahead next step steps start started
    again retry done good great nice cool fine alright right
    update updates updated updating change changes changed changing
    file files code fix fixes fixed fixing check checks checked checking
    issue issues problem problems session sessions token tokens
    work works worked working run runs ran running add adds added adding
    remove removes removed removing new old
    part parts bit lot lots example examples info information detail details
    show give put set find write tried trying
"""
COMMON_EN = frozenset(_COMMON_EN_TEXT.split())

# Chinese characters that only carry grammar or vague meaning; a bigram made only of them is
# common (这个, 一下, 什么, 可以, 我们, 怎么 ...). A lone common character is common too.
COMMON_ZH_CHARS = frozenset(
    "的了是我你您他她它们这那哪一下上个吗呢吧啊呀嘛哦嗯在有和与及就也都要会能可以把给让请"
    "帮看做说想到去来中不没很还再又点些么什怎样为如何里好对行将被从过着得地之其所而但或若则"
    "并且已经该够每各该此某"
)
_COMMON_ZH_TEXT = """
    问题 一个 一些 东西 事情 时候 现在 然后 因为 所以 但是 如果 已经 还是 或者 需要 应该
    知道 觉得 这里 那里 哪里 今天 明天 自己 继续 谢谢 帮忙 请问 接下 下来 之前 之后 以后
    以前 其他 其实 非常 特别 比较 可能 大家 这样 那样 没有 不是 就是 还有 关于 处理 告诉
    记得 帮助 开始 完成 一起 这次 上次 下次 刚才 目前 有关 相关 内容 情况 方面 部分 时间
    地方 意思 办法 东东 看下 一点 感谢 多谢 麻烦 确认 检查 修改
    执行 进行 运行 一步 更新 改动 更改 变化 改变 文件 代码 修复 会话 工作 使用 添加 增加
    移除 新的 旧的 令牌 东西 例子 详细 细节 信息 弄好 搞定 试试 尝试 看看
"""
COMMON_ZH_BIGRAMS = frozenset(_COMMON_ZH_TEXT.split())


def normalize(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def _cjk_terms(run: str) -> list[str]:
    if len(run) == 1:
        return [run]
    return list(map(add, run[:-1], run[1:]))


cjk_pieces = _cjk_terms


def tokens(text: str) -> list[str]:
    """Every term of a document, in no particular order (a bag of words)."""
    low = normalize(text)
    out = _WORD_RUN.findall(low)
    for run in _CJK_RUN.findall(low):
        if len(run) == 1:
            out.append(run)
        else:
            out.extend(map(add, run[:-1], run[1:]))
    return out


def is_cjk(term: str) -> bool:
    """``re.match(f"^[{CJK_CLASS}]+$", term)``: all CJK, a final newline allowed (``$``),
    without compiling that class once more."""
    m = _CJK_RUN.match(term)
    if m is None:
        return False
    end = m.end()
    return end == len(term) or (end == len(term) - 1 and term[-1] == "\n")


def is_common(term: str) -> bool:
    """True for a term that says nothing on its own (see the module docstring)."""
    if term in COMMON_EN or term in COMMON_ZH_BIGRAMS:
        return True
    first = term[0]
    if first.isascii():
        return False
    if is_cjk(term):
        return all(ch in COMMON_ZH_CHARS for ch in term)
    return False


def _identifier_like(raw: str) -> bool:
    """``AuthHandler``, ``release_v2``, ``v2``, ``e4102``; not ``a``, ``API``, ``2026`` or
    ``10`` (bare numbers and dates are not identifiers; all-capitals words are decided by
    their rarity in the store)."""
    if len(raw) < 2 or raw.isdigit():
        return False
    if not raw.isalpha():  # a word run that is not all letters has a digit or "_"
        return True
    if raw.isupper():
        return False
    tail = raw[1:]
    return tail != tail.lower()  # an inner capital


def _all_caps(raw: str) -> bool:
    return len(raw) >= 2 and raw.isalpha() and raw.isupper()


def _cjk_query_terms(run: str) -> list[tuple[str, bool]]:
    """The bigrams of a CJK run of a message, each with whether it is common *here*.

    Besides the common bigrams themselves, a bigram that straddles two common words is
    common too: in ``修复代码`` (修复 + 代码) the piece ``复代`` is no word at all, and in
    ``更新一下文件`` so are ``新一`` and ``下文``. A bigram that reaches into a word which is
    not common (``续发`` in ``继续发布``) stays searchable.
    """
    terms = _cjk_terms(run)
    if len(terms) == 1:
        return [(terms[0], is_common(terms[0]))]
    common = [is_common(t) for t in terms]
    covered = [ch in COMMON_ZH_CHARS for ch in run]
    for i, c in enumerate(common):
        if c:
            covered[i] = covered[i + 1] = True
    return [
        (t, c or (covered[i] and covered[i + 1]))
        for i, (t, c) in enumerate(zip(terms, common, strict=True))
    ]


@dataclass(frozen=True, slots=True)
class QueryTerm:
    """One term of a message, as searched, with how it was written."""

    text: str
    distinctive: bool
    cjk: bool
    common: bool
    caps: bool = False  # written in capitals (API, FATAL): identifier-like only when rare
    number: bool = False  # a bare number (2026, 11): never counts as a match on its own


def query_terms(message: str) -> list[QueryTerm]:
    """All terms of a message in order of first appearance, duplicates merged.

    A term is distinctive if any of its occurrences was: written as ``#term``, or of at least
    two characters containing a digit, an underscore, or a capital after the first character
    (not all capitals). Bare numbers are marked ``number`` and all-capitals words ``caps``.
    """
    text = unicodedata.normalize("NFKC", message)
    found: dict[str, QueryTerm] = {}
    for m in _ANY_RUN.finditer(text):
        run = m.group("cjk")
        if run is not None:
            for term, common in _cjk_query_terms(run.lower()):
                prev = found.get(term)
                if prev is None:
                    found[term] = QueryTerm(term, False, True, common)
                elif prev.common and not common:
                    found[term] = QueryTerm(term, False, True, False)
            continue
        raw = m.group("word")
        term = raw.lower()
        hashed = m.start() > 0 and text[m.start() - 1] == "#"
        if raw.isdigit() and not hashed:
            hashed = _after_key_prefix(text, m.start())  # PAY-1234, ADR-0007
        distinctive = hashed or _identifier_like(raw)
        caps = _all_caps(raw)
        number = raw.isdigit() and not hashed
        old = found.get(term)
        if old is None:
            found[term] = QueryTerm(term, distinctive, False, is_common(term), caps, number)
        else:
            found[term] = QueryTerm(
                term,
                old.distinctive or distinctive,
                False,
                old.common,
                old.caps and caps,
                old.number and number,
            )
    return list(found.values())


_KEY_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")


def _after_key_prefix(text: str, end: int) -> bool:
    """``_KEY_PREFIX.search(text, 0, end) is not None``, searching only from where a match
    can start: a match is letters and digits, a hyphen and the end (or a final newline), and
    its look-behind rules out a start inside a run of letters and digits. Searching from 0
    made a message with many numbers after text quadratic (a pasted log of 0.5 MB: 95 s)."""
    i = end
    if i and text[i - 1] == "\n":
        i -= 1
    if i and text[i - 1] == "-":
        i -= 1
    while i and text[i - 1] in _KEY_CHARS:
        i -= 1
    return _KEY_PREFIX.search(text, i, end) is not None


def searchable(terms: Iterable[QueryTerm]) -> list[QueryTerm]:
    """The terms recall and search use: every term that is not a common word."""
    return [t for t in terms if not t.common]
