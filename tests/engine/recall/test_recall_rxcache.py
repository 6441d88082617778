"""Recall's CJK-class patterns compiled once per Python build (``recall/rxcache.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from context_center.engine.recall import compounds, rxcache, tokenize
from context_center.engine.recall.tokenize import CJK_CLASS

SPECS = [
    (f"[{CJK_CLASS}]+", 0),
    (f"(?P<cjk>[{CJK_CLASS}]+)|(?P<word>[^\\W{CJK_CLASS}]{{1,80}})", 0),
    (r"(?i)release[-_ ]?(?P<n>\d+)", re.MULTILINE),
]
TEXT = "部署 kafka_v2 テスト 한국어 RELEASE-12\nrelease_3 𠀀𠀁 ｶﾀｶﾅ"


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / f"{rxcache.PREFIX}t.json"


def _same(got: list[re.Pattern[str]], specs: list[tuple[str, int]]) -> None:
    want = [re.compile(p, f) for p, f in specs]
    assert got == want  # Pattern equality: pattern, flags and compiled code
    for g, w in zip(got, want, strict=True):
        assert (g.groups, g.groupindex, g.flags) == (w.groups, w.groupindex, w.flags)
        assert [m.span() for m in g.finditer(TEXT)] == [m.span() for m in w.finditer(TEXT)]
        assert [m.groupdict() for m in g.finditer(TEXT)] == [
            m.groupdict() for m in w.finditer(TEXT)
        ]


def test_the_first_process_compiles_and_writes_the_next_reads(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same(rxcache.compile_all("t", SPECS), SPECS)
    assert cache.is_file() and cache.stat().st_mode & 0o777 == 0o600
    monkeypatch.setattr(rxcache, "_parts", lambda p, f: pytest.fail("compiled again"))
    _same(rxcache.compile_all("t", SPECS), SPECS)


def test_other_patterns_or_another_interpreter_are_compiled_not_read(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rxcache.compile_all("t", SPECS)
    other = [*SPECS[:2], (r"release(?P<n>\d+)", 0)]
    _same(rxcache.compile_all("t", other), other)  # and the file now holds these
    assert json.loads(cache.read_bytes())["key"][-1] == [list(s) for s in other]
    interpreter = rxcache._interpreter()
    assert interpreter is not None
    monkeypatch.setattr(
        rxcache, "_interpreter", lambda: [*interpreter[:1], "9.9.9", *interpreter[2:]]
    )
    calls: list[str] = []
    real = rxcache._parts
    monkeypatch.setattr(rxcache, "_parts", lambda p, f: calls.append(p) or real(p, f))
    _same(rxcache.compile_all("t", other), other)
    assert len(calls) == len(other)


def test_a_damaged_file_is_not_used(cache: Path) -> None:
    rxcache.compile_all("t", SPECS)
    value = json.loads(cache.read_bytes())
    value["parts"][0][2] = value["parts"][0][2][:5]  # truncated code: _sre refuses it
    cache.write_text(json.dumps(value))
    _same(rxcache.compile_all("t", SPECS), SPECS)
    for bad in ("", "[]", '{"key": 1}', "{" * 3):
        cache.write_text(bad)
        _same(rxcache.compile_all("t", SPECS), SPECS)


def test_the_recall_modules_patterns_are_what_re_compiles() -> None:
    mine = [tokenize._CJK_RUN, tokenize._WORD_RUN, tokenize._ANY_RUN, tokenize.WORD_OR_CJK_RUN]
    mine += [compounds._COMPOUND, compounds._PIECE]
    _same(mine, [(p.pattern, 0) for p in mine])
    assert tokenize.CJK_RUN is tokenize._CJK_RUN


def test_a_nested_json_bomb_is_not_used(cache: Path) -> None:
    for bomb in ("[" * 100_000, '{"key":' * 100_000):
        cache.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        cache.write_text(bomb)
        cache.chmod(0o600)
        _same(rxcache.compile_all("t", SPECS), SPECS)


def test_parts_for_another_pattern_under_the_right_key_are_not_used(cache: Path) -> None:
    rxcache.compile_all("t", SPECS)
    value = json.loads(cache.read_bytes())
    other = rxcache._parts("x+", 0)
    value["parts"][0] = other  # valid code, but not for the pattern the key names
    cache.write_text(json.dumps(value))
    _same(rxcache.compile_all("t", SPECS), SPECS)
