"""A long message (a pasted log) costs recall time in proportion to its length: no step of
the plan or of scoring goes over the whole message, or over every concept, once per item."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from recall_env import NOW, MakeFact

from context_center.engine.model import FactType
from context_center.engine.recall import Recaller, terms, tokenize
from context_center.engine.recall.terms import Plan, plan

LOG_LINE = (
    "ERROR 2026-12-01 PAY-1234 payments-api deploy failed: connection refused to "
    "db.staging:5432 retrying 部署失败 单元测试 发布分支\n"
)


def test_the_key_prefix_check_is_the_whole_prefix_search() -> None:
    rnd = random.Random(5)
    pieces = ["PAY", "-", "12", "a", "Z9", "\n", " ", "é", "_", "#", "x-", "-1", "AB-\n"]
    for _ in range(400):
        text = "".join(rnd.choice(pieces) for _ in range(rnd.randint(1, 14)))
        for end in range(len(text) + 1):
            want = tokenize._KEY_PREFIX.search(text, 0, end) is not None
            assert tokenize._after_key_prefix(text, end) == want, (text, end)


class _Counting:
    """``_KEY_PREFIX`` with the characters each search may scan added up."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.scanned = 0

    def search(self, text: str, pos: int = 0, endpos: int = -1) -> Any:
        self.scanned += endpos - pos
        return self.pattern.search(text, pos, endpos)


def test_numbers_after_text_are_checked_near_them(monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _Counting(tokenize._KEY_PREFIX)
    monkeypatch.setattr(tokenize, "_KEY_PREFIX", counting)
    message = LOG_LINE * 400
    got = plan(message)
    assert {"1234", "5432"} <= set(got.terms)
    assert 0 < counting.scanned <= 2 * len(message)  # was about len(message) per number


def _chained_as_before(concepts: list[Any], spans: dict[int, tuple[int, int, int]]) -> list[int]:
    out = []
    for i in range(len(concepts)):
        span = spans.get(i)
        follows = -1
        if span is not None:
            r, start, _ = span
            for j, (rr, _, e) in spans.items():
                if j != i and rr == r and e - 1 == start:
                    follows = j
                    break
        out.append(follows)
    return out


def test_chained_pairs_follow_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[tuple[list[int], list[int]]] = []
    real = terms._Builder._finish

    def finish(self: Any, extra: Any) -> Any:
        keep = [i for i, c in enumerate(self.concepts) if c is not None]
        new_index = {old: new for new, old in enumerate(keep)}
        spans = {new_index[i]: s for i, s in self.spans.items()}
        n = len(keep)
        for c, f in extra:  # the direct words _finish appends, with their spans
            if c.direct:
                spans[n] = f.span
                n += 1
        out = real(self, extra)
        seen.append(([c.follows for c in out[:n]], _chained_as_before(out[:n], spans)))
        return out

    monkeypatch.setattr(terms._Builder, "_finish", finish)
    for message in ("继续发布分支然后部署失败再单元测试", "部署失败 单元测试 " * 30, LOG_LINE * 20):
        terms._plan(message)
    assert seen and all(got == want for got, want in seen)
    assert any(f >= 0 for got, _ in seen for f in got)


def test_scoring_counts_the_direct_concepts_once(
    make_fact: MakeFact, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real = Plan.direct_count

    def counted(self: Plan) -> int:
        calls.append(1)
        return real.fget(self)  # type: ignore[attr-defined,no-any-return]

    monkeypatch.setattr(Plan, "direct_count", property(counted))
    facts = [
        make_fact(
            name="deploy",
            type=FactType.PROJECT,
            title="Deploy",
            body="payments-api deploy to staging: 部署失败 时先看单元测试",
        )
    ]
    message = "部署失败 单元测试 发布分支 " * 200 + "payments deploy"
    result = Recaller(None).recall(message, tuple(facts), (), now=NOW)
    assert [s.ref for s in result.trace.selected] == ["project/deploy.md"]
    assert len(plan(message).concepts) > 100
    assert 1 <= len(calls) <= 4  # was once per concept


def test_an_english_word_found_again_is_expanded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = terms._Builder.expand_word

    def expand(self: Any, f: Any, alts: Any) -> None:
        calls.append(f.text)
        real(self, f, alts)

    monkeypatch.setattr(terms._Builder, "expand_word", expand)
    once = terms._plan("deploy the database")
    calls.clear()
    many = terms._plan("deploy the database " * 500)
    assert sorted(set(calls)) == sorted(calls)  # each distinct word once, not 500 times
    assert many.concepts == once.concepts
