"""Withheld spans are found once per change, kept per row and in the cache (issue 13).

A turn must still drop every match that lies only inside a secret (``secretmatch``), but it
no longer scans the facts it shows: the index scanned each text when it added it. Each test
here fails when a turn scans what the index knows, when kept spans answer for another text
or another scanner, or when a row's spans are lost or misplaced (cache, compaction, edits).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from recall_env import NOW, SECRET_BODY, MakeFact, seed_secret_home

from context_center.engine import Engine, FactType
from context_center.engine.gate import secrets as secrets_pkg
from context_center.engine.model import Fact
from context_center.engine.recall import CACHE_FILE, Recaller, secretmatch
from context_center.engine.recall import cache as cache_mod
from context_center.engine.recall.digest import index_text
from context_center.engine.recall.index import RecallIndex
from context_center.engine.recall.rowtext import head_terms_once
from context_center.engine.store.paths import Layout

QUESTION = "is the staging password hunter2"
# A turn scans its own message for secrets (``terms.without_secrets``): those scans are no
# scan of a fact's text, which is what these tests count.
MESSAGES = frozenset(
    {QUESTION, "staging database password", "deploy staging cluster c3", "hunter2"}
)


def of_facts(scans: list[str]) -> list[str]:
    return [s for s in scans if s not in MESSAGES]


@pytest.fixture
def facts(make_fact: MakeFact) -> list[Fact]:
    out = [make_fact("staging-db", SECRET_BODY, title="Staging database")]
    out += [make_fact(f"note-{i}", f"Deploy staging step {i} on cluster c{i}.") for i in range(12)]
    return out


@pytest.fixture
def scans(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every text the recall side scans for withheld spans (the gate's own scans of a
    snippet, ``visible``, are not counted: they sanitise what is shown)."""
    seen: list[str] = []
    real = secrets_pkg.find_sensitive

    def counting(text: str) -> list[object]:
        seen.append(text)
        return real(text)  # type: ignore[return-value]

    monkeypatch.setattr(secrets_pkg, "find_sensitive", counting)
    secretmatch._CACHE.clear()
    return seen


def _clean(result: object) -> None:
    block, trace = result.block, result.trace  # type: ignore[attr-defined]
    assert "hunter2" not in block
    assert all("hunter2" not in m for s in trace.selected for m in s.matched)
    assert "staging-db" in block or any(s.ref for s in trace.selected)  # something shown


def test_each_text_is_scanned_when_indexed_and_never_by_a_turn(
    layout: Layout, facts: list[Fact], scans: list[str]
) -> None:
    r = Recaller(layout, persist_trace=False)
    r.sync(facts)
    assert sorted(scans) == sorted(index_text(f) for f in facts)
    scans.clear()
    _clean(r.recall(QUESTION, facts, now=NOW))
    _clean(r.recall("staging database password", facts, now=NOW))
    assert r.recall("deploy staging cluster c3", facts, now=NOW).trace.selected
    assert of_facts(scans) == []


def test_a_secret_only_match_is_still_dropped_from_kept_spans(
    layout: Layout, facts: list[Fact], scans: list[str]
) -> None:
    r = Recaller(layout, persist_trace=False)
    result = r.recall("hunter2", facts, now=NOW)
    assert result.trace.selected == () and result.block == ""
    result = r.recall(QUESTION, facts, now=NOW)
    assert "hunter2" not in result.block
    assert [s.matched for s in result.trace.selected if "hunter2" in str(s.matched)] == []


def test_spans_survive_the_cache_and_are_not_found_again(
    layout: Layout, facts: list[Fact], scans: list[str]
) -> None:
    first = Recaller(layout, persist_trace=False)
    first.sync(facts)  # a rebuild: saved at once
    assert (layout.cache_dir / CACHE_FILE).is_file()
    scans.clear()
    second = Recaller(layout, persist_trace=False)  # a restarted process, same facts
    result = second.recall(QUESTION, facts, now=NOW)
    assert second.last_sync is not None and second.last_sync.from_cache
    assert of_facts(scans) == []
    assert "hunter2" not in result.block
    assert second.recall("hunter2", facts, now=NOW).trace.selected == ()
    i = second.index
    for o in range(i.size):
        f = i.fact_at(o)
        assert f is not None and i.known_withheld(o) == secretmatch.withheld(index_text(f))


