"""Statement extraction, type inference and naming on single turns."""

from __future__ import annotations

import pytest

from context_center.engine.model import FactType
from context_center.engine.suggestions.mining import (
    extract_statement,
    extract_statements,
    infer_type,
    memory_drafts,
    propose_name,
)
from context_center.engine.suggestions.sources import UserTurn


@pytest.mark.parametrize(
    ("turn", "statement"),
    [
        ("Remember: always run ruff before committing.", "Always run ruff before committing"),
        ("please remember that the API lives in api/v2", "The API lives in api/v2"),
        ("记住：提交信息用英文写", "提交信息用英文写"),
        ("以后回答都用中文", "以后回答都用中文"),
        ("Please never force-push to main", "Never force-push to main"),
        ("OK. I prefer small pull requests. Now fix the bug.", "I prefer small pull requests"),
        ("from now on, write docs in English", "From now on, write docs in English"),
        ("我们约定分支名用 feat/ 前缀", "我们约定分支名用 feat/ 前缀"),
        ("默认使用 pnpm 安装依赖", "默认使用 pnpm 安装依赖"),
        # README.md's dot is no sentence end, and the words before the marker belong to the rule
        ("Update README.md and always keep it short", "Update README.md and always keep it short"),
        ("OK, always run ruff first", "Always run ruff first"),
        (
            "Fixed. Never force-push to main; PRs must be squash-merged.",
            "Never force-push to main; PRs must be squash-merged",
        ),
    ],
)
def test_statement_is_the_sentence_holding_the_marker(turn: str, statement: str) -> None:
    found = extract_statement(turn)
    assert found is not None and found.text == statement


@pytest.mark.parametrize(
    ("turn", "statement"),
    [
        # the words before the marker carry the URL
        (
            "Our API docs live at https://docs.example.com/api — always check them first.",
            "Our API docs live at https://docs.example.com/api — always check them first",
        ),
        # a marker at the end: the rule is what precedes it
        ("Our docs are at https://x.io/docs, remember that.", "Our docs are at https://x.io/docs"),
        (
            "The staging database is read-only - please remember this!",
            "The staging database is read-only",
        ),
        ("提交信息用中文写，记住。", "提交信息用中文写"),
        ("测试数据放在 fixtures 目录下，记住了", "测试数据放在 fixtures 目录下"),
        ("Always use the names people remember", "Always use the names people remember"),
        # a one-off request joined by ', and' / ';' / '，然后' is not part of the rule …
        (
            "Fix the login bug, and from now on always run the tests first.",
            "From now on always run the tests first",
        ),
        ("Fix the typo; never edit generated files by hand.", "Never edit generated files by hand"),
        ("先修好这个 bug，然后以后都先写测试。", "以后都先写测试"),
        # … unless the rule refers back to it or it holds a URL
        (
            "Docs are in docs/api.md, and always update them with the code.",
            "Docs are in docs/api.md, and always update them with the code",
        ),
        (
            "See https://x.io/guide; always follow the style rules.",
            "See https://x.io/guide; always follow the style rules",
        ),
        # a leading wrapper goes, its content stays
        ("记住：以后提交信息用中文写。", "以后提交信息用中文写"),
        (
            "Remember that our wiki is https://wiki.example.com/shop.",
            "Our wiki is https://wiki.example.com/shop",
        ),
        # '?' and '.' inside a URL end no sentence
        (
            "Thanks. API help is at https://x.io/a?b=1&c=2. Never guess the API.",
            "Never guess the API",
        ),
        (
            "The schema lives at https://x.io/s.json?v=2 — always validate against it.",
            "The schema lives at https://x.io/s.json?v=2 — always validate against it",
        ),
        # a question sentence is skipped, a later rule is not
        ("Do you always run tests? Never skip them.", "Never skip them"),
    ],
)
def test_text_before_the_marker_is_kept(turn: str, statement: str) -> None:
    found = extract_statement(turn)
    assert found is not None and found.text == statement


def _draft(text: str) -> tuple[str, FactType]:
    [draft] = memory_drafts([UserTurn("history", "s1", None, text, "/w")])
    assert draft.statement in draft.body and draft.title in (
        draft.statement,
        draft.statement[:71] + "…",
    )
    return draft.statement, draft.type


