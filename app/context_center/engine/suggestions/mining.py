"""Turn user turns into memory candidates and skill candidates. Pure functions, no I/O.

Memory candidates (after Reasonix's desktop suggestions, see REFERENCE.md "Suggestions"):
a turn of 8–420 characters holding a durable-preference marker (remember, always, never,
I prefer, prefer, preference, by default, from now on, 记住, 以后, 始终, 总是, 每次, 默认, 不要,
偏好, 规则, 约定) and no one-off marker (this time, just for now, for now, this once, 这次, 这一次,
暂时, 本次) and not a question. The statement is the whole sentence holding the marker (the first
such sentence that is not a question), so what precedes the marker ("Our docs live at <URL> —
always check them") stays; a '.', '?' or '!' inside a URL or a file name ends no sentence. A
leading "remember (that)" / "记住" wrapper (and "please", "OK", …) is dropped but its content
kept; when the marker closes the sentence ("…, remember that." / "…，记住。") the rule is what
precedes it. A request joined in front of the rule by ', and' / ';' / '，然后' ("Fix the bug,
and from now on …") is left out unless the rule refers back to it (it, them, 它, 这些…) or it
holds a URL. Type: a URL makes a ``reference``; repository, branch, PR, commit, merge, push, tag
and release cues make a ``project`` convention even when phrased with always/never/不要; a
correction of how the agent works (always, never, 不要, 始终, 总是, 反馈, 回复, 回答) is
``feedback``; anything else is ``user``.

Skill candidates: a turn that asks for two or more steps in sequence ("run the tests, then fix
lint, then commit"; "先跑测试，然后修复 lint，最后提交") is reduced to a signature, one key per
step. A step's key is its set of workflow concepts (test, lint, fix, commit, …, recognised in
English and Chinese alike, so both of the examples above share one signature) or, for a step
with no known concept, its content words. Turns with the same signature form a workflow; one
asked for in at least ``SKILL_MIN_TURNS`` turns across at least ``SKILL_MIN_SESSIONS`` sessions
becomes a candidate. This is the pragma spec's bar for skill learning (≥ 3 independent episodes
covering 2 conversations) without its success signal, which transcripts do not record: the
person accepting the candidate is the curator who confirms it is a complete, general workflow.
"""

from __future__ import annotations

import hashlib
import re
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from context_center.engine.model import FactType, format_time
from context_center.engine.suggestions.sources import UserTurn

MIN_TURN_CHARS = 8
MAX_TURN_CHARS = 420
SKILL_MIN_TURNS = 3
SKILL_MIN_SESSIONS = 2
SKILL_MIN_STEPS = 2
SKILL_MAX_STEPS = 8
SKILL_MIN_CHARS = 5  # "先测试再提交" is a whole workflow in six characters
MAX_QUOTES = 3
WORDING_SAMPLE = 50  # the step wording is the most common among this many newest requests
SHORT_NAME_MAX = 48

EPOCH = datetime.min.replace(tzinfo=UTC)

# ASCII word boundaries. Python's \b treats CJK characters as word characters, so "修复lint"
# would hide "lint"; these only look at ASCII letters and digits. In the patterns below a \b
# before a letter or group starts a word and any other \b ends one.
_START = r"(?<![A-Za-z0-9])"
_END = r"(?![A-Za-z0-9])"


