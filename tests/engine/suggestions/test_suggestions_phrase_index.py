"""The phrase index on disk (issue 19): a scan that reads it says exactly what cutting every
fact says, cuts only the facts it does not describe, and never writes it; the engine's
maintenance keeps it current; a damaged file only costs speed."""

from __future__ import annotations

import json
import os
import random
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sugg_env import Env
from test_suggestions_known_index import NOW, POOL, WORDS, _fact, _reference, _text

from context_center.engine.facade import Engine
from context_center.engine.model import Fact, FactType
from context_center.engine.suggestions import append_turn, facttexts, scan
from context_center.engine.suggestions.facttexts import (
    FactTexts,
    known_texts,
    refresh_phrase_index,
)
from context_center.engine.suggestions.phraseindex import FILE_NAME, PhraseIndex
from context_center.engine.suggestions.textual import normalize_key


@pytest.fixture
def fresh(monkeypatch: pytest.MonkeyPatch) -> FactTexts:
    """A process that has cut nothing and read no index yet."""
    cache = FactTexts()
    monkeypatch.setattr(facttexts, "_CACHE", cache)
    monkeypatch.setattr(facttexts, "_LOADED", {})
    return cache


def _facts(rng: random.Random, n: int, start: int = 0) -> list[Fact]:
    return [
        _fact(
            i,
            _text(rng, rng.randint(1, 4), POOL),
            _text(rng, rng.randint(0, 24), POOL),
            _text(rng, rng.randint(0, 3), POOL),
        )
        for i in range(start, start + n)
    ]


def _probes(rng: random.Random, n: int) -> list[tuple[str, str]]:
    out = []
    for _ in range(n):
        statement = _text(rng, rng.randint(1, 7), POOL if rng.random() < 0.7 else WORDS)
        out.append((statement, normalize_key(statement) if rng.random() < 0.5 else ""))
    return out


def _agree(
    facts: list[Fact],
    probes: list[tuple[str, str]],
    path: Path | None,
    expected: list[str | None] | None = None,
) -> int:
    """Every probe is answered as comparing phrase by phrase answers it, naming the same
    (first listed) fact; returns how many were found."""
    existing = known_texts(facts, [], path)
    if expected is None:
        expected = [_reference(facts, statement, key) for statement, key in probes]
    found_count = 0
    for (statement, key), wanted in zip(probes, expected, strict=True):
        found = existing.covering(statement, key)
        assert (found.label if found else None) == wanted, (statement, key)
        found_count += found is not None
    return found_count


def test_a_scan_through_the_index_says_what_cutting_every_fact_says(
    tmp_path: Path, fresh: FactTexts
) -> None:
    rng = random.Random(11)
    facts = _facts(rng, 300)
    probes = _probes(rng, 400)
    path = tmp_path / "cache" / FILE_NAME
    assert refresh_phrase_index(facts, path) == 300
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    found = _agree(facts, probes, path)
    assert fresh.entries == {}  # every fact was read from the index, none cut again
    assert 40 < found < 360  # both outcomes are exercised


def test_a_process_that_reads_the_index_cuts_no_fact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(12)
    facts = _facts(rng, 200)
    path = tmp_path / FILE_NAME
    refresh_phrase_index(facts, path)
    monkeypatch.setattr(facttexts, "_CACHE", FactTexts())
    monkeypatch.setattr(facttexts, "_LOADED", {})
    found = _agree(facts, _probes(rng, 200), path)
    assert facttexts.fact_texts_cache().cuts == 0 and found > 10


def test_changed_removed_and_new_facts_are_compared_as_they_are_now(
    tmp_path: Path, fresh: FactTexts
) -> None:
    rng = random.Random(13)
    facts = _facts(rng, 240)
    path = tmp_path / FILE_NAME
    refresh_phrase_index(facts, path)
    cuts = fresh.cuts
    changed = list(facts)
    for i in range(0, 240, 17):  # edited
        changed[i] = _fact(i, _text(rng, 3, POOL), _text(rng, 12, POOL))
    del changed[5:25]  # forgotten (more than the one-by-one limit would be a rebuild)
    changed += _facts(rng, 30, start=1000)  # created
    rng.shuffle(changed)  # and listed in another order
    probes = _probes(rng, 200)
    expected = [_reference(changed, statement, key) for statement, key in probes]
    _agree(changed, probes, path, expected)
    assert fresh.cuts - cuts == 14 + 30  # only the edited and the new facts were cut
    assert refresh_phrase_index(changed, path) == 44  # folded into the file
    assert refresh_phrase_index(changed, path) == 0  # nothing more to add: no write
    before = path.stat().st_mtime_ns
    assert refresh_phrase_index(changed, path) == 0 and path.stat().st_mtime_ns == before
    index = PhraseIndex.load(path)
    assert index is not None and index.rows == len(changed)  # gone rows were dropped
    _agree(changed, probes, path, expected)
    another = FactTexts()  # another process (the fixture restores the real one)
    facttexts._CACHE = another
    facttexts._LOADED.clear()
    _agree(changed, probes, path, expected)
    assert another.cuts == 0


