"""Rows found through the key columns (``recall/keylookup.py``) are the rows the full maps
hold, and the mask computed by sort and search is ``np.isin``'s: a cold process that catches up
with a few writes no longer builds a map of every row (issue 13)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_recall_current import NOW, _age_stores, _seed

from context_center.engine import Engine, FactType, Scope
from context_center.engine.model import Fact
from context_center.engine.recall import catchup, masks
from context_center.engine.recall.index import SCOPE_CODES, RecallIndex
from context_center.engine.recall.keylookup import ordinal_by_hash, ordinals_of_stems


@pytest.fixture
def cached(home: Path, workspace: Path) -> RecallIndex:
    """The index of a cold engine, adopted from the cache file (no row read yet)."""
    engine = Engine(home=home, workspace=workspace)
    _seed(engine)
    _age_stores(engine)
    engine.recall("warm up", now=NOW)  # writes the cache
    cold = Engine(home=home, workspace=workspace)
    cold.recall("warm up", persist=False, now=NOW)
    index = cold.recaller.index
    assert index._packed is not None and index._ordmap is None
    return index


def _maps(index: RecallIndex) -> tuple[dict[tuple[str, str], int], dict[int, dict[str, int]]]:
    ords = dict(index._ords())
    stems = {code: index.stems_of_scope(code) for code in SCOPE_CODES.values()}
    index._ordmap = None  # as it was: the lookups under test must not use the map
    return ords, stems


def _check(index: RecallIndex) -> None:
    ords, stems = _maps(index)
    keys = [*ords, ("project", "mem-" + "0" * 32), ("elsewhere", "x"), ("global", "")]
    keys += [("global" if s == "project" else "project", i) for s, i in ords]  # other scope
    for key in keys:
        assert ordinal_by_hash(index, key) == ords.get(key), key
    for code, full in stems.items():
        asked = [*full, "no-such-stem", *(s.upper() for s in full)]
        assert ordinals_of_stems(index, code, asked) == full
        assert index._ordmap is None


def test_rows_by_id_and_by_stem_are_the_maps_rows(cached: RecallIndex) -> None:
    _check(cached)


def test_after_rows_are_killed_and_added_too(cached: RecallIndex) -> None:
    ords, _ = _maps(cached)
    victim = next(key for key in ords if key[0] == "project")
    assert cached.remove(victim[1], victim[0])
    fresh = Fact(
        id="mem-" + "ab" * 16,
        revision=1,
        created_at=NOW,
        updated_at=NOW,
        name="deploy-step-3",  # the stem of a live row of the other scope's namesake
        title="Deploy step 3",
        description="",
        type=FactType.PROJECT,
        scope=Scope.GLOBAL,
        body="A global twin.",
    )
    cached.upsert(fresh)
    cached._ordmap = None
    assert ordinal_by_hash(cached, victim) is None
    _check(cached)


def test_a_legacy_file_falls_back_to_the_full_map(home: Path, workspace: Path) -> None:
    from context_center.engine.recall.keylookup import _stems_are_names

    engine = Engine(home=home, workspace=workspace)
    _seed(engine)
    store = engine.layout.project_store
    (store / "Team Notes.md").write_text(  # as Reasonix wrote it: no id, a name of its own
        "---\nname: handbook\ndescription: notes\ntype: project\n---\nDeploy on Tuesdays.\n"
    )
    _age_stores(engine)
    engine.recall("warm up", now=NOW)
    cold = Engine(home=home, workspace=workspace)
    cold.recall("warm up", persist=False, now=NOW)
    index = cold.recaller.index
    full = index.stems_of_scope(SCOPE_CODES[Scope.PROJECT])
    assert "Team Notes" in full and not _stems_are_names(index)
    got = ordinals_of_stems(index, SCOPE_CODES[Scope.PROJECT], [*full, "nothing"])
    assert got == full


def test_the_mask_is_isins() -> None:
    rng = np.random.default_rng(13)
    for size in (0, 1, 5, 300, 4000):
        values = rng.integers(0, 50, size, dtype=np.uint64)
        for pool_size in (0, 1, 7, 200):
            pool = rng.integers(0, 60, pool_size, dtype=np.uint64)
            assert np.array_equal(masks.isin(values, pool), np.isin(values, pool))


def test_the_mask_of_the_index_is_the_conflict_rule(cached: RecallIndex) -> None:
    alive, scope, _, _ = cached.columns()
    idh, nameh, titleh = (cached.column(k) for k in ("idh", "nameh", "titleh"))
    project = alive & (scope == SCOPE_CODES[Scope.PROJECT])
    glob = alive & (scope == SCOPE_CODES[Scope.GLOBAL])
    expected = np.flatnonzero(
        glob
        & (
            np.isin(idh, idh[project])
            | np.isin(nameh, nameh[project])
            | ((titleh != 0) & np.isin(titleh, titleh[project & (titleh != 0)]))
        )
    )
    got = catchup.masked_by_keys(cached)
    assert np.array_equal(got, expected) and len(got) == 2  # release-branch, node-version
