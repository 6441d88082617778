"""Bad files never take the store down: each is reported, left untouched, and excluded."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope
from context_center.engine.store.factfile import MAX_FILE_BYTES

GOOD = "---\nid: mem-{hex}\nrevision: 1\ncreated_at: 2026-01-01T00:00:00.000Z\nupdated_at: 2026-01-01T00:00:00.000Z\nname: {name}\ntitle: {name}\ndescription: d\nmetadata:\n  type: project\n  scope: project\n---\n\nbody\n"

BAD_FILES: dict[str, tuple[bytes, str]] = {
    "malformed": (b"---\ntitle: [unclosed\n---\nbody\n", "malformed_yaml"),
    "not-a-mapping": (b"---\n- a\n- b\n---\nbody\n", "frontmatter_not_mapping"),
    "python-tag": (
        b"---\nid: !!python/object/apply:os.system ['touch /tmp/pwned']\n---\nbody\n",
        "unsafe_yaml_tag",
    ),
    "alias": (b"---\nbase: &b {type: user}\nmetadata: *b\n---\nbody\n", "yaml_alias"),
    "dup-key": (b"---\ntitle: one\ntitle: two\n---\nbody\n", "duplicate_key"),
    "latin1": ("---\ntitle: caf\u00e9\n---\nbody\n".encode("latin-1"), "invalid_utf8"),
    "nul": (b"---\ntitle: x\n---\nbo\x00dy\n", "nul_bytes"),
    "unclosed": (b"---\ntitle: x\nbody without closing\n", "malformed_frontmatter"),
    "bad-type": (b"---\ntype: opinion\n---\nbody\n", "invalid_type"),
    "bad-revision": (b"---\nrevision: two\n---\nbody\n", "invalid_field"),
    "bad-id": (b"---\nid: ../../etc\n---\nbody\n", "invalid_field"),
    "huge-revision": (b"---\nrevision: 99999999999999999999999999\n---\nbody\n", "invalid_field"),
}


@pytest.fixture
def store(engine: Engine) -> Path:
    root = engine.layout.project_store
    root.mkdir(parents=True)
    (root / "good.md").write_text(GOOD.format(hex="a" * 32, name="good"))
    return root


def test_each_bad_file_is_a_diagnostic_and_the_rest_loads(
    engine: Engine, store: Path, tmp_path: Path
) -> None:
    for name, (data, _) in BAD_FILES.items():
        (store / f"{name}.md").write_bytes(data)
    (store / "huge.md").write_bytes(b"---\ntitle: big\n---\n" + b"x" * (MAX_FILE_BYTES + 10))
    target = tmp_path / "elsewhere.md"
    target.write_text(GOOD.format(hex="b" * 32, name="elsewhere"))
    (store / "link.md").symlink_to(target)
    os.mkfifo(store / "pipe.md")
    before = {
        p.name: (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
        for p in store.iterdir()
    }

    view = engine.memory.load()

    assert [f.name for f in view.facts] == ["good"]
    codes = {d.path: d.code for d in view.diagnostics}
    for name, (_, code) in BAD_FILES.items():
        assert codes[f"{name}.md"] == code, name
    assert codes["huge.md"] == "too_large"
    assert codes["link.md"] == "symlink"
    assert codes["pipe.md"] == "not_regular_file"
    assert all(d.scope is Scope.PROJECT and d.message for d in view.diagnostics)
    after = {
        p.name: (p.read_bytes() if p.is_file() and not p.is_symlink() else None)
        for p in store.iterdir()
    }
    for name, data in before.items():
        assert after[name] == data, f"{name} was changed"
    assert not Path("/tmp/pwned").exists()
    # diagnostics never carry absolute paths
    assert all(not d.path.startswith("/") for d in view.diagnostics)
    # the cached second open reports the same
    again = engine.memory.load()
    assert {d.path: d.code for d in again.diagnostics} == codes
    assert [f.name for f in again.facts] == ["good"]


def test_two_files_with_one_id_are_both_excluded(engine: Engine, store: Path) -> None:
    (store / "twin.md").write_text(GOOD.format(hex="a" * 32, name="twin"))
    view = engine.memory.load()
    assert view.facts == []
    assert sorted((d.path, d.code) for d in view.diagnostics) == [
        ("good.md", "duplicate_id"),
        ("twin.md", "duplicate_id"),
    ]


def test_writes_still_work_beside_bad_files(engine: Engine, store: Path) -> None:
    (store / "broken.md").write_bytes(b"---\n: : :\n---\n")
    fact = engine.memory.create(name="fresh", type=FactType.PROJECT, body="b")
    assert fact.ref == "project/fresh.md"
    assert (store / "broken.md").read_bytes() == b"---\n: : :\n---\n"


def test_yaml_no_stays_text_and_no_silent_coercion(engine: Engine, store: Path) -> None:
    (store / "no.md").write_text(
        GOOD.format(hex="c" * 32, name="no").replace("title: no", "title: no\n")
    )
    fact = engine.memory.resolve("no").fact
    assert fact.title == "no" and fact.name == "no"


def test_a_bad_file_edited_into_shape_is_picked_up(engine: Engine, store: Path) -> None:
    bad = store / "later.md"
    bad.write_bytes(b"---\ntitle: [\n---\n")
    assert "later" not in [f.name for f in engine.memory.load().facts]
    bad.write_text(GOOD.format(hex="d" * 32, name="later"))
    os.utime(bad, ns=(1, 2))  # a different mtime even on coarse clocks
    assert "later" in [f.name for f in engine.memory.load().facts]