def test_review_examples_keep_the_url_and_type() -> None:
    assert _draft(
        "Our API docs live at https://docs.example.com/api — always check them first."
    ) == (
        "Our API docs live at https://docs.example.com/api — always check them first",
        FactType.REFERENCE,
    )
    assert _draft("Our docs are at https://x.io/docs, remember that.") == (
        "Our docs are at https://x.io/docs",
        FactType.REFERENCE,
    )
    assert (
        _draft("Never force-push to the main branch; PRs must be squash-merged.")[1]
        is FactType.PROJECT
    )
    assert _draft("From now on, always write commit messages in English")[1] is FactType.PROJECT
    assert _draft("记住：以后提交信息用中文写。") == ("以后提交信息用中文写", FactType.PROJECT)


@pytest.mark.parametrize(
    "turn",
    [
        "This time, always use tabs",
        "just for now never run the slow tests",
        "For now, prefer the old API",
        "这次不要跑集成测试",
        "暂时不要动这个文件",
        "这一次默认用 npm",
        "Do you always run tests?",
        "你总是这样吗？",
        "hi always",  # too short
        "Nevertheless, fix the parser",  # not the word "never"
        "fix the parser",  # no marker
        "always " + "x" * 420,  # too long
        "Remember that.",  # a wrapper with nothing in it
        "Good point, remember that.",  # too little before a trailing marker to be a rule
        "好的，记住了。",
        "Just this once, fix the docs, remember that.",  # one-off
        "Can you remember that the API lives at https://x.io?",  # a question
        # put off, waved away, or describing what happens (an outside review found these
        # made into rules)
        "这个 bug 以后再修。",
        "不要紧，继续吧。",
        "Never mind, fix the test instead.",
        "Don't worry about the flaky test for now.",
        "这个测试总是失败，帮我修一下。",
        "The build always fails on CI, please fix it.",
        "I always forget the command; just run the tests.",
        "我总是忘记命令，直接帮你跑测试吧。",
        "I don't know why the build broke, can you look.",  # "don't" inside a sentence
    ],
)
def test_one_off_questions_and_non_rules_are_not_statements(turn: str) -> None:
    assert extract_statement(turn) is None


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("Always check https://docs.example.com before editing", FactType.REFERENCE),
        ("Docs live at github.com/example/shop/wiki", FactType.REFERENCE),
        ("Never push without a PR: see https://x.io/flow", FactType.REFERENCE),
        # repository, branch, PR and commit conventions are project, even as always/never/不要
        ("Never use emojis in commit messages", FactType.PROJECT),
        ("Never force-push to the main branch; PRs must be squash-merged.", FactType.PROJECT),
        ("From now on, always write commit messages in English", FactType.PROJECT),
        ("以后提交信息用中文写", FactType.PROJECT),
        ("不要直接推送到 main", FactType.PROJECT),
        ("始终先 rebase 再合并", FactType.PROJECT),
        ("Always tag releases as vX.Y.Z", FactType.PROJECT),
        ("每次发布前更新 CHANGELOG", FactType.PROJECT),
        ("Prefer rebase over merge on feature branches", FactType.PROJECT),
        ("By default open a PR against develop", FactType.PROJECT),
        ("By default open a pull request against develop", FactType.PROJECT),
        ("约定分支名用 feat/ 前缀", FactType.PROJECT),
        ("默认在这个仓库里用 pnpm", FactType.PROJECT),
        # how the agent works
        ("回复时先给结论", FactType.FEEDBACK),
        ("不要在回答里贴整段代码", FactType.FEEDBACK),
        ("Always answer in English", FactType.FEEDBACK),
        ("Never guess an API; read the docs first", FactType.FEEDBACK),
        ("始终先写测试", FactType.FEEDBACK),
        # neither
        ("I prefer dark themes in screenshots", FactType.USER),
        ("偏好简洁的解释", FactType.USER),
        ("By default use pnpm, not npm, for the frontend", FactType.USER),
        ("Preprocessing is slow", FactType.USER),  # 'pr' inside a word is no PR
    ],
)
def test_type_inference(statement: str, expected: FactType) -> None:
    assert infer_type(statement) is expected


