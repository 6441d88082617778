"""Adding a standing rule: which file, encoding and line endings kept, bad notes refused."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from context_center.engine.errors import InvalidRequest
from context_center.engine.instructions.resolve import resolve_instructions
from context_center.engine.instructions.rules import (
    MAX_NOTE_CHARS,
    RuleScope,
    add_rule,
    normalize_note,
)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


def names(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir())


@pytest.mark.parametrize(
    ("scope", "where", "created"),
    [
        ("user", "home", "AGENTS.md"),
        ("project", "ws", "AGENTS.md"),
        ("local", "ws", "AGENTS.local.md"),
    ],
)
def test_creates_the_default_file(
    home: Path, ws: Path, scope: str, where: str, created: str
) -> None:
    path = add_rule(home, ws, "Run the tests", scope)
    directory = home if where == "home" else ws
    assert path == directory / created
    assert path.read_bytes() == b"- Run the tests\n"
    assert names(directory) == [created]


def test_appends_to_the_first_existing_file_of_the_scope(home: Path, ws: Path) -> None:
    (ws / "CLAUDE.md").write_text("# Rules\n", encoding="utf-8")
    (ws / "AGENTS.md").write_text("# Agents\n", encoding="utf-8")
    (ws / "CLAUDE.local.md").write_text("local\n", encoding="utf-8")
    (home / "CLAUDE.md").write_text("user\n", encoding="utf-8")

    assert add_rule(home, ws, "project note", RuleScope.PROJECT) == ws / "AGENTS.md"
    assert add_rule(home, ws, "local note", RuleScope.LOCAL) == ws / "CLAUDE.local.md"
    assert add_rule(home, ws, "user note", RuleScope.USER) == home / "CLAUDE.md"

    assert (ws / "AGENTS.md").read_text(encoding="utf-8") == "# Agents\n- project note\n"
    assert (ws / "CLAUDE.md").read_text(encoding="utf-8") == "# Rules\n"
    assert (ws / "CLAUDE.local.md").read_text(encoding="utf-8") == "local\n- local note\n"
    assert (home / "CLAUDE.md").read_text(encoding="utf-8") == "user\n- user note\n"

    (ws / "REASONIX.md").write_text("first by name order", encoding="utf-8")
    assert add_rule(home, ws, "again", "project") == ws / "REASONIX.md"


def test_crlf_and_missing_final_newline(home: Path, ws: Path) -> None:
    target = ws / "AGENTS.md"
    target.write_bytes(b"# Rules\r\n- one\r\n- two")
    add_rule(home, ws, "three", "project")
    assert target.read_bytes() == b"# Rules\r\n- one\r\n- two\r\n- three\r\n"


def test_lf_file_without_final_newline(home: Path, ws: Path) -> None:
    target = ws / "AGENTS.md"
    target.write_bytes(b"- one")
    add_rule(home, ws, "two", "project")
    assert target.read_bytes() == b"- one\n- two\n"


def test_gb18030_file_stays_gb18030(home: Path, ws: Path) -> None:
    target = ws / "AGENTS.md"
    original = "# 构建\n- 提交前运行测试。\n".encode("gb18030")
    target.write_bytes(original)
    add_rule(home, ws, "不要修改生成的文件", "project")
    data = target.read_bytes()
    assert data == original + "- 不要修改生成的文件\n".encode("gb18030")
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")
    res = resolve_instructions(home, ws, ws)
    assert res.documents[0].body.endswith("- 不要修改生成的文件")


def test_utf8_bom_is_kept(home: Path, ws: Path) -> None:
    target = ws / "AGENTS.md"
    target.write_bytes(b"\xef\xbb\xbf# Rules\n")
    add_rule(home, ws, "规则 rule", "project")
    assert target.read_bytes() == b"\xef\xbb\xbf# Rules\n" + "- 规则 rule\n".encode()


def test_undecodable_file_is_refused_and_unchanged(home: Path, ws: Path) -> None:
    target = ws / "AGENTS.md"
    target.write_bytes(b"\xff\xfe\x80 binary")
    with pytest.raises(InvalidRequest) as info:
        add_rule(home, ws, "note", "project")
    assert info.value.code == "instruction_file_undecodable"
    assert target.read_bytes() == b"\xff\xfe\x80 binary"


@pytest.mark.parametrize("note", ["", "   ", "\n\t\n", "- ", "*"])
def test_empty_note_is_refused(home: Path, ws: Path, note: str) -> None:
    with pytest.raises(InvalidRequest) as info:
        add_rule(home, ws, note, "project")
    assert info.value.code == "empty_note"
    assert names(ws) == []


def test_note_is_one_line_without_a_second_marker() -> None:
    assert normalize_note("  Run   the\ntests\r\nfirst  ") == "Run the tests first"
    assert normalize_note("- already a bullet") == "already a bullet"
    assert normalize_note("* starred") == "starred"
    assert normalize_note("-1 is a number") == "-1 is a number"
    assert normalize_note("@docs/x.md") == "@docs/x.md"
    with pytest.raises(InvalidRequest) as info:
        normalize_note("x" * (MAX_NOTE_CHARS + 1))
    assert info.value.code == "note_too_long"


def test_multiline_note_becomes_one_bullet(home: Path, ws: Path) -> None:
    add_rule(home, ws, "first line\nsecond line", "project")
    assert (ws / "AGENTS.md").read_text(encoding="utf-8") == "- first line second line\n"


def test_unknown_scope_is_refused(home: Path, ws: Path) -> None:
    with pytest.raises(ValueError):
        add_rule(home, ws, "note", "team")


def test_symlink_is_followed_inside_and_refused_outside(
    home: Path, ws: Path, tmp_path: Path
) -> None:
    (ws / "docs").mkdir()
    real = ws / "docs" / "rules.md"
    real.write_text("- base\n", encoding="utf-8")
    os.symlink(real, ws / "AGENTS.md")
    assert add_rule(home, ws, "added", "project") == ws / "AGENTS.md"
    assert (ws / "AGENTS.md").is_symlink()
    assert real.read_text(encoding="utf-8") == "- base\n- added\n"

    outside = tmp_path / "outside.md"
    outside.write_text("outside\n", encoding="utf-8")
    os.symlink(outside, ws / "AGENTS.local.md")
    with pytest.raises(InvalidRequest) as info:
        add_rule(home, ws, "nope", "local")
    assert info.value.code == "instruction_symlink_escape"
    assert outside.read_text(encoding="utf-8") == "outside\n"


def test_directory_in_the_way_is_refused(home: Path, ws: Path) -> None:
    (ws / "AGENTS.md").mkdir()
    with pytest.raises(InvalidRequest) as info:
        add_rule(home, ws, "note", "project")
    assert info.value.code == "instruction_unwritable"


def test_mode_is_kept_and_no_temp_files_remain(home: Path, ws: Path) -> None:
    target = ws / "AGENTS.md"
    target.write_text("- a\n", encoding="utf-8")
    target.chmod(0o600)
    add_rule(home, ws, "b", "project")
    assert stat.S_IMODE(target.stat().st_mode) == 0o600
    assert names(ws) == ["AGENTS.md"]


def test_added_rule_shows_up_in_resolution_with_its_scope(home: Path, ws: Path) -> None:
    add_rule(home, ws, "user wide", "user")
    add_rule(home, ws, "team wide", "project")
    add_rule(home, ws, "just me here", "local")
    res = resolve_instructions(home, ws, ws)
    assert [(d.label, d.scope.value, d.body) for d in res.documents] == [
        ("user/AGENTS.md", "user", "- user wide"),
        ("workspace/AGENTS.md", "project", "- team wide"),
        ("workspace/AGENTS.local.md", "local", "- just me here"),
    ]


def test_a_home_that_is_a_file_is_refused_plainly_not_as_busy(tmp_path: Path, ws: Path) -> None:
    home = tmp_path / "not-a-folder"
    home.write_text("a file, not a home")
    with pytest.raises(InvalidRequest) as caught:
        add_rule(home, ws, "Always run ruff.", "user")
    assert caught.value.code == "instruction_unwritable"
    assert caught.value.message == "cannot create AGENTS.md: not-a-folder is not a folder"
    assert home.read_text() == "a file, not a home"  # nothing changed
