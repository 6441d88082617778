"""The scan's comparison with the facts: exactly ``gate.overlap``'s results, and work that
follows the candidates, not the store (issue 19: a scan with no history does nothing with the
facts; with a few turns, facts already cut are not cut again)."""

from __future__ import annotations

import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sugg_env import Env

from context_center.engine.facade import Engine
from context_center.engine.gate.overlap import normalise, phrases_overlap, tokens
from context_center.engine.model import Fact, FactType, Scope
from context_center.engine.store.memory import Memory
from context_center.engine.suggestions import append_turn, known, scan
from context_center.engine.suggestions.facttexts import fact_texts_cache, known_texts
from context_center.engine.suggestions.known import (
    _BULLET_RE,
    _PIECE_SPLIT_RE,
    MIN_PIECE_CHARS,
    comparable,
)
from context_center.engine.suggestions.phrases import (
    cut_at_least,
    distinct_tokens,
    fast_normalise,
    key_of,
    overlap,
)
from context_center.engine.suggestions.textual import normalize_key

NOW = datetime(2026, 10, 10, 12, 0, tzinfo=UTC)
WORDS = [
    "always",
    "run",
    "ruff",
    "before",
    "committing",
    "ci",
    "lint",
    "never",
    "force",
    "push",
    "main",
    "use",
    "pnpm",
    "npm",
    "tests",
    "the",
    "to",
    "a",
    "release",
    "tag",
    "用",
    "中文",
    "回答",
    "提交",
    "信息",
    "英文",
    "发布",
    "更新",
    "包管理",
    "依赖管理",
    "https://ci.example.com",
    "www.example.com/docs",
    "v2",
    "_x",
    "#7106",
    "Ünïcode",
    "ｆｕｌｌ",
    "ΣΟΦΙΑ",
]
SEPARATORS = [" ", " ", " ", ", ", ". ", "\n", "。", "；", "!", "\n- ", "\n1. "]


def _fact(i: int, title: str, body: str, description: str = "") -> Fact:
    return Fact(
        id=f"mem-{i:032x}",
        revision=1,
        created_at=NOW,
        updated_at=NOW,
        name=f"fact-{i}",
        title=title,
        description=description,
        type=FactType.PROJECT,
        scope=Scope.PROJECT if i % 3 else Scope.GLOBAL,
        body=body,
    )


POOL = WORDS + [f"w{n}" for n in range(150)] + [chr(0x4E00 + 7 * n) for n in range(150)]


def _text(rng: random.Random, words: int, pool: list[str] = WORDS) -> str:
    out = []
    for _ in range(words):
        out.append(rng.choice(pool))
        out.append(rng.choice(SEPARATORS))
    return "".join(out).strip()


# -- the fast functions are gate.overlap's ------------------------------------------------


def test_tokens_and_normalisation_are_gate_overlaps_on_every_code_point() -> None:
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    joiners = ["", " ", "a", "中", "_", "1"]
    for start in range(0, len(chars), 997):
        chunk = chars[start : start + 997]
        text = joiners[start % len(joiners)].join(chunk)
        assert set(tokens(text)) == set(distinct_tokens(text)), hex(ord(chunk[0]))
        assert normalise(text) == fast_normalise(text), hex(ord(chunk[0]))
        assert normalize_key(text) == key_of(text), hex(ord(chunk[0]))
        for piece in (text, text[:40], text.encode("ascii", "ignore").decode()):
            cut = cut_at_least(piece, MIN_PIECE_CHARS)
            if len(normalise(piece)) < MIN_PIECE_CHARS:
                assert cut is None, hex(ord(chunk[0]))
            else:
                assert cut is not None and cut[0] == normalise(piece), hex(ord(chunk[0]))
                assert set(cut[1]) == set(tokens(piece)), hex(ord(chunk[0]))
    ascii_texts = ["Run ruff_check on PR-12 now", "A-b_C d", "   ", "", "x" * 5, "UPPER lower 123"]
    for text in ascii_texts:  # every ASCII shape the plain-ASCII patterns take
        for size in (0, 1, 5, 6, 30):
            cut = cut_at_least(text, size)
            if len(normalise(text)) < size:
                assert cut is None, (text, size)
            else:
                assert cut is not None and cut[0] == normalise(text), (text, size)
                assert set(cut[1]) == set(tokens(text)), (text, size)


