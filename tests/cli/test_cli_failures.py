"""Failures an outside checker provokes: each is a one-line refusal (exit 1, an error object
with --json), never a traceback, and the home is byte for byte what it was."""

from __future__ import annotations

import errno
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from inproc import run_inprocess


def run(home: Path, workspace: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return run_inprocess(["--home", str(home), "--workspace", str(workspace), *args, "--json"])


def listing(home: Path) -> dict[str, str]:
    out = {}
    for path in sorted(home.rglob("*")):
        rel = str(path.relative_to(home))
        if path.is_file() and not path.is_symlink():
            out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            out[rel] = oct(path.lstat().st_mode)
    return out


def refused(result: subprocess.CompletedProcess[str]) -> dict[str, str]:
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stderr.startswith("context-center: ") and result.stderr.count("\n") == 1
    error: dict[str, str] = json.loads(result.stdout)["error"]
    assert set(error) == {"code", "message"}
    return error


def seeded(home: Path, workspace: Path) -> None:
    for name, scope in (("good", "project"), ("shared", "global")):
        saved = run(
            home, workspace, "memory", "save", "--name", name, "--type", "reference",
            "--scope", scope, "--description", "a fact", "--body", "The staging deploy.",
        )  # fmt: skip
        assert saved.returncode == 0, saved.stderr


WRITES = [
    ("memory", "save", "--name", "new", "--type", "project", "--body", "b"),
    ("memory", "save", "--name", "newg", "--scope", "global", "--type", "user", "--body", "b"),
    ("memory", "save", "good", "--expected-revision", "1", "--body", "changed"),
    ("memory", "save", "shared", "--expected-revision", "1", "--body", "changed"),
    ("memory", "forget", "good"),
]


@pytest.mark.parametrize("argv", WRITES, ids=lambda a: " ".join(a[:3]))
def test_a_store_that_cannot_be_written_is_store_unavailable(
    home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...]
) -> None:
    """A read-only store folder (simulated: the suite may run as root, which chmod does not
    stop) refuses every write with store_unavailable and changes nothing."""
    seeded(home, workspace)
    before = listing(home)
    real_open, real_mkdir = os.open, os.mkdir
    stores = [str(home / "memory"), str(home / "projects")]

    def in_store(path: object) -> bool:
        return any(os.fspath(path).startswith(s) for s in stores)  # type: ignore[call-overload]

    def denied(path: object) -> OSError:
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))  # type: ignore[call-overload]

    def no_open(path: object, flags: int, *rest: int, **kw: object) -> int:
        if flags & os.O_CREAT and in_store(path) and not os.fspath(path).endswith(".lock"):  # type: ignore[call-overload]
            raise denied(path)
        return real_open(path, flags, *rest, **kw)  # type: ignore[arg-type]

    def no_mkdir(path: object, *rest: object, **kw: object) -> None:
        if in_store(path) and os.path.basename(os.fspath(path)) in (".revisions", ".archive"):  # type: ignore[call-overload]
            raise denied(path)
        real_mkdir(path, *rest, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", no_open)
    monkeypatch.setattr(os, "mkdir", no_mkdir)
    error = refused(run(home, workspace, *argv))
    monkeypatch.undo()
    assert error["code"] == "store_unavailable"
    assert "Permission denied" in error["message"]
    assert listing(home) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into a read-only folder")
def test_a_read_only_store_folder_is_store_unavailable(home: Path, workspace: Path) -> None:
    seeded(home, workspace)
    stores = [home / "memory" / "global", *home.glob("projects/*/memory")]
    for store in stores:
        store.chmod(0o555)
    try:
        before = listing(home)
        for argv in WRITES:
            assert refused(run(home, workspace, *argv))["code"] == "store_unavailable"
        assert listing(home) == before
    finally:
        for store in stores:
            store.chmod(0o755)


BAD = "bad \udcff text"  # what Python makes of the byte 0xff in an argument or a piped stdin


@pytest.mark.parametrize(
    "argv",
    [
        ("recall", BAD),
        ("recall", "-"),
        ("memory", "search", BAD),
        ("instructions", "add", BAD),
        ("history", "append", BAD),
        ("history", "append", "-"),
        ("memory", "save", "--json-input", "-"),
        ("agent", "remember", "--json-input", "-"),
        # every text argument, not only those a command decodes itself (an outside review
        # found these answering unrepresentable_value and not_found)
        ("memory", "save", "--name", BAD, "--type", "project", "--body", "b"),
        ("memory", "save", "--name", "fine", "--type", "project", "--body", BAD),
        ("memory", "read", BAD),
        ("memory", "forget", BAD),
        ("agent", "forget", BAD),
        ("memory", "save", "--name", "fine", "--type", "project", "--title", BAD, "--body", "b"),
    ],
    ids=lambda a: " ".join(a[:4]),
)
def test_text_that_is_not_utf8_is_refused_without_a_traceback(
    home: Path, workspace: Path, argv: tuple[str, ...]
) -> None:
    before = listing(home)
    result = run_inprocess(
        ["--home", str(home), "--workspace", str(workspace), *argv, "--json"],
        stdin='{"name": "x", "type": "project", "body": "' + BAD + '"}',
    )
    error = refused(result)
    assert error["code"] == "invalid_request" and "not valid UTF-8" in error["message"]
    assert listing(home) == before


@pytest.mark.parametrize(
    "argv",
    [("agent", "remember", "--json-input", "-"), ("memory", "save", "--json-input", "-")],
)
def test_a_lone_surrogate_spelled_in_json_is_refused(
    home: Path, workspace: Path, argv: tuple[str, ...]
) -> None:
    """Valid UTF-8 JSON can still spell a lone surrogate as an escape; the gate crashed on it."""
    before = listing(home)
    stdin = '{"name": "x", "type": "project", "description": "d", "body": "b \\udcff"}'
    result = run_inprocess(
        ["--home", str(home), "--workspace", str(workspace), *argv, "--json"], stdin=stdin
    )
    error = refused(result)
    assert error["code"] == "invalid_request" and "not valid UTF-8" in error["message"]
    assert listing(home) == before


def test_a_strict_stdin_with_bad_bytes_is_refused(home: Path, workspace: Path) -> None:
    """A UTF-8 locale reads standard input strictly: the decode error is the same refusal."""
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"}
    result = subprocess.run(
        [sys.executable, "-m", "context_center", "--home", str(home), "--workspace",
         str(workspace), "recall", "-", "--json"],
        input=b"deploy \xff\xfe\n", capture_output=True, env=env, check=False,
    )  # fmt: skip
    assert result.returncode == 1, result.stderr
    assert b"Traceback" not in result.stderr
    assert json.loads(result.stdout)["error"]["code"] == "invalid_request"
    assert not any(home.iterdir())


@pytest.mark.parametrize("given", ["missing", "ssh://host/srv/repo"])
def test_a_hook_for_a_workspace_that_is_not_there_writes_nothing(
    home: Path, workspace: Path, given: str
) -> None:
    """The hook exits 0 and prints nothing, as on any failure, and (as every command) writes
    no trace, access log or state folder for a workspace that does not exist."""
    seeded(home, workspace)
    before = listing(home)
    target = str(workspace.parent / given) if given == "missing" else given
    payload = {"session_id": "s", "cwd": str(workspace), "prompt": "the staging deploy"}
    result = run_inprocess(
        ["--home", str(home), "--workspace", target, "hook", "claude-code", "UserPromptSubmit"],
        stdin=json.dumps(payload),
    )
    assert result.returncode == 0 and result.stdout == ""
    assert "Traceback" not in result.stderr
    assert listing(home) == before


LEGACY = (
    "---\nname: crlf\ntitle: CRLF rule\ndescription: written on Windows\nmetadata:\n"
    "  type: project\n---\n\nline one\nline two\n"
)


@pytest.mark.parametrize("newline", ["\r\n", "\n"])
def test_saving_a_legacy_file_with_the_hash_memory_read_printed(
    home: Path, workspace: Path, newline: str
) -> None:
    """The save upgrades the legacy file first (new bytes, same content and revision): the
    hash `memory read` printed for it must still be accepted, and a wrong one refused."""
    seeded(home, workspace)
    store = next(home.glob("projects/*/memory"))
    (store / "crlf.md").write_bytes(LEGACY.replace("\n", newline).encode())
    read = run(home, workspace, "memory", "read", "crlf")
    sha = json.loads(read.stdout)["fact"]["sha256"]
    wrong = refused(
        run(home, workspace, "memory", "save", "crlf", "--expected-revision", "1",
            "--expected-hash", "0" * 64, "--body", "x")
    )  # fmt: skip
    assert wrong["code"] == "content_conflict"
    saved = run(
        home, workspace, "memory", "save", "crlf", "--expected-revision", "1",
        "--expected-hash", sha, "--description", "updated",
    )  # fmt: skip
    assert saved.returncode == 0, saved.stdout + saved.stderr
    fact = json.loads(saved.stdout)["fact"]
    assert fact["revision"] == 2 and fact["description"] == "updated"
    assert fact["body"].replace("\r\n", "\n") == "line one\nline two"  # the body as read


def test_a_workspace_path_that_is_not_utf8(tmp_path: Path, home: Path) -> None:
    """Linux allows any bytes in a folder name: --json output stays valid UTF-8 (the bytes
    written as \\udcXX escapes), and the history log, JSON in UTF-8, refuses the path."""
    workspace = tmp_path / os.fsdecode(b"caf\xe9 ws")
    (workspace / ".git").mkdir(parents=True)
    base = ["--home", str(home), "--workspace", str(workspace)]
    result = run_inprocess([*base, "suggestions", "--json"])
    assert result.returncode == 0, result.stderr
    result.stdout.encode("utf-8")  # no lone surrogate left raw: valid UTF-8
    assert json.loads(result.stdout)["workspace"] == str(workspace)
    error = refused(run_inprocess([*base, "history", "append", "a turn", "--json"]))
    assert error["code"] == "invalid_request" and "workspace path" in error["message"]
    assert not list(home.glob("projects/*/state/history.jsonl"))


@pytest.mark.parametrize(
    ("entry", "code"),
    [
        ("global/.archive/nope.md", "not_found"),
        ("global/.archive/nope", "not_found"),  # no such entry, whatever its name
        ("/etc/hostname", "recover_refused"),  # exists, but no entry of these archives
    ],
)
def test_recover_says_not_found_for_an_entry_that_does_not_exist(
    home: Path, workspace: Path, entry: str, code: str
) -> None:
    seeded(home, workspace)
    assert run(home, workspace, "memory", "forget", "global/shared").returncode == 0
    before = listing(home)
    assert refused(run(home, workspace, "memory", "recover", entry))["code"] == code
    assert listing(home) == before


@pytest.mark.parametrize(
    "argv",
    [("memory", "archived"), ("memory", "migrate"), ("import", "claude-code", "--dry-run")],
    ids=lambda a: " ".join(a[:2]),
)
def test_a_store_folder_that_cannot_be_read(
    home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch, argv: tuple[str, ...]
) -> None:
    """A store folder of mode 000 (simulated as for root): nothing inside can be listed or
    looked at. The read-only commands answer (memory list reports store_unreadable) instead of
    a PermissionError traceback from Path.exists / is_symlink."""
    seeded(home, workspace)
    store = str(next(home.glob("projects/*/memory")))
    real = {name: getattr(os, name) for name in ("stat", "lstat", "scandir", "listdir", "open")}

    def inside(path: object) -> bool:
        text = os.fspath(path) if isinstance(path, (str, os.PathLike)) else ""
        return text.startswith(store + os.sep)

    def guard(name: str) -> object:
        def call(path: object = ".", *args: object, **kwargs: object) -> object:
            listing_root = name in ("scandir", "listdir", "open") and os.fspath(path) == store  # type: ignore[call-overload]
            if inside(path) or listing_root:
                raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), os.fspath(path))  # type: ignore[call-overload]
            return real[name](path, *args, **kwargs)

        return call

    for name in real:
        monkeypatch.setattr(os, name, guard(name))
    result = run(home, workspace, *argv)
    listed = run(home, workspace, "memory", "list")
    monkeypatch.undo()
    assert "Traceback" not in result.stderr + result.stdout
    assert result.returncode == 0, result.stderr
    assert "store_unreadable" in [d["code"] for d in json.loads(listed.stdout)["diagnostics"]]
