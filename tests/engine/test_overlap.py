"""Phrase overlap for Chinese and English: the reference examples, many more, and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from context_center.engine.gate.overlap import is_cjk, normalise, phrases_overlap, tokens


def test_normalise() -> None:
    assert normalise("Prefer-Tabs!") == "prefertabs"
    assert normalise("ＰＮＰＭ　１０") == "pnpm10"  # full width
    assert normalise("包 管理，器") == "包管理器"
    assert normalise("snake_case") == "snakecase"
    assert normalise("  ...  ") == ""


def test_tokens() -> None:
    assert tokens("Prefer tabs over_spaces 2x") == ["prefer", "tabs", "over_spaces", "2x"]
    assert tokens("包管理器") == ["包管", "管理", "理器"]
    assert tokens("用 pnpm 管理依赖") == ["用", "pnpm", "管理", "理依", "依赖"]
    assert tokens("用pnpm") == ["用", "pnpm"]
    assert tokens("ひらがなカタカナ") == ["ひら", "らが", "がな", "なカ", "カタ", "タカ", "カナ"]
    assert tokens("한국어") == ["한국", "국어"]
    assert tokens("ＡＢＣ，中") == ["abc", "中"]
    assert tokens("") == []
    assert tokens("!!! ...") == []


def test_is_cjk() -> None:
    assert all(is_cjk(c) for c in "中文かなカナ한글々〇𠀀")
    assert not any(is_cjk(c) for c in "aZ9_ é，。・\U0002ebe1")


# The examples from issue 5.
@pytest.mark.parametrize(
    ("a", "b"),
    [("包管理", "包管理器"), ("prefer tabs", "prefer tabs over spaces")],
)
def test_issue_examples_overlap(a: str, b: str) -> None:
    assert phrases_overlap(a, b)
    assert phrases_overlap(b, a)


@pytest.mark.parametrize(
    ("a", "b"),
    [("包管理", "依赖管理"), ("package manager", "branch management")],
)
def test_issue_examples_do_not_overlap(a: str, b: str) -> None:
    assert not phrases_overlap(a, b)
    assert not phrases_overlap(b, a)


OVERLAP = [
    # equal after normalisation
    ("Prefer Tabs", "prefer-tabs"),
    ("PNPM", "ｐｎｐｍ"),
    ("包管理", "包 管理"),
    ("Use   pnpm!", "use pnpm"),
    # containment, both >= 4 characters
    ("pnpm", "always use pnpm for installs"),
    ("release branch", "the release branch is main"),
    ("代码风格", "代码风格使用 black"),
    ("测试命令", "项目的测试命令是 pytest"),
    ("数据库迁移", "运行数据库迁移之前先备份"),
    ("API keys", "rotate api keys monthly"),
    # shared tokens, two thirds of the smaller set
    ("use pnpm for installs", "installs use pnpm"),
    ("tests run with pytest", "run tests with pytest -q"),
    ("deploy to staging first", "first deploy staging"),
    ("包管理器用 pnpm", "用 pnpm 作为包管理器"),
    ("部署前先跑测试", "先跑测试再部署"),
    ("提交信息使用中文", "提交信息用中文写"),
    ("分支命名规则", "分支的命名规则"),
    ("日志级别 debug", "debug 日志级别"),
    ("CI 使用 GitHub Actions", "GitHub Actions 跑 CI"),
]

NO_OVERLAP = [
    ("pnpm", "npm"),  # too short for containment, one token each
    ("tabs", "spaces"),
    ("prefer tabs", "prefer spaces"),  # one shared token
    ("use pnpm", "use yarn"),
    ("release branch", "feature branch naming"),
    ("database migrations", "database backups"),
    ("代码风格", "代码审查"),
    ("测试命令", "构建命令"),
    ("前端框架", "前端测试"),
    ("部署流程", "发布流程"),
    ("包管理", "版本管理"),
    ("依赖管理", "权限管理"),
    ("日志", "日志级别设置为调试模式以便排查线上问题并输出更多信息"),  # > 6x longer
    ("ci", "continuous integration runs on every push to main and on pull requests"),
    ("", "anything"),
    ("!!!", "???"),
    ("用户偏好", "项目约定"),
]


@pytest.mark.parametrize(("a", "b"), OVERLAP)
def test_overlap_examples(a: str, b: str) -> None:
    assert phrases_overlap(a, b), (a, b)
    assert phrases_overlap(b, a), (b, a)


@pytest.mark.parametrize(("a", "b"), NO_OVERLAP)
def test_no_overlap_examples(a: str, b: str) -> None:
    assert not phrases_overlap(a, b), (a, b)
    assert not phrases_overlap(b, a), (b, a)


def test_shared_bigrams_can_overlap_across_meaning() -> None:
    # A known looseness of the rule: two of three bigrams shared is enough, so these count as
    # possible duplicates (and go to a person) although they differ in meaning.
    assert phrases_overlap("前端框架", "后端框架")


def test_containment_needs_four_characters_on_both_sides() -> None:
    assert not phrases_overlap("api", "api gateway timeouts")
    assert phrases_overlap("apis", "apis gateway")


def test_length_ratio_cuts_off_after_containment() -> None:
    # Containment wins even when one side is far longer...
    assert phrases_overlap("pnpm", "pnpm " + "and more words " * 10)
    # ...but without containment a six-fold difference ends the comparison.
    short = "use pnpm"
    long = "pnpm use " + "x" * 60
    assert len(normalise(long)) > 6 * len(normalise(short))
    assert not phrases_overlap(short, long)


def test_two_thirds_threshold() -> None:
    # 3 tokens each, 2 shared: 2*3 >= 3*2 → overlap.
    assert phrases_overlap("alpha beta gamma", "alpha beta delta")
    # 4 tokens each, 2 shared: 6 < 8 → no overlap.
    assert not phrases_overlap("alpha beta gamma delta", "alpha beta epsilon zeta")


_words = st.text(
    alphabet=st.sampled_from(list("abcdefg 包管理依赖器测试中文_-ＡＢ1２")), max_size=30
)


@settings(max_examples=300, deadline=None)
@given(_words, _words)
def test_symmetric(a: str, b: str) -> None:
    assert phrases_overlap(a, b) == phrases_overlap(b, a)


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=60))
def test_overlaps_itself_when_not_empty(a: str) -> None:
    assert phrases_overlap(a, a) == bool(normalise(a))


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_tokens_are_lowercase_and_non_empty(a: str) -> None:
    for token in tokens(a):
        assert token
        assert token == token.lower()
        assert all(ch.isalnum() or ch == "_" for ch in token)
