"""Identities of legacy facts (files without an ``id``), exactly as Reasonix derives them.

Reasonix names a fact by its frontmatter ``name`` (else the file stem) and, when the file has
no ``id``, calls it ``legacy-`` + the first 24 hex digits of
sha256(``"reasonix-memory-v2\\0" + scope + "\\0" + slug(name)``), where scope is the declared
scope, else ``global`` for user/feedback types and ``project`` for anything else (a missing
or unknown type counts as project). ``slug`` is Reasonix's: trimmed, lowercased, runs of
anything but Unicode letters and digits become ``-``, and a stem over 252 bytes is cut to
235 bytes plus ``-`` and the 16 hex digits of the FNV-1a hash of the whole stem.

Earlier builds of Context Center used another formula (``legacy-`` + 32 hex digits of
sha256(``"context-engine-v2/legacy-id\\0" + directory scope + "\\0" + lowercased stem``)), and
``memory migrate`` wrote such ids into files. Those ids stay the files' ids; both formulas
resolve as *aliases*: ``aliases_of`` lists, for a loaded fact, the ids a reference may carry
for it besides its own, and ``find_alias`` finds the one fact an alias names.
"""

from __future__ import annotations

import hashlib
import os
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from context_center.engine.errors import InvalidRequest
from context_center.engine.kinds import FactType, Scope

if TYPE_CHECKING:
    from context_center.engine.store.entries import Entry, Snapshot
    from context_center.engine.store.factstore import FactStore

SEED = "reasonix-memory-v2"
OLD_SEED = "context-engine-v2/legacy-id"
SLUG_BUDGET = 255 - len(".md")
OLD_ID = re.compile(r"^legacy-[0-9a-f]{32}$")
_ASCII_SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
# Go's unicode.IsSpace set (what strings.TrimSpace trims).
GO_SPACE = (
    " \t\n\v\f\r\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
)
_FNV_OFFSET = 0xCBF29CE484222325
_FNV_PRIME = 0x100000001B3


def _fnv1a64(data: bytes) -> int:
    h = _FNV_OFFSET
    for byte in data:
        h = ((h ^ byte) * _FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def _is_letter_or_digit(ch: str) -> bool:
    return unicodedata.category(ch)[0] in ("L", "N")


def _go_lower(text: str) -> str:
    # Go lowercases rune by rune (simple case mapping); Python's full mapping differs only for
    # U+0130, which becomes "i" + a combining dot.
    return "".join("i" if ch == "\u0130" else ch.lower() for ch in text)


def reasonix_slug(name: str) -> str:
    """Reasonix's slug of a name (no NFKC folding, unlike ``paths.slugify``)."""
    if _ASCII_SLUG.fullmatch(name) and len(name) <= SLUG_BUDGET:
        return name  # the common case: already a slug
    out: list[str] = []
    dash = False
    for ch in _go_lower(name.strip(GO_SPACE)):
        if _is_letter_or_digit(ch):
            out.append(ch)
            dash = False
        elif not dash:
            out.append("-")
            dash = True
    stem = "".join(out).strip("-")
    raw = stem.encode("utf-8")
    if len(raw) <= SLUG_BUDGET:
        return stem
    prefix = raw[: SLUG_BUDGET - 17].decode("utf-8", errors="ignore")
    return f"{prefix}-{_fnv1a64(raw):016x}"


def identity_scope(declared_scope: str | None, declared_type: FactType | None) -> str:
    """The scope a legacy id is derived with (not necessarily the directory's)."""
    scope = (declared_scope or "").strip().lower()
    if scope in ("project", "global"):
        return scope
    if declared_type in (FactType.USER, FactType.FEEDBACK):
        return "global"
    return "project"


def legacy_id(name: str, scope: str) -> str:
    """Reasonix's id for a file without one: ``name`` is the frontmatter name or the stem."""
    seed = f"{SEED}\0{scope}\0{reasonix_slug(name)}"
    return "legacy-" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:24]


def old_legacy_id(directory_scope: Scope, stem: str) -> str:
    """The formula of earlier Context Center builds (kept only to resolve their ids)."""
    seed = f"{OLD_SEED}\0{directory_scope.value}\0{stem.lower()}"
    return "legacy-" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:32]


