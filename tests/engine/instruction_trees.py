"""Instruction trees shaped like real monorepos, and a stable text snapshot of a resolution.

The shapes come from public repositories: a root ``CLAUDE.md`` that holds ``@AGENTS.md`` next
to the ``AGENTS.md`` every agent reads, per-package ``AGENTS.md`` files, a package that pins
``AGENTS.override.md``, ``.claude/rules`` with and without ``paths:``, docs imported from
prose, lists and blockquotes, and the user's own ``~/.claude`` and ``~/.codex``.

``snapshot`` renders everything a profile decided (documents, imports, files, cut,
diagnostics, the exact text) with the temporary base directory replaced by ``<base>``, so a
golden file is the same wherever the test runs. ``UPDATE_GOLDEN=1`` rewrites the goldens.
"""

from __future__ import annotations

import os
from pathlib import Path

from context_center.engine.instructions.model import Resolution

GOLDEN = Path(__file__).parent / "golden" / "profiles"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"

MONOREPO: dict[str, str] = {
    "AGENTS.md": "# Shop monorepo\n\n- Use pnpm, never npm.\n- Run `pnpm test` before committing.\n",
    "CLAUDE.md": (
        "@AGENTS.md\n\n"
        "# Claude notes\n\n"
        "- The layout is described in @docs/architecture.md for newcomers.\n"
        "- Naming: @docs/style\\ guide.md#naming\n"
        "> Reviews follow @docs/review.md.\n\n"
        "```sh\n@docs/fenced.md\n```\n\n"
        "    @docs/indented.md\n\n"
        "<!-- @docs/commented.md -->\n"
        "<!--\n@docs/multiline-comment.md\n-->\n"
        "Inline `@docs/code.md` is code.\n"
        "Mail maintainers@example.com or ping @alice in chat.\n"
        "@tanstack/react-query\n"
        "@~/.claude/personal.md\n"
        "@../outside.md\n"
    ),
    "CLAUDE.local.md": "- My sandbox is sandbox-7.\n",
    ".claude/CLAUDE.md": "- Prefer small pull requests.\n",
    ".claude/rules/testing.md": "- Tests live next to the code they test.\n",
    ".claude/rules/frontend/react.md": (
        '---\npaths:\n  - "apps/web/**/*.tsx"\n---\n- Use function components.\n'
    ),
    ".claude/rules/api.md": "---\npaths: packages/api/**\n---\n- Handlers return typed errors.\n",
    "docs/architecture.md": "Apps live in apps/, libraries in packages/.\n@deep/one.md\n",
    "docs/deep/one.md": "- depth one\n@two.md\n",
    "docs/deep/two.md": "- depth two\n@three.md\n",
    "docs/deep/three.md": "- depth three\n@four.md\n",
    "docs/deep/four.md": "- depth four\n@five.md\n",
    "docs/deep/five.md": "- depth five\n@six.md\n",
    "docs/deep/six.md": "- depth six\n",
    "docs/style guide.md": "- Use camelCase for variables.\n",
    "docs/review.md": "- Two approvals for anything under packages/payments.\n",
    "docs/fenced.md": "FENCED-MUST-NOT-LOAD\n",
    "docs/indented.md": "INDENTED-MUST-NOT-LOAD\n",
    "docs/commented.md": "COMMENTED-MUST-NOT-LOAD\n",
    "docs/multiline-comment.md": "MULTILINE-MUST-NOT-LOAD\n",
    "docs/code.md": "CODE-MUST-NOT-LOAD\n",
    "packages/api/AGENTS.md": "- API: keep handlers thin.\n",
    "packages/api/AGENTS.override.md": "- API freeze: no schema changes this week.\n",
    "packages/api/CLAUDE.md": "@AGENTS.md\n",
    "apps/web/TEAM_GUIDE.md": "- Web: components in PascalCase.\n",
    "apps/web/CLAUDE.md": "See @../../docs/review.md and @./TEAM_GUIDE.md.\n",
}

USER_HOME: dict[str, str] = {
    ".claude/CLAUDE.md": "- Answer briefly.\n",
    ".claude/personal.md": "- Personal: I review on Fridays.\n",
    ".claude/rules/tone.md": "- No emoji in commit messages.\n",
    ".codex/AGENTS.override.md": "   \n",
    ".codex/AGENTS.md": "- Codex: show diffs before applying.\n",
    ".codex/config.toml": 'project_doc_fallback_filenames = ["TEAM_GUIDE.md"]\n',
}

CONTEXT_HOME: dict[str, str] = {"AGENTS.md": "- Reasonix user rule: cite file paths.\n"}


def write_tree(base: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = base / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return base


def monorepo(base: Path) -> tuple[Path, Path, Path]:
    """(context home, user home, repo) under ``base``, with ``base/outside.md`` beside."""
    repo = base / "src" / "shop"
    (repo / ".git").mkdir(parents=True)
    write_tree(repo, dict(MONOREPO))
    write_tree(base / "src", {"outside.md": "OUTSIDE-THE-REPO\n"})
    user_home = write_tree(base / "user", dict(USER_HOME))
    home = write_tree(base / "cc-home", dict(CONTEXT_HOME))
    return home, user_home, repo


def snapshot(res: Resolution, base: Path) -> str:
    """Every decision of ``res`` as stable text (``base`` shown as ``<base>``)."""
    out = [f"agent: {res.agent.value}", f"target: {res.target}", f"limits: {res.limits}"]
    for doc in res.documents:
        out.append(f"document {doc.order}: {doc.label} [{doc.scope.value}] in {doc.directory}")
        for imp in doc.imports:
            extra = f" code={imp.code}" if imp.code else ""
            extra += f" as={imp.loaded_as}" if imp.loaded_as else ""
            out.append(
                f"  import {imp.source}:{imp.line} d{imp.depth} -> {imp.target} "
                f"{imp.status.value}{extra}"
            )
    for item in res.files:
        detail = f" ({item.detail})" if item.detail else ""
        out.append(
            f"file {item.state.value}: {item.label} {item.size}B/{item.loaded_bytes}B{detail}"
        )
    if res.cut is not None:
        out.append(f"cut: {res.cut.model_dump()}")
    for dup in res.duplicates:
        out.append(f"duplicate: {dup.label} kept {dup.kept}")
    for diag in res.diagnostics:
        where = f"{diag.source_path}:{diag.line}" if diag.line else diag.path
        out.append(f"diagnostic {diag.severity.value} {diag.code} {where}: {diag.message}")
    out += ["--- text ---", res.text]
    return "\n".join(out).replace(os.fspath(base), "<base>") + "\n"


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8"), f"golden {name} differs (UPDATE_GOLDEN=1)"
