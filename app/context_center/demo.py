"""A sample home and workspace for ``context-center --demo`` (and the screenshots).

Everything is written through the engine, as real use would write it:

* facts of all four types in both scopes, English and Chinese, with one project-over-global
  conflict (``release-branch``), stale and fresh facts, and a fact with four revisions;
* archived facts, one of which cannot be recovered because its name is active again;
* instruction files: home ``AGENTS.md`` (importing ``prefs/style.md``), workspace ``AGENTS.md``
  (importing ``docs/agent-testing.md``, which imports ``checklist.md``, plus one rejected import
  ``@../outside.md``), ``AGENTS.local.md`` and ``services/payments/AGENTS.md``;
* pending approvals queued by an agent through the write gate (global fact, update, forget,
  sensitive content);
* session history with stated preferences and a repeated workflow, for Suggestions;
* a recall trace for the Activity tab.

``generate(base)`` creates ``base/home`` and ``base/workspace/shop-api`` and returns them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from context_center.engine import Engine, FactType, Scope, atomic


@dataclass(frozen=True)
class Sample:
    home: Path
    workspace: Path


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_text(path, text)


HOME_AGENTS = """\
# Personal defaults

- Answer in the language the question was asked in. 用提问所用的语言回答。
- Prefer small, reviewable commits with a clear message.

@prefs/style.md
"""

HOME_STYLE = """\
## Code style

- Type hints everywhere; keep functions short.
- 注释解释“为什么”，而不是“做了什么”。
"""

WS_AGENTS = """\
# Build and verify

- Run `pytest -q` before reporting completion.
- Do not edit generated files under `api/generated/`.
- Keep public API changes backward compatible.

@docs/agent-testing.md
@../outside.md
"""

WS_TESTING = """\
## Testing

- Integration tests need `docker compose up db` first.
- 支付相关测试使用沙箱密钥，绝不使用真实密钥。

@checklist.md
"""

WS_CHECKLIST = """\
### Release checklist

1. Update `CHANGELOG.md`.
2. Tag `vX.Y.Z` on the release branch.
"""

WS_LOCAL = """\
# Local (not committed)

- 本地数据库端口是 5433，不是默认的 5432。
- My local API key lives in `.env.local`; never print it.
"""

PAYMENTS_AGENTS = """\
# Payments service