def aliases_of(
    fact_id: str,
    *,
    name: str,
    title: str,
    type: FactType,
    scope: Scope,
    stem: str,
) -> set[str]:
    """Ids besides ``fact_id`` that name this fact.

    * the old formula for its file (what an earlier build called it before migrating it);
    * for a fact carrying an old-formula id (written by an earlier ``memory migrate``, which
      kept the file stem as the name and moved a differing declared name into the title):
      the ids Reasonix derived for it before that migration: its name or its title, with the
      directory scope, the scope its type implies, or project (the scope of a missing type).
    """
    out = {old_legacy_id(scope, stem)}
    if OLD_ID.match(fact_id):
        scopes = {scope.value, identity_scope(None, type), "project"}
        names = {name, stem, title}
        out |= {legacy_id(n, s) for n in names if reasonix_slug(n) for s in scopes}
    out.discard(fact_id)
    return out


# -- one name, one file ------------------------------------------------------------------------


def key_by_name(snap: Snapshot) -> None:
    """Key ``snap.entries`` by fact name (Reasonix's name: the declared one, else the stem).

    A legacy file may declare a name other than its stem (``pnpm.md`` with ``name:
    package-manager``), so two files can claim one name. The file named after it keeps it;
    the others are excluded with ``duplicate_name``. When no claimant is named after it, none
    can be told apart and all are excluded.
    """
    by_name: dict[str, list[tuple[str, Entry]]] = {}
    for stem, entry in snap.entries.items():
        by_name.setdefault(entry.fact.name, []).append((stem, entry))
    if all(len(v) == 1 and v[0][0] == k for k, v in by_name.items()):
        return  # the common case: every file is named after its fact
    from context_center.engine.model import Diagnostic

    keyed: dict[str, Entry] = {}
    for name, claims in by_name.items():
        owner = next((e for stem, e in claims if stem == name), None)
        if len(claims) == 1:
            owner = claims[0][1]
        for stem, entry in claims:
            if entry is owner:
                continue
            others = ", ".join(
                f"{s}.md" for s, e in sorted(claims, key=lambda c: c[0]) if s != stem
            )
            snap.diagnostics.append(
                Diagnostic(
                    code="duplicate_name",
                    path=f"{stem}.md",
                    message=f"declares the name {name!r}, which {others} also uses; "
                    "rename one of them (its name field)",
                    scope=snap.scope,
                )
            )
        if owner is not None:
            keyed[name] = owner
    snap.entries = keyed


def file_of(snap: Snapshot | None, root: Path, name: str) -> Path | None:
    """The file that holds the fact ``name``: ``<name>.md``, or, for a legacy file declaring
    another name (not yet moved by migration), the file the loaded snapshot found it in.

    None when both are present: ``<name>.md`` may be where a migration moved the legacy
    file since ``snap`` was loaded, or a file the loader excluded (two files with one id, a
    bad file) while the legacy file holds the name -- only a fresh load can tell
    (``loaded_file_of``)."""
    path = root / f"{name}.md"
    known = snap.entries.get(name) if snap is not None else None
    if known is None or os.path.basename(known.location) == path.name:
        return path
    try:
        present = os.path.lexists(path)
    except (OSError, ValueError):
        return path
    return None if present else Path(known.location)


def loaded_file_of(snap: Snapshot, root: Path, name: str) -> Path:
    """The file a snapshot loaded just now gave the name ``name`` to (``<name>.md`` when it
    gave it to none)."""
    known = snap.entries.get(name)
    return Path(known.location) if known is not None else root / f"{name}.md"


def find_alias(ref: str, stores: Iterable[FactStore]) -> Entry | None:
    """The one active legacy fact an alias id names (read fresh), or None.

    Raises InvalidRequest when the alias names facts in both stores (the same legacy file in
    the project and the global store): the reference must then carry the scope.
    """
    hits: list[tuple[FactStore, Entry]] = []
    for store in stores:
        for entry in store.snapshot().entries.values():
            fact = entry.fact
            if not fact.id.startswith("legacy-"):
                continue
            aliases = aliases_of(
                fact.id,
                name=fact.name,
                title=fact.title,
                type=fact.type,
                scope=fact.scope,
                stem=os.path.basename(entry.location)[:-3],
            )
            if ref in aliases:
                hits.append((store, entry))
    if not hits:
        return None
    if len(hits) > 1:
        refs = ", ".join(e.fact.ref for _, e in hits)
        raise InvalidRequest(f"the id {ref} names more than one fact ({refs}); use a reference")
    store, entry = hits[0]
    return store.read_fresh(entry.fact.name)
