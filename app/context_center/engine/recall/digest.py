"""What recall indexes of a fact, and the digest that tells whether it changed."""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from context_center.engine.model import Fact


def index_text(fact: Fact) -> str:
    """What is searched: name, title, description and body."""
    return f"{fact.name}\n{fact.title}\n{fact.description}\n{fact.body}"


def content_digest(fact: Fact) -> bytes:
    data = index_text(fact).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()
