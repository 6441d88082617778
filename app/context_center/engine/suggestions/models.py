"""The data a scan, an accept and a dismiss hand across the engine's boundary (pydantic)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from context_center.engine.errors import EngineError
from context_center.engine.kinds import FactType, Scope

SESSION_LIMIT = 24  # Reasonix reads its last 12 sessions; three sources share our window
MEMORY_LIMIT = 8
SKILL_LIMIT = 5
SKILL_FOLDER = Path(".agents") / "skills"  # where accepted skills are written
SKILL_FOLDERS = (SKILL_FOLDER, Path(".claude") / "skills")  # where existing skills suppress

CandidateKind = Literal["memory", "skill"]


class RemoteWorkspace(EngineError):
    code = "remote_workspace"


class SkillOutsideWorkspace(EngineError):
    """The skills folder, or a folder on the way to it, is a link that leads out of the
    workspace; nothing is written."""

    code = "outside_workspace"


class EvidenceItem(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True)

    source: str
    session: str
    time: str | None
    quote: str


class MemoryCandidate(BaseModel):
    """A proposed fact. ``body`` states the rule with why and how to apply it."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    kind: Literal["memory"] = "memory"
    id: str
    key: str
    name: str
    title: str
    description: str
    type: FactType
    scope: Scope = Scope.PROJECT
    body: str
    reason: str
    evidence: list[EvidenceItem]
    redacted: list[str] = Field(default_factory=list)  # what was taken out (labels, no values)


class SkillCandidate(BaseModel):
    """A proposed skill; ``body`` is the Markdown below the SKILL.md front matter."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    kind: Literal["skill"] = "skill"
    id: str
    key: str
    name: str
    description: str
    steps: list[str]
    body: str
    path: str  # relative to the workspace, where accepting writes SKILL.md
    turns: int
    sessions: int
    evidence: list[EvidenceItem]


class SourceCount(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True)

    source: str
    root: str
    status: str
    files: int
    sessions: int
    turns: int
    malformed: int
    agent_sessions: int = 0  # sessions an agent wrote (sub-agent, review): not read
    note: str = ""


class ScanResult(BaseModel):
    """What a scan found. ``available`` is False when it failed closed (see ``explanation``)."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    workspace: str
    generated_at: str
    available: bool
    explanation: str | None = None
    memories: list[MemoryCandidate] = Field(default_factory=list)
    skills: list[SkillCandidate] = Field(default_factory=list)
    sources: list[SourceCount] = Field(default_factory=list)
    session_limit: int = SESSION_LIMIT
    sessions_scanned: int = 0
    turns_scanned: int = 0
    notes: list[str] = Field(default_factory=list)

    @property
    def malformed(self) -> dict[str, int]:
        """Skipped malformed lines per source."""
        return {s.source: s.malformed for s in self.sources}

    def candidate(self, candidate_id: str) -> MemoryCandidate | SkillCandidate | None:
        for memory in self.memories:
            if memory.id == candidate_id:
                return memory
        for skill in self.skills:
            if skill.id == candidate_id:
                return skill
        return None

    def public_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class CandidateEdit(BaseModel):
    """What a person changed before accepting. Unset fields keep the candidate's value."""

    model_config = ConfigDict(defer_build=True, extra="forbid")

    name: str | None = None
    title: str | None = None
    description: str | None = None
    type: FactType | None = None
    scope: Scope | None = None
    body: str | None = None
    steps: list[str] | None = None


class Decision(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True, extra="ignore")

    id: str
    key: str
    kind: CandidateKind
    decision: Literal["accepted", "dismissed"]
    time: str
    ref: str | None = None
    # a dismissed memory's statement (its description), so the rule said again in other
    # words stays dismissed; kept in the private decisions file, not printed
    statement: str | None = None


class AcceptResult(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True)

    kind: CandidateKind
    id: str
    ref: str  # "project/<name>.md" for a fact, ".agents/skills/<name>/SKILL.md" for a skill
    fact: dict[str, Any] | None = None
    path: str | None = None
