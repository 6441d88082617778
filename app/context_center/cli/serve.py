"""`context-center serve`: answer per-turn commands from a process that is already warm.

The client half is ``context_center.entry`` (standard library only). This half listens on a
private Unix socket (``entry.socket_dir``: a 0700 folder of this user, one per home) and runs
each request the way a fresh process would: the client's argument vector, current directory,
environment and standard input are put in place, ``cli.main`` runs with a fresh ``Engine``
(nothing is kept between requests but imported code), and the exit code and the bytes of
standard output and standard error go back. Logging is put back as it was after every
request, so a hook's handlers do not outlive it.

A request is declined (and the client runs the command itself) when it comes from other code
(``entry.code_stamp``), names a command that is not served (``entry.SERVED``), a folder that is
not there, or a home that is not this server's. Connections from another user are refused
(``SO_PEERCRED``). One request at a time: each takes milliseconds.

The window and ``context-center mcp`` start one as a child (``context_center.warmchild``); it
stops when its parent does, or after ``--idle`` seconds without a request, or on SIGTERM/SIGINT.
"""

from __future__ import annotations

import argparse
import binascii
import contextlib
import io
import json
import logging
import os
import shutil
import signal
import socket
import struct
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from context_center import entry
from context_center.argwords import command_words
from context_center.cli.common import Output

log = logging.getLogger("context_center.serve")
POLL_SECONDS = 1.0
REQUEST_TIMEOUT = 30.0


class _Stop(BaseException):  # not an Exception: no handler of a command swallows it
    pass


def _decline(reason: str) -> dict[str, Any]:
    return {"decline": reason}


def _text_stream(data: bytes, info: Any) -> io.TextIOWrapper:
    info = info if isinstance(info, dict) else {}
    return io.TextIOWrapper(
        io.BytesIO(data),
        encoding=str(info.get("encoding") or "utf-8"),
        errors=str(info.get("errors") or "strict"),
        newline=None if data else "",
    )


def _out_stream(info: Any) -> io.TextIOWrapper:
    info = info if isinstance(info, dict) else {}
    return io.TextIOWrapper(
        io.BytesIO(),
        encoding=str(info.get("encoding") or "utf-8"),
        errors=str(info.get("errors") or "strict"),
        write_through=True,
    )


def _drain(stream: io.TextIOWrapper) -> str:
    stream.flush()
    buffer = stream.buffer
    assert isinstance(buffer, io.BytesIO)
    return entry.b64encode(buffer.getvalue())


def _home_of(argv: list[str]) -> Path | None:
    """The home the real parser gives ``argv`` (None: it does not parse)."""
    from context_center.cli import build_parser
    from context_center.engine import resolve_home

    words = command_words(argv)
    parser = build_parser(*words[:2])
    saved = sys.stderr
    sys.stderr = io.StringIO()
    try:
        args, _ = parser.parse_known_args(argv)
    except SystemExit:
        return None
    finally:
        sys.stderr = saved
    return resolve_home(getattr(args, "home", None))


