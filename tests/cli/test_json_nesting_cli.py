"""JSON nested deeper than the parser goes (``json.loads`` raises RecursionError, not
ValueError) given to a command, the MCP server or the warm server is answered as invalid JSON
is: a clear error, nothing written, the server still serving."""

from __future__ import annotations

import json
import socket
import struct
from pathlib import Path

import pytest
from inproc import run_inprocess

from context_center import entry
from context_center.cli import serve
from context_center.engine import resolve_home
from context_center.mcp.transport import without_lone_surrogates

OBJECT_BOMB = '{"a":' * 20_000  # 100,000 characters


def _cli(home: Path, workspace: Path, *argv: str) -> tuple[int, dict[str, object]]:
    got = run_inprocess(["--home", str(home), "--workspace", str(workspace), *argv, "--json"])
    return got.returncode, json.loads(got.stdout)


def test_a_bomb_json_input_is_invalid_json(home: Path, workspace: Path, tmp_path: Path) -> None:
    bomb = tmp_path / "fields.json"
    bomb.write_text(OBJECT_BOMB)
    for argv in (
        ["memory", "save", "--json-input", str(bomb)],
        ["agent", "remember", "--json-input", str(bomb)],
    ):
        rc, out = _cli(home, workspace, *argv)
        assert rc != 0
        error = out["error"]
        assert isinstance(error, dict) and error["code"] == "invalid_request"
        assert "--json-input is not valid JSON" in str(error["message"])
    assert not list(home.rglob("*.md"))


def test_connect_refuses_a_bomb_config_without_writing(home: Path, workspace: Path) -> None:
    config = workspace / ".mcp.json"
    config.write_text(OBJECT_BOMB)
    for argv in (["connect", "claude-code"], ["disconnect", "claude-code"]):
        rc, out = _cli(home, workspace, *argv)
        assert rc != 0
        error = out["error"]
        assert isinstance(error, dict) and error["code"] == "config_unreadable"
        assert config.read_text() == OBJECT_BOMB
    assert not (workspace / ".claude").exists()


def test_the_mcp_transport_passes_a_bomb_on_to_the_sdk() -> None:
    line = '{"jsonrpc":"2.0","id":2,"params":{"x":"\\udcff","y":' + "[" * 100_000 + "}}\n"
    assert without_lone_surrogates(line) == line


def _bomb_sent() -> tuple[socket.socket, socket.socket]:
    ours, theirs = socket.socketpair()
    body = OBJECT_BOMB.encode()
    theirs.sendall(struct.pack(">I", len(body)) + body)
    return ours, theirs


def test_a_bomb_request_to_the_warm_server_is_dropped(home: Path) -> None:
    ours, theirs = _bomb_sent()
    with ours, theirs, pytest.raises(ConnectionError, match="not a message"):
        entry.read_message(ours)
    srv = serve.Server(resolve_home(str(home)), None, None)
    ours, theirs = _bomb_sent()
    with ours, theirs:
        srv._serve_one(ours)  # dropped, as a message that is not JSON is: the server goes on
    assert srv.requests == 0
