"""How long a store stamp stays racy: it follows the grain of the folder's own times."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from context_center.engine.store import stamp

SECOND = 1_000_000_000


def test_the_window_follows_the_grain_of_the_folder_time() -> None:
    t = 1_764_000_000 * SECOND
    assert stamp.racy_window(t) == stamp.RACY_NS  # whole seconds (FAT, HFS+, shares)
    assert stamp.racy_window(t + 123_456_789) == stamp.FINE_RACY_NS  # nanoseconds
    assert stamp.racy_window(t + 120_000_000) == stamp.FINE_RACY_NS  # 10 ms grain: 2 × 10 ms
    assert stamp.racy_window(t + 100_000_000) == 200_000_000  # a 100 ms grain: twice that
    assert stamp.racy_window(t + 500_000_000) == 200_000_000


def test_is_racy_at_the_edges() -> None:
    t = 1_764_000_000 * SECOND + 987_654_321
    fine = stamp.FINE_RACY_NS
    assert stamp.is_racy((t, 1, 0), t)
    assert stamp.is_racy((t, 1, 0), t + fine - 1)
    assert not stamp.is_racy((t, 1, 0), t + fine)
    assert stamp.is_racy((t, 1, 0), t - SECOND)  # the clock went back: never trusted
    whole = 1_764_000_000 * SECOND
    assert stamp.is_racy((whole, 1, 0), whole + SECOND)
    assert not stamp.is_racy((whole, 1, 0), whole + stamp.RACY_NS)
    assert not stamp.is_racy((0, 0, 3), whole)  # a missing folder


def test_a_real_folder_is_racy_right_after_a_rename_and_not_long_after(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    folder.mkdir()
    (folder / ".tmp").write_text("x")
    os.replace(folder / ".tmp", folder / "a.md")
    st = stamp.store_stamp(folder)
    assert stamp.is_racy(st, st[0])
    window = stamp.racy_window(st[0])
    time.sleep(window / 1e9 + 0.01)
    assert not stamp.is_racy(st, stamp.now_ns())


def test_a_catch_up_parses_only_the_journal_lines_it_needs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal holds up to 256 KB of writes; the few since a stamp are read newest first
    and the older lines are never parsed. A line out of order or unreadable costs at most a
    load of the stores (None), never a wrong answer."""
    from context_center.engine import Engine
    from context_center.engine.model import FactType
    from context_center.engine.store.cachedirs import store_cache_dir

    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(tmp_path / "cache"))
    (tmp_path / "ws").mkdir()
    engine = Engine(home=tmp_path / "home", workspace=tmp_path / "ws")
    for i in range(40):
        engine.create_fact(name=f"fact-{i}", type=FactType.PROJECT, body=f"body {i}")
    root = engine.layout.project_store
    old = stamp.store_stamp(root)
    engine.create_fact(name="late-one", type=FactType.PROJECT, body="one")
    engine.create_fact(name="late-two", type=FactType.PROJECT, body="two")
    new = stamp.store_stamp(root)
    parsed: list[bytes] = []
    real = stamp.json.loads

    def counting(line: bytes) -> object:
        parsed.append(line)
        return real(line)

    monkeypatch.setattr(stamp.json, "loads", counting)
    found = stamp.journal_between(root, old, new)
    assert found is not None and [e.stems for e in found] == [("late-one",), ("late-two",)]
    assert len(parsed) == 2
    monkeypatch.setattr(stamp.json, "loads", real)
    journal = store_cache_dir(root) / stamp.JOURNAL_FILE
    lines = journal.read_bytes().splitlines(keepends=True)
    journal.write_bytes(b"".join([*lines[:-2], lines[-1], lines[-2]]))  # the last two swapped
    assert stamp.journal_between(root, old, new) == found  # both still found
    journal.write_bytes(b"".join([*lines[:-1], b"[not json\n", lines[-1]]))
    assert stamp.journal_between(root, old, new) == found
    journal.write_bytes(b"".join([*lines[:-2], lines[-1]]))  # one write missing
    assert stamp.journal_between(root, old, new) is None
