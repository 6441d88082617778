"""What a candidate may be: not pasted material, never an e-mail address or a secret as is, and
a duplicate of a fact or instruction is left out with a note naming it, judged on the statement."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest
from sugg_env import Env

from context_center.engine.model import Fact, FactType, Scope
from context_center.engine.suggestions import ScanResult, append_turn, scan
from context_center.engine.suggestions.mining import extract_statement

NOW = datetime(2026, 10, 10, 12, 0, tzinfo=UTC)

TRACEBACK = (
    "Traceback (most recent call last):\n"
    '  File "/home/ana/shop/ci.py", line 12, in <module>\n'
    "    main()\n"
    '  File "/home/ana/shop/ci.py", line 8, in main\n'
    "    raise RuntimeError('always fails on CI')\n"
    "RuntimeError: always fails on CI"
)

PASTED = [
    # the issue's own example: the fence opens mid-sentence
    f"Here's the traceback, it always fails on CI: ```{TRACEBACK}```",
    f"Here's the traceback, it always fails on CI: ```\n{TRACEBACK}",  # never closed
    f"It always fails on CI:\n{TRACEBACK}",  # no fence at all
    "Why does this fail?\n```python\n# always use tabs here\ndef f():\n\treturn 1\n```",
    "# Contributing\n\nAlways run the tests before pushing.\nNever commit generated files.\n",
    "## 发布流程\n\n每次发布前更新 CHANGELOG。\n不要直接推送到 main。\n",
    "---\nname: ci\ndescription: always green\n---\nNever merge red builds.\n",
    "Error: always-on flag missing\n    at load (/srv/app/config.js:10:5)\n"
    "    at main (/srv/app/index.js:3:1)\n    at Object.<anonymous> (/srv/app/index.js:9:1)",
]


@pytest.mark.parametrize("turn", PASTED)
def test_pasted_material_is_not_a_statement(turn: str) -> None:
    assert extract_statement(turn) is None


@pytest.mark.parametrize(
    ("turn", "statement"),
    [
        # inline code is no paste
        (
            "Always run `ruff check .` before committing.",
            "Always run `ruff check .` before committing",
        ),
        # a short snippet after the rule is an example; the rule is the person's
        (
            "Always run ruff before committing. ```ruff check .```",
            "Always run ruff before committing",
        ),
        (
            "Never log request bodies; this line leaked one:\n```\nlog.info(body)\n```",
            "Never log request bodies; this line leaked one",
        ),
    ],
)
def test_a_statement_outside_a_small_paste_still_counts(turn: str, statement: str) -> None:
    found = extract_statement(turn)
    assert found is not None and found.text == statement


def test_a_marker_inside_a_paste_does_not_count() -> None:
    turn = (
        "Please check this config for me, it is the one the staging cluster uses today:\n"
        "```\nalways_retry: true\n```"
    )
    assert extract_statement(turn) is None


def _say(env: Env, *turns: str) -> None:
    for i, text in enumerate(turns):
        append_turn(env.layout, text, session=f"s{i}", time=NOW - timedelta(hours=len(turns) - i))


def _scan(
    env: Env, facts: list[Fact] | None = None, bodies: Sequence[str | tuple[str, str]] = ()
) -> ScanResult:
    return scan(env.layout, facts or [], bodies, now=NOW, **env.scan_kwargs())  # type: ignore[arg-type]


def test_a_pasted_turn_yields_no_candidate_in_a_scan(empty_env: Env) -> None:
    _say(empty_env, *PASTED, "Never force-push to main.")
    result = _scan(empty_env)
    assert [m.title for m in result.memories] == ["Never force-push to main"]


def test_a_candidate_never_carries_an_email_address_or_a_secret(empty_env: Env) -> None:
    _say(
        empty_env,
        "Always send the nightly report to ana.lima@example.com.",
        "Remember: the staging database password is Hunter2-staging-9041, never rotate it by hand.",
        "Always use the token ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8 for the mirror.",
    )
    result = _scan(empty_env)
    assert len(result.memories) == 3
    dumped = result.model_dump_json()
    for value in ("ana.lima", "example.com", "Hunter2", "9041", "ghp_", "A1b2C3"):
        assert value not in dumped, value
        assert value.lower() not in dumped.lower().replace("[email]", "").replace("[secret]", "")
    by_title = {m.title: m for m in result.memories}
    email = by_title["Always send the nightly report to [email]"]
    assert email.redacted == ["email address"] and "[email]" in email.evidence[0].quote
    assert all(m.redacted for m in result.memories)
    secret = next(m for m in result.memories if "password" in m.title)
    assert "[secret]" in secret.body and "[secret]" in secret.evidence[0].quote


def _fact(name: str, body: str, *, title: str = "", scope: Scope = Scope.PROJECT) -> Fact:
    return Fact(
        id=f"mem-{abs(hash(name)):032x}"[-36:],
        revision=1,
        created_at=NOW,
        updated_at=NOW,
        name=name,
        title=title or name,
        description="",
        type=FactType.REFERENCE,
        scope=scope,
        body=body,
    )


def test_a_url_shared_in_part_is_no_duplicate(empty_env: Env) -> None:
    _say(empty_env, "Remember: the staging URL is https://staging.example.com")
    result = _scan(empty_env, [_fact("ci-url", "https://ci.example.com", title="CI")])
    assert [m.title for m in result.memories] == ["The staging URL is https://staging.example.com"]
    assert result.notes == []


def test_the_same_url_said_again_is_a_duplicate(empty_env: Env) -> None:
    _say(empty_env, "Remember: the staging URL is https://staging.example.com/")
    fact = _fact("staging", "Staging lives at HTTPS://www.staging.example.com", title="Staging")
    result = _scan(empty_env, [fact])
    assert result.memories == []
    assert result.notes == [
        "Left out “The staging URL is https://staging.example.com/”: "
        "the fact project/staging.md (“Staging”) already says this."
    ]


def test_a_duplicate_says_which_fact_or_instruction_it_repeats(empty_env: Env) -> None:
    _say(
        empty_env,
        "Always run ruff before committing.",
        "I prefer small pull requests over big ones.",
        "以后回答都用中文。",
        "Never merge on a Friday.",
    )
    facts = [
        _fact("ruff", "Always run ruff before you commit.", title="Ruff first"),
        _fact("pr-size", "I prefer small pull requests.", scope=Scope.GLOBAL, title="Small PRs"),
    ]
    bodies = [("workspace/AGENTS.md", "# Shop\n\n- 回答都用中文\n")]
    result = _scan(empty_env, facts, bodies)
    assert [m.title for m in result.memories] == ["Never merge on a Friday"]
    notes = "\n".join(result.notes)
    assert "“Always run ruff before committing”: the fact project/ruff.md (“Ruff first”)" in notes
    assert "the fact global/pr-size.md (“Small PRs”)" in notes
    assert "“以后回答都用中文”: the instruction file workspace/AGENTS.md" in notes
    assert len(result.notes) == 3


@pytest.mark.parametrize(
    ("fact_body", "said", "kept"),
    [
        # a correction of what a fact says is no repetition of it
        ("We use npm for installs.", "Don't use npm for installs, we use pnpm.", True),
        ("Use npm for installs.", "Never use npm for installs.", True),
        ("Never use npm for installs.", "From now on, use npm for installs.", True),
        ("我们用 npm 安装依赖。", "以后不要用 npm 安装依赖，改用 pnpm。", True),
        # said the same way round, it is still a repetition
        ("Never use npm for installs.", "Never use npm for installs.", False),
        ("We use pnpm for installs, not npm.", "Remember: we use pnpm for installs.", False),
        ("以后不要用 npm 安装依赖，改用 pnpm。", "以后不要用 npm 安装依赖，改用 pnpm。", False),
    ],
)
def test_a_correction_of_a_fact_is_a_candidate(
    empty_env: Env, fact_body: str, said: str, kept: bool
) -> None:
    _say(empty_env, said)
    result = _scan(empty_env, [_fact("installs", fact_body, title="Package manager")])
    assert bool(result.memories) is kept, (result.memories, result.notes)
    assert bool(result.notes) is not kept
