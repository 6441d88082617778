"""A match that lies only inside a secret does not count.

Fact text is indexed as written, so a secret the gate did not catch at write time (a password
stated in a body) is a searchable term. Showing that it matched — a hit for `hunter2`, or a
recall reason "matched … hunter2" — would tell a model the secret's value even though the
snippet withholds it. So a match whose every occurrence in the fact falls inside a span the
provider-visible sanitizer withholds is dropped, and a fact matched only that way is no hit.
The spans are computed only for facts that reach the output, once per fact text: they are
kept (a bounded memo) under the digest of exactly the text scanned (``digest.index_text``),
so a text edited in place, even at the same revision, is scanned again.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from threading import Lock
from typing import TYPE_CHECKING, Protocol, TypeVar

from context_center.engine.recall.digest import content_digest, index_text

if TYPE_CHECKING:
    from context_center.engine.model import Fact


class _Find(Protocol):
    @property
    def find(self) -> str: ...


F = TypeVar("F", bound=_Find)

_CACHE: OrderedDict[bytes, tuple[str, tuple[tuple[int, int], ...]]] = OrderedDict()
_CACHE_SIZE = 4096
_LOCK = Lock()


def _spans(fact: Fact, digest: bytes | None = None) -> tuple[str, tuple[tuple[int, int], ...]]:
    """The fact's text and its withheld spans; ``digest``: ``content_digest(fact)`` when the
    caller knows it (the recall index keeps it per ordinal)."""
    key = digest if digest is not None else content_digest(fact)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    from context_center.engine.gate.secrets import find_sensitive
    from context_center.engine.gate.visible import KEPT_KINDS

    text = index_text(fact)
    spans = tuple((s.start, s.end) for s in find_sensitive(text) if s.kind not in KEPT_KINDS)
    value = (text, spans)
    with _LOCK:
        _CACHE[key] = value
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return value


def secret_only(fact: Fact, find: str, digest: bytes | None = None) -> bool:
    """True when ``find`` occurs in the fact only inside withheld spans. ``digest``: the
    fact's ``content_digest`` if known (saves hashing its text)."""
    if not find:
        return False
    text, spans = _spans(fact, digest)
    return bool(spans) and _inside(text, spans, find)


def shown(fact: Fact, finds: list[F], digest: bytes | None = None) -> list[F]:
    """The items of ``finds`` (each with a ``find``) for which ``secret_only`` is False, in
    order; the fact's spans are looked up once (``secret_only`` per item, in one call)."""
    if not any(f.find for f in finds):
        return list(finds)
    text, spans = _spans(fact, digest)
    if not spans:
        return list(finds)
    return [f for f in finds if not (f.find and _inside(text, spans, f.find))]


def _inside(text: str, spans: tuple[tuple[int, int], ...], find: str) -> bool:
    """``find`` occurs in ``text``, every time inside one of ``spans``."""
    seen = False
    for m in re.finditer(re.escape(find), text, re.IGNORECASE):
        seen = True
        if not any(start <= m.start() and m.end() <= end for start, end in spans):
            return False
    return seen