@pytest.mark.parametrize("damage", ["truncated", "flipped", "garbage", "empty", "folder"])
def test_a_damaged_index_only_costs_speed(tmp_path: Path, fresh: FactTexts, damage: str) -> None:
    rng = random.Random(14)
    facts = _facts(rng, 100)
    path = tmp_path / FILE_NAME
    refresh_phrase_index(facts, path)
    data = path.read_bytes()
    if damage == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif damage == "flipped":  # a consistent header over columns that no longer fit
        i = data.index(b"piece_row")
        path.write_bytes(data[:i] + b"piece_rox" + data[i + 9 :])
    elif damage == "garbage":
        path.write_bytes(os.urandom(len(data)))
    elif damage == "empty":
        path.write_bytes(b"")
    else:
        path.unlink()
        path.mkdir()
    facttexts._LOADED.clear()
    fresh.entries.clear()
    fresh.order = ()
    assert PhraseIndex.load(path) is None
    _agree(facts, _probes(rng, 80), path)
    assert fresh.cuts >= 200  # it cut the facts instead (once for the index, once now)


def test_columns_that_point_outside_each_other_are_refused(tmp_path: Path) -> None:
    index = PhraseIndex.build([(b"\x01" * 16, ["key"], [("abcdefg", ("abcdefg",))])])
    path = tmp_path / FILE_NAME
    index.save(path)
    assert PhraseIndex.load(path) is not None
    fields = {name: getattr(index, name) for name in index.__dataclass_fields__}
    PhraseIndex(**{**fields, "piece_row": index.piece_row + 5}).save(path)  # no such row
    assert PhraseIndex.load(path) is None
    PhraseIndex(**{**fields, "tok_pieces": index.tok_pieces + 1}).save(path)  # no such piece
    assert PhraseIndex.load(path) is None


def test_the_engine_keeps_the_index_and_the_scan_never_writes_it(
    tmp_path: Path, fresh: FactTexts
) -> None:
    home, workspace = tmp_path / "home", tmp_path / "ws"
    (workspace / ".git").mkdir(parents=True)
    engine = Engine(home=home, workspace=workspace)
    engine.memory.create(
        name="pnpm", title="Package manager", type=FactType.PROJECT, body="Use pnpm, not npm."
    )
    for i in range(40):
        engine.memory.create(
            name=f"f{i}", title=f"Fact {i}", type=FactType.PROJECT, body=f"Number {i} says w{i}."
        )
    engine.append_history("By default use pnpm, not npm.", session="s1")
    engine.append_history("Never force-push to main.", session="s2")
    roots = {"claude_root": tmp_path / "no-claude", "codex_root": tmp_path / "no-codex"}
    path = engine._phrase_index_path()

    def scanned() -> set[str]:
        return {m.title for m in engine.scan_suggestions(**roots).memories}

    assert scanned() == {"Never force-push to main"}
    assert not path.exists()  # the scan wrote nothing
    assert engine.index_fact_phrases() == 41
    assert engine.index_fact_phrases() == 0
    facttexts._CACHE = FactTexts()  # another process (the fixture restores the real one)
    facttexts._LOADED.clear()
    before = path.stat().st_mtime_ns
    assert scanned() == {"Never force-push to main"}
    assert facttexts._CACHE.cuts == 0  # every fact came from the index
    engine.memory.forget("project/pnpm.md")
    assert scanned() == {"Never force-push to main", "By default use pnpm, not npm"}
    assert path.stat().st_mtime_ns == before  # still not written by a scan
    assert engine.index_fact_phrases() == 0  # one row dropped, nothing added
    index = PhraseIndex.load(path)
    assert index is not None and index.rows == 40