def _rx(pattern: str, flags: int = re.IGNORECASE) -> re.Pattern[str]:
    parts = pattern.split(r"\b")
    out = parts[0]
    for part in parts[1:]:
        out += (_START if part[:1].isalnum() or part[:1] == "(" else _END) + part
    return re.compile(out, flags)


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
]
# Cheap literal pre-check: a turn without any of these cannot hold a marker.
_MARKER_HINTS = (
    "记住", "以后", "始终", "总是", "每次", "默认", "不要", "偏好", "规则", "约定",
    "remember", "always", "never", "prefer", "by default", "from now on",
)  # fmt: skip
_MARKER_RE = _rx("|".join(f"(?P<m{i}>{p})" for i, (p, _) in enumerate(_MARKERS)))
_ONE_OFF_RE = _rx(
    r"\bthis time\b|\bjust for now\b|\bfor now\b|\bthis once\b|\bjust once\b|这次|这一次|暂时|本次",
    re.IGNORECASE,
)
# A wrapper before the rule ("Please remember that …", "OK, 记住：…"); stripped, the rest kept.
_LEAD_RE = _rx(
    r"^(?:(?:ok(?:ay)?|so|also|and|btw|oh|好的|好|另外|还有|对了)\s*[,，:：]\s*"
    r"|(?:please\s*[,，]?\s+)?(?:remember(?:\s+that|\s+this)?|记住(?:了|这个|这点|这一点)?)"
    r"\s*[:：,，\-—]?\s*|please\s*[,，]?\s+|请(?=记住|以后|始终|总是|每次|默认|不要|务必))",
    re.IGNORECASE,
)
# A wrapper closing the sentence ("…, remember that." / "…，记住了"); the rule is what precedes it.
_TRAIL_RE = _rx(
    r"\s*(?:[,，;；:：]|\s-+|—+|–)\s*(?:(?:and\s+|so\s+)?(?:please\s+)?remember(?:\s+that|\s+this|\s+it)?"
    r"(?:\s*,?\s*please)?|请?记住(?:了|这个|这点|这一点)?(?:哦|啊|哈)?)\s*$",
    re.IGNORECASE,
)
# Clause joints that may follow a one-off request ("Fix the bug, and from now on always …").
_CLAUSE_JOINT_RE = _rx(
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
_URL_RE = _rx(r"https?://|\bgithub\.com/", re.IGNORECASE)
_FEEDBACK_RE = _rx(r"反馈|回复|回答|不要|始终|总是|\balways\b|\bnever\b", re.IGNORECASE)
# Repository, branch, PR, commit, merge, push, tag and release cues (English and Chinese).
_PROJECT_RE = _rx(
    r"项目|分支|仓库|约定|提交|合并|推送|变基|发布|发版|拉取请求"
    r"|\bPRs?\b|\bpull[\s-]requests?\b|\bmerge(?:s|d)?\b|\bmerging\b|\brebas(?:e|es|ed|ing)\b"
    r"|\bcommit(?:s|ted|ting)?\b|\bbranch(?:es)?\b|\bpush(?:es|ed|ing)?\b|\btag(?:s|ged|ging)?\b"
    r"|\breleas(?:e|es|ed|ing)\b|\brepo(?:s|sitory|sitories)?\b",
    re.IGNORECASE,
)
_SPACE_RE = re.compile(r"\s+")
_WORD_RE = re.compile(r"[a-z0-9]+")
_ASCII_WORD_RE = re.compile(r"[A-Za-z0-9]+")

_HOW_TO_APPLY = {
    FactType.FEEDBACK: "Follow it whenever you work in this workspace; it corrects how the work "
    "is done, so check your plan against it before acting.",
    FactType.PROJECT: "Apply it to this repository's branches, commits, pull requests and "
    "files; it is a convention of the project, not a one-off request.",
    FactType.REFERENCE: "Consult the linked resource when the topic comes up instead of guessing.",
    FactType.USER: "Take it into account when choosing how to work and how to answer here.",
}


def one_line(text: str) -> str:
    return _SPACE_RE.sub(" ", text).strip()


def normalize_key(text: str) -> str:
    """Case-, space- and punctuation-insensitive key for exact duplicate detection."""
    return "".join(ch for ch in text.lower() if ch.isalnum())


@dataclass(frozen=True, slots=True)
class Statement:
    text: str
    reason: str


def _sentences(text: str) -> list[tuple[int, int, str]]:
    """(start, end, terminator) of each sentence; a terminator inside a URL does not count."""
    urls = []
    if "://" in text:
        for m in _URL_SPAN_RE.finditer(text):
            url_end = m.end()
            while url_end > m.start() and text[url_end - 1] in _URL_TRAIL:
                url_end -= 1
            urls.append((m.start(), url_end))
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
    """The durable rule stated in one turn, or None when the turn states none."""
    if len(turn_text) < MIN_TURN_CHARS:
        return None
    low = turn_text.lower()
    if not any(hint in low for hint in _MARKER_HINTS):
        return None
    text = one_line(turn_text)
    if not MIN_TURN_CHARS <= len(text) <= MAX_TURN_CHARS:
        return None
    if _ONE_OFF_RE.search(text):
        return None
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
        statement = _statement_in(sentence, found.start() - start)
        if statement is None:
            continue
        besides = normalize_key(statement).replace(normalize_key(found.group(0)), "", 1)
        if _weight(besides) < MIN_RULE_WEIGHT:
            continue  # "hi always": nothing but the marker
        return Statement(statement, _MARKERS[int(found.lastgroup[1:])][1])
    return None


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


def hash32(text: str) -> str:
    return f"{zlib.crc32(text.encode('utf-8')) & 0xFFFFFFFF:08x}"


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
    text = statement.rstrip("。.!！ ")
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def stable_id(prefix: str, *parts: str) -> str:
    digest = hashlib.sha256("\x00".join(parts).encode("utf-8")).hexdigest()
    return f"{prefix}-{digest[:16]}"


# ---------------------------------------------------------------- memory candidates


@dataclass(frozen=True, slots=True)
class Evidence:
    source: str
    session: str
    time: datetime | None
    quote: str

    def public_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "session": self.session,
            "time": format_time(self.time) if self.time else None,
            "quote": self.quote,
        }


