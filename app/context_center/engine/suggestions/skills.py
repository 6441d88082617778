"""Skill candidates: workflows a person asked for again and again. Pure functions, no I/O.

A turn that asks for two or more steps in sequence ("run the tests, then fix
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

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from context_center.engine.suggestions.privacy import redact
from context_center.engine.suggestions.textual import (
    EPOCH,
    MAX_QUOTES,
    MAX_TURN_CHARS,
    Evidence,
    hash32,
    is_cjk_text,
    one_line,
    rx,
    sort_time,
    stable_id,
)
from context_center.engine.suggestions.turns import UserTurn

SKILL_MIN_TURNS = 3
SKILL_MIN_SESSIONS = 2
SKILL_MIN_STEPS = 2
SKILL_MAX_STEPS = 8
SKILL_MIN_CHARS = 5  # "先测试再提交" is a whole workflow in six characters
WORDING_SAMPLE = 50  # the step wording is the most common among this many newest requests
_WORD_RE = re.compile(r"[a-z0-9]+")


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
_STEP_SPLIT_RE = rx(
    r"\bthen\b|\bafter that\b|\bafterwards\b|\bnext\b|\bfinally\b|\blastly\b|"
    r"然后|接着|之后|随后|再(?!次)|最后|→|->|=>"
)
_STEP_TAIL_RE = rx(r"\s*(?:\band\b|\bor\b|\balso\b|和|并且|并|还有)\s*$")
_NUMBERED_SPLIT_RE = re.compile(r"(?:^|\n)\s*\d+[.)、]\s*")
_CLAUSE_SPLIT_RE = re.compile(r"[,，;；。\n]\s*|\.\s+")
_STEP_LEAD_RE = rx(
    r"^(?:(?:please|first(?:ly)?|and|also|now|can you|could you)\b|请|首先|先|第一步|帮我|麻烦)\s*[,，:：]?\s*",
    re.IGNORECASE,
)
_SEQUENCE_HINTS = (
    "then", "after that", "afterwards", "finally", "然后", "接着", "之后", "随后", "最后", "再",
    "→", "->", "=>",
)  # fmt: skip
_NUMBERED_RE = re.compile(r"(?:^|\n)\s*\d+[.)、]")
_SEQUENCE_HINT_RE = rx(
    r"\bthen\b|\bafter that\b|\bafterwards\b|\bfinally\b|然后|接着|之后|随后|最后|再(?!次)|→|->|=>|"
    r"(?:^|\n)\s*\d+[.)、]",
    re.IGNORECASE,
)
# A turn asking about steps or forbidding them asks for no workflow: a question that is not a
# polite request ("Why did you run the tests, then commit?"; "Can you … ?" is a request), or a
# prohibition ("Don't commit and then push without review"; 不要先提交再测试).
_NOT_A_REQUEST_RE = rx(
    r"^\s*(?:(?:why|did|do|does|didn[’']?t|doesn[’']?t|was|were|is|are|have|has|what|how|when|"
    r"where|who|which)\b|(?:don[’']?t|do not|never|stop)\b|不要|别|为什么|为何|是不是|有没有|是否)",
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


@functools.lru_cache(maxsize=4096)  # steps such as "run the tests" recur in many requests
def _step(text: str) -> Step | None:
    cleaned = text.strip(" ,，.。;；:：、!！?？")
    for _ in range(3):
        new = _STEP_LEAD_RE.sub("", cleaned).strip()
        if new == cleaned:
            break
        cleaned = new
    cleaned = _STEP_TAIL_RE.sub("", cleaned).strip(" ,，.。;；:：、!！?？")
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
    if not _SEQUENCE_HINT_RE.search(flat) or _NOT_A_REQUEST_RE.match(flat):
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
    seen: dict[str, list[Step]] = {}  # the same text asks for the same steps
    for turn in turns:
        steps = seen.get(turn.text)
        if steps is None:
            steps = seen[turn.text] = split_steps(turn.text)
        if steps and any(step.concept for step in steps):
            groups.setdefault(tuple(step.key for step in steps), []).append((turn, steps))
    drafts: list[SkillDraft] = []
    for signature, items in groups.items():
        sessions = {(t.source, t.session) for t, _ in items}
        if len(items) < SKILL_MIN_TURNS or len(sessions) < SKILL_MIN_SESSIONS:
            continue
        items.sort(key=lambda item: sort_time(item[0]), reverse=True)
        sig_text = " > ".join("+".join(sorted(key)) for key in signature)
        newest_turn, newest_steps = items[0]
        name = _skill_name(newest_steps, sig_text)
        wording = _usual_wording(items)
        chain = " → ".join(wording)
        description = _description(wording, chain)
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


def _description(wording: tuple[str, ...], chain: str) -> str:
    """What the workflow is, in the language its steps are asked in."""
    if is_cjk_text(chain):
        if len(chain) <= 160:
            return f"本工作区中反复要求的工作流程：{chain}"
        return f"反复要求的 {len(wording)} 步工作流程，第一步：{wording[0]}"
    if len(chain) <= 160:
        return f"Workflow asked for repeatedly in this workspace: {chain}"
    return f"A {len(wording)}-step workflow asked for repeatedly, starting with: {wording[0]}"


def _usual_wording(items: list[tuple[UserTurn, list[Step]]]) -> tuple[str, ...]:
    """The step texts of the most common wording in the group (newest wins a tie)."""
    counts: dict[tuple[str, ...], int] = {}
    first_seen: dict[tuple[str, ...], int] = {}
    for rank, (_, steps) in enumerate(items[:WORDING_SAMPLE]):  # items are newest first
        wording = tuple(_sentence(step.text) for step in steps)
        counts[wording] = counts.get(wording, 0) + 1
        first_seen.setdefault(wording, rank)
    usual = max(counts, key=lambda w: (counts[w], -first_seen[w]))
    return tuple(_shown(text) for text in usual)  # only the wording shown is redacted


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
    chosen.sort(key=sort_time, reverse=True)
    return tuple(Evidence(t.source, t.session, t.time, _shown(t.text)) for t in chosen)


def _shown(text: str) -> str:
    """What a skill candidate shows or saves of a person's text: on one line, without
    terminal escapes or control characters, every secret and e-mail address replaced
    (``privacy.redact``, as a memory candidate's text)."""
    return redact(one_line(text))[0]


def _sentence(text: str) -> str:
    text = text.strip()
    if text and text[0].isascii() and text[0].islower():
        text = text[0].upper() + text[1:]
    return text
