"""YAML and TOML nested deeper than their parsers go (PyYAML and tomllib raise RecursionError,
not their own error) are read as the same malformed input they already handle."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from context_center.engine.agents.claude_memory import read_memory_text
from context_center.engine.claude_memory.reader import read_memory_file
from context_center.engine.instructions.profiles.codex import read_config

DEEP = 100_000


def test_a_claude_memory_file_with_a_nested_yaml_bomb_is_read_by_its_lines(tmp_path: Path) -> None:
    text = f"---\nname: {'[' * DEEP}\ndescription: kept\n---\nThe body stays.\n"
    path = tmp_path / "note.md"
    read = read_memory_file(path, text.encode(), datetime(2026, 1, 1, tzinfo=UTC))
    assert "The body stays." in read.body
    assert read.description == "kept"


def test_an_agent_memory_write_with_a_nested_yaml_bomb_keeps_its_text(tmp_path: Path) -> None:
    text = f"---\nname: {'{a: ' * DEEP}\n---\nThe body stays.\n"
    fields = read_memory_text(text, "note")
    assert "The body stays." in str(fields)


def test_a_codex_config_with_a_nested_toml_bomb_is_reported_not_raised(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text(f"a = {'[' * DEEP}\n", encoding="utf-8")
    config = read_config(tmp_path)
    assert config.problems == ("config.toml was not read: it is nested too deeply",)
    assert config.root_markers == (".git",)  # the defaults, as for any unreadable file