def test_the_overlap_rule_is_gate_overlaps() -> None:
    rng = random.Random(19)
    for _ in range(3000):
        a, b = _text(rng, rng.randint(1, 8)), _text(rng, rng.randint(1, 8))
        fast = overlap(
            fast_normalise(a), frozenset(distinct_tokens(a)), fast_normalise(b), distinct_tokens(b)
        )
        assert fast == phrases_overlap(a, b), (a, b)


# -- the comparison with the facts is the phrase-by-phrase one ------------------------------


def _phrases(text: str) -> list[str]:
    out = []
    for raw in _PIECE_SPLIT_RE.split(comparable(text)):
        piece = _BULLET_RE.sub("", raw).strip()
        if len(normalise(piece)) >= MIN_PIECE_CHARS:
            out.append(piece)
    return out


def _turned(text: str) -> bool:
    return known.negated(normalise(text), set(tokens(text)))


_ENDS = ("not", "never", "dont", "doesnt", "didnt", "shouldnt", "mustnt", "cannot", "avoid")


def _same_sense(texts: list[str], statement: str, key: str) -> bool:
    """A text holds the key, the eight characters before it no negation; or a phrase says
    the statement, both negated or neither."""
    ends = (*_ENDS, "stop", "instead", "without", *known._NEGATING_CJK)
    for text in texts:
        tk = normalize_key(text)
        for at in range(len(tk)):
            if key and tk.startswith(key, at) and not tk[max(0, at - 8) : at].endswith(ends):
                return True
    probe = comparable(statement)
    for text in texts:
        for piece in _phrases(text):
            says = set(tokens(probe)) & set(tokens(piece)) and phrases_overlap(probe, piece)
            if says and _turned(piece) == _turned(probe):
                return True
    return False


def _reference(facts: list[Fact], statement: str, key: str) -> str | None:
    """The comparison, plainly: every key, then every phrase sharing a token; the fact found
    must then say it the same way round."""
    texts = [(t, f.ref) for f in facts for t in (f.title, f.description, f.body) if t.strip()]
    found = None
    if key:
        found = next((ref for text, ref in texts if key in normalize_key(text)), None)
    probe = comparable(statement)
    wanted = set(tokens(probe))
    for text, ref in texts if found is None else ():
        if any(wanted & set(tokens(p)) and phrases_overlap(probe, p) for p in _phrases(text)):
            found = ref
            break
    if found is None or not _same_sense([t for t, r in texts if r == found], statement, key):
        return None
    return found


def test_a_statement_is_known_exactly_when_a_fact_says_it() -> None:
    rng = random.Random(7)
    facts = [
        _fact(
            i,
            _text(rng, rng.randint(1, 4), POOL),
            _text(rng, rng.randint(0, 24), POOL),
            _text(rng, rng.randint(0, 3), POOL),
        )
        for i in range(300)
    ]
    existing = known_texts(facts, [])
    said = 0
    for _ in range(400):
        statement = _text(rng, rng.randint(2, 7), POOL if rng.random() < 0.7 else WORDS)
        key = normalize_key(statement) if rng.random() < 0.5 else ""
        found = existing.covering(statement, key)
        expected = _reference(facts, statement, key)
        assert (found is None) == (expected is None), statement
        if found is not None and key and expected:
            assert found.label == expected  # the first fact that contains the key is named
        said += found is not None
    assert 40 < said < 360  # both outcomes are exercised


