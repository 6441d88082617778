"""`approvals list|show|approve|reject`; approve only in a real terminal with a typed 'yes'."""

from __future__ import annotations

import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from context_center.cli import main
from context_center.engine.facade import Engine
from context_center.engine.gate.approvals import ApprovalQueue, Status, content_sha256
from context_center.engine.gate.decision import assess
from context_center.engine.model import FactType

CLI = [sys.executable, "-c", "from context_center.cli import main; raise SystemExit(main())"]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    data = json.loads(out.out) if "--json" in argv and out.out.strip() else out.out
    return code, data, out.err


@pytest.fixture
def base(home: Path, workspace: Path) -> list[str]:
    return ["--home", str(home), "--workspace", str(workspace)]


def queue_create(
    engine: Engine, name: str = "answer language", body: str = "Answer in English."
) -> str:
    d = assess(
        {
            "operation": "create",
            "controller": "interactive",
            "owns_store": True,
            "agent": "claude-code",
            "name": name,
            "title": name,
            "description": "a preference",
            "type": "user",
            "body": body,
        },
        engine.memory,
    )
    assert d.pending_id is not None
    return d.pending_id


def test_list_show_reject(
    capsys: pytest.CaptureFixture[str], base: list[str], engine: Engine
) -> None:
    a = queue_create(engine)
    b = queue_create(engine, "second", body="Second body.")
    code, data, _ = run(capsys, *base, "approvals", "list", "--json")
    assert code == 0
    assert [i["id"] for i in data["items"]] == [a, b]
    assert data["items"][0]["operation"] == "create"
    assert data["items"][0]["agent"] == "claude-code"
    assert "Answer in English." not in json.dumps(data)  # lists carry no content

    code, data, _ = run(capsys, *base, "approvals", "show", a, "--json")
    assert code == 0
    assert data["item"]["content"]["body"] == "Answer in English."
    assert data["item"]["status"] == "pending"

    code, text, _ = run(capsys, *base, "approvals", "show", a)
    assert "----- body -----\nAnswer in English.\n----- end -----" in text

    code, data, _ = run(capsys, *base, "approvals", "reject", a, "--reason", "not now", "--json")
    assert code == 0
    assert data["action"] == "rejected"
    code, data, _ = run(capsys, *base, "approvals", "list", "--json")
    assert [i["id"] for i in data["items"]] == [b]
    code, data, _ = run(capsys, *base, "approvals", "list", "--status", "rejected", "--json")
    assert [i["id"] for i in data["items"]] == [a]


def test_show_escapes_terminal_control_characters(
    capsys: pytest.CaptureFixture[str], base: list[str], engine: Engine
) -> None:
    # The gate refuses control characters now (control_characters); an item queued by an
    # older build, or a record edited on disk, can still hold them, and `show` must not let
    # them drive the terminal.
    item = queue_create(engine)
    record = engine.layout.approvals_dir / "pending" / f"{item}.json"
    data = json.loads(record.read_text())
    data["content"]["body"] = "fine\x1b[2J\x1b]0;pwned\x07 and \u202egnp.exe"
    data["content_sha256"] = content_sha256(data["content"])
    record.write_text(json.dumps(data))
    _, text, _ = run(capsys, *base, "approvals", "show", item)
    assert "\x1b" not in text and "\u202e" not in text and "\x07" not in text
    assert "\\u001b[2J" in text and "\\u202e" in text


def test_unknown_item(capsys: pytest.CaptureFixture[str], base: list[str]) -> None:
    code, data, _ = run(
        capsys, *base, "approvals", "show", "apr-20260101-000000000-0123456789ab", "--json"
    )
    assert code == 1
    assert data["error"]["code"] == "not_found"


def test_approve_in_process_without_terminal_is_refused(
    capsys: pytest.CaptureFixture[str], base: list[str], engine: Engine
) -> None:
    item = queue_create(engine)
    code, data, _ = run(capsys, *base, "approvals", "approve", item, "--json")
    assert code == 1
    assert data["error"]["code"] == "approval_refused"
    assert [r.id for r in ApprovalQueue.for_layout(engine.layout).pending()] == [item]


@pytest.mark.parametrize(
    "extra_env", [{}, {"CONTEXT_CENTER_APPROVE": "1", "CI": "true", "YES": "1"}]
)
def test_approve_without_terminal_is_refused_via_subprocess(
    base: list[str], engine: Engine, extra_env: dict[str, str]
) -> None:
    item = queue_create(engine)
    proc = subprocess.run(
        [*CLI, *base, "approvals", "approve", item, "--json"],
        input="yes\n",
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **extra_env},
    )
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "approval_refused"
    assert "interactive terminal" in proc.stderr
    assert [r.id for r in ApprovalQueue.for_layout(engine.layout).pending()] == [item]
    assert engine.memory.load().facts == []