@dataclass(frozen=True, slots=True)
class MemoryDraft:
    """A memory candidate before dedup against facts, instructions and decisions."""

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


def _sort_time(turn: UserTurn) -> tuple[datetime, int]:
    return (turn.time or EPOCH, turn.index)


def memory_body(
    statement: str, reason: str, fact_type: FactType, newest: Evidence, count: int
) -> str:
    when = format_time(newest.time)[:10] if newest.time else "an undated turn"
    times = "once" if count == 1 else f"{count} times"
    end = "" if statement.endswith(tuple(".。!！")) else ("." if statement[-1].isascii() else "。")
    return (
        f"{statement}{end}\n\n"
        f"**Why:** You said this ({reason}) {times} in your own sessions here; the latest was "
        f"{newest.source} session {newest.session} on {when}.\n"
        f"**How to apply:** {_HOW_TO_APPLY[fact_type]}\n"
    )


def memory_drafts(turns: Iterable[UserTurn]) -> list[MemoryDraft]:
    """Every statement found, newest first, identical statements merged (newest turn's id)."""
    groups: dict[str, list[tuple[UserTurn, Statement]]] = {}
    for turn in turns:
        found = extract_statement(turn.text)
        if found is None:
            continue
        key = normalize_key(found.text)
        if key:
            groups.setdefault(key, []).append((turn, found))
    drafts: list[MemoryDraft] = []
    for key, items in groups.items():
        items.sort(key=lambda item: _sort_time(item[0]), reverse=True)
        newest_turn, statement = items[0]
        evidence = tuple(
            Evidence(t.source, t.session, t.time, one_line(t.text)) for t, _ in items[:MAX_QUOTES]
        )
        fact_type = infer_type(statement.text)
        drafts.append(
            MemoryDraft(
                id=stable_id("memory", newest_turn.source, newest_turn.session, newest_turn.text),
                key=key,
                statement=statement.text,
                reason=statement.reason,
                name=propose_name(statement.text, fact_type.value),
                title=make_title(statement.text),
                description=make_title(statement.text, 200),
                type=fact_type,
                body=memory_body(
                    statement.text, statement.reason, fact_type, evidence[0], len(items)
                ),
                evidence=evidence,
                newest=newest_turn.time,
            )
        )
    drafts.sort(key=lambda d: (d.newest or EPOCH, d.id), reverse=True)
    return drafts


# ---------------------------------------------------------------- skill candidates