def test_a_cold_engine_reads_the_spans_from_the_cache(
    home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed_secret_home(home, workspace, deploys=6)  # its cache built and saved
    seen: list[str] = []
    real = secrets_pkg.find_sensitive
    monkeypatch.setattr(secrets_pkg, "find_sensitive", lambda t: seen.append(t) or real(t))
    secretmatch._CACHE.clear()
    cold = Engine(home=home, workspace=workspace)
    result = cold.recall(QUESTION)
    assert cold.recaller.last_source in ("cache", "journal")  # not the stores: no rebuild
    assert "hunter2" not in result.block and result.trace.selected
    assert of_facts(seen) == []
    assert cold.search("hunter2") == []


def test_spans_of_another_scanner_are_found_again(
    layout: Layout, facts: list[Fact], scans: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Recaller(layout, persist_trace=False)
    first.sync(facts)  # a rebuild: saved at once
    assert (layout.cache_dir / CACHE_FILE).is_file()
    monkeypatch.setattr(secretmatch, "_SIGNATURE", [b"another scanner."])
    scans.clear()
    second = Recaller(layout, persist_trace=False)
    result = second.recall(QUESTION, facts, now=NOW)
    assert of_facts(scans)  # the shown facts were scanned by this scanner
    assert "hunter2" not in result.block
    assert second.recall("hunter2", facts, now=NOW).trace.selected == ()
    second.index.save(layout.cache_dir / CACHE_FILE)  # as the next save after a change does
    data = cache_mod.read(layout.cache_dir / CACHE_FILE)
    assert data is not None and data.kept is not None
    assert data.kept.sig == b"another scanner."


def test_a_cache_without_spans_is_read_and_its_rows_scanned_when_shown(
    layout: Layout, facts: list[Fact], scans: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    real = secretmatch.signature
    monkeypatch.setattr(secretmatch, "signature", lambda: None)  # a file could not be read
    first = Recaller(layout, persist_trace=False)
    first.sync(facts)
    data = cache_mod.read(layout.cache_dir / CACHE_FILE)
    assert data is not None and data.kept is None
    monkeypatch.setattr(secretmatch, "signature", real)
    monkeypatch.setattr(secrets_pkg, "find_sensitive", lambda t: scans.append(t) or [])
    scans.clear()
    secretmatch._CACHE.clear()
    second = Recaller(layout, persist_trace=False)
    second.recall("deploy staging cluster c3", facts, now=NOW)
    assert second.last_sync is not None and second.last_sync.from_cache
    assert of_facts(scans)  # not known: found when the facts reached the output


def test_kept_arrays_round_trip_and_malformed_ones_are_refused() -> None:
    items: list[secretmatch.Spans | None] = [None, (), ((3, 9),), (), ((0, 2), (5, 7)), None]
    arrays = secretmatch.Kept.arrays(items, b"sig")
    kept = secretmatch.Kept.of(len(items), arrays)
    assert kept is not None and kept.sig == b"sig"
    real_sig = secretmatch.signature()
    assert real_sig is not None and real_sig != b"sig"
    assert [kept.spans_of(i) for i in range(len(items))] == [None] * len(items)  # another
    ours = secretmatch.Kept.of(len(items), secretmatch.Kept.arrays(items, real_sig))
    assert ours is not None
    assert [ours.spans_of(i) for i in range(len(items))] == items
    assert secretmatch.Kept.of(len(items) + 1, arrays) is None  # another number of rows
    for name, bad in (
        ("kept_known", np.array([0, 1, 2, 1, 2, 3], dtype=np.uint8)),
        ("kept_known", np.array([0, 1, 2, 1, 1, 0], dtype=np.uint8)),
        ("kept_rows", np.array([4, 2], dtype=np.uint32)),
        ("kept_rows", np.array([2, 9], dtype=np.uint32)),
        ("kept_off", np.array([0, 1, 2], dtype=np.int64)),
        ("kept_off", np.array([0, 1], dtype=np.int64)),
        ("kept_spans", np.zeros((3, 3), dtype=np.int64)),
        ("kept_spans", np.zeros((3, 2), dtype=np.int32)),
        ("kept_spans", np.array([[3, 9], [7, 5], [5, 7]], dtype=np.int64)),  # end before start
        ("kept_spans", np.array([[-1, 9], [0, 2], [5, 7]], dtype=np.int64)),
        ("kept_rows", np.array([[2], [4]], dtype=np.uint32)),  # not one row number each
        ("kept_sig", np.frombuffer(b"sig", dtype=np.uint8).reshape(1, 3)),
    ):
        assert secretmatch.Kept.of(len(items), {**arrays, name: bad}) is None, name
    assert (
        secretmatch.Kept.of(len(items), {k: v for k, v in arrays.items() if k != "kept_sig"})
        is None
    )


def test_an_edited_text_is_scanned_again_and_a_metadata_change_is_not(
    make_fact: MakeFact, scans: list[str]
) -> None:
    index = RecallIndex()
    clean = make_fact("staging-db", "Deploy staging with care.", id="mem-" + "1" * 32)
    index.sync([clean])
    o = index.ordinal("project", clean.id)
    assert o is not None and index.withheld_of(o) == ()
    leaked = clean.model_copy(update={"body": SECRET_BODY, "revision": 2})
    index.sync([leaked])
    o = index.ordinal("project", clean.id)
    assert o is not None and index.withheld_of(o)
    start, end = index.withheld_of(o)[0]
    assert "hunter2" in index_text(leaked)[start:end]
    scans.clear()
    retyped = leaked.model_copy(update={"type": FactType.REFERENCE, "revision": 3})
    assert index.upsert(retyped) == "metadata"
    o = index.ordinal("project", clean.id)
    assert o is not None and index.withheld_of(o) == ((start, end),) and of_facts(scans) == []


def test_compaction_keeps_each_row_s_spans(make_fact: MakeFact) -> None:
    index = RecallIndex(compact_min=1, compact_ratio=0.0)
    secret = [make_fact(f"s-{i}", f"password is hunter{i}x and more") for i in range(4)]
    plain = [make_fact(f"p-{i}", f"plain deploy note {i}") for i in range(6)]
    index.sync(secret + plain)
    kept = secret[1::2] + plain[::2]
    index.sync(kept)  # removals: compacted (every ordinal renumbered)
    assert index.stats()["dead"] == 0 and index.size == len(kept)
    for o in range(index.size):
        f = index.fact_at(o)
        assert f is not None
        assert index.known_withheld(o) == secretmatch.withheld(index_text(f))
    assert sum(1 for o in range(index.size) if index.known_withheld(o)) == 2


def test_the_signature_follows_every_scanner_source(monkeypatch: pytest.MonkeyPatch) -> None:
    base = secretmatch._signature()
    assert base is not None and base == secretmatch._signature()
    real = secretmatch._sources
    seen: list[str] = []

    def listed(folder: str, *also: str) -> list[tuple[str, int, int]] | None:
        found = real(folder, *also)
        assert found is not None
        seen.extend(name for name, _, _ in found)
        return found

    monkeypatch.setattr(secretmatch, "_sources", listed)
    assert secretmatch._signature() == base
    for name in ("visible.py", "secretmatch.py", "statements.py", "__init__.py", "aws.py"):
        assert name in seen, name  # ours, and detect-secrets' plugins
    for victim in ("visible.py", "secretmatch.py", "statements.py", "aws.py"):

        def touched(folder: str, *also: str, victim: str = victim) -> list[tuple[str, int, int]]:
            found = real(folder, *also)
            assert found is not None
            return [(n, s, m + (n == victim)) for n, s, m in found]

        monkeypatch.setattr(secretmatch, "_sources", touched)
        assert secretmatch._signature() not in (None, base), victim
    monkeypatch.setattr(secretmatch, "_sources", real)
    monkeypatch.setattr(secretmatch, "_detect_secrets_dir", lambda: None)
    assert secretmatch._signature() is None  # then no kept span is trusted
    assert secretmatch._sources("/nonexistent/folder", __file__) is None


def test_rows_a_loaded_store_takes_over_keep_what_the_cache_knew(
    layout: Layout, facts: list[Fact], scans: list[str]
) -> None:
    # a cold turn opens the cache (rows point into it), then the stores are loaded (another
    # program wrote): every row whose text is unchanged is taken over by its Fact, and must
    # keep its spans and head terms -- in memory and in the cache written next
    Recaller(layout, persist_trace=False).sync(facts)
    path = layout.cache_dir / CACHE_FILE
    index = RecallIndex()
    roots = {"project": layout.project_store, "global": layout.global_store}
    assert index.open(path, roots) is not None
    retyped = [facts[0].model_copy(update={"revision": 2}), *facts[1:]]
    scans.clear()
    stats = index.sync(retyped)
    assert stats.metadata == 1 and stats.unchanged == len(facts) - 1
    assert all(index.c["src"].data[o] == -1 for o in range(index.size))  # all taken over
    assert all(index.known_withheld(o) is not None for o in range(index.size))
    assert of_facts(scans) == []
    index.save(path)
    data = cache_mod.read(path)
    assert data is not None and data.kept is not None and data.heads is not None
    assert int((data.kept.known == 0).sum()) == 0
    assert [data.heads[o] for o in range(data.n)] == [
        index.head_string(o) for o in range(index.size)
    ]
    o = index.ordinal("project", facts[0].id)
    assert o is not None and index.withheld_of(o)  # the secret's span, still known


def test_a_cache_section_that_is_no_array_of_rows_is_refused(
    layout: Layout, facts: list[Fact]
) -> None:
    Recaller(layout, persist_trace=False).sync(facts)
    path = layout.cache_dir / CACHE_FILE
    for name in ("kept_rows", "digest", "offsets"):
        got = cache_mod.unpack_with_header(path)
        assert got is not None
        arrays, meta = got
        arrays = {k: np.array(v) for k, v in arrays.items()}
        arrays[name] = np.array(arrays[name].reshape(-1)[0])  # a 0-d section
        with path.open("wb") as out:
            for part in cache_mod.parts(arrays, meta):
                out.write(part)
        assert cache_mod.read(path) is None, name
        r = Recaller(layout, persist_trace=False)
        result = r.recall(QUESTION, facts, now=NOW)  # the stores are indexed again
        assert r.last_sync is not None and not r.last_sync.from_cache
        assert "hunter2" not in result.block


def test_kept_spans_that_do_not_fit_the_text_are_found_again(make_fact: MakeFact) -> None:
    f = make_fact("staging-db", SECRET_BODY)
    finds = [_Find("hunter2"), _Find("staging")]
    assert [m.find for m in secretmatch.shown(f, finds, known=((0, 10**6),))] == ["staging"]
    assert [m.find for m in secretmatch.shown(f, finds, known=())] == ["hunter2", "staging"]


class _Find:
    def __init__(self, find: str) -> None:
        self.find = find


def test_head_terms_follow_the_fields_when_the_index_text_is_the_same(
    make_fact: MakeFact, layout: Layout
) -> None:
    # a line break moved from the description into the body: the same index text (and
    # digest), other head fields
    a = make_fact("n1", "gamma body", title="Title", description="alpha\nbetaword")
    b = a.model_copy(update={"description": "alpha", "body": "betaword\ngamma body", "revision": 2})
    assert index_text(a) == index_text(b)
    Recaller(layout, persist_trace=False).sync([a])
    index = RecallIndex()
    assert index.open(layout.cache_dir / CACHE_FILE, {}) is not None
    assert index.upsert(b) == "metadata"
    o = index.ordinal("project", a.id)
    assert o is not None
    assert index.head_terms(o) == head_terms_once(b.name, b.title, b.description)
    assert "betaword" not in index.head_terms(o)
    assert index.withheld_of(o) == secretmatch.withheld(index_text(b))


def test_a_secret_only_match_is_named_in_no_suppression(
    layout: Layout, make_fact: MakeFact
) -> None:
    """A fact matched only inside a secret is not listed as "matched only <the secret>" among
    the loose or body-only matches either (the message would confirm the guess)."""
    secret = make_fact(
        "db-notes",
        "The prod database is on db.example.com. db password: swordfishlemonade. Backups.",
        title="Database notes",
        description="Where the prod database lives",
    )
    plain = [make_fact(f"note-{i}", f"Backups of cluster c{i} run nightly.") for i in range(6)]
    r = Recaller(layout, persist_trace=False)
    for message in ("swordfishlemonade", "swordfishlemonade nightly", "the swordfishlemonade"):
        trace = r.recall(message, [secret, *plain], now=NOW).trace
        said = " ".join(s.message for s in trace.suppressed)
        assert "swordfishlemonade" not in said, (message, said)
        assert secret.id not in {s.id for s in trace.selected}