def test_approve_has_no_bypass_flag(base: list[str], engine: Engine) -> None:
    item = queue_create(engine)
    for flag in ("--yes", "--force", "-y", "--no-input"):
        proc = subprocess.run(
            [*CLI, *base, "approvals", "approve", item, flag],
            input="yes\n",
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert proc.returncode == 2, flag  # argparse: unknown option
    assert engine.memory.load().facts == []


# --------------------------------------------------------------------------- a real terminal


def _read_until(fd: int, marker: bytes, timeout: float = 30.0) -> bytes:
    buf = b""
    deadline = time.time() + timeout
    while marker not in buf and time.time() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            buf += chunk
    return buf


PROMPT = b"to approve this write: "


def _run_in_pty(
    argv: list[str], answer: bytes | None, *, stdout_tty: bool = True
) -> tuple[int, bytes, str]:
    """Run with stdin (and stdout) on a terminal; answer the prompt where it is written:
    on the terminal, or on stderr with --json (so stdout stays pure JSON)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        argv,
        stdin=slave,
        stdout=slave if stdout_tty else subprocess.PIPE,
        stderr=subprocess.PIPE,
        close_fds=True,
    )
    os.close(slave)
    assert proc.stderr is not None
    err_head = b""
    try:
        shown = b""
        if answer is not None:
            if "--json" in argv:
                err_head = _read_until(proc.stderr.fileno(), PROMPT)
                assert PROMPT in err_head, err_head
            else:
                shown = _read_until(master, PROMPT)
                assert PROMPT in shown, shown
            os.write(master, answer)
        rest = _read_until(master, b"\x00never\x00", timeout=30.0)
        proc.wait(timeout=60)
    finally:
        os.close(master)
    err = (err_head + proc.stderr.read()).decode()
    proc.stderr.close()
    if proc.stdout is not None:
        rest += proc.stdout.read()
        proc.stdout.close()
    return proc.returncode, shown + rest, err


def test_approve_in_a_terminal_after_typing_yes(base: list[str], engine: Engine) -> None:
    item = queue_create(engine)
    code, output, err = _run_in_pty([*CLI, *base, "approvals", "approve", item], b"yes\n")
    text = output.decode()
    assert code == 0, (text, err)
    assert "Answer in English." in text  # the person saw the exact content
    assert "claude-code" in text
    assert f"approved {item}: project/answer-language.md is now at revision 1" in text
    assert engine.memory.resolve("answer-language").fact.body == "Answer in English."
    assert ApprovalQueue.for_layout(engine.layout).get(item).status is Status.APPROVED


@pytest.mark.parametrize("answer", [b"no\n", b"y\n", b"YES please\n", b"\n"])
def test_approve_in_a_terminal_without_yes_changes_nothing(
    base: list[str], engine: Engine, answer: bytes
) -> None:
    item = queue_create(engine)
    code, _, err = _run_in_pty([*CLI, *base, "approvals", "approve", item], answer)
    assert code == 1
    assert "not approved" in err
    assert [r.id for r in ApprovalQueue.for_layout(engine.layout).pending()] == [item]
    assert engine.memory.load().facts == []


def test_terminal_stdin_with_piped_stdout_is_refused(base: list[str], engine: Engine) -> None:
    item = queue_create(engine)
    code, _, err = _run_in_pty([*CLI, *base, "approvals", "approve", item], None, stdout_tty=False)
    assert code == 1
    assert "interactive terminal" in err
    assert engine.memory.load().facts == []


def test_edit_then_approve_in_a_terminal(base: list[str], engine: Engine, tmp_path: Path) -> None:
    item = queue_create(engine)
    edited = tmp_path / "edit.json"
    edited.write_text(json.dumps({"body": "Answer in the user's language.", "type": "feedback"}))
    code, output, err = _run_in_pty(
        [*CLI, *base, "approvals", "approve", item, "--edited", str(edited), "--json"], b"yes\n"
    )
    text = output.decode()
    assert code == 0, (text, err)
    # with --json the review goes to stderr (the terminal in real use); stdout is only JSON
    assert "Answer in the user's language." in err  # the edited version is what was shown
    assert "your edited version" in err
    assert json.loads(text[text.index("{") :])["action"] == "approved"
    fact = engine.memory.resolve("answer-language").fact
    assert (fact.body, fact.type) == ("Answer in the user's language.", FactType.FEEDBACK)
    record = ApprovalQueue.for_layout(engine.layout).get(item)
    assert record.decision is not None and record.decision.edited is True


def test_bad_edit_is_refused_before_asking(base: list[str], engine: Engine, tmp_path: Path) -> None:
    item = queue_create(engine)
    edited = tmp_path / "edit.json"
    edited.write_text(json.dumps({"type": "nonsense"}))
    code, output, err = _run_in_pty(
        [*CLI, *base, "approvals", "approve", item, "--edited", str(edited)], None
    )
    assert code == 1
    assert b"to approve this write" not in output
    assert "nonsense" in err
    assert engine.memory.load().facts == []
