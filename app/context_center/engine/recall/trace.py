"""The explanation of one recall decision, and where the latest one per workspace is kept.

The trace is written atomically as JSON to ``<state_dir>/recall-trace.json`` after every
recall, so another process (the window) can show "why was this recalled / not recalled".
It holds fact ids, references and scores, never a store path.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_serializer

from context_center.engine.model import FactType, Freshness, Scope, format_time
from context_center.engine.recall.policy import Reason
from context_center.engine.store import atomic
from context_center.engine.store.paths import Layout
from context_center.engine.store.private import FILE_MODE, ensure_private_dir

TRACE_FILE = "recall-trace.json"
TRACE_VERSION = 1


class SelectedFact(BaseModel):
    """A fact that went into the block."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    id: str
    revision: int
    ref: str
    scope: Scope
    type: FactType
    title: str
    score: float
    matched: tuple[str, ...]  # what matched in the fact ("deploy", "部署")
    reason: str
    freshness: Freshness
    shortened: bool = False
    expanded: tuple[str, ...] = ()  # matches through the vocabulary: "部署 via deploy"


class Suppression(BaseModel):
    """Something left out, and why. ``id`` is None when the whole turn was suppressed."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    reason: Reason
    message: str
    id: str | None = None
    revision: int | None = None
    ref: str | None = None
    score: float | None = None


class RecallTrace(BaseModel):
    """One recall decision: what was asked, what was injected, what was left out and why."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    version: int = TRACE_VERSION
    at: datetime
    query: str
    terms: tuple[str, ...]  # searchable query terms, in order
    selected: tuple[SelectedFact, ...]
    suppressed: tuple[Suppression, ...]
    suppressed_more: int = 0  # per-fact suppressions not listed (the list is capped)
    candidates: int  # facts with a distinctive match, before policy and budget
    omitted: int  # relevant facts left out by the fact limit or the character budget
    chars_used: int  # == len(block)
    char_budget: int
    max_facts: int
    elapsed_ms: float
    block: str

    @field_serializer("at", when_used="json")
    def _at_json(self, at: datetime) -> str:
        """RFC 3339 in UTC with milliseconds, like every other time in the project."""
        return format_time(at)

    @property
    def reason(self) -> Reason | None:
        """Why nothing was recalled (None if something was)."""
        if self.selected:
            return None
        whole = [s for s in self.suppressed if s.id is None]
        if whole:
            return whole[0].reason
        return self.suppressed[0].reason if self.suppressed else Reason.NO_DISTINCTIVE_MATCH

    def summary(self) -> str:
        if self.selected:
            refs = ", ".join(s.ref for s in self.selected)
            return f"recalled {len(self.selected)} fact(s): {refs}; omitted {self.omitted}"
        reason = self.reason
        return f"nothing recalled: {reason.text if reason else 'no match'}"


def trace_path(layout: Layout) -> Path:
    return layout.state_dir / TRACE_FILE


def save_trace(layout: Layout, trace: RecallTrace) -> Path:
    path = trace_path(layout)
    ensure_private_dir(path.parent)  # the trace quotes the user's message: 0700 / 0600
    atomic.write_text(path, trace.model_dump_json(indent=2) + "\n", mode=FILE_MODE)
    return path


def load_trace(layout: Layout) -> RecallTrace | None:
    """The latest trace of this workspace; None if there is none or it cannot be read
    (it is derived, diagnostic data: a damaged file is simply replaced by the next recall)."""
    try:
        data = trace_path(layout).read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError):
        return None
    except (OSError, UnicodeDecodeError):
        return None
    try:
        return RecallTrace.model_validate_json(data)
    except ValidationError:
        return None
