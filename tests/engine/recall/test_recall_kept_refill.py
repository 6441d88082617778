"""A cache whose facts' withheld spans this scanner does not know is filled in once, by the
detached child (issue 13).

After an upgrade of the secret scan (another ``secretmatch.signature()``), or from a cache
written before the spans were kept, every turn would scan the facts it shows for the first
time. The cold process that finds such a cache hands a rewrite to the detached child
(``recall/rewrite.py``), which finds the spans of every fact (``RecallIndex.fill_withheld``)
and writes the cache stamped with this scanner; from then on no turn scans.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from recall_env import seed_secret_home

from context_center.engine import Engine
from context_center.engine.recall import CACHE_FILE, secretmatch
from context_center.engine.recall import cache as cache_mod


def _seed(home: Path, workspace: Path) -> Path:
    path = seed_secret_home(home, workspace)
    assert path.name == CACHE_FILE
    return path


def _cold(home: Path, workspace: Path, handed: list[Path]) -> Engine:
    engine = Engine(home=home, workspace=workspace)
    engine.recaller.save_elsewhere = lambda path: handed.append(path) or True
    return engine


def _unknown(path: Path) -> int:
    data = cache_mod.read(path)
    assert data is not None and data.kept is not None
    return int((data.kept.known == 0).sum())


def test_a_cache_of_another_scanner_is_handed_to_the_child_once_filled(
    home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _seed(home, workspace)
    handed: list[Path] = []
    _cold(home, workspace, handed).recall("staging database", persist=False)
    assert handed == []  # the cache knows this scanner's spans: nothing to do

    monkeypatch.setattr(secretmatch, "_SIGNATURE", [b"an upgraded scan"])
    result = _cold(home, workspace, handed).recall("is the staging password hunter2")
    assert handed == [path]  # handed off; the turn itself is answered and clean
    assert "hunter2" not in result.block

    child = Engine(home=home, workspace=workspace)  # what rewrite_child runs
    assert child.refresh_recall_cache() is True
    data = cache_mod.read(path)
    assert data is not None and data.kept is not None
    assert data.kept.sig == b"an upgraded scan" and _unknown(path) == 0

    handed.clear()
    cold = _cold(home, workspace, handed)
    scans: list[str] = []
    from context_center.engine.gate import secrets as secrets_pkg

    real = secrets_pkg.find_sensitive
    monkeypatch.setattr(secrets_pkg, "find_sensitive", lambda t: scans.append(t) or real(t))
    secretmatch._CACHE.clear()
    result = cold.recall("is the staging password hunter2", persist=False)
    # a turn scans only its own message (``terms.without_secrets``), no fact's text
    assert handed == [] and scans in ([], ["is the staging password hunter2"])
    assert "hunter2" not in result.block and result.trace.selected


def test_without_a_signature_nothing_is_handed_off(
    home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _seed(home, workspace)
    monkeypatch.setattr(secretmatch, "_SIGNATURE", [None])  # e.g. sources not on disk
    handed: list[Path] = []
    for _ in range(3):
        _cold(home, workspace, handed).recall("staging database", persist=False)
    assert handed == []  # no child could ever stamp it: none is started


def test_a_cache_that_carried_unknown_rows_over_is_filled_too(home: Path, workspace: Path) -> None:
    # a save by this scanner of an index opened from an older cache marks the rows it never
    # showed as not known: stamped with this scanner, still incomplete
    path = _seed(home, workspace)
    got = cache_mod.unpack_with_header(path)
    assert got is not None
    arrays, meta = got
    arrays = {k: np.array(v) for k, v in arrays.items()}
    arrays["kept_known"][:3] = 0
    arrays["kept_known"][arrays["kept_known"] == 2] = 0
    arrays["kept_rows"] = arrays["kept_rows"][:0]
    arrays["kept_off"] = arrays["kept_off"][:1]
    arrays["kept_spans"] = arrays["kept_spans"][:0]
    with path.open("wb") as out:
        for part in cache_mod.parts(arrays, meta):
            out.write(part)
    assert _unknown(path) >= 3
    handed: list[Path] = []
    _cold(home, workspace, handed).recall("staging database", persist=False)
    assert handed == [path]
    assert Engine(home=home, workspace=workspace).refresh_recall_cache() is True
    assert _unknown(path) == 0


def test_the_child_reads_the_stores_so_a_file_edited_in_place_is_filled_as_it_is(
    home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _seed(home, workspace)
    monkeypatch.setattr(secretmatch, "_SIGNATURE", [b"an upgraded scan"])
    edited = next(home.rglob("deploy-3.md"))
    text = edited.read_bytes()
    with edited.open("r+b") as fh:  # rewritten in place: no folder stamp moves
        fh.write(text.replace(b"Deploy.", b"Zebra9."))
    child = Engine(home=home, workspace=workspace)
    assert child.refresh_recall_cache() is True
    assert _unknown(path) == 0
    hits = Engine(home=home, workspace=workspace).search("zebra9")
    assert [h.fact.name for h in hits] == ["deploy-3"]  # indexed as the file is now
