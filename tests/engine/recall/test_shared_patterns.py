"""The run patterns recall's modules share (compiled once per process, ``tokenize.py``) find
what each module's own pattern found."""

from __future__ import annotations

import re

import pytest

from context_center.engine.recall import tokenize, vocab
from context_center.engine.recall.tokenize import CJK_CLASS, WORD_OR_CJK_RUN, is_cjk

SAMPLES = [
    "",
    "\n",
    "部署",
    "部署\n",
    "部署\n\n",
    "\n部署",
    "部署 ",
    "部署a",
    "a部署",
    "カタカナ한국어𠀀",
    "deploy",
    "how do we configure the zookeeper quorum",
    "修复 AuthHandler 的 bug_42 吗？release/v1.2 -- 上线\n下一步",
    "ｆｕｌｌ　ｗｉｄｔｈ｜全角",
    "mixed上线deploy部署_x9",
]


@pytest.mark.parametrize("text", SAMPLES)
def test_is_cjk_is_the_anchored_class_match(text: str) -> None:
    assert is_cjk(text) == bool(re.match(f"^[{CJK_CLASS}]+$", text))


@pytest.mark.parametrize("text", SAMPLES)
def test_the_word_or_cjk_runs_are_the_runs_of_either_order(text: str) -> None:
    words_first = re.compile(f"[^\\W{CJK_CLASS}]+|[{CJK_CLASS}]+")
    assert [m.group(0) for m in WORD_OR_CJK_RUN.finditer(text)] == words_first.findall(text)
    assert [m.span() for m in WORD_OR_CJK_RUN.finditer(text)] == [
        m.span() for m in words_first.finditer(text)
    ]
    named = re.compile(f"(?P<cjk>[{CJK_CLASS}]+)|(?P<word>[^\\W{CJK_CLASS}]+)")
    assert [(m.lastgroup, m.group()) for m in WORD_OR_CJK_RUN.finditer(text)] == [
        (m.lastgroup, m.group()) for m in named.finditer(text)
    ]
    assert tokenize.CJK_RUN.findall(text) == re.findall(f"[{CJK_CLASS}]+", text)


def test_pairs_are_counted_from_the_kept_columns() -> None:
    v = vocab.parse("a b|c\t甲乙|丙丁|latin\nc\t甲乙\n# x\nsolo\t丙\n")
    # line 1: {a b, c} x {甲乙, 丙丁} (latin excluded); line 2 repeats (c, 甲乙); line 3 has
    # one searchable form only (one character), so it is no group
    assert v.pairs == 4
    assert v.columns == ((("a b", "c"), ("甲乙", "丙丁", "latin")), (("c",), ("甲乙",)))
