"""``secretmatch.shown``: the matches ``secret_only`` keeps, from one span lookup per fact."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from recall_env import MakeFact

from context_center.engine.recall import secretmatch
from context_center.engine.recall.digest import content_digest
from context_center.engine.recall.secretmatch import secret_only, shown


@dataclass(frozen=True)
class _M:
    find: str


BODIES = [
    "The staging password is hunter2. Deploy staging with care; hunter2 rotates monthly.",
    "export API_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789 then deploy the token",
    "Nothing secret here: deploy the release after the nightly run.",
    "密码：hunter2xyz 部署 staging",
]
FINDS = ["hunter2", "staging", "deploy", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "", "token",
         "密码", "部署", "absent"]  # fmt: skip


@pytest.mark.parametrize("body", BODIES)
def test_shown_keeps_exactly_what_secret_only_keeps(make_fact: MakeFact, body: str) -> None:
    f = make_fact("staging-notes", body)
    matches = [_M(x) for x in FINDS]
    expected = [m for m in matches if not secret_only(f, m.find)]
    secretmatch._CACHE.clear()
    got = shown(f, matches, content_digest(f))
    assert got == expected and got is not matches
    assert shown(f, matches) == expected  # by its own digest, from the memo


def test_some_match_is_dropped_so_the_comparison_means_something(make_fact: MakeFact) -> None:
    f = make_fact("staging-notes", "The staging password is hunter2. Deploy with care.")
    assert [m.find for m in shown(f, [_M("hunter2"), _M("staging")])] == ["staging"]


def test_no_find_to_check_scans_nothing(
    make_fact: MakeFact, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as secret_only does for an empty find: the fact's text is not even needed
    def boom(*_: object) -> object:
        raise AssertionError("scanned")

    monkeypatch.setattr(secretmatch, "_spans", boom)
    f = make_fact("staging-notes", BODIES[0])
    assert shown(f, [_M(""), _M("")]) == [_M(""), _M("")]
    assert shown(f, []) == []
    with pytest.raises(AssertionError):
        shown(f, [_M(""), _M("staging")])


def test_one_span_lookup_per_fact(make_fact: MakeFact, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    real = secretmatch._spans

    def counted(fact: object, digest: bytes | None = None) -> object:
        calls.append(fact)
        return real(fact, digest)  # type: ignore[arg-type]

    monkeypatch.setattr(secretmatch, "_spans", counted)
    f = make_fact("staging-notes", BODIES[0])
    shown(f, [_M(x) for x in FINDS])
    assert len(calls) == 1