- All money amounts are integers in cents. 金额一律以“分”为单位的整数表示。
- Every change here needs a second reviewer from the payments team.
"""

OUTSIDE = "# Outside the workspace\n\nThis file must never be imported.\n"


def _instructions(home: Path, ws: Path) -> None:
    _write(home / "AGENTS.md", HOME_AGENTS)
    _write(home / "prefs" / "style.md", HOME_STYLE)
    _write(ws / "AGENTS.md", WS_AGENTS)
    _write(ws / "docs" / "agent-testing.md", WS_TESTING)
    _write(ws / "docs" / "checklist.md", WS_CHECKLIST)
    _write(ws / "AGENTS.local.md", WS_LOCAL)
    _write(ws / "services" / "payments" / "AGENTS.md", PAYMENTS_AGENTS)
    _write(ws.parent / "outside.md", OUTSIDE)
    (ws / "api" / "generated").mkdir(parents=True, exist_ok=True)


def _facts(engine: Engine, now: datetime) -> None:

    def days(n: int) -> datetime:
        return now - timedelta(days=n)

    # -- project store ----------------------------------------------------------------------
    engine.create_fact(
        name="release-branch",
        title="Release branch",
        description="Where releases of shop-api are cut",
        type=FactType.PROJECT,
        body="Releases are cut from `release/*` branches, never from `main`.\n\n"
        "| step | who |\n|---|---|\n| cut `release/x.y` | release captain |\n"
        "| tag `vX.Y.Z` | CI |\n",
        now=days(3),
    )
    engine.create_fact(
        name="payments-sandbox",
        title="Payments sandbox dashboard",
        description="The PSP sandbox used by integration tests",
        type=FactType.REFERENCE,
        body="Sandbox dashboard: https://sandbox.payments.example/dashboard\n\n"
        "Test cards are listed on the *Test data* page.",
        now=days(70),
    )
    engine.create_fact(
        name="api-rate-limits",
        title="API rate limits",
        description="Limits the public API enforces per key",
        type=FactType.PROJECT,
        body="Public API: 100 requests per minute per key.",
        now=days(60),
    )
    for i, (body, ago) in enumerate(
        [
            ("Public API: 120 requests per minute per key.\nBurst: 20.", 40),
            (
                "Public API: 120 requests per minute per key.\nBurst: 20.\n\n"
                "Internal callers are exempt when they send `X-Internal: 1`.",
                20,
            ),
            (
                "Public API: **150** requests per minute per key.\nBurst: 30.\n\n"
                "Internal callers are exempt when they send `X-Internal: 1`.\n"
                "限流按 API key 计算，而不是按 IP。",
                2,
            ),
        ],
        start=1,
    ):
        engine.update_fact(
            "project/api-rate-limits.md",
            expected_revision=i,
            body=body,
            now=days(ago),
        )
    engine.create_fact(
        name="code-review-zh",
        title="代码评审规范",
        description="评审时先看测试，再看实现",
        type=FactType.FEEDBACK,
        body="评审合并请求时：\n\n1. 先确认测试覆盖了改动；\n2. 再看实现是否简单；\n"
        "3. 有疑问就留言，不要直接改别人的分支。\n\n"
        "Review order: tests first, then the implementation.",
        now=days(12),
    )
    engine.create_fact(
        name="customer-tone",
        title="Tone for customer-facing text",
        description="How error messages shown to shoppers should read",
        type=FactType.USER,
        body="The product owner prefers short, friendly error messages without jargon.",
        now=days(200),
    )
    engine.create_fact(
        name="ci-runner",
        title="CI runs on self-hosted runners",
        description="Why CI jobs need the `self-hosted` label",
        type=FactType.PROJECT,
        body="CI jobs run on self-hosted runners (label `self-hosted`); GitHub-hosted runners "
        "cannot reach the staging database.",
        now=days(95),
    )
    engine.create_fact(
        name="ticket-board",
        title="Ticket board",
        description="Where shop-api work is tracked",
        type=FactType.REFERENCE,
        body="Tickets: https://tracker.example/projects/SHOP",
        now=days(30),
    )
    # archived facts (one cannot be recovered: its name is active again)
    engine.create_fact(
        name="old-deploy-script",
        title="Deploy with deploy.sh",
        description="The pre-2025 deployment path",
        type=FactType.PROJECT,
        body="Run `./deploy.sh prod` from a maintainer laptop.",
        now=days(400),
    )
    engine.forget_fact("project/old-deploy-script.md", now=days(5))
    engine.forget_fact("project/ticket-board.md", now=days(4))
    engine.create_fact(
        name="ticket-board",
        title="Ticket board (new tracker)",
        description="Where shop-api work is tracked since the move",
        type=FactType.REFERENCE,
        body="Tickets moved to https://issues.example/shop-api",
        now=days(1),
    )

    # -- global store -----------------------------------------------------------------------
    engine.create_fact(
        name="release-branch",
        title="Release branch",
        description="Default release practice across projects",
        type=FactType.FEEDBACK,
        scope=Scope.GLOBAL,
        body="By default, release from `main` with a tag; no release branches.",
        now=days(150),
    )
    engine.create_fact(
        name="answer-language",
        title="回答语言",
        description="Answer in the language of the question",
        type=FactType.USER,
        scope=Scope.GLOBAL,
        body="用户用中文提问时用中文回答，用英文提问时用英文回答。\n\n"
        "Answer in Chinese when asked in Chinese, in English when asked in English.",
        now=days(20),
    )
    engine.create_fact(
        name="commit-style",
        title="Commit message style",
        description="Imperative subject line, body explains why",
        type=FactType.FEEDBACK,
        scope=Scope.GLOBAL,
        body="Write commit subjects in the imperative mood (\u201cAdd\u201d, not \u201cAdded\u201d); "
        "the body says why the change was made.",
        now=days(420),
    )
    engine.create_fact(
        name="python-typing-docs",
        title="Python typing docs",
        description="Reference for typing questions",
        type=FactType.REFERENCE,
        scope=Scope.GLOBAL,
        body="https://docs.python.org/3/library/typing.html",
        now=days(10),
    )
    engine.create_fact(
        name="scratch-notes",
        title="Scratch notes",
        description="Temporary notes",
        type=FactType.USER,
        scope=Scope.GLOBAL,
        body="Temporary.",
        now=days(30),
    )
    engine.forget_fact("global/scratch-notes.md", now=days(2))


def _approvals(engine: Engine) -> None:
    view = engine.open(persist_cache=False)
    rate = next(e for e in view.project if e.fact.name == "api-rate-limits")
    ci = next(e for e in view.project if e.fact.name == "ci-runner")
    requests = [
        {
            "operation": "create",
            "controller": "interactive",
            "owns_store": True,
            "agent": "claude-code",
            "name": "prefers-pnpm",
            "title": "Prefers pnpm",
            "description": "Use pnpm rather than npm in every project",
            "type": "user",
            "scope": "global",
            "body": "The user prefers `pnpm` over `npm` for JavaScript projects.\n"
            "用户在所有项目里都偏好 pnpm。",
        },
        {
            "operation": "update",
            "controller": "interactive",
            "owns_store": True,
            "agent": "codex",
            "id": rate.fact.id,
            "expected_revision": rate.fact.revision,
            "body": rate.fact.body.replace("**150**", "**200**").replace(
                "Burst: 30.", "Burst: 40."
            ),
        },
        {
            "operation": "forget",
            "controller": "interactive",
            "owns_store": True,
            "agent": "claude-code",
            "id": ci.fact.id,
            "expected_revision": ci.fact.revision,
        },
        {
            "operation": "create",
            "controller": "headless",
            "owns_store": True,
            "agent": "nightly-triage",
            "name": "staging-db-access",
            "title": "Staging database access",
            "description": "How to reach the staging database",
            "type": "project",
            "scope": "project",
            "body": "Connect with `psql postgres://triage:S3cr3tPassw0rd!@staging-db.internal:5432/shop` "
            "and ask ana.lopez@example.com for access.",
        },
    ]
    for req in requests:
        engine.agent_write(req)


HISTORY = [
    ("s1", 9, "Remember that we always squash-merge pull requests in this repo."),
    ("s1", 9, "Run ruff, then run pytest, then update the changelog."),
    ("s2", 6, "以后提交信息都用英文写，正文说明原因。"),
    ("s2", 6, "Run ruff, then run pytest, then update the changelog."),
    ("s2", 6, "Can you look at the failing payment webhook test?"),
    ("s3", 3, "Never push directly to main; open a pull request instead."),
    ("s3", 3, "先运行 ruff，然后运行 pytest，最后更新 changelog。"),
    ("s3", 2, "Run ruff, then run pytest, then update the changelog."),
    ("s4", 1, "继续"),
]


def _history(engine: Engine, now: datetime) -> None:
    for session, ago, text in HISTORY:
        engine.append_history(text, session=f"demo-{session}", time=now - timedelta(days=ago))


def _trace(engine: Engine) -> None:
    engine.recall("How do we cut a release branch, and what are the API rate limits?")


def generate(base: Path) -> Sample:
    """Create the sample under ``base`` (which should be empty) and return its two roots."""
    base = Path(base).absolute()
    home = base / "home"
    workspace = base / "workspace" / "shop-api"
    home.mkdir(parents=True, exist_ok=True)
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / ".git").mkdir(exist_ok=True)
    now = datetime.now(UTC)
    engine = Engine(home=home, workspace=workspace)
    _instructions(home, workspace)
    _facts(engine, now)
    _history(engine, now)
    _trace(engine)
    _approvals(engine)
    return Sample(home=home, workspace=workspace)
