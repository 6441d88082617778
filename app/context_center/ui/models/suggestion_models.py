"""Table models of the Suggestions tab: the candidates of a scan and the per-source counts."""

from __future__ import annotations

from typing import Any

from context_center.engine import MemoryCandidate, SkillCandidate, SourceCount
from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts, translate
from context_center.ui.models.row_table import Column, RowTableModel
from context_center.ui.style import tone
from context_center.ui.suggestion_text import source_note
from context_center.ui.terms import plural, scope_label, type_and_scope

SOURCE_LABELS = Texts(
    "Suggestions",
    {
        "history": QT_TRANSLATE_NOOP("Suggestions", "This workspace's session log"),
        "claude": QT_TRANSLATE_NOOP("Suggestions", "Claude Code transcripts"),
        "codex": QT_TRANSLATE_NOOP("Suggestions", "Codex CLI sessions"),
    },
)
STATUS_LABELS = Texts(
    "Suggestions",
    {
        "ok": QT_TRANSLATE_NOOP("Suggestions", "read"),
        "missing": QT_TRANSLATE_NOOP("Suggestions", "not found"),
        "unconfirmed": QT_TRANSLATE_NOOP("Suggestions", "skipped (not confirmed local)"),
    },
)


def candidate_title(c: MemoryCandidate | SkillCandidate) -> str:
    if isinstance(c, MemoryCandidate):
        return c.title or c.name
    return c.name


def candidate_kind(c: MemoryCandidate | SkillCandidate) -> str:
    if isinstance(c, MemoryCandidate):
        return translate("Suggestions", "Memory")
    return translate("Suggestions", "Skill")


def candidate_detail(c: MemoryCandidate | SkillCandidate) -> str:
    """Short enough for a 900 px window: the scope only when it is global (the editor shows
    type and scope in full)."""
    if isinstance(c, MemoryCandidate):
        return scope_label("global") if c.scope.value == "global" else ""
    return translate("Suggestions", "{n} steps").format(n=len(c.steps))


def candidate_kind_tip(c: MemoryCandidate | SkillCandidate) -> str:
    if isinstance(c, MemoryCandidate):
        return translate("Suggestions", "A memory fact: {kind}").format(
            kind=type_and_scope(c.type.value, c.scope.value)
        )
    return translate("Suggestions", "A skill of {n} steps, written to {path}").format(
        n=len(c.steps), path=c.path
    )


def candidate_evidence(c: MemoryCandidate | SkillCandidate) -> str:
    sessions = len({(e.source, e.session) for e in c.evidence})
    turns = c.turns if isinstance(c, SkillCandidate) else len(c.evidence)
    turns_text = (
        translate("Suggestions", "1 turn")
        if turns == 1
        else translate("Suggestions", "{n} turns").format(n=turns)
    )
    sessions_text = (
        translate("Suggestions", "1 session")
        if sessions == 1
        else translate("Suggestions", "{n} sessions").format(n=sessions)
    )
    return translate("Suggestions", "{turns}, {sessions}").format(
        turns=turns_text, sessions=sessions_text
    )


def _latest(c: MemoryCandidate | SkillCandidate) -> str:
    times = [e.time for e in c.evidence if e.time]
    return max(times) if times else ""


def candidate_tooltip(c: MemoryCandidate | SkillCandidate) -> str:
    latest = _latest(c)[:16].replace("T", " ")
    last = translate("Suggestions", "Last said: {when}").format(
        when=latest or translate("Suggestions", "unknown")
    )
    return f"{candidate_title(c)}\n{c.description}\n{last}"


class CandidatesModel(RowTableModel[MemoryCandidate | SkillCandidate]):
    """Memory and skill candidates, one row each (``ROW_ROLE`` gives the candidate)."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(
            [
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Suggestion"),
                    candidate_title,
                    tooltip=candidate_tooltip,
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Kind"),
                    lambda c: " · ".join(p for p in (candidate_kind(c), candidate_detail(c)) if p),
                    tooltip=candidate_kind_tip,
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Evidence"),
                    candidate_evidence,
                    header_tip=QT_TRANSLATE_NOOP(
                        "Columns", "How many of your turns, in how many sessions, support it"
                    ),
                ),
            ],
            parent,
        )


def _source_tip(s: SourceCount) -> str:
    read = translate("Suggestions", "Files read: {n}").format(n=s.files)
    lines = [SOURCE_LABELS.get(s.source, s.source), s.root, read]
    if s.note:
        lines.append(source_note(s.note))
    return "\n".join(lines)


class SourceCountsModel(RowTableModel[SourceCount]):
    """What each source of user turns contributed to the scan."""

    def __init__(self, parent: Any = None) -> None:
        super().__init__(
            [
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Source"),
                    lambda s: SOURCE_LABELS.get(s.source, s.source),
                    tooltip=_source_tip,
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Status"),
                    lambda s: STATUS_LABELS.get(s.status, s.status),
                    tooltip=lambda s: source_note(s.note) or STATUS_LABELS.get(s.status, s.status),
                    colour=lambda s: None if s.status != "unconfirmed" else tone("caution"),
                ),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Sessions"),
                    lambda s: str(s.sessions),
                    numeric=True,
                ),
                Column(QT_TRANSLATE_NOOP("Columns", "Turns"), lambda s: str(s.turns), numeric=True),
                Column(
                    QT_TRANSLATE_NOOP("Columns", "Skipped"),
                    lambda s: str(s.malformed),
                    numeric=True,
                    colour=lambda s: tone("caution") if s.malformed else None,
                    tooltip=lambda s: plural(
                        s.malformed,
                        translate("Suggestions", "{n} malformed line skipped (never fatal)"),
                        translate("Suggestions", "{n} malformed lines skipped (never fatal)"),
                    ).format(n=s.malformed),
                    header_tip=QT_TRANSLATE_NOOP(
                        "Columns", "Malformed lines that were skipped (never fatal)"
                    ),
                ),
            ],
            parent,
        )


__all__ = ["CandidatesModel", "SourceCount", "SourceCountsModel"]
