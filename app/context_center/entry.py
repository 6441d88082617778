"""The console entry point: a per-turn command is answered by a warm server when one runs.

An agent runs ``context-center recall`` (or a hook, or ``memory save``) on every turn. A cold
Python process pays for importing numpy and the engine (and pydantic, for a write) before it
does any work (0.15-0.2 CPU-s here); a process that is already running has paid that. So while a
window or an agent's MCP server is open for a home, it keeps a ``context-center serve`` child
listening on a private Unix socket, and this module — which imports nothing but the standard
library — hands the command to it: the argument vector, the current directory, the whole
environment and (when the command reads it) standard input. The server runs the very same
``cli.main`` with them and sends back the exit code and the bytes of standard output and
standard error, so the answer is the one a cold process would have printed.

Nothing depends on a server being there. No server, a socket folder that is not private to
this user, a server that declines (another version, a command it does not serve, a home that
is not its own) or one that cannot be reached: the command runs here, as before. Only once a
request has been *sent* does a failure matter: a read-only command is then run here again; a
write (``memory save``) is not, since it may have been applied — it fails with a message that
says so; a hook prints nothing and exits 0, as a hook always does on our failure.

``CONTEXT_CENTER_NO_SERVER=1`` turns the client off (every command runs in its own process).

Before anything else, ``main`` sets two environment variables a user has not set
(``ENV_DEFAULTS``): ``OPENBLAS_NUM_THREADS=1`` (numpy's OpenBLAS otherwise starts a thread per
core when numpy is imported, about 0.05 CPU-s of a cold process; nothing here multiplies
matrices) and ``PYDANTIC_DISABLE_PLUGINS=__all__`` (pydantic otherwise reads every installed
distribution's entry points for plugins when the first model is built; we use none). They are
set in ``os.environ``, so the children a command starts (a detached cache rewrite, the warm
server a host starts) and the command a warm server runs for us see the same values.

A process that is a per-turn command run here (``main()`` from the console script or
``python -m context_center``, and no server answered it) also raises the cyclic garbage
collector's first threshold to ``PER_TURN_GC_THRESHOLD``: importing numpy, pydantic and the
engine allocates tens of thousands of objects that all live to the end, and at the default
(700) the collector ran about 120 times over them, some 0.02 CPU-s of a cold recall. A
short process whose work makes few cycles then collects rarely or never; memory that only a
collection would free is bounded by the threshold. Long-running processes (the window,
``serve``, ``mcp``) keep Python's defaults. A per-turn process also ends without the
interpreter's teardown (``exit_without_teardown``).
"""

from __future__ import annotations

import binascii
import contextlib
import gc
import io
import json
import os
import struct
import sys
from collections.abc import Sequence

from context_center import NO_SERVER_ENV
from context_center.argwords import command_words
from context_center.sockets import HOME_ENV as HOME_ENV  # re-exported (one rule, sockets.py)
from context_center.sockets import _private_dir as _private_dir
from context_center.sockets import home_path as home_path
from context_center.sockets import private_socket_dir as private_socket_dir
from context_center.sockets import socket_base as socket_base
from context_center.sockets import socket_dir as socket_dir

# ``typing.TYPE_CHECKING`` without importing typing (a served client never needs it, ~3 ms);
# type checkers take any constant of that name as true
TYPE_CHECKING = False
if TYPE_CHECKING:
    import _socket

PROTOCOL = 1
MAX_MESSAGE = 64 * 1024 * 1024
CONNECT_TIMEOUT = 0.5
_HEADER = struct.Struct(">I")

# What a served command may do when the connection breaks after the request went out.
RETRY, FAIL, SILENT = "retry", "fail", "silent"
SERVED: dict[tuple[str, ...], str] = {
    ("recall",): RETRY,
    ("memory", "search"): RETRY,
    ("memory", "list"): RETRY,
    ("memory", "read"): RETRY,
    ("memory", "save"): FAIL,
    ("hook",): SILENT,
}


def code_stamp() -> str:
    """Which code this process runs: a server answers only a client of the same install."""
    import context_center

    path = os.path.dirname(os.path.abspath(context_center.__file__))
    try:
        mtime = os.stat(os.path.join(path, "entry.py")).st_mtime_ns
    except OSError:
        mtime = 0
    return f"{path}:{mtime}"


