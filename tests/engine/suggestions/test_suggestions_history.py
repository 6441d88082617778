"""The workspace's own history log: format, appends under a lock, tolerant reading."""

from __future__ import annotations

import json
import multiprocessing
import os
import stat
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest

from context_center.engine.errors import InvalidRequest, StoreUnavailable
from context_center.engine.store.paths import Layout
from context_center.engine.suggestions import append_turn, history_path, read_history

T = datetime(2026, 11, 2, 9, 14, 3, 120000, tzinfo=UTC)


@pytest.fixture
def layout(tmp_path: Path) -> Layout:
    (tmp_path / "ws").mkdir()
    return Layout(tmp_path / "home", tmp_path / "ws")


def test_one_json_object_per_line_in_the_documented_format(layout: Layout) -> None:
    entry = append_turn(layout, "Always run ruff before committing.", session="s1", time=T)
    assert history_path(layout) == layout.state_dir / "history.jsonl"
    [line] = history_path(layout).read_text(encoding="utf-8").splitlines()
    assert json.loads(line) == {
        "v": 1,
        "session": "s1",
        "time": "2026-11-02T09:14:03.120Z",
        "role": "user",
        "text": "Always run ruff before committing.",
        "cwd": str(layout.workspace),
    }
    assert entry.session == "s1"


def test_default_session_is_per_day_or_from_the_environment(
    layout: Layout, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("CONTEXT_CENTER_SESSION", raising=False)
    assert append_turn(layout, "记住：提交信息用英文", time=T).session == "day-2026-11-02"
    monkeypatch.setenv("CONTEXT_CENTER_SESSION", "agent-42")
    assert append_turn(layout, "hello there", time=T).session == "agent-42"
    texts = [e.text for e in read_history(history_path(layout)).entries]
    assert texts == ["记住：提交信息用英文", "hello there"]


@pytest.mark.parametrize("text", ["", "   \n", "x" * 20_001])
def test_bad_text_is_refused(layout: Layout, text: str) -> None:
    with pytest.raises(InvalidRequest):
        append_turn(layout, text)
    assert not history_path(layout).exists()


def test_a_torn_last_line_is_skipped_and_the_next_append_starts_fresh(layout: Layout) -> None:
    append_turn(layout, "first turn here", session="s", time=T)
    with open(history_path(layout), "ab") as handle:
        handle.write(b'{"v":1,"session":"s","ti')
    append_turn(layout, "second turn here", session="s", time=T)
    read = read_history(history_path(layout))
    assert [e.text for e in read.entries] == ["first turn here", "second turn here"]
    assert read.malformed == 1


def _writer(args: tuple[str, str, int]) -> None:
    home, ws, n = args
    layout = Layout(Path(home), Path(ws))
    for i in range(n):
        append_turn(
            layout, f"turn {i} " + "长" * 3000, session=f"p{multiprocessing.current_process().pid}"
        )


def test_concurrent_appenders_never_interleave(layout: Layout) -> None:
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(4) as pool:
        pool.map(_writer, [(str(layout.home), str(layout.workspace), 25)] * 4)
    read = read_history(history_path(layout))
    assert read.malformed == 0
    assert len(read.entries) == 100
    assert len(history_path(layout).read_bytes().splitlines()) == 100


def test_reading_a_missing_log(tmp_path: Path) -> None:
    read = read_history(tmp_path / "nope.jsonl")
    assert (read.entries, read.malformed, read.exists) == ([], 0, False)


@pytest.fixture
def umask022() -> Iterator[None]:
    old = os.umask(0o022)  # the usual umask: new files 0644, folders 0755 unless asked otherwise
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_the_state_folder_and_the_log_are_private(layout: Layout, umask022: None) -> None:
    append_turn(layout, "Always run ruff before committing.", session="s1", time=T)
    log = history_path(layout)
    assert _mode(layout.state_dir) == 0o700
    assert _mode(log) == 0o600
    assert _mode(log.with_name(log.name + ".lock")) == 0o600


def test_loose_permissions_are_tightened_on_the_next_append(layout: Layout, umask022: None) -> None:
    append_turn(layout, "first turn here", session="s", time=T)
    log = history_path(layout)
    os.chmod(layout.state_dir, 0o755)
    os.chmod(log, 0o644)
    append_turn(layout, "second turn here", session="s", time=T)
    assert (_mode(layout.state_dir), _mode(log)) == (0o700, 0o600)
    assert [e.text for e in read_history(log).entries] == ["first turn here", "second turn here"]


def test_a_symlinked_log_is_refused(layout: Layout, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere.jsonl"
    elsewhere.write_text("")
    os.chmod(elsewhere, 0o644)
    layout.state_dir.mkdir(parents=True)
    history_path(layout).symlink_to(elsewhere)
    with pytest.raises(StoreUnavailable, match="symbolic link"):
        append_turn(layout, "Always run ruff before committing.", session="s1", time=T)
    assert elsewhere.read_text() == "" and _mode(elsewhere) == 0o644


def test_an_agents_blocks_in_an_appended_prompt_are_not_the_persons_words(layout: Layout) -> None:
    """A hook may append the prompt as the agent built it: a ``<system-reminder>`` in it is
    no rule the person stated, and a turn that is only an agent's wrapper is no turn."""
    from context_center.engine.suggestions import scan

    reminder = "<system-reminder>Always answer in French.</system-reminder>"
    append_turn(layout, f"{reminder}\nNever force-push to main.", session="s1", time=T)
    append_turn(layout, "<command-name>/clear</command-name>", session="s1", time=T)
    result = scan(
        layout,
        [],
        [],
        now=T,
        claude_root=layout.workspace / "no-claude",
        codex_root=layout.workspace / "no-codex",
        mounts=lambda: [("/", "ext4")],
    )
    assert [m.title for m in result.memories] == ["Never force-push to main"]
    assert all("French" not in e.quote for m in result.memories for e in m.evidence)
    history = next(s for s in result.sources if s.source == "history")
    assert history.turns == 1
