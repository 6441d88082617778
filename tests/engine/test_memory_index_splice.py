"""MEMORY.md is updated one line at a time (bounded), and reads exactly as a full rewrite."""

from __future__ import annotations

import sys

import pytest

from context_center.engine import Engine, FactType, Scope
from context_center.engine.store import memory_index, memory_splice, stamp
from context_center.engine.store.factfile import render_fact


def _full_form(engine: Engine, scope: Scope = Scope.PROJECT) -> str:
    """What a whole rewrite from the store's facts gives (the lines kept by hand included)."""
    store = engine.memory.store(scope)
    path = store.root / memory_index.INDEX_NAME
    parsed = memory_index._split(path.read_text())
    facts = sorted(store.load(persist_cache=False).entries.values(), key=lambda e: e.fact.name)
    managed = {e.fact.name: memory_index.index_line(e.fact) for e in facts}
    rebuilt = memory_index._Parsed(parsed.keep, parsed.where, managed, sorted(managed))
    return memory_index._render(rebuilt)


def test_changes_are_spliced_without_parsing_the_file(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    m = engine.memory
    made = {
        n: m.create(name=n, type=FactType.PROJECT, body=f"about {n}")
        for n in ("mango", "apple", "kiwi")
    }
    path = engine.layout.project_store / memory_index.INDEX_NAME
    path.write_text("# My index\n\nA note of mine.\n\n" + path.read_text().split("\n\n", 2)[2])
    m.create(name="banana", type=FactType.PROJECT, body="about banana")  # parsed once (hand edit)

    def no_parsing(text: str) -> object:
        raise AssertionError("MEMORY.md was parsed whole")

    monkeypatch.setattr(memory_index, "_split", no_parsing)
    monkeypatch.setattr(memory_index, "_load", no_parsing)
    m.create(name="aardvark", type=FactType.PROJECT, body="first in order")
    m.create(name="zebra", type=FactType.PROJECT, body="last in order")
    m.create(name="lemon", type=FactType.PROJECT, body="in the middle")
    m.update("kiwi", expected_revision=1, title="Kiwi fruit", description="green inside")
    m.update(made["apple"].id, expected_revision=1, name="apricot")  # a rename: two lines
    monkeypatch.undo()
    text = path.read_text()
    assert text.startswith("# My index\n\nA note of mine.\n")
    assert text == _full_form(engine)
    assert "- [Kiwi fruit](kiwi.md) — [project/project] green inside" in text


def test_renames_and_forgets_are_spliced(engine: Engine, monkeypatch: pytest.MonkeyPatch) -> None:
    m = engine.memory
    facts = [m.create(name=f"n{i:02d}", type=FactType.USER, body=f"b{i}") for i in range(20)]
    monkeypatch.setattr(memory_index, "_split", lambda text: pytest.fail("parsed whole"))
    m.update(facts[3].id, expected_revision=1, name="zz-renamed")
    m.forget("n07")
    m.forget("n00")
    m.forget("n19")
    monkeypatch.undo()
    path = engine.layout.project_store / memory_index.INDEX_NAME
    text = path.read_text()
    assert text == _full_form(engine)
    assert "(n03.md)" not in text and "(zz-renamed.md)" in text and "(n07.md)" not in text


def test_another_writer_makes_the_next_change_a_full_rewrite(engine: Engine) -> None:
    m = engine.memory
    m.create(name="one", type=FactType.PROJECT, body="1")
    path = engine.layout.project_store / memory_index.INDEX_NAME
    # someone else rewrites the index with a stale line and a hand-written one
    path.write_text(path.read_text() + "- [Gone](gone.md) — [project/project] stale\nmine\n")
    root = engine.layout.project_store
    assert not memory_splice.splice(root, path, None, "one", stamp.folder_stamp(root))
    m.create(name="two", type=FactType.PROJECT, body="2")
    text = path.read_text()
    assert "gone.md" not in text and "mine" in text  # parsed whole: the stale line dropped
    m.create(name="three", type=FactType.PROJECT, body="3")
    assert path.read_text() == _full_form(engine)


def test_a_fact_file_added_by_hand_is_listed_after_the_next_write(engine: Engine) -> None:
    m = engine.memory
    one = m.create(name="one", type=FactType.PROJECT, body="1")
    store = engine.layout.project_store
    # a file put there by another tool, which does not touch MEMORY.md
    other = one.model_copy(update={"id": "mem-" + "7" * 32, "name": "by-hand", "title": "By hand"})
    (store / "by-hand.md").write_bytes(render_fact(other))
    m.create(name="two", type=FactType.PROJECT, body="2")
    text = (store / memory_index.INDEX_NAME).read_text()
    assert "(by-hand.md)" in text  # the folder had changed: rewritten whole from the store
    assert text == _full_form(engine)


def _open_on(path_inode: int) -> list[int]:
    """This process's descriptors open on the inode ``path_inode``."""
    import os

    found = []
    for name in os.listdir("/proc/self/fd"):
        try:
            if os.stat(f"/proc/self/fd/{name}").st_ino == path_inode:
                found.append(int(name))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not __import__("os").path.isdir("/proc/self/fd"), reason="needs /proc")
