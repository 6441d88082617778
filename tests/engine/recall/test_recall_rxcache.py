"""Recall's CJK-class patterns compiled once per Python build (``engine/rxcache.py``)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from context_center.engine import rxcache
from context_center.engine.recall import compounds, tokenize
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


# -- one pattern at a time: the shared table ----------------------------------------------


@pytest.fixture
def shared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh shared table in a fresh cache root (the module's state as a new process has)."""
    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(rxcache, "_table", None)
    monkeypatch.setattr(rxcache, "_added", {})
    monkeypatch.setattr(rxcache, "_state", {"registered": True})  # no atexit from a test
    return tmp_path / "cache" / f"{rxcache.PREFIX}{rxcache.SHARED}.json"


def _new_process(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rxcache, "_table", None)
    monkeypatch.setattr(rxcache, "_added", {})
    monkeypatch.setattr(rxcache, "_state", {"registered": True})


def test_patterns_compiled_one_at_a_time_are_read_back_by_the_next_process(
    shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _same([rxcache.compile(p, f) for p, f in SPECS], SPECS)
    assert not shared.exists()  # written when the process ends
    rxcache.save_shared()
    assert shared.is_file() and shared.stat().st_mode & 0o777 == 0o600
    _new_process(monkeypatch)
    monkeypatch.setattr(rxcache, "_parts", lambda p, f: pytest.fail("compiled again"))
    monkeypatch.setattr(re, "compile", lambda p, f=0: pytest.fail("compiled again"))
    got = [rxcache.compile(p, f) for p, f in SPECS]
    monkeypatch.undo()
    _same(got, SPECS)


def test_the_same_pattern_with_other_flags_is_another_entry(shared: Path) -> None:
    a, b = rxcache.compile("abc", 0), rxcache.compile("abc", re.IGNORECASE)
    assert a == re.compile("abc") and b == re.compile("abc", re.IGNORECASE)
    assert b.match("ABC") and not a.match("ABC")


def test_a_damaged_or_foreign_table_only_costs_the_compiles(
    shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rxcache.compile(SPECS[0][0])
    rxcache.save_shared()
    data = json.loads(shared.read_bytes())
    # code that _sre refuses, a pattern whose code is another's, garbage entries
    data["parts"][0][2][2] = [9999, 1, 2]
    data["parts"].append(["zzz", 0, data["parts"][0][2][:1] + ["x"] * 5])
    data["parts"].append("not an entry")
    shared.write_text(json.dumps(data))
    _new_process(monkeypatch)
    _same([rxcache.compile(SPECS[0][0])], [SPECS[0]])
    assert rxcache.compile("zzz") == re.compile("zzz")
    shared.write_bytes(b"[" * 100_000)
    _new_process(monkeypatch)
    assert rxcache.compile("q+") == re.compile("q+")


def test_saving_merges_what_other_processes_added_and_stays_bounded(
    shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rxcache.compile("first")
    rxcache.save_shared()
    _new_process(monkeypatch)
    rxcache.compile("second")  # this process read the table before another wrote "third"
    other = json.loads(shared.read_bytes())
    third = rxcache._parts("third", 0)
    other["parts"].append(["third", 0, third])
    shared.write_text(json.dumps(other))
    rxcache.save_shared()
    held = {item[0] for item in json.loads(shared.read_bytes())["parts"]}
    assert held == {"first", "second", "third"}
    _new_process(monkeypatch)
    monkeypatch.setattr(rxcache, "MAX_SHARED", 4)
    for i in range(10):
        assert rxcache.compile(f"p{i}") == re.compile(f"p{i}")
    rxcache.save_shared()
    assert len(json.loads(shared.read_bytes())["parts"]) == 4


def test_the_table_stays_small_and_a_larger_file_is_not_read(
    shared: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(rxcache, "MAX_SHARED_BYTES", 2000)
    for i in range(40):
        rxcache.compile(f"(?:alpha|beta|gamma){i}")
    rxcache.save_shared()
    assert 0 < len(json.loads(shared.read_bytes())["parts"]) < 40
    shared.write_text(shared.read_text() + " " * 5000)  # over the bound: not read
    _new_process(monkeypatch)
    calls: list[str] = []
    real = rxcache._parts
    monkeypatch.setattr(rxcache, "_parts", lambda p, f: calls.append(p) or real(p, f))
    rxcache.compile("(?:alpha|beta|gamma)0")
    assert calls == ["(?:alpha|beta|gamma)0"]  # compiled afresh


def test_patterns_holding_a_homes_paths_stay_out_of_the_table(shared: Path, tmp_path: Path) -> None:
    from context_center.engine.gate import visible

    home = tmp_path / "ahomeofoneperson"
    visible.visibility(home=home, workspace=tmp_path / "ws").paths(f"see {home}/x")
    rxcache.save_shared()
    held = json.loads(shared.read_bytes())["parts"] if shared.exists() else []
    assert not any("ahomeofoneperson" in item[0] for item in held)
