"""Turn user turns into memory candidates and skill candidates. Pure functions, no I/O.

Memory candidates (after Reasonix's desktop suggestions, see REFERENCE.md "Suggestions"):
a turn of 8–420 characters holding a durable-preference marker (remember, always, never,
I prefer, prefer, preference, by default, from now on, every time, a sentence opening with
don't / do not or 别, stop using / adding …, 记住, 以后, 始终, 总是, 每次, 默认, 不要, 偏好,
规则, 约定) and no one-off marker (this time, just for now, for now, this once, yet, right now,
这次, 这一次, 暂时, 本次, 先别, 现在不要; "later" and "never mind": 以后再, never mind, 不要紧,
don't worry; a marker describing what happens: always fails, 总是失败, always forget, 总是忘记;
what was said: I never said, 我没说) and not a question. A statement is the whole sentence
holding the marker (each such sentence that is not a question, up to three a turn), so what
precedes the marker ("Our docs live at <URL> —
always check them") stays; a '.', '?' or '!' inside a URL or a file name ends no sentence. A
leading "remember (that)" / "记住" wrapper (and "please", "OK", …) is dropped but its content
kept; when the marker closes the sentence ("…, remember that." / "…，记住。") the rule is what
precedes it. A request joined in front of the rule by ', and' / ';' / '，然后' ("Fix the bug,
and from now on …") is left out unless the rule refers back to it (it, them, 它, 这些…) or it
holds a URL. Type: a URL makes a ``reference``; repository, branch, PR, commit, merge, push, tag
and release cues make a ``project`` convention even when phrased with always/never/不要; a
correction of how the agent works (always, never, don't, 不要, 始终, 总是, 反馈, 回复, 回答,
reply, answer) is
``feedback``; anything else is ``user``.

Pasted material is not a statement (``pasted.py``): a turn that is mostly a fenced block, a
traceback or a pasted file yields none, and a marker inside a pasted span never counts. A
candidate never carries an e-mail address or a secret as is (``privacy.py``): ``draft_of``
builds every shown or saved field from redacted text. Skill candidates are ``skills.py``'s.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from context_center.engine.kinds import FactType
from context_center.engine.suggestions.memorybody import memory_body
from context_center.engine.suggestions.pasted import mostly_pasted, pasted_spans, without_pasted
from context_center.engine.suggestions.privacy import redact
from context_center.engine.suggestions.textual import (
    EPOCH,
    MAX_QUOTES,
    MAX_TURN_CHARS,
    MIN_TURN_CHARS,
    Evidence,
    hash32,
    normalize_key,
    one_line,
    rx,
    sort_time,
    stable_id,
)
from context_center.engine.suggestions.turns import UserTurn

__all__ = [
    "MAX_TURN_CHARS",
    "MIN_TURN_CHARS",
    "Evidence",
    "MemoryDraft",
    "MemoryGroup",
    "Statement",
    "draft_of",
    "extract_statement",
    "extract_statements",
    "hash32",
    "infer_type",
    "make_title",
    "memory_drafts",
    "memory_groups",
    "normalize_key",
    "one_line",
    "propose_name",
    "stable_id",
]

SHORT_NAME_MAX = 48
PASTE_BREAK = " . "  # what a pasted span becomes: a sentence end, so no rule runs across it

# ---------------------------------------------------------------- memory markers

# (pattern, reason). ASCII markers must start a word; "never" must also end one.
_MARKERS: list[tuple[str, str]] = [
    ("记住", "explicit remember request"),
    ("以后", "future-facing preference"),
    ("始终", "persistent working rule"),
    ("总是", "persistent working rule"),
    ("每次", "repeated workflow preference"),
    ("默认", "default behaviour preference"),
    ("不要", "negative working preference"),
    ("偏好", "stated preference"),
    ("规则", "durable rule"),
    ("约定", "project convention"),
    (r"\bremember\b", "explicit remember request"),
    (r"\balways\b", "persistent working rule"),
    (r"\bnever\b", "negative working preference"),
    (r"\bi prefer\b", "stated preference"),
    (r"\bprefer", "stated preference"),
    (r"\bpreference", "stated preference"),
    (r"\bby default\b", "default behaviour preference"),
    (r"\bfrom now on\b", "future-facing preference"),
    # 每次 / 不要 have English twins: "every time …", and "don't …" / "do not …" opening a
    # sentence (an imperative; "I don't know" is no rule)
    (r"\bevery time\b", "repeated workflow preference"),
    (
        r"(?:^|(?<=[.!;:。！；：]\s)|(?<=[.!;:。！；：]))\s*(?:please\s+)?(?:don[’']?t|do not)\b",
        "negative working preference",
    ),
    # 别 opening a sentence is 不要 said short ("别用 npm"; 别人 / 别的 / 别名 are no marker),
    # and "stop using / adding …" asks for a habit to end
    (
        r"(?:^|(?<=[.!;:。！；：，,\s]))(?:请|你)?别(?![人的处名说家称致样扭])",
        "negative working preference",
    ),
    (
        r"\bstop (?:using|adding|writing|putting|creating|calling|making|committing|pushing)\b",
        "negative working preference",
    ),
]
# Cheap literal pre-check: a turn without any of these cannot hold a marker.
_MARKER_HINTS = (
    "记住", "以后", "始终", "总是", "每次", "默认", "不要", "偏好", "规则", "约定",
    "remember", "always", "never", "prefer", "by default", "from now on", "every time",
    "don't", "don’t", "dont", "do not", "别", "stop ",
)  # fmt: skip
_MARKER_HINT_RE = re.compile("|".join(re.escape(hint) for hint in _MARKER_HINTS))
_MARKER_RE = rx("|".join(f"(?P<m{i}>{p})" for i, (p, _) in enumerate(_MARKERS)))
_ONE_OFF_RE = rx(
    r"\bthis time\b|\bjust for now\b|\bfor now\b|\bthis once\b|\bjust once\b|这次|这一次|暂时|本次"
    # "later" and "never mind" put something off or wave it away: no rule (以后再修, 不要紧)
    r"|以后再|\bnever\s?mind\b|不要紧|\bdon[’']?t (?:worry|bother)\b|别担心|不用担心"
    r"|别急|不要急|别管|别这样|别闹|别慌"
    # a marker describing what happens, not asking for anything ("the build always fails")
    r"|总是(?:失败|报错|出错|崩溃|挂掉?|忘记?)|\balways (?:fails?|failing|breaks?|crash(?:es)?|forgets?)\b"
    # not yet, not right now: about this moment ("Don't commit yet.", 先别提交, 现在不要)
    r"|\byet\b|\bright now\b|\bat the moment\b|先别|先不要|现在不要|现在别|还不要"
    # what was said or done, not what to do ("I never said that.")
    r"|\bi (?:never|always) (?:said|asked|told|meant|wanted|did)\b|我(?:从来)?没(?:有)?说",
    re.IGNORECASE,
)
# A wrapper before the rule ("Please remember that …", "OK, 记住：…"); stripped, the rest kept.
_LEAD_RE = rx(
    r"^(?:(?:ok(?:ay)?|so|also|and|btw|oh|好的|好|另外|还有|对了)\s*[,，:：]\s*"
    r"|(?:please\s*[,，]?\s+)?(?:remember(?:\s+that|\s+this|(?!\s+to\s))|记住(?:了|这个|这点|这一点)?)"
    r"\s*[:：,，\-—]?\s*|please\s*[,，]?\s+|请(?=记住|以后|始终|总是|每次|默认|不要|别|务必))",
    re.IGNORECASE,
)
# A wrapper closing the sentence ("…, remember that." / "…，记住了"); the rule is what precedes it.
_TRAIL_RE = rx(
    r"\s*(?:[,，;；:：]|\s-+|—+|–)\s*(?:(?:and\s+|so\s+)?(?:please\s+)?remember(?:\s+that|\s+this|\s+it)?"
    r"(?:\s*,?\s*please)?|请?记住(?:了|这个|这点|这一点)?(?:哦|啊|哈)?)\s*$",
    re.IGNORECASE,
)
# Clause joints that may follow a one-off request ("Fix the bug, and from now on always …").
_CLAUSE_JOINT_RE = rx(
    r"\s*(?:[;；]|,\s*(?:\band\b|\bthen\b|\bbut\b|\balso\b)|，\s*(?:然后|并且|而且|但是|但|另外|还有|以及))\s*",
    re.IGNORECASE,
)
# Words by which a clause refers back to an earlier one, so that clause must stay.
_BACK_WORDS = frozenset(
    {"it", "its", "them", "they", "their", "this", "that", "these", "those", "there", "here"}
)
_BACK_CJK = ("它", "这个", "那个", "这些", "那些", "这里", "那里", "这样", "上面", "前面")
MIN_TRAIL_WORDS = 3  # "Good point, remember that." is no rule
MIN_TRAIL_CJK = 4
MIN_RULE_WEIGHT = 4  # what a statement says besides its marker (see ``_weight``)
# Sentence ends: CJK/ASCII terminators, or a '.' followed by space (so README.md survives).
_SENTENCE_END_RE = re.compile(r"[。！？!?\n]|\.(?:\s|$)")
# A URL's own '.', '?' and '!' end no sentence; trailing punctuation is not part of it.
_URL_SPAN_RE = re.compile(r"https?://[^\s<>\"'()（）\[\]{}，。！？；、]+", re.IGNORECASE)
_URL_TRAIL = ".,;:!?'\""
_INLINE_CODE_RE = re.compile(r"`[^`\n]+`")
_URL_RE = rx(r"https?://|\bgithub\.com/", re.IGNORECASE)
_FEEDBACK_RE = rx(
    r"反馈|回复|回答|不要|始终|总是|\balways\b|\bnever\b"
    r"|\brepl(?:y|ies|ying)\b|\banswers?\b|\brespond\b|\bdon[’']?t\b|\bdo not\b",
    re.IGNORECASE,
)
# Repository, branch, PR, commit, merge, push, tag and release cues (English and Chinese).
_PROJECT_RE = rx(
    r"项目|分支|仓库|约定|提交|合并|推送|变基|发布|发版|拉取请求"
    r"|\bPRs?\b|\bpull[\s-]requests?\b|\bmerge(?:s|d)?\b|\bmerging\b|\brebas(?:e|es|ed|ing)\b"
    r"|\bcommit(?:s|ted|ting)?\b|\bbranch(?:es)?\b|\bpush(?:es|ed|ing)?\b|\btag(?:s|ged|ging)?\b"
    r"|\breleas(?:e|es|ed|ing)\b|\brepo(?:s|sitory|sitories)?\b",
    re.IGNORECASE,
)
_WORD_RE = re.compile(r"[a-z0-9]+")
_ASCII_WORD_RE = re.compile(r"[A-Za-z0-9]+")


@dataclass(frozen=True, slots=True)
class Statement:
    text: str
    reason: str
    rank: int = 0  # which rule of its turn (0: the first)


def _sentences(text: str) -> list[tuple[int, int, str]]:
    """(start, end, terminator) of each sentence; a terminator inside a URL or inline code
    (`` `make fmt. lint` ``) does not count."""
    urls = []
    if "://" in text:
        for m in _URL_SPAN_RE.finditer(text):
            url_end = m.end()
            while url_end > m.start() and text[url_end - 1] in _URL_TRAIL:
                url_end -= 1
            urls.append((m.start(), url_end))
    if "`" in text:
        urls += [m.span() for m in _INLINE_CODE_RE.finditer(text)]
    out: list[tuple[int, int, str]] = []
    start = 0
    for m in _SENTENCE_END_RE.finditer(text):
        if any(a <= m.start() < b for a, b in urls):
            continue
        out.append((start, m.start(), text[m.start()]))
        start = m.end()
    if start < len(text):
        out.append((start, len(text), ""))
    return out


def _weight(key: str) -> int:
    """Letters and digits, a CJK character counting twice (it carries about a word)."""
    return sum(2 if "\u4e00" <= ch <= "\u9fff" else 1 for ch in key)


def _has_substance(text: str) -> bool:
    words = len(_ASCII_WORD_RE.findall(text))
    cjk = sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff")
    return cjk >= MIN_TRAIL_CJK or words + cjk // 2 >= MIN_TRAIL_WORDS


def _refers_back(clause: str) -> bool:
    low = clause.lower()
    return any(w in _BACK_WORDS for w in _WORD_RE.findall(low)) or any(c in low for c in _BACK_CJK)


def _clause_from(sentence: str, marker_at: int) -> str:
    """The sentence from the clause holding the marker on. Clauses before it are dropped only
    when joined by ';' / ', and' / ', then' / '，然后' …, hold no URL, and the marker's clause
    does not refer back to them ("… — always check them" keeps everything)."""
    cut = 0
    for joint in _CLAUSE_JOINT_RE.finditer(sentence, 0, marker_at):
        cut = joint.end()
    if cut == 0:
        return sentence
    rest = sentence[cut:]
    if _URL_RE.search(sentence[:cut]) or _refers_back(rest):
        return sentence
    return rest


def _statement_in(sentence: str, marker_at: int) -> str | None:
    statement = _clause_from(sentence.strip(), marker_at - (len(sentence) - len(sentence.lstrip())))
    trailed = _TRAIL_RE.search(statement)
    if trailed and trailed.start() > 0:
        statement = statement[: trailed.start()]
        if not _has_substance(statement):
            return None
    for _ in range(3):
        stripped = _LEAD_RE.sub("", statement, count=1)
        if stripped == statement:
            break
        statement = stripped
    statement = statement.strip(" ,，:：;；-—–")
    if len(statement) < 4:
        return None
    if statement[0].isascii() and statement[0].islower():
        statement = statement[0].upper() + statement[1:]
    return statement


def extract_statement(turn_text: str) -> Statement | None:
    """The first durable rule stated in one turn, or None when the turn states none."""
    found = extract_statements(turn_text)
    return found[0] if found else None


def extract_statements(turn_text: str) -> list[Statement]:
    """The durable rules stated in one turn, in order (at most ``MAX_RULES_PER_TURN``: "Two
    things: always run ruff. Never push to main." states both)."""
    if len(turn_text) < MIN_TURN_CHARS:
        return []
    low = turn_text.lower()
    if _MARKER_HINT_RE.search(low) is None:
        return []
    spans = pasted_spans(turn_text)
    if spans:
        if mostly_pasted(turn_text, spans):
            return []  # pasted material is not a statement
        turn_text = without_pasted(turn_text, spans, PASTE_BREAK)
    # each line on its own (a line break ends a sentence: "look at the login bug" and
    # "always run ruff" typed on two lines are two statements, not one)
    text = "\n".join(line for line in map(one_line, turn_text.splitlines()) if line)
    if not MIN_TURN_CHARS <= len(text) <= MAX_TURN_CHARS:
        return []
    return _rules(text)


MAX_RULES_PER_TURN = 3


def _rules(text: str) -> list[Statement]:
    """Each sentence of ``text`` holding a marker that states a rule (one rule a sentence)."""
    out: list[Statement] = []
    keys: set[str] = set()
    sentences: list[tuple[int, int, str]] | None = None
    tried: set[int] = set()
    for found in _MARKER_RE.finditer(text):
        if found.lastgroup is None:
            continue
        if sentences is None:
            sentences = _sentences(text)
        index = next(
            (i for i, (_, stop, _) in enumerate(sentences) if found.start() < stop),
            len(sentences) - 1,
        )
        if index in tried:
            continue
        tried.add(index)
        start, stop, terminator = sentences[index]
        sentence = text[start:stop].rstrip()
        if terminator in ("?", "？") or sentence.endswith(("?", "？")):
            continue  # a question states no rule
        if _ONE_OFF_RE.search(sentence):
            continue  # "for now", "this time": this sentence is about this once
        statement = _statement_in(sentence, found.start() - start)
        if statement is None:
            continue
        key = normalize_key(statement)
        besides = key.replace(normalize_key(found.group(0)), "", 1)
        if _weight(besides) < MIN_RULE_WEIGHT:
            continue  # "hi always": nothing but the marker
        if key in keys:
            continue  # said twice in one turn: once
        keys.add(key)
        out.append(Statement(statement, _MARKERS[int(found.lastgroup[1:])][1], len(out)))
        if len(out) == MAX_RULES_PER_TURN:
            break
    return out


def infer_type(statement: str) -> FactType:
    """URL → reference; repository/branch/PR/commit convention → project (even when phrased
    with always/never/不要); how-to-work correction → feedback; else user."""
    if _URL_RE.search(statement):
        return FactType.REFERENCE
    if _PROJECT_RE.search(statement):
        return FactType.PROJECT
    if _FEEDBACK_RE.search(statement):
        return FactType.FEEDBACK
    return FactType.USER


def propose_name(statement: str, fallback: str) -> str:
    """An ASCII slug when the statement is short ASCII; otherwise slug (or ``fallback``) plus a
    stable 32-bit hash, so Chinese statements get distinct, stable names."""
    words = [w.lower() for w in _ASCII_WORD_RE.findall(statement)]
    slug = "-".join(words)
    if statement.isascii() and slug and len(slug) <= SHORT_NAME_MAX:
        return slug
    head = "-".join(words[:5])[:32].strip("-") or fallback
    return f"{head}-{hash32(normalize_key(statement))}"


def make_title(statement: str, limit: int = 72) -> str:
    """A title (or, with a larger ``limit``, a description) a fact can hold: one line, no
    quote mark at either end (Reasonix's reader strips them)."""
    text = one_line(statement).rstrip("。.!！ ").strip("\"' ")
    text = text if len(text) <= limit else text[: limit - 1].rstrip() + "…"
    return text.strip("\"' ")


# ---------------------------------------------------------------- memory candidates


@dataclass(frozen=True, slots=True)
class MemoryDraft:
    """A memory candidate before dedup against facts, instructions and decisions. Every field
    is built from redacted text; ``redacted`` names what was taken out."""

    id: str
    key: str
    statement: str
    reason: str
    name: str
    title: str
    description: str
    type: FactType
    body: str
    evidence: tuple[Evidence, ...]
    newest: datetime | None
    redacted: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class MemoryGroup:
    """The turns that said one statement (raw text, never shown), newest first."""

    items: tuple[tuple[UserTurn, Statement], ...]
    order: tuple[datetime, str]  # newest first; the tie-break hashes the raw newest turn


def memory_groups(turns: Iterable[UserTurn]) -> list[MemoryGroup]:
    """Every statement found, identical statements merged, newest first. Cheap: nothing is
    redacted yet (``draft_of`` does that for the groups a scan actually looks at)."""
    found_by_key: dict[str, list[tuple[UserTurn, Statement]]] = {}
    seen: dict[str, list[Statement]] = {}  # the same text says the same thing
    for turn in turns:
        if turn.text in seen:
            found = seen[turn.text]
        else:
            found = seen[turn.text] = extract_statements(turn.text)
        for statement in found:
            key = normalize_key(statement.text)
            if key:
                found_by_key.setdefault(key, []).append((turn, statement))
    groups = []
    for items in found_by_key.values():
        items.sort(key=lambda item: sort_time(item[0]), reverse=True)
        newest, said = items[0]
        tie = stable_id("memory", *_id_parts(newest, newest.text, said))
        groups.append(MemoryGroup(tuple(items), (newest.time or EPOCH, tie)))
    groups.sort(key=lambda g: g.order, reverse=True)
    return groups


def _id_parts(turn: UserTurn, text: str, said: Statement) -> tuple[str, ...]:
    """What a candidate's id is made of: its newest turn, and for a turn's second or third
    rule the rule too (the first keeps the id it always had)."""
    parts = (turn.source, turn.session, text)
    return parts if said.rank == 0 else (*parts, said.text)


def draft_of(group: MemoryGroup) -> MemoryDraft:
    """The candidate a group makes, with e-mail addresses and secrets taken out of every field."""
    newest_turn, raw = group.items[0]
    statement, found = redact(raw.text)
    quotes = []
    for turn, _ in group.items[:MAX_QUOTES]:
        quote, more = redact(one_line(turn.text))
        found += more
        quotes.append(Evidence(turn.source, turn.session, turn.time, quote))
    evidence = tuple(quotes)
    turn_text = redact(newest_turn.text)[0] if found else newest_turn.text
    fact_type = infer_type(statement)
    return MemoryDraft(
        id=stable_id("memory", *_id_parts(newest_turn, turn_text, raw)),
        key=normalize_key(statement),
        statement=statement,
        reason=raw.reason,
        name=propose_name(statement, fact_type.value),
        title=make_title(statement),
        description=make_title(statement, 200),
        type=fact_type,
        body=memory_body(statement, raw.reason, fact_type, evidence[0], len(group.items)),
        evidence=evidence,
        newest=newest_turn.time,
        redacted=tuple(dict.fromkeys(found)),
    )


def memory_drafts(turns: Iterable[UserTurn]) -> list[MemoryDraft]:
    """Every statement found as a draft, newest first (``memory_groups`` then ``draft_of``)."""
    return [draft_of(group) for group in memory_groups(turns)]
