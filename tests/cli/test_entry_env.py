"""The console entry's environment defaults (``entry.ENV_DEFAULTS``): set for the process and
every child it starts, unless the user set them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from context_center import entry

CHILD = (
    "import os, subprocess, sys; from context_center.entry import main; "
    "main(['--version']); "
    "subprocess.run([sys.executable, '-c', "
    '\'import os; print(os.environ.get("OPENBLAS_NUM_THREADS"), '
    'os.environ.get("PYDANTIC_DISABLE_PLUGINS"))\'], check=True)'
)


def _env_without_defaults() -> dict[str, str]:
    env = dict(os.environ)
    for name in entry.ENV_DEFAULTS:
        env.pop(name, None)
    return env


def test_a_child_of_the_entry_sees_the_defaults() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", CHILD],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env_without_defaults(),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "1 __all__"


def test_what_the_user_set_wins() -> None:
    env = _env_without_defaults()
    env["OPENBLAS_NUM_THREADS"] = "4"
    env["PYDANTIC_DISABLE_PLUGINS"] = "logfire"
    proc = subprocess.run(
        [sys.executable, "-c", CHILD], capture_output=True, text=True, timeout=60, env=env
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "4 logfire"


def test_main_sets_them_in_this_process(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in entry.ENV_DEFAULTS:
        monkeypatch.setenv(name, "x")  # recorded, so the test's end restores the original
        monkeypatch.delenv(name)
    assert entry.main(["--version"]) == 0
    assert {name: os.environ.get(name) for name in entry.ENV_DEFAULTS} == entry.ENV_DEFAULTS


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="needs Linux /proc")
def test_numpy_starts_no_blas_threads_in_an_entry_process() -> None:
    code = (
        "import os; from context_center.entry import main; main(['--version']); "
        "import numpy; print(len(os.listdir('/proc/self/task')))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env=_env_without_defaults(),
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "1"


def _threshold_after(argv: list[str], tmp_path: Path) -> str:
    code = (
        "import atexit, gc, sys; from context_center import entry; sys.argv[1:] = sys.argv[2:]; "
        "atexit.register(lambda: print(gc.get_threshold()[0])); entry.main()"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "-", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "CONTEXT_CENTER_NO_SERVER": "1"},
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.splitlines()[-1]


def test_a_per_turn_process_collects_garbage_rarely(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    argv = ["--home", str(home), "--workspace", str(tmp_path), "recall", "hello", "--json"]
    assert _threshold_after(argv, tmp_path) == str(entry.PER_TURN_GC_THRESHOLD)


def test_other_processes_and_callers_keep_the_defaults(tmp_path: Path) -> None:
    import gc

    default = str(gc.get_threshold()[0])
    assert _threshold_after(["--version"], tmp_path) == default
    before = gc.get_threshold()
    home = tmp_path / "home"
    home.mkdir()
    assert entry.main(["--home", str(home), "--workspace", str(tmp_path), "recall", "x"]) == 0
    assert gc.get_threshold() == before  # main(argv) called by a program changes nothing


TEARDOWN = (
    "import atexit, sys\n"
    "class Torn:\n"
    "    def __del__(self):\n"
    "        sys.stderr.write('torn down\\n')\n"
    "kept = Torn()\n"
    "atexit.register(lambda: sys.stderr.write('atexit ran\\n'))\n"
    "from context_center import entry\n"
    "sys.argv[1:] = sys.argv[2:]\n"
    "raise SystemExit(entry.main())\n"
)


def _run_as_the_command(argv: list[str], tmp_path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", TEARDOWN, "-", *argv],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
        env={**os.environ, "CONTEXT_CENTER_NO_SERVER": "1"},
    )


def test_a_per_turn_process_ends_without_teardown_but_with_its_output(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    base = ["--home", str(home), "--workspace", str(tmp_path)]
    proc = _run_as_the_command([*base, "recall", "hello", "--json"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "trace" in json.loads(proc.stdout)  # all of it, flushed
    assert "atexit ran" in proc.stderr and "torn down" not in proc.stderr
    failed = _run_as_the_command(
        [*base, "memory", "read", "project/missing.md", "--json"], tmp_path
    )
    assert failed.returncode == 1 and "error" in json.loads(failed.stdout)
    assert "torn down" not in failed.stderr


def test_other_processes_are_torn_down_as_usual(tmp_path: Path) -> None:
    proc = _run_as_the_command(["--version"], tmp_path)
    assert proc.returncode == 0 and proc.stdout.startswith("context-center ")
    assert "atexit ran" in proc.stderr and "torn down" in proc.stderr