# Concept vocabulary, in the order step labels are written (actions before objects):
# (name, ASCII words, ASCII phrases, CJK literals). Words match whole ASCII words of the step;
# phrases and CJK literals match as substrings of the lowercased step.
_CONCEPTS: list[tuple[str, frozenset[str], tuple[str, ...], tuple[str, ...]]] = [
    ("fix", frozenset({"fix", "fixes", "fixed", "fixing"}), (), ("修复", "修正", "修掉", "修一下", "改掉")),
    ("update", frozenset({"update", "updates", "updated", "bump"}), (), ("更新", "升级")),
    ("review", frozenset({"review", "reviews", "reviewed"}), (), ("审查", "评审", "审核", "审阅")),
    ("rebase", frozenset({"rebase"}), (), ("变基",)),
    ("merge", frozenset({"merge"}), (), ("合并",)),
    ("install", frozenset({"install"}), (), ("安装",)),
    ("build", frozenset({"build", "compile"}), (), ("构建", "编译", "打包")),
    ("format", frozenset({"format", "formatting", "fmt", "prettier", "black"}), (), ("格式化",)),
    ("typecheck", frozenset({"typecheck", "typechecks", "mypy", "pyright", "tsc"}),
     ("type check", "type-check"), ("类型检查",)),
    ("lint", frozenset({"lint", "lints", "linting", "linter", "ruff", "eslint", "clippy", "flake8"}),
     (), ("代码检查",)),
    ("test", frozenset({"test", "tests", "testing", "pytest"}), (), ("测试", "单测", "跑测", "用例")),
    ("benchmark", frozenset({"bench", "benchmark", "benchmarks"}), (), ("基准", "性能测试")),
    ("docs", frozenset({"doc", "docs", "documentation", "readme"}), (), ("文档",)),
    ("changelog", frozenset({"changelog"}), (), ("变更日志", "更新日志")),
    ("commit", frozenset({"commit", "commits", "committed"}), (), ("提交",)),
    ("push", frozenset({"push", "pushed"}), (), ("推送", "推到")),
    ("pr", frozenset({"pr", "prs"}), ("pull request",), ("合并请求",)),
    ("deploy", frozenset({"deploy", "deploys", "deployed"}), (), ("部署", "上线")),
    ("release", frozenset({"release", "tag"}), (), ("发布", "发版")),
]  # fmt: skip
_WORD_CONCEPT = {word: i for i, (_, words, _, _) in enumerate(_CONCEPTS) for word in words}
_ASCII_LITERALS = [(i, p) for i, c in enumerate(_CONCEPTS) for p in c[2]]
_ALL_LITERALS = _ASCII_LITERALS + [(i, lit) for i, c in enumerate(_CONCEPTS) for lit in c[3]]
_COMMIT = next(i for i, c in enumerate(_CONCEPTS) if c[0] == "commit")


def step_concepts(text: str) -> list[str]:
    """The workflow concepts a step names, in vocabulary order."""
    low = text.lower()
    found = {_WORD_CONCEPT[w] for w in _WORD_RE.findall(low) if w in _WORD_CONCEPT}
    for i, literal in _ASCII_LITERALS if low.isascii() else _ALL_LITERALS:
        if literal in low:
            found.add(i)
    names = [_CONCEPTS[i][0] for i in sorted(found)]
    # "提交 PR" / "合并请求" name a pull request, not a commit or a merge of their own.
    if "pr" in names and ("提交" in low or "合并请求" in low):
        if "commit" in names and not any(
            _WORD_CONCEPT.get(w) == _COMMIT for w in _WORD_RE.findall(low)
        ):
            names.remove("commit")
        if "merge" in names and "merge" not in low and low.count("合并") == low.count("合并请求"):
            names.remove("merge")
    return names