def test_a_scan_reads_the_index_of_its_own_workspace_only(
    tmp_path: Path, fresh: FactTexts, empty_env: Env
) -> None:
    append_turn(empty_env.layout, "Never force-push to main.", session="s", time=NOW)
    facts = [_fact(1, "Pushing", "Never force-push to main.")]
    other = tmp_path / "other" / FILE_NAME
    refresh_phrase_index([_fact(2, "Else", "Something else entirely.")], other)
    result = scan(empty_env.layout, facts, [], now=NOW, phrases=other, **empty_env.scan_kwargs())
    assert result.memories == []  # the fact given, not the other index's, decides
    assert "project/fact-1.md" in " ".join(result.notes)


@pytest.mark.parametrize(
    ("texts", "statement", "named"),
    [
        # the statement is inside the first fact's text, but they share no token ("latest")
        (["the latest build number", "test the thing now"], "test", "project/fact-2.md"),
        # two shared tokens of a two-token phrase, but the statement is 7 times longer
        (
            ["use pnpm", "nothing to see"],
            "pnpm use then many more words to make it longer than six times the phrase",
            None,
        ),
        # the phrase inside the statement (rule 2, the other way round)
        (["nothing here", "always run ruff"], "please always run ruff before", "project/fact-2.md"),
        # equal after normalisation
        (["Use-PNPM, not npm!", "x"], "use pnpm not npm", "project/fact-1.md"),
    ],
)
def test_the_rules_at_their_edges(
    tmp_path: Path, fresh: FactTexts, texts: list[str], statement: str, named: str | None
) -> None:
    facts = [_fact(3 * (i + 1) - 2, f"T{i}", text) for i, text in enumerate(texts)]
    facts = [f.model_copy(update={"name": f"fact-{i + 1}"}) for i, f in enumerate(facts)]
    path = tmp_path / FILE_NAME
    refresh_phrase_index(facts, path)
    assert _reference(facts, statement, "") == named  # what the rule says
    assert _agree(facts, [(statement, "")], path) == (named is not None)
    assert fresh.entries == {}


def test_a_cache_folder_that_cannot_be_written_is_a_clear_refusal(
    tmp_path: Path, fresh: FactTexts, monkeypatch: pytest.MonkeyPatch
) -> None:
    from context_center.engine.errors import StoreUnavailable

    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(blocker))
    (tmp_path / "ws").mkdir()
    engine = Engine(home=tmp_path / "home", workspace=tmp_path / "ws")
    engine.memory.create(name="a", title="A", type=FactType.PROJECT, body="Use pnpm.")
    assert engine.index_fact_phrases() == 0  # no turns: no scan reads the facts, no index
    engine.append_history("By default use pnpm, not npm.", session="s1")
    with pytest.raises(StoreUnavailable):
        engine.index_fact_phrases()
    assert blocker.read_text() == "not a folder"


def test_a_process_keeps_only_the_last_few_indexes_read(tmp_path: Path, fresh: FactTexts) -> None:
    rng = random.Random(16)
    paths = []
    for i in range(facttexts.LOADED_MAX + 2):
        path = tmp_path / f"ws{i}" / FILE_NAME
        refresh_phrase_index(_facts(rng, 3, start=10 * i), path)
        paths.append(path)
    assert list(facttexts._LOADED) == paths[-facttexts.LOADED_MAX :]
    assert facttexts.phrase_index(paths[0]) is not None  # read again when asked
    assert paths[0] in facttexts._LOADED and len(facttexts._LOADED) == facttexts.LOADED_MAX


def test_a_fact_listed_twice_is_one_row(tmp_path: Path, fresh: FactTexts) -> None:
    f = _fact(1, "Package manager", "By default use pnpm, not npm.")
    g = _fact(2, "Other", "Something else entirely.")
    path = tmp_path / FILE_NAME
    assert refresh_phrase_index([f, f], path) == 1
    index = PhraseIndex.load(path)
    assert index is not None and index.rows == 1
    _agree([f, f], [("Use pnpm, not npm", ""), ("nothing like it", "")], path)
    _agree([g, f], [("Use pnpm, not npm", ""), ("something else entirely", "")], path)


