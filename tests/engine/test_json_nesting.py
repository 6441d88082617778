"""A JSON file (or line) nested deeper than the parser goes makes ``json.loads`` raise
RecursionError, not ValueError. Each reader treats it as it treats a malformed file of the
same kind: a derived cache is ignored and written again, a bad line of a log is skipped, a
settings or config file gets the reader's usual answer for invalid JSON (a config is never
overwritten)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from context_center.engine.access_log import AccessEntry, AccessLog
from context_center.engine.agents.claude_memory import encode_project
from context_center.engine.agents.config_files import ConfigUnreadable
from context_center.engine.claude_memory import locate
from context_center.engine.errors import InvalidRequest, StoreUnavailable
from context_center.engine.facade import Engine
from context_center.engine.model import FactType
from context_center.engine.store import factcache, factpack, memory_splice, stamp
from context_center.engine.store.paths import store_cache_dir
from context_center.engine.suggestions import load_decisions
from context_center.engine.suggestions.decisions import decisions_path, record
from context_center.engine.suggestions.history import history_path, read_history
from context_center.engine.suggestions.models import Decision

OBJECT_BOMB = b'{"a":' * 20_000  # 100,000 characters
ARRAY_BOMB = b"[" * 100_000


def _engine(home: Path, workspace: Path) -> Engine:
    return Engine(home=home, workspace=workspace)


def _insert_line(path: Path, at: int, line: bytes) -> None:
    lines = path.read_bytes().splitlines(keepends=True)
    path.write_bytes(b"".join([*lines[:at], line + b"\n", *lines[at:]]))


# --------------------------------------------------------------------------- derived caches


def test_a_bomb_in_the_parsed_facts_cache_header_is_ignored_and_rewritten(
    home: Path, workspace: Path
) -> None:
    engine = _engine(home, workspace)
    for name in ("one", "two"):
        engine.create_fact(name=name, type=FactType.PROJECT, body=f"the {name} fact")
    engine.open()
    root = engine.layout.project_store
    cache = factcache.cache_path(root)
    assert cache.is_file()
    header = OBJECT_BOMB
    cache.write_bytes(factpack.MAGIC + len(header).to_bytes(4, "little") + header)
    assert factcache.summary(root) is None
    assert factcache.load_cache(root) is factpack.EMPTY
    view = _engine(home, workspace).open()
    assert sorted(e.fact.name for e in view.entries if e.fact.scope.value == "project") == [
        "one",
        "two",
    ]
    got = factcache.summary(root)  # written again by the open
    assert got is not None and got.rows == 2


def test_a_bomb_in_memory_index_json_makes_a_full_index_rewrite(
    home: Path, workspace: Path
) -> None:
    engine = _engine(home, workspace)
    for name in ("one", "two"):
        engine.create_fact(name=name, type=FactType.PROJECT, body=f"the {name} fact")
    root = engine.layout.project_store
    side = store_cache_dir(root) / memory_splice.SIDE_FILE
    assert side.is_file()
    side.write_bytes(OBJECT_BOMB)
    engine.create_fact(name="three", type=FactType.PROJECT, body="the third fact")
    index = (root / "MEMORY.md").read_text(encoding="utf-8")
    for name in ("one", "two", "three"):
        assert f"]({name}.md)" in index
    json.loads(side.read_bytes())  # recorded again by the write


def test_a_bomb_line_in_the_store_journal_is_skipped(home: Path, workspace: Path) -> None:
    engine = _engine(home, workspace)
    engine.create_fact(name="one", type=FactType.PROJECT, body="the first fact")
    root = engine.layout.project_store
    old = stamp.store_stamp(root)
    engine.create_fact(name="two", type=FactType.PROJECT, body="the second fact")
    engine.create_fact(name="three", type=FactType.PROJECT, body="the third fact")
    new = stamp.store_stamp(root)
    expected = stamp.journal_between(root, old, new)
    assert expected is not None and len(expected) == 2
    journal = store_cache_dir(root) / stamp.JOURNAL_FILE
    _insert_line(journal, 1, ARRAY_BOMB)
    assert stamp.journal_between(root, old, new) == expected
    # and through recall, which catches its index up with the journal
    engine.recall("third fact")
    engine.create_fact(
        name="four", type=FactType.PROJECT, title="Marmalade jars", body="On the top shelf."
    )
    _insert_line(journal, 2, ARRAY_BOMB)
    assert (
        "On the top shelf." in _engine(home, workspace).recall("where are the marmalade jars").block
    )


# --------------------------------------------------------------------------- JSON-lines logs


def test_a_bomb_line_in_the_approval_audit_log_is_skipped(home: Path, workspace: Path) -> None:
    engine = _engine(home, workspace)
    data: dict[str, Any] = {
        "operation": "create",
        "controller": "interactive",
        "owns_store": True,
        "agent": "claude-code",
        "name": "answer language",
        "title": "Answer language",
        "description": "preference: answer language",
        "type": "user",
        "body": "Answer in English.",
    }
    item = engine.agent_write(data).value.pending_id
    assert item is not None
    engine.reject(item, "not now")
    with open(engine.approvals.audit_path, "ab") as fh:
        fh.write(OBJECT_BOMB + b"\n")
    assert {row.action for row in engine.history()} >= {"queued", "rejected"}
    again = engine.requeue_rejected(item).value  # reads the log, then appends after the bomb
    events = [e.get("event") for e in engine.approvals.audit_entries()]
    assert events == ["queued", "rejected", "requeued"]
    with pytest.raises(InvalidRequest) as refused:
        engine.requeue_rejected(item)  # the line after the bomb is read
    assert refused.value.code == "already_requeued"
    assert again.id != item


def test_a_bomb_line_in_the_access_log_is_skipped(home: Path, workspace: Path) -> None:
    engine = _engine(home, workspace)
    log = AccessLog(engine.layout.state_dir)
    assert log.append(AccessEntry(via="mcp", tool="memory_list", agent="a", outcome="ok"))
    with open(log.path, "ab") as fh:
        fh.write(OBJECT_BOMB + b"\n")
    assert log.append(AccessEntry(via="mcp", tool="memory_read", agent="a", outcome="ok"))
    assert [e["tool"] for e in log.entries()] == ["memory_read", "memory_list"]
    assert log.compact() == 2


def test_a_bomb_line_in_the_history_and_a_transcript_is_skipped(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    engine = _engine(home, workspace)
    text = "always run the linter before every commit"
    engine.append_history(text)
    with open(history_path(engine.layout), "ab") as fh:
        fh.write(b'{"v":' * 20_000 + b"\n")
    engine.append_history(text)
    got = read_history(history_path(engine.layout))
    assert (len(got.entries), got.malformed) == (2, 1)

    claude = tmp_path / "dot-claude"
    folder = claude / "projects" / encode_project(str(workspace))
    folder.mkdir(parents=True)
    turn = {
        "type": "user",
        "cwd": str(workspace),
        "sessionId": "s1",
        "message": {"role": "user", "content": "never push to the release branch directly"},
    }
    lines = [
        json.dumps({**turn, "timestamp": f"2026-10-01T09:00:0{i}.000Z"}).encode() for i in range(3)
    ]
    bomb = b'{"type":"user","x":' + ARRAY_BOMB + b"}"  # a whole object with the tell
    (folder / "s1.jsonl").write_bytes(b"\n".join([*lines[:2], bomb, lines[2]]) + b"\n")
    scan = engine.scan_suggestions(claude_root=claude, codex_root=tmp_path / "dot-codex")
    counts = {s.source: (s.turns, s.malformed) for s in scan.sources}
    assert counts["history"] == (2, 1)
    assert counts["claude"] == (3, 1)


# --------------------------------------------------------------------------- settings and state


def test_a_bomb_decisions_file_counts_as_none_or_is_refused_unchanged(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    engine = _engine(home, workspace)
    layout = engine.layout
    path = decisions_path(layout)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(OBJECT_BOMB)
    assert load_decisions(layout) == []
    with pytest.raises(StoreUnavailable, match="not a valid decisions file"):
        load_decisions(layout, strict=True)
    decision = Decision(
        id="mem-1", key="k", kind="memory", decision="dismissed", time="2026-01-01T00:00:00Z"
    )  # type: ignore[arg-type]
    with pytest.raises(StoreUnavailable):
        record(layout, decision)
    assert path.read_bytes() == OBJECT_BOMB
    engine.scan_suggestions(claude_root=tmp_path / "c", codex_root=tmp_path / "x")


def test_a_bomb_claude_settings_file_is_ignored(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    claude = tmp_path / "dot-claude"
    claude.mkdir()
    (claude / "settings.json").write_bytes(OBJECT_BOMB)
    location = locate(workspace, home=tmp_path, claude_root=claude)
    assert not location.from_settings
    assert location.folder.parent.parent == claude / "projects"
    _engine(home, workspace).claude_memory(claude_root=claude, home=tmp_path)


def test_connect_refuses_a_bomb_config_and_leaves_it_as_it_was(home: Path, workspace: Path) -> None:
    engine = _engine(home, workspace)
    config = workspace / ".mcp.json"
    config.write_bytes(OBJECT_BOMB)
    for call in (
        lambda: engine.connect_agent("claude-code"),
        lambda: engine.connect_agent("claude-code", dry_run=True),
        lambda: engine.disconnect_agent("claude-code"),
    ):
        with pytest.raises(ConfigUnreadable, match="not valid JSON"):
            call()
        assert config.read_bytes() == OBJECT_BOMB
    states = {(c["file"], c["state"]) for c in engine.agent_connections()}
    assert (".mcp.json", "unreadable") in states


def test_connect_ignores_a_bomb_backup(home: Path, workspace: Path) -> None:
    engine = _engine(home, workspace)
    backup = workspace / ".mcp.json.context-center-backup"
    backup.write_bytes(OBJECT_BOMB)
    files = engine.connect_agent("claude-code").value["files"]
    assert {"file": ".mcp.json", "action": "created", "backup": None} in files
    assert "context-center" in json.loads((workspace / ".mcp.json").read_bytes())["mcpServers"]
    assert backup.read_bytes() == OBJECT_BOMB