# Connectors between steps; the punctuation around them is split off and stripped later.
_STEP_SPLIT_RE = _rx(
    r"\bthen\b|\bafter that\b|\bafterwards\b|\bnext\b|\bfinally\b|\blastly\b|"
    r"然后|接着|之后|随后|再(?!次)|最后|→|->|=>"
)
_STEP_TAIL_RE = _rx(r"\s*(?:\band\b|\bor\b|\balso\b|和|并且|并|还有)\s*$")
_NUMBERED_SPLIT_RE = re.compile(r"(?:^|\n)\s*\d+[.)、]\s*")
_CLAUSE_SPLIT_RE = re.compile(r"[,，;；。\n]\s*|\.\s+")
_STEP_LEAD_RE = _rx(
    r"^(?:(?:please|first(?:ly)?|and|also|now|can you|could you)\b|请|首先|先|第一步|帮我|麻烦)\s*[,，:：]?\s*",
    re.IGNORECASE,
)
_SEQUENCE_HINTS = (
    "then", "after that", "afterwards", "finally", "然后", "接着", "之后", "随后", "最后", "再",
    "→", "->", "=>",
)  # fmt: skip
_NUMBERED_RE = re.compile(r"(?:^|\n)\s*\d+[.)、]")
_SEQUENCE_HINT_RE = _rx(
    r"\bthen\b|\bafter that\b|\bafterwards\b|\bfinally\b|然后|接着|之后|随后|最后|再(?!次)|→|->|=>|"
    r"(?:^|\n)\s*\d+[.)、]",
    re.IGNORECASE,
)
_STOP_WORDS = frozenset(
    {
        "a", "an", "the", "to", "and", "or", "of", "for", "in", "on", "with", "it", "its",
        "this", "that", "these", "those", "all", "any", "my", "our", "your", "please", "run",
        "make", "do", "then", "first", "also", "again", "sure", "ok", "can", "you", "could",
        "would", "should", "me", "us", "i", "we", "is", "are", "be",
    }
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Step:
    text: str
    key: frozenset[str]
    label: str
    concept: bool = False  # the key is workflow concepts (test, lint, …), not plain words


def _stem(word: str) -> str:
    for suffix in ("ing", "es", "ed", "s"):
        if len(word) > len(suffix) + 2 and word.endswith(suffix):
            return word[: -len(suffix)]
    return word


def _cjk_bigrams(text: str) -> set[str]:
    runs = re.findall(r"[\u4e00-\u9fff]+", text)
    grams: set[str] = set()
    for run in runs:
        if len(run) == 1:
            grams.add(run)
        grams.update(run[i : i + 2] for i in range(len(run) - 1))
    return grams


def _step(text: str) -> Step | None:
    cleaned = text.strip(" ,，.。;；:：、!！")
    for _ in range(3):
        new = _STEP_LEAD_RE.sub("", cleaned).strip()
        if new == cleaned:
            break
        cleaned = new
    cleaned = _STEP_TAIL_RE.sub("", cleaned).strip(" ,，.。;；:：、!！")
    if not cleaned:
        return None
    concepts = step_concepts(cleaned)
    if concepts:
        return Step(cleaned, frozenset(concepts), "-".join(concepts), True)
    words = {_stem(w) for w in _WORD_RE.findall(cleaned.lower()) if w not in _STOP_WORDS}
    words |= _cjk_bigrams(cleaned)
    if not words:
        return None
    ascii_words = sorted(w for w in words if w.isascii())
    label = "-".join(ascii_words[:2]) if ascii_words else ""
    return Step(cleaned, frozenset(words), label)


def split_steps(text: str) -> list[Step]:
    """The steps of a multi-step request, or [] when the turn is not one."""
    flat = text.strip()
    if not SKILL_MIN_CHARS <= len(flat) <= MAX_TURN_CHARS * 2:
        return []
    low = flat.lower()
    if not any(hint in low for hint in _SEQUENCE_HINTS) and not _NUMBERED_RE.search(flat):
        return []
    if not _SEQUENCE_HINT_RE.search(flat):
        return []
    pieces = _STEP_SPLIT_RE.split(flat)
    if _NUMBERED_RE.search(flat):
        pieces = [part for piece in pieces for part in _NUMBERED_SPLIT_RE.split(piece)]
    steps: list[Step] = []
    for piece in pieces:
        for part in _CLAUSE_SPLIT_RE.split(piece):
            step = _step(part)
            if step is not None and (not steps or steps[-1].key != step.key):
                steps.append(step)
    if not SKILL_MIN_STEPS <= len(steps) <= SKILL_MAX_STEPS:
        return []
    return steps


@dataclass(frozen=True, slots=True)
class SkillDraft:
    id: str
    key: str
    name: str
    description: str
    steps: tuple[str, ...]
    evidence: tuple[Evidence, ...]
    turns: int
    sessions: int
    newest: datetime | None


def _skill_name(steps: Sequence[Step], signature: str) -> str:
    labels: list[str] = []
    for step in steps:
        for part in step.label.split("-"):
            if part and part not in labels:
                labels.append(part)
    name = "-".join(labels[:6])[:60].strip("-")
    if not name or any(not step.label for step in steps):
        head = name[:40].strip("-") or "workflow"
        name = f"{head}-{hash32(signature)}"
    return name


def skill_drafts(turns: Iterable[UserTurn]) -> list[SkillDraft]:
    """Workflows asked for in ≥ SKILL_MIN_TURNS turns across ≥ SKILL_MIN_SESSIONS sessions."""
    groups: dict[tuple[frozenset[str], ...], list[tuple[UserTurn, list[Step]]]] = {}
    for turn in turns:
        steps = split_steps(turn.text)
        if steps and any(step.concept for step in steps):
            groups.setdefault(tuple(step.key for step in steps), []).append((turn, steps))
    drafts: list[SkillDraft] = []
    for signature, items in groups.items():
        sessions = {(t.source, t.session) for t, _ in items}
        if len(items) < SKILL_MIN_TURNS or len(sessions) < SKILL_MIN_SESSIONS:
            continue
        items.sort(key=lambda item: _sort_time(item[0]), reverse=True)
        sig_text = " > ".join("+".join(sorted(key)) for key in signature)
        newest_turn, newest_steps = items[0]
        name = _skill_name(newest_steps, sig_text)
        wording = _usual_wording(items)
        chain = " → ".join(wording)
        description = (
            f"Workflow asked for repeatedly in this workspace: {chain}"
            if len(chain) <= 160
            else f"A {len(wording)}-step workflow asked for repeatedly, starting with: {wording[0]}"
        )
        drafts.append(
            SkillDraft(
                id=stable_id("skill", sig_text),
                key=sig_text,
                name=name,
                description=description,
                steps=wording,
                evidence=_spread_evidence([t for t, _ in items], MAX_QUOTES + 1),
                turns=len(items),
                sessions=len(sessions),
                newest=newest_turn.time,
            )
        )
    drafts.sort(key=lambda d: (d.turns, d.sessions, d.newest or EPOCH, d.id), reverse=True)
    return drafts


def _usual_wording(items: list[tuple[UserTurn, list[Step]]]) -> tuple[str, ...]:
    """The step texts of the most common wording in the group (newest wins a tie)."""
    counts: dict[tuple[str, ...], int] = {}
    first_seen: dict[tuple[str, ...], int] = {}
    for rank, (_, steps) in enumerate(items[:WORDING_SAMPLE]):  # items are newest first
        wording = tuple(_sentence(step.text) for step in steps)
        counts[wording] = counts.get(wording, 0) + 1
        first_seen.setdefault(wording, rank)
    return max(counts, key=lambda w: (counts[w], -first_seen[w]))


def _spread_evidence(turns: list[UserTurn], limit: int) -> tuple[Evidence, ...]:
    """Newest turn of each session first (so the evidence shows the repetition), then the rest."""
    chosen: list[UserTurn] = []
    picked: set[int] = set()
    seen: set[tuple[str, str]] = set()
    for i, turn in enumerate(turns):
        if len(chosen) >= limit:
            break
        if (turn.source, turn.session) not in seen:
            seen.add((turn.source, turn.session))
            chosen.append(turn)
            picked.add(i)
    for i, turn in enumerate(turns):
        if len(chosen) >= limit:
            break
        if i not in picked:
            chosen.append(turn)
    chosen.sort(key=_sort_time, reverse=True)
    return tuple(Evidence(t.source, t.session, t.time, one_line(t.text)) for t in chosen)


def _sentence(text: str) -> str:
    text = text.strip()
    if text and text[0].isascii() and text[0].islower():
        text = text[0].upper() + text[1:]
    return text
