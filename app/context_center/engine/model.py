"""Plain, immutable data that crosses the engine's boundary: facts, diagnostics, conflicts."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator

from context_center.engine.kinds import (
    FACT_FIELDS,
    FactViews,
)
from context_center.engine.kinds import (
    FRESHNESS_DAYS as FRESHNESS_DAYS,
)
from context_center.engine.kinds import (
    ID_RE as ID_RE,
)
from context_center.engine.kinds import (
    FactType as FactType,
)
from context_center.engine.kinds import (
    Freshness as Freshness,
)
from context_center.engine.kinds import (
    FreshnessClock as FreshnessClock,
)
from context_center.engine.kinds import (
    Scope as Scope,
)
from context_center.engine.kinds import (
    format_time as format_time,
)
from context_center.engine.kinds import (
    freshness_of as freshness_of,
)
from context_center.engine.kinds import (
    new_fact_id as new_fact_id,
)
from context_center.engine.kinds import (
    normalise_body as normalise_body,
)
from context_center.engine.kinds import (
    utc_now as utc_now,
)


class Fact(FactViews, BaseModel):
    """One background fact. ``name`` is the file stem; the reference is ``<scope>/<name>.md``
    (``ref``, ``display_title``, ``freshness`` and ``public_dict``: ``kinds.FactViews``)."""

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
if tuple(Fact.model_fields) != FACT_FIELDS:  # pragma: no cover - a field added to one only
    raise ImportError("model.Fact and kinds.FACT_FIELDS name different fields")
SYSTEM_FIELDS = ("id", "revision", "created_at", "updated_at")
CREATE_FIELDS: tuple[str, ...] = tuple(f for f in Fact.model_fields if f not in SYSTEM_FIELDS)
# Moving a fact between scopes is not an update (it is a new fact in the other store).
UPDATE_FIELDS: tuple[str, ...] = tuple(f for f in CREATE_FIELDS if f != "scope")