def test_a_changed_fact_is_compared_as_it_is_now() -> None:
    facts = [_fact(1, "Package manager", "By default use pnpm, not npm."), _fact(2, "Other", "x")]
    assert known_texts(facts, []).covering("Use pnpm, not npm", "") is not None
    facts[0] = _fact(1, "Package manager", "We use yarn everywhere now.")
    assert known_texts(facts, []).covering("Use pnpm, not npm", "") is None
    assert known_texts(facts, [("AGENTS.md", "Use pnpm, not npm.")]).covering(
        "Use pnpm, not npm", ""
    ) == known.Origin("instruction", "AGENTS.md")


# -- the work follows the turns and the candidates ------------------------------------------

MANY = 5000


def _many() -> list[Fact]:
    rng = random.Random(5)
    pool = [*POOL[len(WORDS) :], "the", "run", "用"]  # shares "run" with a candidate, no more
    return [_fact(i, f"Fact {i}", _text(rng, 25, pool)) for i in range(MANY)]


def test_a_scan_with_no_turns_does_no_work_on_the_facts(empty_env: Env) -> None:
    asked: list[str] = []

    def facts() -> list[Fact]:
        asked.append("facts")
        return _many()

    def bodies() -> list[str]:
        asked.append("instructions")
        return []

    cuts = fact_texts_cache().cuts
    result = scan(empty_env.layout, facts, bodies, now=NOW, **empty_env.scan_kwargs())  # type: ignore[arg-type]
    assert result.available and result.turns_scanned == 0 and result.memories == []
    assert asked == []
    assert fact_texts_cache().cuts == cuts


def test_with_a_few_turns_only_facts_not_seen_before_are_cut(
    empty_env: Env, monkeypatch: pytest.MonkeyPatch
) -> None:
    for i, rule in enumerate(
        ["Always run ruff before committing.", "以后回答都用中文。", "Never force-push to main."]
    ):
        append_turn(empty_env.layout, rule, session=f"s{i}", time=NOW - timedelta(hours=i + 1))
    facts = _many()
    compared = 0
    real = overlap

    def counting(*args: object) -> bool:
        nonlocal compared
        compared += 1
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(known, "overlap", counting)

    def run() -> list[str]:
        found = scan(empty_env.layout, facts, [], now=NOW, **empty_env.scan_kwargs())  # type: ignore[arg-type]
        return [m.title for m in found.memories]

    cache = fact_texts_cache()
    first = run()
    assert len(first) == 3
    cuts, compared = cache.cuts, 0
    assert run() == first
    assert cache.cuts == cuts  # nothing cut again
    pieces = sum(len(entry.pieces) for entry in cache.entries.values())
    assert 0 < compared < pieces // 20  # only phrases sharing a token with a candidate
    facts[10] = _fact(10, "Lint", "Always run ruff before committing, CI rejects lint.")
    second = run()
    assert cache.cuts == cuts + 1  # the one changed fact
    assert second == [t for t in first if "ruff" not in t]


def test_the_engine_reads_no_fact_for_a_scan_with_no_turns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    workspace.mkdir()
    engine = Engine(home=home, workspace=workspace)
    engine.memory.create(
        name="pnpm",
        title="Package manager",
        type=FactType.PROJECT,
        body="By default use pnpm, not npm.",
    )
    loads: list[object] = []
    real = Memory.load

    def load(self: Memory, **kwargs: bool) -> object:
        loads.append(kwargs)
        return real(self, **kwargs)

    monkeypatch.setattr(Memory, "load", load)
    roots = {"claude_root": tmp_path / "no-claude", "codex_root": tmp_path / "no-codex"}
    assert engine.scan_suggestions(**roots).turns_scanned == 0
    assert loads == []
    engine.append_history("By default use pnpm, not npm.", session="s1")
    engine.append_history("Never force-push to main.", session="s2")
    result = engine.scan_suggestions(**roots)
    assert [m.title for m in result.memories] == ["Never force-push to main"]
    assert loads == [{"persist_cache": False}]
