"""A store opened through its parsed-facts cache is exactly the store read file by file.

``loader._take_cached`` builds the facts the cache describes unchanged in one pass and hands
the rest to the per-file read; the snapshot must not depend on which files took which path:
the same entries (fact, location, sha256, legacy flag) in directory order, the same file
stamps, the same diagnostics.
"""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import Any

from context_center.engine.model import Scope
from context_center.engine.store.entries import Snapshot
from context_center.engine.store.factcache import cache_path
from context_center.engine.store.loader import scan_store

GOOD = (
    "---\nid: mem-{hex}\nrevision: {rev}\ncreated_at: 2026-01-0{day}T00:00:00.000Z\n"
    "updated_at: 2026-02-0{day}T08:30:00.250Z\nname: {name}\ntitle: {title}\n"
    "description: d {name}\nmetadata:\n  type: {type}\n  scope: project\n---\n\n{body}\n"
)
TYPES = ("user", "feedback", "project", "reference")


def _fact(i: int, body: str = "") -> str:
    return GOOD.format(
        hex=f"{i:032x}",
        rev=1 + i % 3,
        day=1 + i % 9,
        name=f"fact-{i}",
        title=f"事实 {i} title",
        type=TYPES[i % 4],
        body=body or f"body {i}\n第二行 {i}",
    )


Read = tuple[list[tuple[Any, ...]], dict[str, Any], list[tuple[str, str, str]]]


def _described(snap: Snapshot) -> Read:
    entries = [
        (stem, e.fact.model_dump(), str(e.location), e.sha256, e.legacy)
        for stem, e in snap.entries.items()
    ]
    diagnostics = sorted((d.code, d.path, d.message) for d in snap.diagnostics)
    return entries, dict(snap.files), diagnostics


def _snapshot(root: Path) -> Read:
    return _described(scan_store(root, Scope.PROJECT, persist_cache=True).snapshot)


def _fresh(root: Path) -> Read:
    """The same store read with no cache at all."""
    saved = cache_path(root).read_bytes() if cache_path(root).exists() else None
    cache_path(root).unlink(missing_ok=True)
    try:
        snap = scan_store(root, Scope.PROJECT, persist_cache=False).snapshot
    finally:
        if saved is not None:
            cache_path(root).write_bytes(saved)
    return _described(snap)


def test_cached_and_fresh_reads_agree_through_random_edits(tmp_path: Path) -> None:
    root = tmp_path / "home" / "memory" / "project"
    root.mkdir(parents=True)
    rng = random.Random(19)
    for i in range(60):
        (root / f"fact-{i}.md").write_text(_fact(i))
    (root / "broken.md").write_bytes(b"---\ntitle: [unclosed\n---\nbody\n")
    (root / "legacy-one.md").write_text(
        "---\nname: legacy-one\ndescription: old\ntype: project\n---\n\nlegacy body\n"
    )
    assert _snapshot(root) == _fresh(root)  # writes the cache
    assert cache_path(root).exists()
    for round_ in range(6):
        names = sorted(p.name for p in root.glob("*.md"))
        for name in rng.sample(names, 8):
            path = root / name
            action = rng.choice(["append", "rewrite", "delete", "break", "touch"])
            if action == "append":
                with path.open("a", encoding="utf-8") as fh:
                    fh.write(f"more {round_}\n")
            elif action == "rewrite":
                i = int(name[5:-3]) if name.startswith("fact-") else 999
                tmp = root / f".tmp-{name}"
                tmp.write_text(_fact(i, body=f"rewritten {round_}"))
                os.replace(tmp, path)
            elif action == "delete":
                path.unlink()
            elif action == "break":
                path.write_bytes(b"---\nrevision: two\n---\nbody\n")
            else:
                st = path.stat()
                os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
        new = 100 + round_
        (root / f"fact-{new}.md").write_text(_fact(new))
        cached = _snapshot(root)
        assert cached == _fresh(root), f"round {round_}"
        assert _snapshot(root) == cached  # and again, now every file from the cache


def test_a_cached_duplicate_and_a_cached_diagnostic_stay_what_they_were(tmp_path: Path) -> None:
    root = tmp_path / "store"
    root.mkdir()
    (root / "one.md").write_text(_fact(1))
    shutil.copy(root / "one.md", root / "two.md")  # one id in two files: both excluded
    (root / "bad.md").write_bytes(b"---\nid: ../../etc\n---\nbody\n")
    (root / "ok.md").write_text(_fact(2).replace("name: fact-2", "name: ok"))
    first = _snapshot(root)
    entries, _, diagnostics = first
    assert [e[0] for e in entries] == ["ok"]
    assert {d[0] for d in diagnostics} == {"duplicate_id", "invalid_field"}
    assert _snapshot(root) == first == _fresh(root)


def _read(root: Path, *, trust: bool) -> Read:
    return _described(
        scan_store(root, Scope.PROJECT, persist_cache=False, trust_cache=trust).snapshot
    )


def test_a_trusted_look_sees_renames_and_new_files_but_not_edits_in_place(
    tmp_path: Path,
) -> None:
    """``trust_cache``: a file with the cache's name and inode is taken from the cache without
    a stat; everything else is read as usual, and nothing is written."""
    root = tmp_path / "store"
    root.mkdir()
    for i in range(30):
        (root / f"fact-{i}.md").write_text(_fact(i))
    (root / "broken.md").write_bytes(b"---\ntitle: [unclosed\n---\nbody\n")
    assert _snapshot(root) == _fresh(root)  # writes the cache
    assert _read(root, trust=True) == _read(root, trust=False)  # nothing changed: the same
    cached = cache_path(root).read_bytes()

    tmp = root / ".tmp-fact-3"
    tmp.write_text(_fact(3, body="renamed into place"))
    os.replace(tmp, root / "fact-3.md")  # a new inode: seen at once
    (root / "fact-7.md").unlink()
    (root / "fact-99.md").write_text(_fact(99))
    with (root / "fact-5.md").open("a", encoding="utf-8") as fh:
        fh.write("edited in place\n")  # same inode: the trusted look does not see it
    trusted, checked = _read(root, trust=True), _read(root, trust=False)
    assert cache_path(root).read_bytes() == cached  # neither wrote the cache

    def body(read: Read, stem: str) -> str:
        return next(e[1]["body"] for e in read[0] if e[0] == stem)

    assert "renamed into place" in body(trusted, "fact-3")
    assert "fact-7" not in [e[0] for e in trusted[0]] and "fact-99" in [e[0] for e in trusted[0]]
    assert "edited in place" not in body(trusted, "fact-5")
    assert "edited in place" in body(checked, "fact-5")
    same = [e for e in trusted[0] if e[0] != "fact-5"]
    assert same == [e for e in checked[0] if e[0] != "fact-5"]
    assert trusted[2] == checked[2]  # the broken file is reported either way
