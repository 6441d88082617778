"""The secret scan's pre-checks are necessary conditions: a text they skip has no match."""

from __future__ import annotations

import random

import pytest
import secrets_corpus as corpus

from context_center.engine.gate.secrets import assignments, find_sensitive, obfuscation
from context_center.engine.gate.secrets.normalise import (
    View,
    base_view,
    edited_text,
    edited_view,
)

EXTRA = [
    "AWS_SECRET_ACCESS_KEY wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "密钥 wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "hex 0123456789abcdef0123456789abcdef and \\x41\\x42\\x43\\x44\\x45\\x46\\x47\\x48",
    "b64 Z2hwX0FiQ2RFZkdoSWpLbE1uT3BRclN0VXZXeFl6MTIzNDU2Nzg5MA== end",
    "a run of nineteen:: abcdefghijklmnopqrs and twenty abcdefghijklmnopqrst",
]


def _texts() -> list[str]:
    out = [c.text for c in corpus.CASES + corpus.HELD_OUT] + EXTRA
    return out + [base_view(t).text for t in out]


def test_value_run_is_needed_by_the_patterns_it_skips() -> None:
    skipped = (
        assignments.SPACED_ASSIGNMENT,
        assignments.CJK_SPACED_ASSIGNMENT,
        obfuscation.HEX_RUN,
        obfuscation.BASE64_RUN,
    )
    seen = 0
    for text in _texts():
        if any(p.search(text) for p in skipped):
            seen += 1
            assert assignments.has_value_run(text), text
    assert seen >= 10, "the corpus exercises these patterns"


def test_assignment_needs_a_separator_and_escapes_a_backslash_x() -> None:
    for text in _texts():
        if assignments.ASSIGNMENT.search(text):
            assert ":" in text or "=" in text
        if obfuscation.HEX_ESCAPES.search(text):
            assert "\\x" in text


def test_guarded_detectors_still_find_their_shapes() -> None:
    kinds = {s.kind for t in EXTRA[:4] for s in find_sensitive(t)}
    assert len(kinds) >= 2, kinds
    assert find_sensitive(EXTRA[0]) and find_sensitive(EXTRA[1])


def test_value_run_memo_answers_each_text_for_itself() -> None:
    long_run, short = "x " + "a" * 20, "x " + "a" * 19
    for text in (long_run, long_run, short, short, long_run, "", "".join(["a"] * 20)):
        expect = assignments.VALUE_RUN.search(text) is not None
        assert assignments.has_value_run(text) is expect


def test_edited_text_is_the_edited_views_text() -> None:
    rng = random.Random(13)
    cases = 0
    for text in _texts():
        edits = obfuscation._joins(text)
        if edits:
            cases += 1
        assert edited_text(text, edits) == edited_view(View(text), edits).text
        if len(text) > 4:  # overlapping and replacing edits too
            cuts = sorted(rng.sample(range(len(text)), 4))
            odd = [(cuts[0], cuts[2], "x"), (cuts[1], cuts[3], ""), (cuts[3], cuts[3], "yz")]
            assert edited_text(text, odd) == edited_view(View(text), odd).text
    assert cases >= 5, "some texts have joins"


def test_detect_secrets_loads_without_the_network_library() -> None:
    """The gate's detect-secrets patterns load without ``requests`` (only its verify calls use
    it, which the gate never makes); afterwards the real ``requests`` can still be imported."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from context_center.engine.gate.secrets.plugins import plugins\n"
        "p = plugins()\n"
        "assert p.aws_key_id.search('AKIAIOSFODNN7EXAMPLE')\n"
        "assert 'requests' not in sys.modules and 'urllib3' not in sys.modules\n"
        "import detect_secrets.plugins.base as base\n"
        "try:\n"
        "    base.requests.post\n"
        "except AttributeError as exc:\n"
        "    assert 'never verifies' in str(exc)\n"
        "else:\n"
        "    raise AssertionError('detect-secrets could reach the network library')\n"
        "import requests\n"
        "assert hasattr(requests, 'Session')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        (
            "The deploy token is ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\nNever commit it.\n",
            "The deploy token is [withheld: GitHub token]\nNever commit it.\n",
        ),
        (
            "token: ghp_1234567890abcdefghijklmnopqrstuvwxyzAB\nnext line here\n",
            "token: [withheld: GitHub token]\nnext line here\n",
        ),
        (  # a token wrapped across lines is still one secret
            "key ghp_12345678901234567890\n1234567890abcdefAB rest\n",
            "key [withheld: GitHub token] rest\n",
        ),
        ("glpat-abcdefghij0123456789xy\nZq81Kp rest\n", "[withheld: GitLab token] rest\n"),
    ],
)
def test_a_token_at_a_line_end_keeps_the_next_lines_word(text: str, shown: str) -> None:
    from context_center.engine.gate.visible import visible_text

    assert visible_text(text) == shown
