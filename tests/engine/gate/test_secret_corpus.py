"""The gate's detection figures on the labelled corpus (tests/engine/gate/secrets_corpus.py).

Targets (issue 17): at least 97 % of the everyday credentials, at least 75 % of the obfuscated
ones, at most 2 % false positives on the benign developer strings, in English and Chinese.
"""

from __future__ import annotations

import pytest
import secrets_corpus as corpus

from context_center.engine.gate.secrets import find_sensitive


@pytest.fixture(scope="module")
def figures() -> corpus.Figures:
    return corpus.score(find_sensitive)


def test_corpus_is_large_enough_and_balanced() -> None:
    assert len(corpus.EVERYDAY) >= 60
    assert len(corpus.OBFUSCATED_CASES) >= 10
    positives = len(corpus.EVERYDAY) + len(corpus.OBFUSCATED_CASES)
    assert len(corpus.BENIGN_CASES) >= positives
    for cases in (corpus.EVERYDAY, corpus.BENIGN_CASES):
        langs = {case.lang for case in cases}
        assert langs == {"en", "zh"}
    assert sum(case.lang == "zh" for case in corpus.BENIGN_CASES) >= 20


def test_everyday_catch_rate(figures: corpus.Figures) -> None:
    missed = [c.text[:60] for c in figures.missed if c.cls != corpus.OBFUSCATED]
    assert figures.everyday_rate >= 0.97, missed


def test_obfuscated_catch_rate(figures: corpus.Figures) -> None:
    missed = [c.text[:60] for c in figures.missed if c.cls == corpus.OBFUSCATED]
    assert figures.obfuscated_rate >= 0.75, missed


def test_false_positive_rate(figures: corpus.Figures) -> None:
    assert figures.false_positive_rate <= 0.02, [c.text for c in figures.false_positives]


@pytest.mark.parametrize(
    "text",
    [
        "CLIENT_SECRET_FILE=/etc/app/client_secret.json",
        "git clone https://git@bitbucket.org/team/repo.git",
    ],
)
def test_the_known_false_positives_are_gone(text: str) -> None:
    assert find_sensitive(text) == []


def test_every_positive_span_lies_in_its_text() -> None:
    for case in corpus.EVERYDAY + corpus.OBFUSCATED_CASES:
        for span in find_sensitive(case.text):
            assert 0 <= span.start < span.end <= len(case.text)
