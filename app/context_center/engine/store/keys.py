"""The equivalence keys of project-over-global conflicts (``memory.find_conflicts``): a fact's
id, its name as a slug and its title folded to lowercase letters and digits.

A light module (no store machinery), so the recall index can key its facts without loading
the stores."""

from __future__ import annotations

import re

from context_center.engine.errors import InvalidRequest
from context_center.engine.store.paths import slugify

_NOT_ALNUM = re.compile(r"[\W_]+")
_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")


def title_key(title: str) -> str:
    """A title normalised to lowercase letters and digits (the equivalence key)."""
    return _NOT_ALNUM.sub("", title.lower())


def name_key(name: str) -> str:
    if _SLUG.fullmatch(name):  # the common case: the file stem is already a slug
        return name
    try:
        return slugify(name)
    except InvalidRequest:
        return name.lower()
