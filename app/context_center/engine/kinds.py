"""The engine's plain values, without pydantic: fact types, scopes, freshness, times, ids.

``model.py`` defines the validated models (``Fact``, ``Diagnostic``, ``Conflict``) on top of
these and re-exports them; code on the per-turn recall path imports them from here, so a cold
recall process never imports pydantic (about 0.07 CPU-s of its start) unless it must build a
validated model.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

ID_RE = re.compile(r"^(mem-[0-9a-f]{32}|legacy-[0-9a-f]{8,64})$")


class FactType(StrEnum):
    USER = "user"
    FEEDBACK = "feedback"
    PROJECT = "project"
    REFERENCE = "reference"


class Scope(StrEnum):
    PROJECT = "project"
    GLOBAL = "global"


class Freshness(StrEnum):
    FRESH = "fresh"
    CURRENT = "current"
    STALE = "stale"


# (fresh up to, current up to) in days; older is stale. From the spec's freshness table.
FRESHNESS_DAYS: dict[FactType, tuple[int, int]] = {
    FactType.REFERENCE: (14, 45),
    FactType.PROJECT: (30, 180),
    FactType.USER: (90, 365),
    FactType.FEEDBACK: (90, 365),
}


def new_fact_id() -> str:
    import secrets  # here: a process that reads facts never needs it (nor hmac, random)

    return "mem-" + secrets.token_hex(16)


def utc_now() -> datetime:
    now = datetime.now(UTC)
    return now.replace(microsecond=(now.microsecond // 1000) * 1000)


def format_time(value: datetime) -> str:
    """RFC 3339 in UTC with milliseconds, as Reasonix writes: 2026-11-02T09:14:03.120Z."""
    value = value.astimezone(UTC)
    return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"


def freshness_of(
    fact_type: FactType, updated_at: datetime | None, now: datetime | None = None
) -> Freshness:
    """Freshness from type and age. A missing or future time counts as current."""
    if updated_at is None:
        return Freshness.CURRENT
    return FreshnessClock(now or datetime.now(UTC)).of(fact_type, updated_at)


class FreshnessClock:
    """Freshness at one ``now``, for one fact or a table of 50,000: each type's day limits
    (``FRESHNESS_DAYS``) become cutoff times once, so a fact costs two comparisons. A fact is
    fresh up to ``fresh`` days old, current up to ``current`` days, stale after; a missing or
    future time counts as current."""

    __slots__ = ("_cutoffs", "now")

    def __init__(self, now: datetime) -> None:
        self.now = now
        self._cutoffs: dict[FactType, tuple[datetime, datetime]] = {}

    def of(self, fact_type: FactType, updated_at: datetime | None) -> Freshness:
        if updated_at is None or updated_at > self.now:
            return Freshness.CURRENT
        cut = self._cutoffs.get(fact_type)
        if cut is None:
            fresh, current = FRESHNESS_DAYS[fact_type]
            cut = (self.now - timedelta(days=fresh), self.now - timedelta(days=current))
            self._cutoffs[fact_type] = cut
        if updated_at >= cut[0]:
            return Freshness.FRESH
        if updated_at >= cut[1]:
            return Freshness.CURRENT
        return Freshness.STALE


# Lines of whitespace alone (any character ``str.isspace`` calls space, U+001F or U+3000 as
# well as a tab): what the reader's split after the closing '---' (``^-{3,}\s*$``) eats.
_LEADING_BLANK_LINES = re.compile(r"\A(?:[^\S\n]*\n)+")


def normalise_body(body: str) -> str:
    """Bodies carry no leading blank lines and no trailing whitespace (both are lost in a
    frontmatter file anyway), and their lines end in LF as every file we (and Reasonix)
    write does: a CRLF file that is rewritten does not come out with mixed line endings.
    So what is saved is exactly what reads back."""
    if "\r" in body:
        body = body.replace("\r\n", "\n").replace("\r", "\n")
    return _LEADING_BLANK_LINES.sub("", body).rstrip()


# A fact's fields in the model's order (``model.Fact`` checks it declares exactly these).
FACT_FIELDS = (
    "id",
    "revision",
    "created_at",
    "updated_at",
    "name",
    "title",
    "description",
    "type",
    "scope",
    "body",
)


class FactFields(Protocol):
    """What a fact holds (``model.Fact``, ``recall.lazyfact.FactRecord``)."""

    @property
    def id(self) -> str: ...
    @property
    def revision(self) -> int: ...
    @property
    def created_at(self) -> datetime | None: ...
    @property
    def updated_at(self) -> datetime | None: ...
    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def description(self) -> str: ...
    @property
    def type(self) -> FactType: ...
    @property
    def scope(self) -> Scope: ...
    @property
    def body(self) -> str: ...


class FactViews:
    """What ``model.Fact`` and ``recall.lazyfact.FactRecord`` derive from their fields alike:
    the provider reference, the title to show, freshness and the public JSON form."""

    __slots__ = ()

    if TYPE_CHECKING:  # the fields the classes that take this in declare
        name: str
        title: str
        type: FactType
        updated_at: datetime | None

    @property
    def ref(self) -> str:
        return fact_ref(self)  # type: ignore[arg-type]  # a Fact or a FactRecord

    @property
    def display_title(self) -> str:
        return self.title or self.name

    def freshness(self, now: datetime | None = None) -> Freshness:
        return freshness_of(self.type, self.updated_at, now)

    def public_dict(self, now: datetime | None = None) -> dict[str, object]:
        """The CLI/JSON form: everything a provider may see (no storage path)."""
        return public_fact_dict(self, now)  # type: ignore[arg-type]


def fact_ref(fact: FactFields) -> str:
    return f"{fact.scope.value}/{fact.name}.md"


def public_fact_dict(fact: FactFields, now: datetime | None = None) -> dict[str, object]:
    """A fact's CLI/JSON form: everything a provider may see (no storage path)."""
    return {
        "ref": fact_ref(fact),
        "id": fact.id,
        "revision": fact.revision,
        "name": fact.name,
        "title": fact.title,
        "description": fact.description,
        "type": fact.type.value,
        "scope": fact.scope.value,
        "freshness": freshness_of(fact.type, fact.updated_at, now).value,
        "created_at": format_time(fact.created_at) if fact.created_at else None,
        "updated_at": format_time(fact.updated_at) if fact.updated_at else None,
        "body": fact.body,
    }
