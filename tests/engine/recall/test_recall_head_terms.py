"""Each row's head terms are found once, when it is indexed, and kept in the cache (issue 13).

Whether a matched term is in a fact's name, title or description decides candidacy for the
facts a turn checks exactly (``scoring._refine_head``); the terms are the row's, found when
the row was added. Each test fails when a turn tokenises a head the index knows, or when a
row's kept terms differ from those of its fields (built, cached, compacted, edited, or read
from a cache that does not have them).
"""

from __future__ import annotations

from collections import Counter

import pytest
from recall_env import NOW, MakeFact

from context_center.engine.model import Fact
from context_center.engine.recall import CACHE_FILE, Recaller, rowtext
from context_center.engine.recall import cache as cache_mod
from context_center.engine.recall.index import RecallIndex, fact_terms
from context_center.engine.recall.rowtext import head_terms_once
from context_center.engine.recall.stem import stem
from context_center.engine.recall.tokenize import tokens
from context_center.engine.store.paths import Layout


@pytest.fixture
def facts(make_fact: MakeFact) -> list[Fact]:
    out = [
        make_fact(
            f"deploy-{i}",
            f"Roll the payments service out on cluster c{i}; payments run nightly.",
            title=f"Payments rollout {i}",
            description="部署 支付服务" if i % 2 else "",
        )
        for i in range(10)
    ]
    out.append(make_fact("body-only", "payments rollout notes deep in a body only"))
    return out


def _expected(f: Fact) -> frozenset[str]:
    return head_terms_once(f.name, f.title, f.description)


def _check_rows(index: RecallIndex) -> None:
    for o in range(index.size):
        f = index.fact_at(o)
        assert f is not None and index.head_terms(o) == _expected(f)


def _no_head_tokenising(monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(*_: object) -> frozenset[str]:
        raise AssertionError("a head was tokenised by a turn")

    monkeypatch.setattr(rowtext, "head_terms_once", boom)


def _weighted_counts(f: Fact) -> dict[str, int]:
    """BM25F's frequencies as the index defines them: the head fields repeated by weight."""
    text = f"{f.name}\n" * 2 + f"{f.title}\n" * 3 + f"{f.description}\n" * 2 + f.body
    out: dict[str, int] = {}
    for term, n in Counter(tokens(text)).items():
        out[stem(term)] = out.get(stem(term), 0) + n
    return out


def test_fact_terms_are_the_weighted_counts_and_the_head_terms(
    facts: list[Fact], make_fact: MakeFact
) -> None:
    tricky = [
        make_fact("ΟΔΟΣ-Σ", "Σ body ΑΣ", title="ΑΣ\u0301 title", description="ﬁle Ａｕｔｈ"),
        make_fact("自动召回", "召回 自动召回 自", title="召回 the recall", description="召"),
        make_fact("x", "", title="", description=""),
    ]
    for f in [*facts, *tricky]:
        counts, head = fact_terms(f)
        assert counts == _weighted_counts(f)
        assert frozenset(head.split(" ")) - {""} == _expected(f)
    empty = facts[0].model_copy(update={"title": "", "description": "", "name": "x"})
    assert fact_terms(empty)[1] == "x"


def test_rows_keep_their_head_terms_and_a_turn_tokenises_none(
    layout: Layout, facts: list[Fact], monkeypatch: pytest.MonkeyPatch
) -> None:
    r = Recaller(layout, persist_trace=False)
    r.sync(facts)
    _check_rows(r.index)
    _no_head_tokenising(monkeypatch)
    result = r.recall("payments rollout", facts, now=NOW)
    assert result.trace.selected  # head fields were checked: rows answered from their terms
    assert "body-only" not in {s.ref.split("/")[-1][:-3] for s in result.trace.selected}


def test_head_terms_survive_the_cache(
    layout: Layout, facts: list[Fact], monkeypatch: pytest.MonkeyPatch
) -> None:
    Recaller(layout, persist_trace=False).sync(facts)  # built and saved
    data = cache_mod.read(layout.cache_dir / CACHE_FILE)
    assert data is not None and data.heads is not None
    expected = Recaller(layout, persist_trace=False).recall("payments rollout", facts, now=NOW)
    _no_head_tokenising(monkeypatch)
    second = Recaller(layout, persist_trace=False)
    got = second.recall("payments rollout", facts, now=NOW)
    assert second.last_sync is not None and second.last_sync.from_cache
    assert [s.id for s in got.trace.selected] == [s.id for s in expected.trace.selected]
    _check_rows(second.index)


def test_a_cache_without_head_terms_is_read_and_its_heads_found_when_needed(
    layout: Layout, facts: list[Fact], monkeypatch: pytest.MonkeyPatch
) -> None:
    Recaller(layout, persist_trace=False).sync(facts)
    path = layout.cache_dir / CACHE_FILE
    real = cache_mod._strings
    monkeypatch.setattr(  # as a cache written before the heads were kept reads
        cache_mod, "_strings", lambda z, name, n: None if name == "heads" else real(z, name, n)
    )
    data = cache_mod.read(path)
    assert data is not None and data.heads is None
    second = Recaller(layout, persist_trace=False)
    result = second.recall("payments rollout", facts, now=NOW)
    assert second.last_sync is not None and second.last_sync.from_cache
    assert result.trace.selected
    _check_rows(second.index)  # found from the fields, and kept
    monkeypatch.setattr(cache_mod, "_strings", real)
    second.index.save(path)
    again = cache_mod.read(path)
    assert again is not None and again.heads is not None
    assert [again.heads[o] for o in range(again.n)] == [
        second.index.head_string(o) for o in range(second.index.size)
    ]


def test_an_edit_and_a_compaction_keep_each_row_s_head_terms(make_fact: MakeFact) -> None:
    index = RecallIndex(compact_min=1, compact_ratio=0.0)
    facts = [make_fact(f"n-{i}", f"body {i}", title=f"Title {i} deploy") for i in range(8)]
    index.sync(facts)
    renamed = facts[3].model_copy(update={"title": "Rollback guide", "revision": 2})
    index.sync([*facts[:3], renamed, *facts[5:]])  # one edit, one removal: compacted
    assert index.stats()["dead"] == 0
    _check_rows(index)
    o = index.ordinal("project", renamed.id)
    assert o is not None and "rollback" in index.head_terms(o)
    assert "deploy" not in index.head_terms(o)
