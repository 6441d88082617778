"""The warm server (`context-center serve`, cli/serve.py) and its client (context_center/entry.py).

A served command must print exactly what a cold process prints; a client must run the command
itself whenever no trustworthy server answers, and never run a write twice.
"""

from __future__ import annotations

import base64
import io
import json
import logging
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from context_center import entry
from context_center.cli import serve
from context_center.engine import resolve_home

PROMPT = "how do we deploy the release branch? 我们怎么部署发布分支"


def _env(home: Path, served: bool) -> dict[str, str]:
    env = dict(os.environ, CONTEXT_CENTER_HOME=str(home))
    env.pop("CONTEXT_CENTER_NO_SERVER", None)
    if not served:
        env["CONTEXT_CENTER_NO_SERVER"] = "1"
    return env


def _cli(
    args: list[str], home: Path, cwd: Path, *, served: bool, stdin: str | None = None
) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "context_center", *args],
        env=_env(home, served),
        cwd=cwd,
        input=(stdin or "").encode(),
        capture_output=True,
        timeout=60,
    )


def _wait_for_socket(home: Path, timeout: float = 30.0) -> Path:
    folder = Path(entry.socket_dir(str(home)))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        socks = list(folder.glob("*.sock")) if folder.is_dir() else []
        if socks:
            return socks[0]
        time.sleep(0.05)
    raise AssertionError("the server did not start listening")