def test_names() -> None:
    assert propose_name("Never force-push to main", "feedback") == "never-force-push-to-main"
    zh_a = propose_name("提交信息用英文写", "user")
    zh_b = propose_name("回答都用中文", "user")
    assert zh_a != zh_b and zh_a == propose_name("提交信息用英文写", "user")
    assert zh_a.startswith("user-") and len(zh_a) == len("user-") + 8
    long = propose_name("Always " + "very " * 20 + "long", "user")
    assert long.startswith("always-very-very") and len(long.rsplit("-", 1)[1]) == 8
    mixed = propose_name("约定分支名用 feat/ 前缀", "project")
    assert mixed.startswith("feat-") and mixed.isascii()


@pytest.mark.parametrize(
    ("turn", "title"),
    [
        # a pasted terminal line keeps its colours and its window title out of the candidate
        (
            "Always \x1b[31mcolor\x1b[0m the failing test names",
            "Always color the failing test names",
        ),
        ("\x1b]0;pwn\x07 always run ruff before committing", "Always run ruff before committing"),
        ("记住：\x07提交信息用英文写\x1b[0m", "提交信息用英文写"),
        # a quote mark at either end: Reasonix's reader would strip it
        ('"Always squash-merge pull requests"', "Always squash-merge pull requests"),
    ],
)
def test_a_candidate_holds_no_control_character_and_can_be_saved(turn: str, title: str) -> None:
    """Accepting a candidate saves it as a fact: every field must be one a fact can hold
    (an outside review found an ESC in a title, refused with unrepresentable_value)."""
    from context_center.engine.store.fmvalue import problem

    [draft] = memory_drafts([UserTurn("history", "s1", None, turn, "/w")])
    assert draft.title == title
    assert problem(draft.title) is None and problem(draft.description) is None
    assert not any(ch < " " and ch != "\n" for ch in draft.body + draft.statement)
    assert all("\x1b" not in e.quote and "\x07" not in e.quote for e in draft.evidence)


def test_english_has_the_twins_of_the_chinese_markers() -> None:
    """不要 / 每次 have English twins: a sentence opening with don't / do not, every time (an
    outside review found the Chinese found and the English missed)."""
    pairs = [
        ("不要在代码注释里用表情符号。", "Don't use emojis in code comments."),
        ("不要在没问过的情况下加新依赖。", "Do not add new dependencies without asking."),
        ("每次改了 API 都要更新 OpenAPI 文档。", "Every time you change the API, update the spec."),
    ]
    for zh, en in pairs:
        found = [extract_statement(t) for t in (zh, en)]
        assert all(f is not None for f in found), (zh, en)
        assert found[0].reason == found[1].reason  # type: ignore[union-attr]
    curly = extract_statement("Fix it now. Don’t push to main directly.")
    assert curly is not None and curly.text == "Don’t push to main directly"
    assert infer_type("From now on reply in English") is FactType.FEEDBACK


@pytest.mark.parametrize(
    ("turn", "statement"),
    [
        # a line break ends a sentence: the lines are not joined into one statement
        (
            "look at the login bug\nalways run ruff before committing",
            "Always run ruff before committing",
        ),
        ("看一下登录的问题\n以后提交前都要先跑 ruff", "以后提交前都要先跑 ruff"),
        # a one-off in another sentence does not discard the rule in this one
        (
            "Skip the flaky test for now. From now on, always run ruff before committing.",
            "From now on, always run ruff before committing",
        ),
        ("这次先跳过这个测试。以后提交前都要先跑 ruff。", "以后提交前都要先跑 ruff"),
        ("Don't worry about the docs. Never push directly to main.", "Never push directly to main"),
    ],
)
def test_each_line_and_sentence_is_judged_on_its_own(turn: str, statement: str) -> None:
    found = extract_statement(turn)
    assert found is not None and found.text == statement


@pytest.mark.parametrize(
    "turn",
    [
        "The reviewer wrote:\n> Always squash commits before merging to main.\nWhat do you make of that",
        "评审意见：\n> 以后不要直接推送到 main 分支\n你怎么看",
        "$ pytest -q\nFAILED tests/test_a.py::test_never_empty - AssertionError\nfix it",
        "2026-01-10 12:00:01 WARN worker: never reached backend, always retrying\nwhat is this",
        "ERROR: the cache is never warmed\nwhy does this happen",
        "warning: variable is never read, always unused\n  --> src/main.rs:4:20\nwhat does it mean",
        "why does test_never_empty fail in CI",
    ],
)
def test_quoted_and_logged_lines_and_identifiers_state_no_rule(turn: str) -> None:
    assert extract_statement(turn) is None


