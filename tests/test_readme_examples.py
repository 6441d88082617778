"""Every command example in the README runs as written on the demo home.

An *example* is a line that calls ``context-center`` in a fenced block tagged ``sh`` or
``bash`` (synopses with placeholders are tagged ``text``). Lines continued with ``\\`` or by a
following line that starts with ``|`` are one command. Each command runs through ``bash -c``,
in order, with ``context-center`` on ``PATH``, ``CONTEXT_CENTER_HOME`` set to a fresh demo home
and the demo workspace as the current directory — the way a reader who ran ``--demo`` would
try them. It must exit 0, unless its line ends with a comment ``# exits N (code)``: then it
must exit N and, when a code is named, say that code (JSON error, or stderr). Commands that
only open the window are not run (``--smoke-test`` covers the window's start).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

README = Path(__file__).resolve().parents[1] / "README.md"
RUNNABLE = {"sh", "bash", "shell", "console"}
EXPECT = re.compile(r"#\s*exits\s+(?P<code>\d+)(?:\s*\((?P<what>[a-z_]+)\))?\s*$")
# Options that make the program open (or check) the window instead of running a command.
WINDOW_ONLY = {"--demo", "--workspace", "--home", "--json"}


@dataclass(frozen=True)
class Example:
    line: int
    command: str
    exit_code: int
    error_code: str | None

    def __str__(self) -> str:
        return f"README.md:{self.line}: {self.command}"


def _complete(command: str) -> bool:
    if command.endswith("\\"):
        return False
    try:
        shlex.split(command)
    except ValueError:  # an open quote: the command goes on on the next line
        return False
    return True


def _commands(block: str) -> list[tuple[int, str]]:
    """Logical command lines of a fence: continuations (``\\``, an open quote, a next line
    starting with ``|``) joined; blank and comment lines left out."""
    out: list[tuple[int, str]] = []
    pending = ""
    start = 0
    lines = block.splitlines()
    for i, raw in enumerate(lines):
        line = raw.strip()
        if not pending:
            if not line or line.startswith("#"):
                continue
            start, pending = i, line
        elif pending.endswith("\\"):
            pending = pending[:-1].rstrip() + " " + line
        else:
            pending += "\n" + raw if not _complete(pending) else " " + line
        following = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if _complete(pending) and not following.startswith("|"):
            out.append((start, pending))
            pending = ""
    if pending:
        out.append((start, pending))
    return out


def _opens_window(command: str) -> bool:
    """``context-center`` with no subcommand (and not --smoke-test/--version/--help)."""
    try:
        words = shlex.split(command, comments=True)
    except ValueError:
        return False
    if not words or words[0] != "context-center":
        return False
    rest = words[1:]
    if any(w in ("--smoke-test", "--version", "--help", "-h") for w in rest):
        return False
    skip_value = False
    for word in rest:
        if skip_value:
            skip_value = False
            continue
        if word in ("--workspace", "--home", "--language"):
            skip_value = True
            continue
        if word not in WINDOW_ONLY:
            return False
    return True


def examples(text: str) -> list[Example]:
    found = []
    for token in MarkdownIt().parse(text):
        if token.type != "fence" or token.info.strip() not in RUNNABLE or token.map is None:
            continue
        for offset, command in _commands(token.content):
            if not re.search(r"(^|[|;&(]\s*)context-center\b", command):
                continue
            if _opens_window(command):
                continue
            expect = EXPECT.search(command)
            found.append(
                Example(
                    line=token.map[0] + 2 + offset,
                    command=command,
                    exit_code=int(expect.group("code")) if expect else 0,
                    error_code=expect.group("what") if expect else None,
                )
            )
    return found


ALL = examples(README.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    from context_center.demo import generate

    base = tmp_path_factory.mktemp("readme-demo")
    sample = generate(base)
    bin_dir = base / "bin"
    bin_dir.mkdir()
    launcher = bin_dir / "context-center"
    launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m context_center "$@"\n')
    launcher.chmod(0o755)
    env = dict(os.environ)
    env.update(
        {
            "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}",
            "CONTEXT_CENTER_HOME": str(sample.home),
            "HOME": str(base / "user-home"),
            "QT_QPA_PLATFORM": "offscreen",
            "CONTEXT_CENTER_SMOKE_TIMEOUT": "60",
        }
    )
    (base / "user-home").mkdir()
    return {"cwd": str(sample.workspace), **{f"env:{k}": v for k, v in env.items()}}


def test_the_readme_has_examples() -> None:
    assert len(ALL) >= 10


def test_example_parsing() -> None:
    text = (
        "```sh\n"
        "echo '{}' \\\n"
        "  | context-center agent remember --json-input -\n"
        "context-center --demo   # the window\n"
        "context-center memory read project/x.md   # exits 1 (not_found)\n"
        "```\n"
        "```text\ncontext-center approvals show ID\n```\n"
    )
    found = examples(text)
    assert [(e.command.split("|")[-1].strip().split()[1], e.exit_code) for e in found] == [
        ("agent", 0),
        ("memory", 1),
    ]
    assert found[1].error_code == "not_found"


@pytest.mark.parametrize("example", ALL, ids=str)
def test_readme_example_runs_as_written(demo: dict[str, str], example: Example) -> None:
    env = {k[4:]: v for k, v in demo.items() if k.startswith("env:")}
    proc = subprocess.run(
        ["bash", "-c", example.command],
        cwd=demo["cwd"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert proc.returncode == example.exit_code, (
        f"{example}\nexit {proc.returncode}\nstdout: {proc.stdout[-2000:]}\n"
        f"stderr: {proc.stderr[-2000:]}"
    )
    if example.error_code:
        assert example.error_code in proc.stdout + proc.stderr, proc.stdout + proc.stderr
