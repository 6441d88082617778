"""The agent-facing engine reads: freshness by folder stamps (racy stamps distrusted, only a
changed store reloaded), provider-safe text, and the session context's cut."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from context_center.engine import Engine, FactType, Scope
from context_center.engine.agents.freshness import RACY_S, FolderWatch, Stamp
from context_center.engine.agents.public import ProviderText, clip_lines


def _age(folder: Path, seconds: float) -> None:
    past = time.time() - seconds
    os.utime(folder, (past, past))


def test_folder_watch(tmp_path: Path) -> None:
    folder = tmp_path / "store"
    watch = FolderWatch()
    assert watch.changed(folder)  # never read
    watch.read_done(folder, watch.before_read(folder))
    assert not watch.changed(folder)  # missing, and still missing
    folder.mkdir()
    assert watch.changed(folder)
    watch.read_done(folder, watch.before_read(folder))
    assert watch.changed(folder)  # read within RACY_S of its last change: not trusted
    _age(folder, RACY_S + 1)
    watch.read_done(folder, watch.before_read(folder))
    assert not watch.changed(folder)
    (folder / "a.md").write_text("x")
    assert watch.changed(folder)
    assert Stamp.of(folder) != Stamp.of(tmp_path)


def test_agent_view_reloads_only_the_store_that_changed(
    engine: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine.create_fact(name="a", type=FactType.PROJECT, body="alpha")
    engine.create_fact(name="g", type=FactType.USER, scope=Scope.GLOBAL, body="gamma")
    for store in (engine.memory.project.root, engine.memory.global_.root):
        _age(store, RACY_S + 1)
    engine.agent_view()
    loads: list[str] = []
    for store in (engine.memory.project, engine.memory.global_):
        original = store.load

        def counting(*args: object, _orig=original, _scope=store.scope.value, **kwargs: object):  # type: ignore[no-untyped-def]
            loads.append(_scope)
            return _orig(*args, **kwargs)

        monkeypatch.setattr(store, "load", counting)
    first = engine.agent_view()
    assert loads == [] and engine.agent_view() is first  # nothing changed: no reload
    other = Engine(home=engine.home, workspace=engine.workspace)
    other.create_fact(name="b", type=FactType.PROJECT, body="beta")
    view = engine.agent_view()
    assert loads == ["project"]
    assert [f.ref for f in view.facts] == ["project/a.md", "project/b.md", "global/g.md"]


def test_provider_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "me"))
    text = ProviderText(tmp_path / "cc-home", tmp_path / "repo")
    assert (
        text(f"see {tmp_path}/repo/src and {tmp_path}/cc-home/x")
        == "see <workspace>/src and <local-home>/x"
    )
    assert text(f"{tmp_path}/me/.ssh") == "<local-home>/.ssh"
    assert text("C:\\Users\\ann\\x and /Users/Bob Smith/y") == "<local-home>\\x and <local-home>/y"
    # control characters are escaped, as in the recall block and the prefix (never dropped:
    # the person and the model see the same visible text)
    assert text("bell\x07 esc\x1b[0m\nkept\ttab") == "bell\\x07 esc\\x1b[0m\nkept\ttab"
    assert text("the key is AKIAIOSFODNN7EXAMPLE") == "the key is [withheld: AWS access key id]"
    assert text("中文 /tmp/x") == "中文 /tmp/x"
    result = text.result(
        {"ref": "project/a.md", "body": f"{tmp_path}/repo", "hits": [{"snippet": "\x00x"}]}
    )
    assert result == {
        "ref": "project/a.md",
        "body": "<workspace>",
        "hits": [{"snippet": "\\x00x"}],
    }


def test_clip_lines() -> None:
    text = "# Memory index\n\n" + "".join(f"- project/f{i}.md — title {i}\n" for i in range(1000))
    clipped = clip_lines(text, 2000)
    assert len(clipped) <= 2000
    assert clipped.endswith(
        "left out to keep this short; search memory with the memory_search tool (or `context-center memory search`).\n"
    )
    kept = clipped.count("\n- project/")
    assert f"… {1000 - kept} more fact(s)" in clipped
    assert clip_lines("short\n", 2000) == "short\n"


def test_session_context_is_cut_for_a_large_store(engine: Engine) -> None:
    from context_center.engine import Fact
    from context_center.engine.store.factfile import render_fact

    engine.memory.project.root.mkdir(parents=True)
    for i in range(400):
        fact = Fact(
            id=f"mem-{i:032x}",
            revision=1,
            created_at=None,
            updated_at=None,
            name=f"fact-{i:03d}",
            title=f"A rather long title for fact number {i}",
            description="with a description that takes room in the index",
            type=FactType.PROJECT,
            scope=Scope.PROJECT,
            body="b",
        )
        (engine.memory.project.root / f"fact-{i:03d}.md").write_bytes(render_fact(fact))
    text = engine.session_context(max_chars=3000)
    assert len(text) <= 3000 and "more fact(s) left out" in text
