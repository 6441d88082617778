"""The body a memory candidate saves: the rule, then its **Why:** and **How to apply:** lines
(the memory format Claude Code and Reasonix read), in the statement's language."""

from __future__ import annotations

from context_center.engine.kinds import FactType, format_time
from context_center.engine.suggestions.textual import Evidence, is_cjk_text

HOW_TO_APPLY = {
    FactType.FEEDBACK: "Follow it whenever you work in this workspace; it corrects how the work "
    "is done, so check your plan against it before acting.",
    FactType.PROJECT: "Apply it to this repository's branches, commits, pull requests and "
    "files; it is a convention of the project, not a one-off request.",
    FactType.REFERENCE: "Consult the linked resource when the topic comes up instead of guessing.",
    FactType.USER: "Take it into account when choosing how to work and how to answer here.",
}

REASON_ZH = {
    "explicit remember request": "明确要求记住",
    "future-facing preference": "面向以后的偏好",
    "persistent working rule": "长期的工作规则",
    "repeated workflow preference": "反复出现的工作流程偏好",
    "default behaviour preference": "默认做法的偏好",
    "negative working preference": "否定式的工作偏好",
    "stated preference": "明确说出的偏好",
    "durable rule": "长期规则",
    "project convention": "项目约定",
}
_SOURCE_ZH = {"history": "本工作区的会话日志", "claude": "Claude Code", "codex": "Codex CLI"}
HOW_TO_APPLY_ZH = {
    FactType.FEEDBACK: "在本工作区工作时始终遵循；它纠正的是做事的方式，动手前先对照它检查计划。",
    FactType.PROJECT: "用于本仓库的分支、提交、拉取请求和文件；这是项目的约定，不是一次性的要求。",
    FactType.REFERENCE: "涉及这个主题时查阅所链接的资源，不要猜测。",
    FactType.USER: "在这里选择工作方式和回答方式时考虑这一点。",
}


def memory_body(
    statement: str, reason: str, fact_type: FactType, newest: Evidence, count: int
) -> str:
    """The rule, then its **Why:** and **How to apply:** lines (the memory format Claude Code
    and Reasonix read), written in the statement's language: a statement with Chinese (or
    other CJK) text gets Chinese sentences under the same two labels."""
    if is_cjk_text(statement):
        return _memory_body_zh(statement, reason, fact_type, newest, count)
    when = format_time(newest.time)[:10] if newest.time else "an undated turn"
    times = "once" if count == 1 else f"{count} times"
    end = "" if statement.endswith(tuple(".。!！")) else ("." if statement[-1].isascii() else "。")
    return (
        f"{statement}{end}\n\n"
        f"**Why:** You said this ({reason}) {times} in your own sessions here; the latest was "
        f"{newest.source} session {newest.session} on {when}.\n"
        f"**How to apply:** {HOW_TO_APPLY[fact_type]}\n"
    )


def _memory_body_zh(
    statement: str, reason: str, fact_type: FactType, newest: Evidence, count: int
) -> str:
    when = format_time(newest.time)[:10] if newest.time else "一个没有日期的回合"
    end = "" if statement.endswith(tuple(".。!！?？")) else "。"
    source = _SOURCE_ZH.get(str(newest.source), str(newest.source))
    return (
        f"{statement}{end}\n\n"
        f"**Why:** 你在本工作区自己的会话中说过 {count} 次（{REASON_ZH.get(reason, reason)}）；"
        f"最近一次是 {when} 在{source}的会话 {newest.session} 中。\n"
        f"**How to apply:** {HOW_TO_APPLY_ZH[fact_type]}\n"
    )
