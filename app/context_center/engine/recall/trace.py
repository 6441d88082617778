"""The explanation of one recall decision, and where the latest one per workspace is kept.

The trace is written atomically as JSON to ``<state_dir>/recall-trace.json`` after every
recall, so another process (the window) can show "why was this recalled / not recalled".
It holds fact ids, references and scores, never a store path.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, fields
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any

from context_center.engine.kinds import FactType, Freshness, Scope, format_time
from context_center.engine.recall.policy import Reason
from context_center.engine.store import atomic
from context_center.engine.store.paths import Layout
from context_center.engine.store.private import FILE_MODE, ensure_private_dir

TRACE_FILE = "recall-trace.json"
TRACE_VERSION = 1

# The trace is plain frozen dataclasses, not pydantic models: every turn builds one, and a
# cold per-turn process would otherwise import pydantic (about 0.07 CPU-s) for it alone. The
# three methods callers use keep pydantic's names and results: ``model_dump`` (``mode="json"``
# gives JSON values: enum values, lists, the time as RFC 3339), ``model_dump_json`` and
# ``RecallTrace.model_validate_json``, which refuses (``ValueError``) anything that is not a
# trace of this version.


def _plain(value: Any, json_mode: bool) -> Any:
    if isinstance(value, _Record):
        return value.model_dump(mode="json" if json_mode else "python")
    if isinstance(value, tuple):
        items = [_plain(v, json_mode) for v in value]
        return items if json_mode else tuple(items)
    if json_mode and isinstance(value, Enum):
        return value.value
    if json_mode and isinstance(value, datetime):
        return format_time(value)
    return value


class _Record:
    """What the three trace records share: pydantic's dump methods, over dataclass fields."""

    __slots__ = ()

    def model_dump(
        self, *, mode: str = "python", exclude: set[str] | frozenset[str] | None = None
    ) -> dict[str, Any]:
        json_mode = mode == "json"
        return {
            f.name: _plain(getattr(self, f.name), json_mode)
            for f in fields(self)  # type: ignore[arg-type]
            if not exclude or f.name not in exclude
        }

    def model_dump_json(self, *, indent: int | None = None) -> str:
        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False, indent=indent)


def _text(data: dict[str, Any], key: str, *, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if not isinstance(value, str):
        raise ValueError(f"{key} must be text")
    return value


def _number(data: dict[str, Any], key: str, kind: type, *, optional: bool = False) -> Any:
    value = data.get(key)
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int):
        raise ValueError(f"{key} must be a number")
    return kind(value)


def _texts(data: dict[str, Any], key: str) -> tuple[str, ...]:
    value = data.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"{key} must be a list of texts")
    return tuple(value)


def _mapping(value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError("a trace record must be an object")
    return value


@dataclass(frozen=True, slots=True, kw_only=True)
class SelectedFact(_Record):
    """A fact that went into the block."""

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

    @classmethod
    def from_json(cls, value: Any) -> SelectedFact:
        d = _mapping(value)
        shortened = d.get("shortened", False)
        if not isinstance(shortened, bool):
            raise ValueError("shortened must be true or false")
        return cls(
            id=_text(d, "id"),
            revision=_number(d, "revision", int),
            ref=_text(d, "ref"),
            scope=Scope(_text(d, "scope")),
            type=FactType(_text(d, "type")),
            title=_text(d, "title"),
            score=_number(d, "score", float),
            matched=_texts(d, "matched"),
            reason=_text(d, "reason"),
            freshness=Freshness(_text(d, "freshness")),
            shortened=shortened,
            expanded=_texts(d, "expanded"),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Suppression(_Record):
    """Something left out, and why. ``id`` is None when the whole turn was suppressed."""

    reason: Reason
    message: str
    id: str | None = None
    revision: int | None = None
    ref: str | None = None
    score: float | None = None

    @classmethod
    def from_json(cls, value: Any) -> Suppression:
        d = _mapping(value)
        return cls(
            reason=Reason(_text(d, "reason")),
            message=_text(d, "message"),
            id=_text(d, "id", optional=True),
            revision=_number(d, "revision", int, optional=True),
            ref=_text(d, "ref", optional=True),
            score=_number(d, "score", float, optional=True),
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class RecallTrace(_Record):
    """One recall decision: what was asked, what was injected, what was left out and why."""

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

    @classmethod
    def model_validate_json(cls, data: str | bytes) -> RecallTrace:
        """A trace read back from its JSON; ValueError when it is not one of this version."""
        try:
            d = _mapping(json.loads(data))
        except RecursionError as exc:
            raise ValueError("the trace is nested too deeply") from exc
        if d.get("version", TRACE_VERSION) != TRACE_VERSION:
            raise ValueError("a trace of another version")
        selected, suppressed = d.get("selected"), d.get("suppressed")
        if not isinstance(selected, list) or not isinstance(suppressed, list):
            raise ValueError("selected and suppressed must be lists")
        try:
            at = datetime.fromisoformat(_text(d, "at").replace("z", "Z"))
        except ValueError as exc:
            raise ValueError("at is not a time") from exc
        return cls(
            at=at,
            query=_text(d, "query"),
            terms=_texts(d, "terms"),
            selected=tuple(SelectedFact.from_json(s) for s in selected),
            suppressed=tuple(Suppression.from_json(s) for s in suppressed),
            suppressed_more=_number(d, "suppressed_more", int) if "suppressed_more" in d else 0,
            candidates=_number(d, "candidates", int),
            omitted=_number(d, "omitted", int),
            chars_used=_number(d, "chars_used", int),
            char_budget=_number(d, "char_budget", int),
            max_facts=_number(d, "max_facts", int),
            elapsed_ms=_number(d, "elapsed_ms", float),
            block=_text(d, "block"),
        )

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
    except ValueError:
        return None