def _crafted(path: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    """Rewrite the header of the index file at ``path`` through ``edit``."""
    data = path.read_bytes()
    head = len(b"CCPHRASE") + 8
    size = int.from_bytes(data[len(b"CCPHRASE") : head], "little")
    header = json.loads(data[head : head + size])
    edit(header)
    text = json.dumps(header).encode()
    text += b" " * (size - len(text)) if len(text) <= size else b""
    assert len(text) == size, "the edit must not grow the header"
    path.write_bytes(data[:head] + text + data[head + size :])


@pytest.mark.parametrize(
    "case", ["two-dimensional", "repeated digest", "sections not a mapping", "a bad dtype"]
)
def test_a_crafted_header_is_refused_not_raised(
    tmp_path: Path, fresh: FactTexts, case: str
) -> None:
    facts = [_fact(i, f"T{i}", f"Body number {i} says w{i} twice.") for i in range(1, 5)]
    path = tmp_path / FILE_NAME
    refresh_phrase_index(facts, path)

    def edit(header: dict[str, Any]) -> None:
        sections = header["sections"]
        if case == "two-dimensional":
            sections["piece_ntok"]["shape"] = [sections["piece_ntok"]["shape"][0], 1]
        elif case == "sections not a mapping":
            header["sections"] = []
        else:
            sections["piece_row"]["dtype"] = ",i4"

    if case != "repeated digest":
        _crafted(path, edit)
    else:  # the second row's digest made equal to the first one's
        data = bytearray(path.read_bytes())
        first = data.index(facttexts.digest_of(facttexts._fact_key(facts[0])))
        data[first + 16 : first + 32] = data[first : first + 16]
        path.write_bytes(bytes(data))
    facttexts._LOADED.clear()
    assert PhraseIndex.load(path) is None
    _agree(facts, [("body number 2 says w2 twice", ""), ("nothing", "")], path)


def test_a_header_nested_too_deep_is_refused(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    header = b"[" * 200_000 + b"]" * 200_000
    path.write_bytes(b"CCPHRASE" + len(header).to_bytes(8, "little") + header)
    assert PhraseIndex.load(path) is None


def test_the_postings_order_is_numpys_stable_argsort() -> None:
    import numpy as np

    from context_center.engine.suggestions.phraseindex import stable_order

    rng = np.random.default_rng(5)
    for size, top in ((0, 1), (1, 1), (50, 3), (5000, 70_000), (20_000, 1 << 31), (300, 1 << 40)):
        keys = rng.integers(0, top, size, dtype=np.int64)
        assert np.array_equal(stable_order(keys), np.argsort(keys, kind="stable")), (size, top)


def test_a_light_scan_refuses_to_cut_more_than_asked(
    tmp_path: Path, fresh: FactTexts, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``max_cuts``: PhraseIndexBehind before any fact is cut; an index that describes the
    facts (or a limit that allows the rest) lets the same comparison through, unchanged."""
    from context_center.engine.errors import PhraseIndexBehind

    rng = random.Random(21)
    facts = _facts(rng, 60)
    probes = _probes(rng, 80)
    path = tmp_path / FILE_NAME
    light = known_texts(facts, [], path, max_cuts=59)
    with pytest.raises(PhraseIndexBehind):
        light.covering(*probes[0])
    assert fresh.cuts == 0
    assert _label(known_texts(facts, [], path, max_cuts=60).covering(*probes[0])) == (
        _reference(facts, *probes[0])
    )
    assert fresh.cuts == 60
    more = facts + _facts(rng, 5, start=100)
    with pytest.raises(PhraseIndexBehind):  # five new ones: more than four
        known_texts(more, [], path, max_cuts=4).covering(*probes[1])
    assert fresh.cuts == 60
    monkeypatch.setattr(facttexts, "_CACHE", FactTexts())
    refresh_phrase_index(more, path)
    again = facttexts.fact_texts_cache()
    cuts = again.cuts
    for statement, key in probes:  # all described by the index: nothing to refuse
        found = known_texts(more, [], path, max_cuts=0).covering(statement, key)
        assert _label(found) == _reference(more, statement, key)
    assert again.cuts == cuts


def _label(origin: Any) -> str | None:
    return None if origin is None else str(origin.label)


def test_a_refused_light_scan_leaves_nothing_half_updated(fresh: FactTexts) -> None:
    """A scan of workspace C, a light scan of a large workspace A that is refused, then a scan
    of a workspace with no facts: the last must answer from nothing (it once kept C's lookup
    data with no facts and raised IndexError), and C's scan must still answer as before."""
    from context_center.engine.errors import PhraseIndexBehind

    rng = random.Random(29)
    c_facts, a_facts = _facts(rng, 8), _facts(rng, 40, start=200)
    statement = next(f.body for f in c_facts if len(f.body) > 20)
    key = normalize_key(statement)
    before = known_texts(c_facts, []).covering(statement, key)
    assert before is not None
    with pytest.raises(PhraseIndexBehind):
        known_texts(a_facts, [], max_cuts=10).covering(statement, key)
    assert known_texts([], []).covering(statement, key) is None
    again = known_texts(c_facts, []).covering(statement, key)
    assert again is not None and again.label == before.label