def served_kind(words: list[str]) -> str | None:
    """How a command is served (None: it is not)."""
    for key in (tuple(words[:2]), tuple(words[:1])):
        if key in SERVED:
            return SERVED[key]
    return None


def explicit_home(argv: Sequence[str]) -> str | None:
    """``--home`` as typed (the server checks the home it resolves from the real parser)."""
    home = None
    for i, word in enumerate(argv):
        if word == "--":
            break
        if word == "--home" and i + 1 < len(argv):
            home = argv[i + 1]
        elif word.startswith("--home="):
            home = word.split("=", 1)[1]
    return home


def b64encode(data: bytes) -> str:
    """Base64 text (``binascii``: the ``base64`` module costs a cold client milliseconds)."""
    return binascii.b2a_base64(data, newline=False).decode("ascii")


def b64decode(text: object) -> bytes:
    return binascii.a2b_base64(text) if isinstance(text, str) else b""


def send_message(sock: _socket.socket, value: dict[str, object]) -> None:
    data = json.dumps(value, ensure_ascii=True).encode("ascii")
    sock.sendall(_HEADER.pack(len(data)) + data)


def _read_exact(sock: _socket.socket, size: int) -> bytes:
    chunks = []
    while size:
        chunk = sock.recv(min(size, 1 << 20))
        if not chunk:
            raise ConnectionError("the connection closed mid-message")
        chunks.append(chunk)
        size -= len(chunk)
    return b"".join(chunks)


def read_message(sock: _socket.socket) -> dict[str, object]:
    (size,) = _HEADER.unpack(_read_exact(sock, _HEADER.size))
    if size > MAX_MESSAGE:
        raise ConnectionError("message too large")
    data = _read_exact(sock, size)
    try:
        value = json.loads(data)
    except RecursionError as exc:  # nested deeper than the parser goes
        raise ConnectionError("not a message") from exc
    if not isinstance(value, dict):
        raise ConnectionError("not a message")
    return value


def _connect(folder: str) -> _socket.socket | None:
    """A connection to the newest live server in ``folder``; stale sockets are removed.

    The socket is ``_socket``'s, the C type that ``socket.socket`` extends: the ``socket``
    module builds its enums and imports ``selectors`` when imported, about 5 ms of a served
    client's 30, and a client needs none of what it adds (imported here: a process that finds
    no server needs neither)."""
    try:
        names = [n for n in os.listdir(folder) if n.endswith(".sock")]
    except OSError:
        return None
    paths = [os.path.join(folder, n) for n in names]
    paths.sort(key=lambda p: _mtime(p), reverse=True)
    from _socket import AF_UNIX, SOCK_STREAM
    from _socket import socket as unix_socket

    for path in paths:
        sock = unix_socket(AF_UNIX, SOCK_STREAM)
        sock.settimeout(CONNECT_TIMEOUT)
        try:
            sock.connect(path)
        except ConnectionRefusedError:
            sock.close()
            with contextlib.suppress(OSError):  # nobody listens there any more
                os.unlink(path)
            continue
        except OSError:
            sock.close()
            continue
        sock.settimeout(None)
        return sock
    return None


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def _stream_info(stream: object) -> dict[str, str]:
    return {
        "encoding": getattr(stream, "encoding", None) or "utf-8",
        "errors": getattr(stream, "errors", None) or "strict",
    }


def _reads_stdin(words: list[str], argv: list[str]) -> bool:
    return words[:1] == ["hook"] or "-" in argv


def _write(stream: object, data: bytes) -> None:
    buffer = getattr(stream, "buffer", None)
    if buffer is not None:
        stream.flush()  # type: ignore[attr-defined]
        buffer.write(data)
        buffer.flush()
    else:  # a text-only stream (a test's capture)
        stream.write(data.decode(_stream_info(stream)["encoding"], "replace"))  # type: ignore[attr-defined]


def try_served(argv: list[str]) -> int | None:
    """Run ``argv`` on a warm server; None when it must run in this process instead."""
    words = command_words(argv)
    kind = served_kind(words)
    if kind is None or "--help" in argv or "-h" in argv:
        return None
    try:
        folder = private_socket_dir(home_path(explicit_home(argv)))
        sock = _connect(folder) if folder else None
    except Exception:  # any trouble finding a server: run here
        return None
    if sock is None:
        return None
    try:
        return _served(sock, argv, words, kind)
    finally:
        sock.close()