@pytest.fixture
def server(home: Path, workspace: Path):  # type: ignore[no-untyped-def]
    proc = subprocess.Popen(
        [sys.executable, "-m", "context_center", "serve", "--idle", "120"],
        env=_env(home, served=True),
        cwd=workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        _wait_for_socket(home)
        yield proc
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.communicate(timeout=20)


def _stop(proc: subprocess.Popen[bytes]) -> tuple[int, str]:
    proc.terminate()
    out, _ = proc.communicate(timeout=20)
    match = re.search(rb"served (\d+) request", out)
    assert match, out
    return proc.returncode, match.group(1).decode()


_VOLATILE = re.compile(rb'"(at|elapsed_ms|timestamp|created_at|updated_at)": [^,}\n]+')


def _same(a: subprocess.CompletedProcess[bytes], b: subprocess.CompletedProcess[bytes]) -> None:
    assert a.returncode == b.returncode
    assert _VOLATILE.sub(b"", a.stdout) == _VOLATILE.sub(b"", b.stdout)
    assert a.stderr == b.stderr


def test_served_commands_print_what_a_cold_process_prints(
    server: subprocess.Popen[bytes], home: Path, workspace: Path
) -> None:
    ws = ["--workspace", str(workspace)]
    save = ["memory", "save", "--name", "deploy-flow", "--title", "部署流程 deploy flow",
            "--description", "how releases go out", "--type", "project", "--scope", "project",
            "--body", "Deploy the release branch with `make ship`; 先跑测试再部署。"]  # fmt: skip
    created = _cli([*ws, *save, "--json"], home, workspace, served=True)
    assert created.returncode == 0, created.stderr
    again_served = _cli([*ws, *save, "--json"], home, workspace, served=True)
    again_cold = _cli([*ws, *save, "--json"], home, workspace, served=False)
    _same(again_served, again_cold)  # the name is taken: the same refusal, exit 1
    assert again_served.returncode == 1 and b"error" in again_served.stdout
    served_count = 2
    reads = [
        ["memory", "list", "--json"],
        ["memory", "list"],
        ["memory", "read", "project/deploy-flow.md", "--json"],
        ["memory", "read", "project/nope.md"],
        ["memory", "search", "deploy 部署", "--json"],
        ["recall", PROMPT, "--json"],
        ["recall", PROMPT],
        ["recall", "--max-facts", "0", PROMPT],  # a usage error: exit 2, usage on stderr
    ]
    for argv in reads:
        a = _cli([*ws, *argv], home, workspace, served=True)
        b = _cli([*ws, *argv], home, workspace, served=False)
        _same(a, b)
        served_count += 0 if a.returncode == 2 else 1
    piped_a = _cli([*ws, "recall", "-", "--json"], home, workspace, served=True, stdin=PROMPT)
    piped_b = _cli([*ws, "recall", "-", "--json"], home, workspace, served=False, stdin=PROMPT)
    _same(piped_a, piped_b)
    assert json.loads(piped_a.stdout)["trace"]["query"] == PROMPT
    hook_in = json.dumps(
        {
            "hook_event_name": "UserPromptSubmit",
            "prompt": PROMPT,
            "cwd": str(workspace),
            "session_id": "s1",
            "transcript_path": "",
        }
    )
    hook = ["hook", "claude-code", "UserPromptSubmit"]
    hook_a = _cli(hook, home, workspace, served=True, stdin=hook_in)
    hook_b = _cli(hook, home, workspace, served=False, stdin=hook_in)
    _same(hook_a, hook_b)
    assert "deploy-flow" in hook_a.stdout.decode() or "部署流程" in hook_a.stdout.decode()
    broken_a = _cli(hook, home, workspace, served=True, stdin="{not json")
    assert (broken_a.returncode, broken_a.stdout) == (0, b"")
    served_count += 3
    rc, count = _stop(server)
    assert rc == 0
    assert int(count) == served_count


def test_a_declined_or_unreachable_server_leaves_the_command_to_the_client(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    other = tmp_path / "other-home"
    request = {"v": entry.PROTOCOL, "code": "elsewhere:0", "argv": ["recall", "x"],
               "cwd": str(workspace), "env": dict(os.environ)}  # fmt: skip
    srv = serve.Server(resolve_home(str(home)), None, None)
    assert "decline" in srv.handle(request)
    request["code"] = srv.code
    assert "decline" in srv.handle({**request, "argv": ["approvals", "approve", "x"]})
    assert "decline" in srv.handle({**request, "cwd": str(tmp_path / "gone")})
    assert "decline" in srv.handle({**request, "argv": ["--home", str(other), "recall", "x"]})
    assert "decline" in srv.handle({**request, "env": {"A": 1}})
    assert srv.requests == 0


def test_a_request_runs_in_the_clients_state_and_leaves_the_server_as_it_was(
    home: Path, workspace: Path, tmp_path: Path
) -> None:
    srv = serve.Server(resolve_home(str(home)), None, None)
    env = dict(os.environ, CONTEXT_CENTER_HOME=str(home), MARKER="client")
    before = (dict(os.environ), os.getcwd(), sys.stdout, list(logging.getLogger().handlers))
    hook_input = json.dumps({"cwd": str(workspace), "source": "startup"}).encode()
    answer = srv.handle(
        {
            "v": entry.PROTOCOL,
            "code": srv.code,
            "argv": ["hook", "claude-code", "SessionStart"],
            "cwd": str(workspace),
            "env": env,
            "stdin": base64.b64encode(hook_input).decode(),
        }
    )
    assert answer["rc"] == 0
    assert (dict(os.environ), os.getcwd(), sys.stdout, list(logging.getLogger().handlers)) == before
    assert srv.requests == 1


def _fake_server(home: Path, behaviour: str) -> tuple[threading.Thread, list[dict[str, Any]]]:
    """A listener in the home's socket folder that reads a request and then misbehaves."""
    folder = Path(entry.socket_dir(str(home)))
    folder.parent.mkdir(mode=0o700, exist_ok=True)
    folder.mkdir(mode=0o700, exist_ok=True)
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(folder / "999999.sock"))
    sock.listen(1)
    seen: list[dict[str, Any]] = []

    def run() -> None:
        conn, _ = sock.accept()
        with conn:
            seen.append(entry.read_message(conn))
            if behaviour == "decline":
                entry.send_message(conn, {"decline": "test"})
        sock.close()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread, seen


@pytest.mark.parametrize(
    ("argv", "rc", "says"),
    [
        (["memory", "save", "--name", "x", "--title", "t", "--body", "b"], 1, "may or may not"),
        (["hook", "claude-code", "UserPromptSubmit"], 0, ""),
    ],
)
def test_a_server_that_dies_mid_request_never_makes_a_write_run_twice(
    home: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str],
    argv: list[str], rc: int, says: str,
) -> None:  # fmt: skip
    monkeypatch.setenv("CONTEXT_CENTER_HOME", str(home))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"{}")))
    thread, seen = _fake_server(home, "die")
    assert entry.try_served(argv) == rc
    thread.join(5)
    assert seen and seen[0]["argv"] == argv
    assert says in capfd.readouterr().err


