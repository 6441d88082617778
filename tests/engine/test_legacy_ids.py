"""Reasonix's slug and legacy id, checked against values computed here from its rules."""

from __future__ import annotations

import hashlib

from context_center.engine.model import FactType, Scope
from context_center.engine.store.legacy import (
    aliases_of,
    identity_scope,
    legacy_id,
    old_legacy_id,
    reasonix_slug,
)


def fnv1a64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h = ((h ^ b) * 0x100000001B3) % 2**64
    return h


def test_fnv_known_vector() -> None:
    assert fnv1a64(b"a") == 0xAF63DC4C8601EC8C  # the published FNV-1a 64 test vector


def test_slugs_as_reasonix_makes_them() -> None:
    assert reasonix_slug("  Testing preference ") == "testing-preference"
    assert reasonix_slug("a_b--c") == "a-b-c"
    assert reasonix_slug("中文 约定") == "中文-约定"
    assert reasonix_slug("ＡＢＣ") == "ａｂｃ"  # no NFKC folding (our file-name slug folds)
    assert reasonix_slug("İ") == "i"  # Go lowercases rune by rune
    assert reasonix_slug("...") == ""
    long = "x" * 300
    assert reasonix_slug(long) == "x" * 235 + f"-{fnv1a64(long.encode()):016x}"
    assert len(reasonix_slug(long).encode()) == 252


def test_legacy_ids_follow_the_formula() -> None:
    digest = hashlib.sha256(b"reasonix-memory-v2\x00global\x00prefers-tabs").hexdigest()
    assert legacy_id("Prefers tabs", "global") == "legacy-" + digest[:24]
    assert identity_scope(None, FactType.FEEDBACK) == "global"
    assert identity_scope(None, None) == "project"
    assert identity_scope("Project", FactType.USER) == "project"


def test_aliases_cover_the_earlier_formula_both_ways() -> None:
    new = legacy_id("note", "project")
    old = old_legacy_id(Scope.PROJECT, "note")
    assert len(old) == len("legacy-") + 32 and old != new
    assert old in aliases_of(
        new, name="note", title="note", type=FactType.PROJECT, scope=Scope.PROJECT, stem="note"
    )
    # a file an earlier build migrated: its declared name went to the title
    kept = old_legacy_id(Scope.GLOBAL, "pnpm")
    aliases = aliases_of(
        kept,
        name="pnpm",
        title="Package manager",
        type=FactType.USER,
        scope=Scope.GLOBAL,
        stem="pnpm",
    )
    assert legacy_id("Package manager", "global") in aliases
    assert legacy_id("pnpm", "project") in aliases  # a missing type counted as project
    assert kept not in aliases
