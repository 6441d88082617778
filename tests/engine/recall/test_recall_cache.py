"""The derived on-disk index cache and the persisted trace."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from recall_env import NOW, MakeFact

from context_center.engine.model import Fact
from context_center.engine.recall import CACHE_FILE, Recaller, load_trace, trace_path
from context_center.engine.recall import cache as cache_mod
from context_center.engine.recall import index as index_mod
from context_center.engine.store.paths import Layout


@pytest.fixture
def facts(make_fact: MakeFact) -> list[Fact]:
    out = [
        make_fact(f"note-{i}", f"Deploy payments step {i} uses cluster c{i}.") for i in range(30)
    ]
    out.append(make_fact("zh", "发布流程：先打标签，再更新变更日志。", title="发布流程"))
    return out


def no_tokenising(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(text: str) -> list[str]:
        raise AssertionError(f"re-tokenised: {text[:40]!r}")

    monkeypatch.setattr(index_mod, "tokens", boom)


def results(r: Recaller, facts: list[Fact]) -> list[tuple[str, float]]:
    return [(h.fact.id, h.score) for h in r.search("deploy payments c7 发布流程", facts, now=NOW)]


def test_restart_reuses_the_cache_without_retokenising(
    layout: Layout, facts: list[Fact], monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Recaller(layout)
    expected = results(first, facts)
    path = layout.cache_dir / CACHE_FILE
    assert path.is_file()
    no_tokenising(monkeypatch)
    second = Recaller(layout)  # a "restarted process"
    assert results(second, facts) == expected
    assert second.last_sync is not None and second.last_sync.from_cache
    assert second.last_sync.added == 0


def test_restart_retokenises_only_changed_facts(
    layout: Layout, facts: list[Fact], monkeypatch: pytest.MonkeyPatch
) -> None:
    Recaller(layout).sync(facts)
    changed = facts[7].model_copy(
        update={"body": "Deploy payments now uses cluster blue.", "revision": 2}
    )
    now_facts = [*facts[:7], changed, *facts[8:-1]]  # and the Chinese fact was forgotten
    seen: list[Fact] = []  # the facts tokenised (each field once: fact_terms)
    real = index_mod.fact_terms
    monkeypatch.setattr(index_mod, "fact_terms", lambda f: seen.append(f) or real(f))
    r = Recaller(layout)
    got = results(r, now_facts)
    assert r.last_sync is not None and r.last_sync.from_cache
    assert len(seen) == 1 and "cluster blue" in seen[0].body
    monkeypatch.setattr(index_mod, "fact_terms", real)
    assert got == results(Recaller(None), now_facts)


def test_hand_edit_with_same_revision_is_caught_by_the_digest(
    layout: Layout, facts: list[Fact]
) -> None:
    Recaller(layout).sync(facts)
    edited = facts[0].model_copy(update={"body": "Completely different text about kafka."})
    now_facts = [edited, *facts[1:]]
    r = Recaller(layout)
    assert [h.fact.name for h in r.search("kafka", now_facts, now=NOW)] == ["note-0"]
    assert r.last_sync is not None and r.last_sync.added == 1


def test_damaged_or_foreign_cache_is_ignored(layout: Layout, facts: list[Fact]) -> None:
    path = layout.cache_dir / CACHE_FILE
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a zip at all")
    r = Recaller(layout)
    assert results(r, facts) == results(Recaller(None), facts)
    assert r.last_sync is not None and r.last_sync.rebuilt
    # It was replaced by a valid cache: plain numeric arrays behind a JSON header, no pickle.
    data = path.read_bytes()
    assert data.startswith(index_mod.CACHE_MAGIC)
    sections = cache_mod.unpack(path)
    assert sections is not None
    assert all(a.dtype.kind in "uib" for a in sections.values())
    assert b"pickle" not in data[:4096] and b"\x80\x04" not in data[:16]


def test_mostly_stale_cache_is_rebuilt(
    layout: Layout, facts: list[Fact], make_fact: MakeFact
) -> None:
    Recaller(layout).sync(facts)
    others = [make_fact(f"other-{i}", f"kafka topic {i}") for i in range(40)]
    r = Recaller(layout)
    r.sync(others)
    assert r.last_sync is not None and r.last_sync.rebuilt


def test_upserts_and_removes_are_saved_eventually(layout: Layout, facts: list[Fact]) -> None:
    r = Recaller(layout)
    r.sync(facts)
    r.upsert(facts[0].model_copy(update={"body": "kafka", "revision": 2}))
    assert r.index.dirty()
    assert r.save_cache()
    assert not r.index.dirty()
    restarted = Recaller(layout)
    restarted.sync([facts[0].model_copy(update={"body": "kafka", "revision": 2}), *facts[1:]])
    assert restarted.last_sync is not None and restarted.last_sync.added == 0


def test_trace_round_trip_and_another_process_reads_it(layout: Layout, facts: list[Fact]) -> None:
    r = Recaller(layout)
    result = r.recall("deploy payments step c7", facts, now=NOW)
    assert result.trace.selected
    path = trace_path(layout)
    assert path == layout.state_dir / "recall-trace.json"
    loaded = load_trace(layout)
    assert loaded == result.trace
    assert loaded.chars_used == len(loaded.block) == len(result.block)
    text = path.read_text()
    assert str(layout.project_store) not in text and str(layout.home) not in text
    code = (
        "import sys; from pathlib import Path;"
        "from context_center.engine.store.paths import Layout;"
        "from context_center.engine.recall import load_trace;"
        "t = load_trace(Layout(Path(sys.argv[1]), Path(sys.argv[2])));"
        "print(t.model_dump_json())"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(layout.home), str(layout.workspace)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert json.loads(out)["selected"][0]["id"] == result.trace.selected[0].id


def test_trace_is_replaced_by_the_latest_and_persist_false_skips(
    layout: Layout, facts: list[Fact]
) -> None:
    r = Recaller(layout)
    r.recall("deploy payments step c7", facts, now=NOW)
    second = r.recall("continue", now=NOW)
    assert load_trace(layout) == second.trace
    r.recall("deploy payments", now=NOW, persist=False)
    assert load_trace(layout) == second.trace


def test_missing_or_damaged_trace_loads_as_none(layout: Layout) -> None:
    assert load_trace(layout) is None
    trace_path(layout).parent.mkdir(parents=True)
    trace_path(layout).write_text("{broken")
    assert load_trace(layout) is None
