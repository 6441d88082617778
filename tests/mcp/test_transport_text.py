"""Text that is not Unicode on the MCP wire: a lone surrogate spelled in a request's JSON is
read as U+FFFD (the SDK would drop the message unanswered), a tool argument that still holds
one is refused naming the field, and a reply never breaks the UTF-8 line."""

from __future__ import annotations

import json

from context_center.mcp.server import _not_unicode
from context_center.mcp.transport import without_lone_surrogates


def test_lone_surrogates_in_a_request_become_the_replacement_character() -> None:
    line = json.dumps({"id": 1, "params": {"arguments": {"q": "deploy \udcff", "ok": "😀 部署"}}})
    repaired = json.loads(without_lone_surrogates(line + "\n"))
    assert repaired["params"]["arguments"] == {"q": "deploy \ufffd", "ok": "😀 部署"}
    plain = json.dumps({"id": 2, "params": {"q": "\\ud800 is text here"}})
    assert json.loads(without_lone_surrogates(plain)) == json.loads(plain)  # a backslash
    assert without_lone_surrogates('{"broken": "\\ud800') == '{"broken": "\\ud800'


def test_arguments_holding_a_lone_surrogate_are_named() -> None:
    args = {"message": "x\udcff", "tags": ["ok", "y\ud800"], "nested": {"k": "fine"}}
    assert _not_unicode(args) == {"message", "tags.1"}
    assert _not_unicode({"message": "部署 deploy"}) == set()
