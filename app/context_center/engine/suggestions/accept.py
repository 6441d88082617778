"""A person's accept and dismiss of a candidate (by id, or the object a scan returned).

``accept`` writes a memory candidate as a fact through ``Memory.create`` (no approval: the
person's click is the approval) or a skill candidate as ``<workspace>/.agents/skills/<name>/
SKILL.md`` (``skillfile.py``), then records the decision; ``dismiss`` records that the candidate
is not wanted (``decisions.py``). A remote workspace is refused with ``remote_workspace``.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

from context_center.engine.errors import AlreadyExists, InvalidRequest, NotFound, StoreUnavailable
from context_center.engine.kinds import Scope, format_time, utc_now
from context_center.engine.model import Fact
from context_center.engine.store import atomic
from context_center.engine.store.paths import Layout, slugify
from context_center.engine.suggestions.decisions import load_decisions, record
from context_center.engine.suggestions.models import (
    SKILL_FOLDER,
    AcceptResult,
    CandidateEdit,
    Decision,
    MemoryCandidate,
    RemoteWorkspace,
    ScanResult,
    SkillCandidate,
)
from context_center.engine.suggestions.remote import Mounts, read_mount_table, remote_reason
from context_center.engine.suggestions.service import scan
from context_center.engine.suggestions.skillfile import (
    check_inside_workspace,
    existing_skill,
    render_skill,
    skill_body,
)


def _refuse_remote(layout: Layout, mounts: Mounts) -> None:
    reason = remote_reason(layout.workspace, mounts)
    if reason:
        raise RemoteWorkspace(reason)


def _find(
    layout: Layout,
    candidate: str | MemoryCandidate | SkillCandidate,
    *,
    claude_root: Path | str | None,
    codex_root: Path | str | None,
    now: datetime | None,
    mounts: Mounts,
    rescan: Callable[[], ScanResult] | None = None,
) -> MemoryCandidate | SkillCandidate:
    """The candidate ``candidate`` names, found by ``rescan`` (the caller's scan: against the
    facts, as the person saw it), else by a scan without facts (the id is the same; but a
    candidate past the first few, and a name kept clear of a fact's, are the facts' doing)."""
    if not isinstance(candidate, str):
        return candidate
    candidate_id = candidate.strip()
    result = (
        rescan()
        if rescan is not None
        else scan(
            layout, [], [], claude_root=claude_root, codex_root=codex_root, now=now, mounts=mounts
        )
    )
    found = result.candidate(candidate_id)
    if found is not None:
        return found
    for decision in load_decisions(layout):
        if decision.id == candidate_id:
            raise InvalidRequest(f"suggestion {candidate_id} was already {decision.decision}")
    raise NotFound(
        f"no current suggestion has id {candidate_id!r} (scan again to see the current ones)"
    )


def _previous(layout: Layout, found: MemoryCandidate | SkillCandidate) -> Decision | None:
    for decision in load_decisions(layout, strict=True):
        if decision.id == found.id or (decision.kind, decision.key) == (found.kind, found.key):
            return decision
    return None


def accept(
    layout: Layout,
    candidate: str | MemoryCandidate | SkillCandidate,
    edited: CandidateEdit | dict[str, Any] | None = None,
    *,
    memory: Any = None,
    claude_root: Path | str | None = None,
    codex_root: Path | str | None = None,
    now: datetime | None = None,
    mounts: Mounts = read_mount_table,
    rescan: Callable[[], ScanResult] | None = None,
) -> AcceptResult:
    """Apply a candidate (by id, or the object a scan returned) as a person's explicit action.

    A memory candidate becomes a fact through ``memory.create`` (an ``engine.memory.Memory``;
    one for ``layout`` is made when none is given). A skill candidate becomes
    ``<workspace>/.agents/skills/<name>/SKILL.md``, never overwriting an existing skill
    (``AlreadyExists``). ``edited`` overrides fields before writing. ``rescan``: the scan
    that finds a candidate given by id (see ``_find``).
    """
    _refuse_remote(layout, mounts)
    found = _find(
        layout,
        candidate,
        claude_root=claude_root,
        codex_root=codex_root,
        now=now,
        mounts=mounts,
        rescan=rescan,
    )
    previous = _previous(layout, found)
    if previous is not None:
        raise InvalidRequest(f"suggestion {found.id} was already {previous.decision}")
    edit = (
        edited if isinstance(edited, CandidateEdit) else CandidateEdit.model_validate(edited or {})
    )
    when = now or utc_now()
    if isinstance(found, MemoryCandidate):
        result = _accept_memory(layout, found, edit, memory, when)
    else:
        result = _accept_skill(layout, found, edit)
    record(
        layout,
        Decision(
            id=found.id,
            key=found.key,
            kind=found.kind,
            decision="accepted",
            time=format_time(when),
            ref=result.ref,
        ),
    )
    return result


def _accept_memory(
    layout: Layout, found: MemoryCandidate, edit: CandidateEdit, memory: Any, when: datetime
) -> AcceptResult:
    if edit.steps is not None:
        raise InvalidRequest("steps belong to skill suggestions, not memory suggestions")
    if memory is None:
        from context_center.engine.store.memory import Memory

        memory = Memory(layout)
    body = edit.body if edit.body is not None else found.body
    if not body.strip():
        raise InvalidRequest("an accepted memory needs a body")
    fact: Fact = memory.create(
        name=edit.name if edit.name is not None else found.name,
        title=edit.title if edit.title is not None else found.title,
        description=edit.description if edit.description is not None else found.description,
        type=edit.type or found.type,
        scope=edit.scope or found.scope,
        body=body,
        now=when,
    )
    return AcceptResult(kind="memory", id=found.id, ref=fact.ref, fact=fact.public_dict(when))


def _accept_skill(layout: Layout, found: SkillCandidate, edit: CandidateEdit) -> AcceptResult:
    if edit.type is not None or edit.scope not in (None, Scope.PROJECT) or edit.title is not None:
        raise InvalidRequest("a skill suggestion takes name, description, steps or body edits")
    name = slugify(edit.name) if edit.name is not None else found.name
    description = " ".join(
        (edit.description if edit.description is not None else found.description).split()
    )
    if not description:
        raise InvalidRequest("an accepted skill needs a description")
    if edit.body is not None:
        body = edit.body
    elif edit.steps is not None or name != found.name or description != found.description:
        steps = [
            s.strip() for s in (edit.steps if edit.steps is not None else found.steps) if s.strip()
        ]
        if not steps:
            raise InvalidRequest("an accepted skill needs at least one step")
        example = found.evidence[0].quote if found.evidence else None
        body = skill_body(name, description, steps, found.turns, found.sessions, example)
    else:
        body = found.body
    if not body.strip():
        raise InvalidRequest("an accepted skill needs a body")
    rel = SKILL_FOLDER / name / "SKILL.md"
    workspace = layout.workspace
    check_inside_workspace(workspace, rel)
    existing = existing_skill(workspace, name)
    if existing is not None:
        raise AlreadyExists(
            f"a skill named {name!r} already exists ({existing.relative_to(workspace)}); "
            "skills are never overwritten: choose another name"
        )
    target = workspace / rel
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreUnavailable(f"cannot create {rel.parent}: {exc.strerror}") from exc
    # Again now that the folders exist, in case a link appeared meanwhile. The file itself is
    # hard-linked into place, which never follows a link already sitting at SKILL.md.
    check_inside_workspace(workspace, rel)
    try:
        atomic.create_exclusive(target, render_skill(name, description, body).encode("utf-8"))
    except FileExistsError as exc:
        raise AlreadyExists(f"{rel} already exists; skills are never overwritten") from exc
    return AcceptResult(kind="skill", id=found.id, ref=str(rel), path=str(target))


def dismiss(
    layout: Layout,
    candidate: str | MemoryCandidate | SkillCandidate,
    *,
    claude_root: Path | str | None = None,
    codex_root: Path | str | None = None,
    now: datetime | None = None,
    mounts: Mounts = read_mount_table,
    rescan: Callable[[], ScanResult] | None = None,
) -> Decision:
    """Record that a person does not want this candidate; it is never proposed again.
    Dismissing an already dismissed candidate is a no-op that returns the earlier decision."""
    _refuse_remote(layout, mounts)
    if isinstance(candidate, str):
        for decision in load_decisions(layout, strict=True):
            if decision.id == candidate.strip():
                if decision.decision == "dismissed":
                    return decision
                raise InvalidRequest(f"suggestion {decision.id} was already accepted")
    found = _find(
        layout,
        candidate,
        claude_root=claude_root,
        codex_root=codex_root,
        now=now,
        mounts=mounts,
        rescan=rescan,
    )
    previous = _previous(layout, found)
    if previous is not None:
        if previous.decision == "dismissed":
            return previous
        raise InvalidRequest(f"suggestion {found.id} was already accepted")
    decision = Decision(
        id=found.id,
        key=found.key,
        kind=found.kind,
        decision="dismissed",
        time=format_time(now or utc_now()),
        statement=found.description if isinstance(found, MemoryCandidate) else None,
    )
    record(layout, decision)
    return decision