class Server:
    """One home's server: the socket, the request loop and how a request is run."""

    def __init__(self, home: Path, parent: int | None, idle: float | None) -> None:
        self.home = home
        self.parent = parent
        self.idle = idle
        self.code = entry.code_stamp()
        self.folder = entry.socket_dir(str(home))
        self.path = os.path.join(self.folder, f"{os.getpid()}.sock")
        self.requests = 0
        self._sock: socket.socket | None = None
        self._inode: int | None = None

    # -- the socket -------------------------------------------------------------------------

    def bind(self) -> None:
        base = os.path.dirname(self.folder)
        for folder in (base, self.folder):
            with contextlib.suppress(FileExistsError):
                os.mkdir(folder, 0o700)
            if not entry._private_dir(folder):
                raise OSError(f"{folder} is not a private folder of this user")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(self.path)
        finally:
            os.umask(old)
        sock.listen(16)
        sock.settimeout(POLL_SECONDS)
        self._sock = sock
        self._inode = os.stat(self.path).st_ino

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close()
            self._sock = None
        try:
            if self._inode is not None and os.stat(self.path).st_ino == self._inode:
                os.unlink(self.path)
        except OSError:
            pass

    def _should_stop(self, last: float) -> bool:
        if self.parent is not None:
            try:
                os.kill(self.parent, 0)
            except ProcessLookupError:
                return True
            except PermissionError:
                pass
            if os.getppid() == 1 and self.parent != 1:
                return True
        if self.idle is not None and time.monotonic() - last > self.idle:
            return True
        try:  # our socket file is gone (removed by hand): nobody can reach us
            return os.stat(self.path).st_ino != self._inode
        except OSError:
            return True

    def loop(self) -> None:
        assert self._sock is not None
        last = time.monotonic()
        while True:
            try:
                conn, _ = self._sock.accept()
            except TimeoutError:
                if self._should_stop(last):
                    return
                continue
            with conn:
                self._serve_one(conn)
            last = time.monotonic()

    def _serve_one(self, conn: socket.socket) -> None:
        try:
            creds = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
            _pid, uid, _gid = struct.unpack("3i", creds)
            if uid != os.getuid():
                return
        except (AttributeError, OSError):
            pass  # no peer credentials here: the 0700 folder is the guard
        conn.settimeout(REQUEST_TIMEOUT)
        try:
            request = entry.read_message(conn)
        except (OSError, ValueError):
            return
        conn.settimeout(None)
        answer = self.handle(request)
        try:
            entry.send_message(conn, answer)
        except OSError:
            log.warning("a client left before its answer")

    # -- one request ------------------------------------------------------------------------

    def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        if request.get("v") != entry.PROTOCOL or request.get("code") != self.code:
            return _decline("another version")
        argv, cwd, env = request.get("argv"), request.get("cwd"), request.get("env")
        if not (
            isinstance(argv, list)
            and all(isinstance(a, str) for a in argv)
            and isinstance(cwd, str)
            and isinstance(env, dict)
            and all(isinstance(k, str) and isinstance(v, str) for k, v in env.items())
        ):
            return _decline("malformed request")
        if entry.served_kind(command_words(argv)) is None:
            return _decline("not a served command")
        if not os.path.isdir(cwd):
            return _decline("no such folder")
        stdin = request.get("stdin")
        try:
            data = entry.b64decode(stdin)
        except (ValueError, binascii.Error):
            return _decline("malformed request")
        with _Swapped(env, cwd) as swapped:
            if _home_of(argv) != self.home:
                return _decline("another home")
            out = _out_stream(request.get("stdout_info"))
            err = _out_stream(request.get("stderr_info"))
            swapped.streams(_text_stream(data, request.get("stdin_info")), out, err)
            rc = _run(argv)
            self.requests += 1
            return {"rc": rc, "stdout": _drain(out), "stderr": _drain(err)}


# The commands whose engine is kept between requests: both only recall.
KEPT_FOR = frozenset({"recall", "hook UserPromptSubmit"})


class WarmEngines:
    """The engines ``recall`` and the ``UserPromptSubmit`` hook reuse between requests, by
    command, home, workspace, folder and the whole environment (at most ``SIZE``, least
    recently used out). Only these: a recall engine proves itself current on every turn (the
    store stamps, the journal of writes and a check of each fact file it reads,
    ``engine/recall/current.py``), as ``mcp``'s does; every other command gets a fresh one."""

    SIZE = 4

    def __init__(self) -> None:
        self._kept: dict[tuple[str, ...], Any] = {}

    def __call__(self, command: str, home_arg: str | None, workspace_arg: str | None) -> Any:
        if command not in KEPT_FOR:
            return None
        from context_center.engine import Engine, resolve_home

        home = str(resolve_home(home_arg))
        workspace = str(workspace_arg or "")
        env = "\0".join(f"{k}={v}" for k, v in sorted(os.environ.items()))
        key = (command, home, workspace, os.getcwd(), env)
        engine = self._kept.pop(key, None)
        if engine is None:
            engine = Engine(home=home, workspace=workspace or None)
        self._kept[key] = engine  # newest last
        while len(self._kept) > self.SIZE:
            self._kept.pop(next(iter(self._kept)))
        return engine


def _run(argv: list[str]) -> int:
    from context_center.cli import main

    try:
        return int(main(argv) or 0)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            return int(exc.code or 0)
        sys.stderr.write(f"{exc.code}\n")
        return 1
    except Exception as exc:  # a cold process would print a traceback
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
        return 1


