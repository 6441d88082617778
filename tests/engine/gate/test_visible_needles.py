"""The path redaction's literal pre-check skips only texts that hold no redacted path."""

from __future__ import annotations

from pathlib import Path

import pytest

from context_center.engine.gate.visible import Visibility, _needles


def _pair(tmp_path: Path) -> tuple[Visibility, Visibility]:
    def make() -> Visibility:
        return Visibility(
            home=tmp_path / "Users" / "Bob Smith",
            workspace=tmp_path / "work" / "proj-x",
            cc_home=tmp_path / "cc home",
            store_paths=[tmp_path / "cc home" / "memory" / "global"],
        )

    fast, plain = make(), make()
    plain._needles = None  # always runs the path patterns
    return fast, plain


def test_needles_are_the_longest_names() -> None:
    assert _needles(["/home/alice", "/srv/x/longest-name/y"]) == ("alice", "longest-name")
    assert _needles(["C:\\Users\\bob"]) == ("Users",)
    assert _needles(["/", "/home/a"]) is None


@pytest.mark.parametrize(
    "template",
    [
        "nothing local here, only prose and /usr/bin/env",
        "see {ws}/src/main.py and {home}/notes",
        "url-encoded {enc}%2Fsrc",
        "the slug {slug} in a store path",
        "case differs: {upper}",
        "store {store}/fact.md; cc {cc}",
        "",
    ],
)
def test_pre_check_changes_nothing(tmp_path: Path, template: str) -> None:
    fast, plain = _pair(tmp_path)
    ws = str(tmp_path / "work" / "proj-x")
    text = template.format(
        ws=ws,
        home=tmp_path / "Users" / "Bob Smith",
        enc=ws.replace("/", "%2F"),
        slug=ws.replace("/", "-"),
        upper=ws.upper(),
        store=tmp_path / "cc home" / "memory" / "global",
        cc=tmp_path / "cc home",
    )
    assert fast.paths(text) == plain.paths(text)
    assert fast(text) == plain(text)
    if "{ws}" in template or "{store}" in template:
        assert str(tmp_path) not in fast(text)
