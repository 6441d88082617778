"""Skill files: which skills a workspace already has, and the SKILL.md an accepted one becomes.

Accepting writes ``<workspace>/.agents/skills/<name>/SKILL.md`` (create-only; ``.agents/skills``
is the folder agents share, Codex and others read it). An existing skill of that name in
``.agents/skills/`` or ``.claude/skills/`` suppresses the candidate. A link on the way that leads
out of the workspace is refused with ``outside_workspace``; a link at SKILL.md is never followed.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import yaml

from context_center.engine.suggestions.models import SKILL_FOLDERS, SkillOutsideWorkspace
from context_center.engine.suggestions.textual import is_cjk_text


def existing_skill(workspace: Path, name: str) -> Path | None:
    """The folder of an existing skill called ``name``, in any of ``SKILL_FOLDERS``. A link
    counts as existing even when it leads nowhere (it is never followed to write through it)."""
    for folder in SKILL_FOLDERS:
        candidate = workspace / folder / name
        if os.path.lexists(candidate) or os.path.lexists(candidate / "SKILL.md"):
            return candidate
    return None


def check_inside_workspace(workspace: Path, rel: Path) -> None:
    """Refuse (``SkillOutsideWorkspace``) when ``workspace / rel`` or any folder on the way to
    it is a link that resolves outside the workspace. Links that stay inside are fine."""
    root = workspace.resolve()
    current = workspace
    for part in rel.parts:
        current = current / part
        if not os.path.lexists(current):
            break  # nothing further down exists yet; it will be created as plain folders
        real = current.resolve()
        if not real.is_relative_to(root):
            shown = current.relative_to(workspace)
            raise SkillOutsideWorkspace(
                f"{shown} leads outside the workspace (to {real}); skills are only written "
                f"inside the workspace: replace the link with a folder, or remove it"
            )


def render_skill(name: str, description: str, body: str) -> str:
    front = yaml.safe_dump(
        {"name": name, "description": description},
        allow_unicode=True,
        sort_keys=False,
        width=1_000_000,
    )
    return f"---\n{front}---\n\n{body.strip()}\n"


def skill_body(
    name: str,
    description: str,
    steps: Sequence[str],
    turns: int,
    sessions: int,
    example: str | None = None,
) -> str:
    """SKILL.md's body: what it is, when to use it, the steps and a note, in the language the
    steps are asked in (Chinese steps give Chinese headings and sentences)."""
    title = name.replace("-", " ").strip().capitalize() or "Workflow"
    zh = is_cjk_text(" ".join(steps))
    if zh:
        when = "遇到这个工作流程的请求时使用此技能" + (f"，例如：“{example}”" if example else "。")
        headings = ("## 步骤", "## 说明")
        note = (
            f"根据本工作区 {sessions} 个会话中的 {turns} 次请求提出；"
            "某一步失败时停下并报告，不要继续下一步。"
        )
    else:
        when = "Use this skill when asked for this workflow"
        when += f", for example: “{example}”" if example else "."
        headings = ("## Steps", "## Notes")
        note = (
            f"Suggested from {turns} requests across {sessions} sessions in this workspace; "
            "stop and report if a step fails instead of continuing to the next one."
        )
    lines = [f"# {title}", "", description, "", when, ""]
    lines += [headings[0], ""]
    lines += [f"{i}. {step}" for i, step in enumerate(steps, 1)]
    lines += ["", headings[1], "", note]
    return "\n".join(lines)