class _Swapped:
    """The process state a request runs in (environment, folder, streams, logging), put back
    exactly on the way out."""

    def __init__(self, env: dict[str, str], cwd: str) -> None:
        self.env, self.cwd = env, cwd

    def __enter__(self) -> _Swapped:
        self._env = dict(os.environ)
        self._cwd = os.getcwd()
        self._streams = (sys.stdin, sys.stdout, sys.stderr)
        root = logging.getLogger()
        self._logging = (list(root.handlers), root.level)
        os.environ.clear()
        os.environ.update(self.env)
        os.chdir(self.cwd)
        return self

    def streams(self, stdin: Any, stdout: Any, stderr: Any) -> None:
        sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr

    def __exit__(self, *exc: object) -> None:
        sys.stdin, sys.stdout, sys.stderr = self._streams
        root = logging.getLogger()
        handlers, level = self._logging
        for handler in list(root.handlers):
            if handler not in handlers:
                root.removeHandler(handler)
                handler.close()
        root.setLevel(level)
        os.chdir(self._cwd)
        os.environ.clear()
        os.environ.update(self._env)


def warm_up(server: Server) -> None:
    """Import what the served commands use, by running them once on a throwaway home (so no
    cache or trace of the person's is written)."""
    base = tempfile.mkdtemp(prefix="cc-warm-")
    try:
        home, work = os.path.join(base, "home"), os.path.join(base, "work")
        os.makedirs(work)
        env = dict(os.environ, CONTEXT_CENTER_CACHE=os.path.join(base, "cache"))
        hook_input = json.dumps({"hook_event_name": "UserPromptSubmit", "prompt": "x", "cwd": work})
        runs = [
            ["memory", "save", "--name", "warm-up", "--title", "部署 deploy", "--body", "b"],
            ["recall", "how do we deploy 部署?", "--json"],
            ["memory", "search", "deploy", "--json"],
            ["memory", "list", "--json"],
            ["hook", "claude-code", "UserPromptSubmit"],
        ]
        for argv in runs:
            full = ["--home", home, "--workspace", work, *argv]
            with _Swapped(env, work) as swapped:
                data = hook_input.encode() if argv[0] == "hook" else b""
                swapped.streams(_text_stream(data, None), io.StringIO(), io.StringIO())
                _run(full)
    finally:
        shutil.rmtree(base, ignore_errors=True)


def cmd_serve(args: argparse.Namespace, engine: object) -> Output:
    from context_center.engine import resolve_home

    server = Server(resolve_home(getattr(args, "home", None)), args.parent, args.idle)
    own = logging.StreamHandler(sys.__stderr__)
    own.setFormatter(logging.Formatter("%(asctime)s %(process)d context-center serve: %(message)s"))
    log.addHandler(own)
    log.setLevel(logging.INFO)
    log.propagate = False

    def stop(signum: int, frame: object) -> None:
        raise _Stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.bind()
    except OSError as exc:
        from context_center.engine import InvalidRequest

        raise InvalidRequest(f"cannot listen: {exc}") from exc
    started = time.perf_counter()
    try:
        if not args.no_warm_up:
            warm_up(server)
        from context_center.cli import common

        common.warm_engine = WarmEngines()
        log.info("serving %s (warm in %.2f s)", server.path, time.perf_counter() - started)
        server.loop()
    except _Stop:
        pass
    finally:
        server.close()
    return Output({"served": server.requests}, f"served {server.requests} request(s)")


def _seconds(text: str) -> float:
    """A positive number of seconds; anything else is a usage error (exit 2)."""
    import argparse

    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text!r} is not a positive number of seconds")
    return value


def register(subparsers: Any) -> None:
    from context_center.cli.common import add_command

    p = add_command(
        subparsers,
        "serve",
        cmd_serve,
        "answer per-turn commands (recall, memory save/search/list/read, hook) of this home "
        "from a warm process over a private socket; the window and `mcp` start one themselves",
    )
    p.add_argument("--parent", type=int, metavar="PID", help="stop when process PID is gone")
    p.add_argument(
        "--idle", type=_seconds, metavar="SECONDS", help="stop after SECONDS without a request"
    )
    p.add_argument(
        "--no-warm-up", action="store_true", help="do not import the served commands first"
    )
    p.set_defaults(needs_engine=False)