def test_a_read_is_run_here_when_the_server_declines_or_dies(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONTEXT_CENTER_HOME", str(home))
    for behaviour in ("decline", "die"):
        thread, seen = _fake_server(home, behaviour)
        assert entry.try_served(["recall", "x"]) is None  # the caller runs it itself
        thread.join(5)
        assert seen
        for stale in Path(entry.socket_dir(str(home))).glob("*.sock"):
            stale.unlink()


def test_stale_sockets_and_folders_of_others_are_not_used(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONTEXT_CENTER_HOME", str(home))
    folder = Path(entry.socket_dir(str(home)))
    folder.parent.mkdir(mode=0o700, exist_ok=True)
    folder.mkdir(mode=0o700)
    stale = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    stale.bind(str(folder / "1.sock"))
    stale.close()  # bound, nobody listening
    assert entry.try_served(["recall", "x"]) is None
    assert not (folder / "1.sock").exists()  # removed
    folder.chmod(0o755)
    assert entry.private_socket_dir(str(home)) is None
    srv = serve.Server(resolve_home(str(home)), None, None)
    with pytest.raises(OSError, match="not a private folder"):
        srv.bind()


def test_serve_stops_with_its_parent_and_removes_its_socket(home: Path, workspace: Path) -> None:
    parent = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    argv = ["serve", "--no-warm-up", "--parent", str(parent.pid)]
    proc = subprocess.Popen(
        [sys.executable, "-m", "context_center", *argv],
        env=_env(home, served=True),
        cwd=workspace,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    sock = _wait_for_socket(home)
    parent.kill()
    parent.wait()
    proc.communicate(timeout=20)
    assert proc.returncode == 0
    assert not sock.exists()


def test_the_mcp_server_keeps_a_warm_server_while_it_runs(home: Path, workspace: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "context_center", "--workspace", str(workspace), "mcp"],
        env=_env(home, served=True),
        cwd=workspace,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    sock = _wait_for_socket(home)
    out, _ = proc.communicate(input=b"", timeout=30)  # the client goes away
    assert out == b""  # nothing but protocol on stdout
    deadline = time.monotonic() + 10
    while sock.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not sock.exists()


@pytest.mark.parametrize("how", ["flag", "env", "default"])
def test_the_client_finds_the_home_the_engine_resolves(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    if how == "flag":
        argv = ["--home", "~/x/../h", "recall", "m"]
        expected = resolve_home("~/x/../h")
    elif how == "env":
        monkeypatch.setenv("CONTEXT_CENTER_HOME", "rel/home")
        argv, expected = ["recall", "m"], resolve_home(None)
    else:
        monkeypatch.delenv("CONTEXT_CENTER_HOME")
        argv, expected = ["recall", "m"], resolve_home(None)
    found = entry.home_path(entry.explicit_home(argv))
    assert os.path.realpath(found) == os.path.realpath(expected)
    assert entry.socket_dir(found) == entry.socket_dir(str(expected))


def test_a_hook_exits_0_when_the_install_cannot_be_imported(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import builtins

    real_import = builtins.__import__

    def broken(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "context_center.cli":
            raise ImportError("a broken install")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", broken)
    assert entry.main(["hook", "claude-code", "UserPromptSubmit"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "a broken install" in captured.err
    with pytest.raises(ImportError):
        entry.main(["recall", "x"])  # any other command fails loudly, as before


@pytest.mark.parametrize("served", [True, False])
def test_a_kept_recall_engine_sees_every_change_made_elsewhere(
    server: subprocess.Popen[bytes], home: Path, workspace: Path, served: bool
) -> None:
    ws = ["--workspace", str(workspace)]

    def recall(message: str) -> dict[str, Any]:
        done = _cli([*ws, "recall", message, "--json"], home, workspace, served=served)
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    def refs(answer: dict[str, Any]) -> list[str]:
        return [s["ref"] for s in answer["trace"]["selected"]]

    assert refs(recall("zookeeper quorum size")) == []
    saved = _cli(
        [*ws, "memory", "save", "--name", "zk-quorum", "--title", "ZooKeeper quorum",
         "--type", "project", "--body", "The zookeeper quorum has five nodes."],
        home, workspace, served=False,
    )  # fmt: skip
    assert saved.returncode == 0, saved.stderr
    assert refs(recall("zookeeper quorum size")) == ["project/zk-quorum.md"]
    store = next(home.rglob("zk-quorum.md"))
    with store.open("a", encoding="utf-8") as handle:  # an edit in place, as `echo >>` makes
        handle.write("\nThe quorum moved to seven nodes in March.\n")
    assert "seven nodes" in recall("zookeeper quorum size")["block"]
    hook_input = {"hook_event_name": "UserPromptSubmit", "cwd": str(workspace)}
    for text in ("zookeeper quorum size", "the zookeeper quorum nodes"):  # kept, then reused
        hook = _cli(
            ["hook", "claude-code", "UserPromptSubmit"],
            home,
            workspace,
            served=served,
            stdin=json.dumps({**hook_input, "prompt": text}),
        )
        assert "seven nodes" in hook.stdout.decode(), hook.stderr
    store.unlink()  # removed by hand
    assert refs(recall("zookeeper quorum size")) == []
    _stop(server)


@pytest.mark.parametrize("idle", ["-1", "0", "nan", "inf", "soon"])
def test_idle_must_be_a_positive_number_of_seconds(
    idle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from context_center.cli import main

    with pytest.raises(SystemExit) as exit_:
        main(["serve", "--idle", idle])
    assert exit_.value.code == 2
    assert "is not a positive number of seconds" in capsys.readouterr().err