def test_a_rule_in_the_persons_own_words_beside_a_quote_is_kept() -> None:
    found = extract_statement("> always squash\nI agree, always squash commits before merging")
    assert found is not None and found.text == "I agree, always squash commits before merging"


@pytest.mark.parametrize(
    ("turn", "statement"),
    [
        ("Remember to update the changelog.", "Remember to update the changelog"),
        ("Please remember to rebase before merging.", "Remember to rebase before merging"),
        ("Remember that we deploy on Fridays only.", "We deploy on Fridays only"),
    ],
)
def test_remember_to_stays_whole_remember_that_is_dropped(turn: str, statement: str) -> None:
    found = extract_statement(turn)
    assert found is not None and found.text == statement


@pytest.mark.parametrize(
    ("turn", "statements"),
    [
        (
            "Two rules: always run ruff before committing. Never push directly to main.",
            ["Two rules: always run ruff before committing", "Never push directly to main"],
        ),
        ("以后都用中文回答。别用 emoji。", ["以后都用中文回答", "别用 emoji"]),
        # a one-off or a question between them drops only its own sentence
        (
            "Always use pnpm. Skip the docs for now. Is ruff installed? Never edit the lockfile.",
            ["Always use pnpm", "Never edit the lockfile"],
        ),
        # said twice in one turn: once; at most three a turn
        ("Always use pnpm. Always use pnpm.", ["Always use pnpm"]),
        (
            "Always use pnpm. Never push to main. Always sign commits. Never skip the tests.",
            ["Always use pnpm", "Never push to main", "Always sign commits"],
        ),
    ],
)
def test_every_rule_of_a_turn_is_a_statement(turn: str, statements: list[str]) -> None:
    assert [s.text for s in extract_statements(turn)] == statements


def test_a_turns_second_rule_is_a_candidate_of_its_own() -> None:
    turn = UserTurn("history", "s1", None, "Always use pnpm. Never push to main.", "/w")
    drafts = memory_drafts([turn])
    assert sorted(d.statement for d in drafts) == ["Always use pnpm", "Never push to main"]
    assert len({d.id for d in drafts}) == 2
    # the first rule keeps the id a turn's one rule always had
    alone = memory_drafts([UserTurn("history", "s1", None, turn.text, "/w")])[0]
    assert alone.id in {d.id for d in drafts}


@pytest.mark.parametrize(
    ("turn", "statement"),
    [
        ("别用 npm，我们用 pnpm。", "别用 npm，我们用 pnpm"),
        ("请别在提交信息里加表情。", "别在提交信息里加表情"),
        ("代码写完了。别直接推到 main。", "别直接推到 main"),
        ("Stop using yarn in this repo.", "Stop using yarn in this repo"),
        ("Please stop adding type: ignore comments.", "Stop adding type: ignore comments"),
    ],
)
def test_bie_and_stop_using_state_a_rule(turn: str, statement: str) -> None:
    found = extract_statement(turn)
    assert found is not None and found.text == statement
    assert found.reason == "negative working preference"


@pytest.mark.parametrize(
    "turn",
    [
        "Don't commit yet.",
        "Don't touch that file right now.",
        "Don't merge it at the moment, CI is red.",
        "I never said that.",
        "I always asked for a summary, not a rewrite.",
        "先别提交，等我看一下。",
        "现在不要改这个文件。",
        "我没说要删掉这个文件。",
        "Stop the server and restart it.",
        "区别在于缓存。",
        "别急，我先看一下日志。",
        "别管那个警告，先把测试修好。",
    ],
)
def test_a_now_or_a_past_is_no_rule(turn: str) -> None:
    assert extract_statement(turn) is None


def test_a_full_stop_inside_inline_code_ends_no_sentence() -> None:
    found = extract_statement("Always run `ruff check . --fix` before committing.")
    assert found is not None and found.text == "Always run `ruff check . --fix` before committing"
