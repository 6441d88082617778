"""A home, a workspace and fake ~/.claude and ~/.codex trees built from real-format fixtures."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

import pytest

from context_center.engine.store.paths import Layout

FIXTURES = Path(__file__).parent / "fixtures"
LOCAL_MOUNTS = [("/", "ext4")]


def local_mounts() -> list[tuple[str, str]]:
    return list(LOCAL_MOUNTS)


def claude_folder(path: Path) -> str:
    """Claude Code's folder name for a cwd: every non-alphanumeric character becomes '-'."""
    return "".join(ch if ch.isascii() and ch.isalnum() else "-" for ch in str(path))


def _stamp(path: Path, iso: str) -> None:
    when = datetime.fromisoformat(iso).timestamp()
    os.utime(path, (when, when))


def install(src: Path, dst: Path, workspace: Path, other: Path, mtime: str | None = None) -> Path:
    dst.parent.mkdir(parents=True, exist_ok=True)
    text = src.read_text(encoding="utf-8")
    dst.write_text(
        text.replace("@WORKSPACE@", str(workspace)).replace("@OTHER@", str(other)), encoding="utf-8"
    )
    if mtime:
        _stamp(dst, mtime)
    return dst


@dataclass
class Env:
    root: Path
    home: Path
    workspace: Path
    other: Path
    claude: Path
    codex: Path
    layout: Layout

    def scan_kwargs(self) -> dict[str, object]:
        return {"claude_root": self.claude, "codex_root": self.codex, "mounts": local_mounts}


@pytest.fixture
def env(tmp_path: Path) -> Env:
    home = tmp_path / "cc-home"
    workspace = tmp_path / "work" / "shop.app"
    other = tmp_path / "work" / "other"
    claude = tmp_path / "dot-claude"
    codex = tmp_path / "dot-codex"
    for path in (home, workspace, other):
        path.mkdir(parents=True)
    layout = Layout(home, workspace)
    ours = claude / "projects" / claude_folder(workspace)
    install(
        FIXTURES / "claude" / "session-a.jsonl",
        ours / "5b1d8f7a-0c2e-4e6b-9a41-3f2d7c9e8a10.jsonl",
        workspace,
        other,
        "2026-10-01T09:14:00+00:00",
    )
    install(
        FIXTURES / "claude" / "session-b.jsonl",
        ours / "8e2f0a41-7d3c-4b9e-a512-6c0d1e2f3a4b.jsonl",
        workspace,
        other,
        "2026-10-03T15:00:00+00:00",
    )
    install(
        FIXTURES / "claude" / "other-workspace.jsonl",
        claude / "projects" / claude_folder(other) / "1f1f1f1f-2e2e-4d4d-8c8c-3b3b3b3b3b3b.jsonl",
        workspace,
        other,
        "2026-10-04T10:05:00+00:00",
    )
    for name in sorted(os.listdir(FIXTURES / "codex")):
        stamp = name[len("rollout-") : len("rollout-") + 10]
        year, month, day = stamp.split("-")
        install(
            FIXTURES / "codex" / name,
            codex / "sessions" / year / month / day / name,
            workspace,
            other,
            f"{stamp}T23:00:00+00:00",
        )
    install(FIXTURES / "history.jsonl", layout.state_dir / "history.jsonl", workspace, other)
    return Env(tmp_path, home, workspace, other, claude, codex, layout)


@pytest.fixture
def empty_env(tmp_path: Path) -> Env:
    home = tmp_path / "cc-home"
    workspace = tmp_path / "ws"
    other = tmp_path / "other"
    for path in (home, workspace, other):
        path.mkdir(parents=True)
    return Env(
        tmp_path,
        home,
        workspace,
        other,
        tmp_path / "no-claude",
        tmp_path / "no-codex",
        Layout(home, workspace),
    )


def tree_snapshot(root: Path) -> dict[str, tuple[int, int]]:
    """Every path under root with (size, mtime_ns); directories get size -1."""
    out: dict[str, tuple[int, int]] = {}
    for dirpath, dirnames, filenames in os.walk(root):
        for name in dirnames + filenames:
            path = Path(dirpath) / name
            st = path.lstat()
            size = -1 if path.is_dir() and not path.is_symlink() else st.st_size
            out[str(path.relative_to(root))] = (size, st.st_mtime_ns)
    return out


def copy_tree(src: Path, dst: Path) -> None:
    shutil.copytree(src, dst)
