"""Plain, immutable data that crosses the engine's boundary: facts, diagnostics, conflicts."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, field_validator

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


_LEADING_BLANK_LINES = re.compile(r"\A(?:[ \t\r\f\v]*\n)+")


def normalise_body(body: str) -> str:
    """Bodies carry no leading blank lines and no trailing whitespace (both are lost in a
    frontmatter file anyway), and their lines end in LF as every file we (and Reasonix)
    write does: a CRLF file that is rewritten does not come out with mixed line endings.
    So what is saved is exactly what reads back."""
    if "\r" in body:
        body = body.replace("\r\n", "\n").replace("\r", "\n")
    return _LEADING_BLANK_LINES.sub("", body).rstrip()


class Fact(BaseModel):
    """One background fact. ``name`` is the file stem; the reference is ``<scope>/<name>.md``."""

    model_config = ConfigDict(defer_build=True, frozen=True, strict=True, extra="forbid")

    id: str
    revision: int = Field(ge=1)
    created_at: datetime | None
    updated_at: datetime | None
    name: str
    title: str
    description: str
    type: FactType
    scope: Scope
    body: str

    @field_validator("id")
    @classmethod
    def _check_id(cls, value: str) -> str:
        if not ID_RE.match(value):
            raise ValueError(f"not a fact id: {value!r}")
        return value

    @field_validator("body")
    @classmethod
    def _normalise_body(cls, value: str) -> str:
        return normalise_body(value)

    @property
    def ref(self) -> str:
        return f"{self.scope.value}/{self.name}.md"

    @property
    def display_title(self) -> str:
        return self.title or self.name

    def freshness(self, now: datetime | None = None) -> Freshness:
        return freshness_of(self.type, self.updated_at, now)

    def public_dict(self, now: datetime | None = None) -> dict[str, object]:
        """The CLI/JSON form: everything a provider may see (no storage path)."""
        return {
            "ref": self.ref,
            "id": self.id,
            "revision": self.revision,
            "name": self.name,
            "title": self.title,
            "description": self.description,
            "type": self.type.value,
            "scope": self.scope.value,
            "freshness": self.freshness(now).value,
            "created_at": format_time(self.created_at) if self.created_at else None,
            "updated_at": format_time(self.updated_at) if self.updated_at else None,
            "body": self.body,
        }


class Diagnostic(BaseModel):
    """A problem found while loading; the file is left untouched and excluded."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    code: str
    path: str  # relative to the store (or the workspace for instructions)
    message: str
    scope: Scope | None = None
    line: int | None = None


class Conflict(BaseModel):
    """A project fact and a global fact that are equivalent; the project one applies here."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    key: str  # "id" | "name" | "title"
    project_ref: str
    global_ref: str
    project_id: str
    global_id: str
    resolution: str = "project_over_global"

    def explanation(self) -> str:
        return (
            f"{self.project_ref} and {self.global_ref} share the same {self.key}. In this "
            f"workspace the project fact applies: recall injects only {self.project_ref}, and "
            f"{self.global_ref} is left out of the stable guidance. Neither file is changed; "
            f"other workspaces still see {self.global_ref}."
        )


# The fields a write sets, derived from the model (everything but the engine's own bookkeeping),
# so a new fact field reaches the CLI, the gate and the store by being added to ``Fact``.
SYSTEM_FIELDS = ("id", "revision", "created_at", "updated_at")
CREATE_FIELDS: tuple[str, ...] = tuple(f for f in Fact.model_fields if f not in SYSTEM_FIELDS)
# Moving a fact between scopes is not an update (it is a new fact in the other store).
UPDATE_FIELDS: tuple[str, ...] = tuple(f for f in CREATE_FIELDS if f != "scope")
