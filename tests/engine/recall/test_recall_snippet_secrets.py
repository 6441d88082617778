"""A snippet cut from a long fact never cuts a withheld secret in two (issue 13; found by an
outside review: the end of a 1,600-character JWT reached the block and search)."""

from __future__ import annotations

import base64
import json

from recall_env import NOW, MakeFact

from context_center.engine.recall import Recaller
from context_center.engine.recall import block as blk


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _jwt(claims: int) -> str:
    head = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
    body = {"sub": "kestrel-runner", "roles": [f"role-{i:04d}" for i in range(claims)]}
    payload = _b64(json.dumps(body).encode())
    return f"{head}.{payload}.{_b64(bytes(range(32)))}"


FILLER = " ".join(f"word{i}" for i in range(220))  # about 1,500 characters


def _fact(make_fact: MakeFact, token: str):  # type: ignore[no-untyped-def]
    body = f"{FILLER}\nBearer {token} is what the kestrel runner sends to the gateway.\n{FILLER}"
    return make_fact("kestrel-auth", body, title="Kestrel auth", description="How it signs in")


def _pieces(token: str) -> list[str]:
    return [token[i : i + 16] for i in range(0, len(token) - 16, 8)]


def test_the_window_never_holds_part_of_a_long_token(make_fact: MakeFact) -> None:
    for claims in (40, 90, 140):  # tokens of some 700 to 2,300 characters
        token = _jwt(claims)
        f = _fact(make_fact, token)
        assert len(f.body) > 4 * blk.SNIPPET_CHARS
        r = Recaller(None)
        result = r.recall("kestrel runner gateway", [f], now=NOW, persist=False)
        assert result.trace.selected, "the fact is recalled"
        hits = r.search("kestrel runner", limit=5)
        assert hits
        for text in (result.block, hits[0].snippet, blk.snippet(f, ["kestrel"])):
            assert "kestrel" in text
            leaked = [p for p in _pieces(token) if p in text]
            assert not leaked, (claims, leaked[:2])
            assert "[withheld:" in text


def test_spans_given_or_found_give_the_same_snippet(make_fact: MakeFact) -> None:
    from context_center.engine.recall.digest import index_text
    from context_center.engine.recall.secretmatch import withheld

    f = _fact(make_fact, _jwt(90))
    spans = withheld(index_text(f))
    assert spans
    assert blk.snippet(f, ["kestrel"], spans=spans) == blk.snippet(f, ["kestrel"])
    short = make_fact("short", "The kestrel runner signs in.", title="Kestrel")
    assert blk.snippet(short, ["kestrel"], spans=()) == blk.snippet(short, ["kestrel"])
