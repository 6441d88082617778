"""Each command once through the real console entry (``python -m context_center``) in its own
process: argument parsing, exit codes and a JSON object on stdout, as a script or an agent
sees them. Behaviour in depth is tested in-process (tests/cli/inproc.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from context_center.engine import Engine, FactType, Scope


@pytest.fixture(scope="module")
def home_with_a_fact(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    base = tmp_path_factory.mktemp("entry")
    home, workspace = base / "home", base / "ws"
    home.mkdir()
    (workspace / ".git").mkdir(parents=True)
    engine = Engine(home=home, workspace=workspace)
    engine.create_fact(
        name="release-branch",
        title="Release branch",
        description="Releases are cut from release/* branches",
        type=FactType.PROJECT,
        scope=Scope.PROJECT,
        body="Cut releases from release/* branches; tag them vX.Y.Z.",
    )
    engine.create_fact(
        name="old-notes",
        title="Old notes",
        description="Notes to forget",
        type=FactType.PROJECT,
        body="Nothing important.",
    )
    engine.forget_fact("project/old-notes.md")
    return home, workspace


COMMANDS: list[tuple[list[str], int, str]] = [
    (["memory", "list"], 0, "facts"),
    (["memory", "read", "project/release-branch.md"], 0, "fact"),
    (["memory", "search", "release branch"], 0, "hits"),
    (["memory", "instructions"], 0, "documents"),
    (["memory", "recall"], 0, "trace"),
    (["memory", "revisions", "project/release-branch.md"], 0, "revisions"),
    (["memory", "archived"], 0, "archived"),
    (["memory", "migrate"], 0, "migrated"),
    (["memory", "read", "project/missing.md"], 1, "error"),
    (["recall", "how do we cut the release branch?"], 0, "block"),
    (["prefix"], 0, "text"),
    (["approvals", "list"], 0, "items"),
    (["suggestions"], 0, "memories"),
]


@pytest.mark.parametrize(("argv", "code", "key"), COMMANDS, ids=lambda v: str(v))
def test_the_console_entry(
    home_with_a_fact: tuple[Path, Path], argv: list[str], code: int, key: str
) -> None:
    home, workspace = home_with_a_fact
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "context_center",
            "--home",
            str(home),
            "--workspace",
            str(workspace),
            "--json",
            *argv,
        ],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == code, proc.stderr
    assert key in json.loads(proc.stdout)


def test_a_usage_error_exits_2(home_with_a_fact: tuple[Path, Path]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "context_center", "memory", "frobnicate"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "usage:" in proc.stderr


def test_the_command_table_matches_the_full_parser() -> None:
    from context_center.cli import COMMAND_MODULES, build_parser

    def commands(parser: object) -> set[str]:
        for action in parser._actions:  # type: ignore[attr-defined]
            if getattr(action, "choices", None) and action.dest == "command":
                return set(action.choices)
        return set()

    assert commands(build_parser()) == set(COMMAND_MODULES)
    for word in COMMAND_MODULES:
        assert word in commands(build_parser(word))


def test_a_recall_process_imports_only_what_recall_needs(tmp_path: Path) -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from context_center.cli import main; "
            "main(['--home', sys.argv[1], '--workspace', sys.argv[1], 'recall', 'hello']); "
            "print(' '.join(sorted(sys.modules)))",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    loaded = set(proc.stdout.split())
    for heavy in (
        "PySide6",
        "qasync",
        "mcp",
        "context_center.cli.suggestions",
        "context_center.engine.suggestions.mining",
        "context_center.cli.approvals",
        "ctypes.util",  # find_library runs ldconfig in a child (store/atomic.py)
        "numpy.ma",  # np.isin imports it (recall/masks.isin does not)
    ):
        assert heavy not in loaded, heavy


def test_a_memory_subcommand_imports_only_its_module(tmp_path: Path) -> None:
    from context_center.cli import MEMORY_SUBCOMMANDS, build_parser

    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from context_center.cli import main; "
            "main(['--home', sys.argv[1], '--workspace', sys.argv[1], 'memory', 'list']); "
            "print(' '.join(sorted(sys.modules)))",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    loaded = set(proc.stdout.split())
    assert "context_center.cli.instructions" not in loaded
    assert "context_center.cli.recall" not in loaded
    # the table names every memory subcommand the full parser has
    full = build_parser()
    memory = next(a for a in full._actions if getattr(a, "choices", None) and "memory" in a.choices)
    sub = next(a for a in memory.choices["memory"]._actions if getattr(a, "choices", None))
    assert set(sub.choices) == MEMORY_SUBCOMMANDS


def test_a_prompt_hook_process_imports_neither_the_gate_nor_markdown(tmp_path: Path) -> None:
    hook_input = json.dumps(
        {"hook_event_name": "UserPromptSubmit", "prompt": "hello", "cwd": str(tmp_path)}
    )
    proc = subprocess.run(
        [
            sys.executable,
            "-c",
            "import io, sys; from context_center.cli import main; "
            "sys.stdin = io.StringIO(sys.argv[2]); "
            "main(['--home', sys.argv[1], 'hook', 'claude-code', 'UserPromptSubmit']); "
            "print(' '.join(sorted(sys.modules)))",
            str(tmp_path),
            hook_input,
        ],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    loaded = set(proc.stdout.split())
    assert "context_center.mcp.hooks" in loaded  # it did run the hook
    for heavy in (
        "markdown_it",  # find_workspace_root is fsread's (not instructions.resolve's)
        "context_center.engine.gate.decision",  # Controller is proposal's
        "context_center.engine.gate.approvals",
        "filelock",  # the access log's lock is locking.brief_lock
    ):
        assert heavy not in loaded, heavy
    assert any((tmp_path / "projects").glob("*/state/access-log.jsonl"))  # it was recorded


def test_a_served_client_loads_neither_socket_nor_hashlib(tmp_path: Path) -> None:
    # the C socket type and the built-in SHA-256: ``socket`` builds enums and imports
    # selectors, ``hashlib`` loads OpenSSL (about 8 ms of a served client's 30 together)
    import socket

    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(str(tmp_path / "a.sock"))
    listener.listen(1)
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-c",
                "import sys; from context_center import entry, sockets; "
                "s = entry._connect(sys.argv[1]); sockets.socket_dir(sys.argv[1]); "
                "print(s is not None, 'socket' in sys.modules, 'hashlib' in sys.modules)",
                str(tmp_path),
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
    finally:
        listener.close()
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["True", "False", "False"]


def test_the_socket_folder_key_is_sha256_of_the_real_home_path(tmp_path: Path) -> None:
    import hashlib

    from context_center import sockets

    for name in ("home", "家目录", "bad-\udcff-bytes"):
        home = tmp_path / name
        want = hashlib.sha256(os.path.realpath(home).encode("utf-8", "surrogateescape"))
        assert sockets.socket_dir(str(home)).endswith(want.hexdigest()[:20])
