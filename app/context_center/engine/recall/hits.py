"""The memory tool's search results (a pydantic model: search runs in processes that
already validate their facts; the per-turn recall path never builds one)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from context_center.engine.kinds import Freshness
from context_center.engine.model import Fact


class Hit(BaseModel):
    """One result of the memory tool's search."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    fact: Fact
    score: float
    matched: tuple[str, ...]
    freshness: Freshness
    snippet: str

    def public_dict(self) -> dict[str, object]:
        """The CLI/JSON form: the fact's public fields without the body, plus the match."""
        d = self.fact.public_dict()
        d.pop("body", None)
        d["freshness"] = self.freshness.value
        d["score"] = self.score
        d["matched"] = list(self.matched)
        d["snippet"] = self.snippet
        return d