def _served(sock: _socket.socket, argv: list[str], words: list[str], kind: str) -> int | None:
    """``try_served`` once connected: send the request, print the answer."""
    stdin_data: bytes | None = None
    if _reads_stdin(words, argv):
        stdin_data = (
            sys.stdin.buffer.read()
            if hasattr(sys.stdin, "buffer")
            else (sys.stdin.read().encode("utf-8", "surrogateescape"))
        )
    request = {
        "v": PROTOCOL,
        "code": code_stamp(),
        "argv": argv,
        "cwd": os.getcwd(),
        "env": dict(os.environ),
        "stdin": None if stdin_data is None else b64encode(stdin_data),
        "stdin_info": _stream_info(sys.stdin),
        "stdout_info": _stream_info(sys.stdout),
        "stderr_info": _stream_info(sys.stderr),
    }
    sent = False
    try:
        send_message(sock, request)
        sent = True
        answer = read_message(sock)
    except (OSError, ValueError):
        answer = None
    if answer is not None and "rc" in answer:
        _write(sys.stdout, b64decode(answer.get("stdout")))
        _write(sys.stderr, b64decode(answer.get("stderr")))
        rc = answer["rc"]
        return rc if isinstance(rc, int) else 1
    if stdin_data is not None:  # what we read is still the command's input
        info = _stream_info(sys.stdin)
        sys.stdin = io.TextIOWrapper(
            io.BytesIO(stdin_data), encoding=info["encoding"], errors=info["errors"]
        )
    if answer is not None or not sent or kind == RETRY:
        return None  # declined, or never reached it: run here
    if kind == SILENT:
        return 0
    sys.stderr.write(
        "context-center: the Context Center server stopped while it ran this command; "
        "it may or may not have been applied — check `context-center memory list` before "
        "running it again\n"
    )
    return 1


PER_TURN_GC_THRESHOLD = 200_000

# Set before numpy or pydantic is imported, unless the user set them (see the docstring).
ENV_DEFAULTS: dict[str, str] = {
    "OPENBLAS_NUM_THREADS": "1",
    "PYDANTIC_DISABLE_PLUGINS": "__all__",
}


def apply_env_defaults() -> None:
    for name, value in ENV_DEFAULTS.items():
        os.environ.setdefault(name, value)


def main(argv: list[str] | None = None) -> int:
    apply_env_defaults()
    args = list(sys.argv[1:] if argv is None else argv)
    if os.environ.get(NO_SERVER_ENV) != "1":
        served = try_served(args)
        if served is not None:
            return served
    # this process is a per-turn command (not a caller of main(argv), such as a test)
    per_turn = argv is None and served_kind(command_words(args)) is not None
    if per_turn:
        gc.set_threshold(PER_TURN_GC_THRESHOLD, *gc.get_threshold()[1:])
    if command_words(args, 1) == ["hook"]:
        rc = _hook_main(args)
    else:
        from context_center.cli import main as cli_main

        rc = cli_main(args)
    if per_turn:
        exit_without_teardown(rc)
    return rc


def exit_without_teardown(rc: int) -> None:
    """End a per-turn process as the interpreter would, without tearing it down: wait for
    its non-daemon threads, run its ``atexit`` functions, flush standard output and error,
    then ``os._exit(rc)``. Tearing down (clearing every module and three garbage
    collections over everything numpy, pydantic and the engine built) cost a cold recall
    about 0.08 CPU-s, for memory the kernel takes back anyway. Every file the engine writes
    is closed (and synced) by then; a read-only ``mmap`` needs nothing. Returns (and the
    interpreter exits the usual way, reporting it) if any of it fails, for example a
    flush into a closed pipe."""
    import atexit
    import threading

    try:
        for thread in threading.enumerate():
            if thread is not threading.main_thread() and not thread.daemon:
                thread.join()
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        return
    os._exit(rc)


def _hook_main(args: list[str]) -> int:
    """A hook exits 0 even when the install itself is broken (an import that fails): the agent
    runs on, and the one line on standard error says why."""
    try:
        from context_center.cli import main as cli_main

        return cli_main(args)
    except Exception as exc:
        sys.stderr.write(f"context-center hook: {type(exc).__name__}: {exc}\n")
        return 0