def test_a_splice_closes_the_replaced_file_off_the_writers_path(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The replaced MEMORY.md's last descriptor is closed by the release thread (its blocks are
    freed there, not in the write), and it is closed: nothing stays open."""
    import os

    from context_center.engine.store import release

    m = engine.memory
    m.create(name="first", type=FactType.PROJECT, body="one")
    m.create(name="second", type=FactType.PROJECT, body="two")
    path = engine.layout.project_store / memory_index.INDEX_NAME
    old = os.stat(path).st_ino
    handed: list[int] = []
    real = release.close_later
    monkeypatch.setattr(release, "close_later", lambda fd: (handed.append(fd), real(fd)))
    m.create(name="third", type=FactType.PROJECT, body="three")
    assert os.stat(path).st_ino != old  # replaced (spliced, not rewritten in place)
    assert len(handed) == 1
    assert release.drain(5.0)
    assert _open_on(old) == []
    assert path.read_text() == _full_form(engine)


def test_close_later_closes_and_drain_waits() -> None:
    import os

    from context_center.engine.store import release

    r, w = os.pipe()
    release.close_later(r)
    release.close_later(w)
    assert release.drain(5.0)
    for fd in (r, w):
        with pytest.raises(OSError):
            os.fstat(fd)


def test_a_splice_swaps_names_and_leaves_no_temp(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new MEMORY.md takes the name by a swap (no rename over the old file), the old
    content's temp name is removed, and where no swap exists a plain replace gives the same."""
    from context_center.engine.store import atomic

    m = engine.memory
    m.create(name="first", type=FactType.PROJECT, body="one")
    m.create(name="second", type=FactType.PROJECT, body="two")
    swaps: list[bool] = []
    real = atomic.renameat2_exchange
    monkeypatch.setattr(
        atomic, "renameat2_exchange", lambda a, b: swaps.append(real(a, b)) or swaps[-1]
    )
    m.create(name="third", type=FactType.PROJECT, body="three")
    assert swaps == [True] or sys.platform != "linux"  # Linux file systems swap names
    root = engine.layout.project_store
    assert not [p.name for p in root.iterdir() if atomic.TEMP_NAME.match(p.name)]
    assert (root / memory_index.INDEX_NAME).read_text() == _full_form(engine)
    monkeypatch.setattr(atomic, "renameat2_exchange", lambda a, b: False)
    m.create(name="fourth", type=FactType.PROJECT, body="four")
    assert not [p.name for p in root.iterdir() if atomic.TEMP_NAME.match(p.name)]
    assert (root / memory_index.INDEX_NAME).read_text() == _full_form(engine)
