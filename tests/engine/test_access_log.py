"""The agent access log: content-free lines, newest first, bounded by age and count,
private, appended by a batching writer in a long-lived process."""

from __future__ import annotations

import json
import stat
from datetime import timedelta
from pathlib import Path

from context_center.engine.access_log import (
    MAX_AGE_DAYS,
    MAX_ENTRIES,
    AccessEntry,
    AccessLog,
    query_digest,
)
from context_center.engine.model import format_time, utc_now


def _entry(tool: str = "memory_read", **extra: object) -> AccessEntry:
    return AccessEntry(via="mcp", tool=tool, agent="claude-code", outcome="ok", **extra)  # type: ignore[arg-type]


def test_lines_are_content_free_and_newest_first(tmp_path: Path) -> None:
    log = AccessLog(tmp_path / "state")
    log.append(_entry("memory_search", query="the password is hunter2", refs=["project/a.md"]))
    log.append(_entry("recall", refs=[f"project/f{i}.md" for i in range(25)], elapsed_ms=1.23456))
    log.append(_entry("remember", pending_id="apr-1", error=None))
    raw = (tmp_path / "state" / "access-log.jsonl").read_text()
    assert "hunter2" not in raw
    newest, middle, oldest = log.entries()
    assert newest["tool"] == "remember" and newest["pending_id"] == "apr-1"
    assert len(middle["refs"]) == 20 and middle["refs_more"] == 5 and middle["elapsed_ms"] == 1.235
    assert oldest["query"] == query_digest("the password is hunter2")
    assert oldest["query"]["length"] == len("the password is hunter2")
    assert len(oldest["query"]["sha256"]) == 16


def test_labels_are_one_line_and_capped(tmp_path: Path) -> None:
    log = AccessLog(tmp_path)
    log.append(AccessEntry(via="mcp", tool="x\x1b[31m\ny", agent="a" * 500, outcome="ok"))
    entry = log.entries()[0]
    assert entry["tool"] == "x [31m y" and len(entry["agent"]) == 200


def test_private_modes(tmp_path: Path) -> None:
    state = tmp_path / "state"
    AccessLog(state).append(_entry())
    assert stat.S_IMODE(state.stat().st_mode) == 0o700
    assert stat.S_IMODE((state / "access-log.jsonl").stat().st_mode) == 0o600


def test_bounded_by_count(tmp_path: Path) -> None:
    log = AccessLog(tmp_path)
    line = json.dumps(_entry().to_json() | {"client": "c" * 120}) + "\n"
    log.path.write_text(line * (MAX_ENTRIES + 2_500))  # well past the bound, as by many writers
    log.append(_entry("recall"))
    lines = log.path.read_text().splitlines()
    assert len(lines) == MAX_ENTRIES
    assert json.loads(lines[-1])["tool"] == "recall"


def test_bounded_by_age(tmp_path: Path) -> None:
    log = AccessLog(tmp_path)
    old = utc_now() - timedelta(days=MAX_AGE_DAYS + 1)
    log.append(_entry("old", at=old))
    log.append(_entry("new"))
    assert [e["tool"] for e in log.entries()] == ["new"]
    assert "old" not in log.path.read_text()  # compacted when the first line was too old
    # Entries past the age bound are never listed even before a compaction.
    log.path.write_text(
        json.dumps(_entry("older").to_json() | {"at": format_time(old)})
        + "\n"
        + json.dumps(_entry("fresh").to_json())
        + "\n"
    )
    assert [e["tool"] for e in log.entries()] == ["fresh"]


def test_damaged_lines_are_skipped_and_a_torn_tail_is_kept_apart(tmp_path: Path) -> None:
    log = AccessLog(tmp_path)
    log.path.write_text('not json\n{"v": 1, "tool": "torn"')
    log.append(_entry("after"))
    assert [e.get("tool") for e in log.entries()] == ["after"]
    lines = log.path.read_text().splitlines()
    assert lines[1] == '{"v": 1, "tool": "torn"'  # the torn line stays whole and apart
    assert json.loads(lines[2])["tool"] == "after"


def test_background_writer_batches_and_close_writes_the_rest(tmp_path: Path) -> None:
    log = AccessLog(tmp_path)
    log.start_background()
    for i in range(50):
        assert log.append(_entry(f"t{i}"))
    log.close()
    assert len(log.entries()) == 50
    log.append(_entry("direct"))  # after close: written at once again
    assert log.entries()[0]["tool"] == "direct"


def test_an_unwritable_log_never_raises(tmp_path: Path) -> None:
    blocker = tmp_path / "state"
    blocker.write_text("a file where the folder should be")
    assert AccessLog(blocker).append(_entry()) is False
