"""Statement extraction, type inference and naming on single turns."""

from __future__ import annotations

import pytest

from context_center.engine.model import FactType
from context_center.engine.suggestions.mining import extract_statement, infer_type, propose_name


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
        ("我们约定分支名用 feat/ 前缀", "约定分支名用 feat/ 前缀"),
        ("默认使用 pnpm 安装依赖", "默认使用 pnpm 安装依赖"),
        ("Update README.md and always keep it short", "Always keep it short"),
    ],
)
def test_statement_starts_at_the_marker(turn: str, statement: str) -> None:
    found = extract_statement(turn)
    assert found is not None and found.text == statement


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
    ],
)
def test_one_off_questions_and_non_rules_are_not_statements(turn: str) -> None:
    assert extract_statement(turn) is None


@pytest.mark.parametrize(
    ("statement", "expected"),
    [
        ("Always check https://docs.example.com before editing", FactType.REFERENCE),
        ("Docs live at github.com/example/shop/wiki", FactType.REFERENCE),
        ("Never use emojis in commit messages", FactType.FEEDBACK),
        ("回复时先给结论", FactType.FEEDBACK),
        ("不要在回答里贴整段代码", FactType.FEEDBACK),
        ("Prefer rebase over merge on feature branches", FactType.PROJECT),
        ("By default open a PR against develop", FactType.PROJECT),
        ("约定分支名用 feat/ 前缀", FactType.PROJECT),
        ("默认在这个仓库里用 pnpm", FactType.PROJECT),
        ("I prefer dark themes in screenshots", FactType.USER),
        ("偏好简洁的解释", FactType.USER),
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
