"""What one index state derives from all its rows -- the same-subject groups and the global
facts a project twin overrides -- is updated from the rows a write changed, and must be
exactly what a build from every row finds (issue 13: a served recall after a save)."""

from __future__ import annotations

import random
from datetime import timedelta

import numpy as np
import pytest
from recall_env import fact

from context_center.engine.model import Fact, Scope
from context_center.engine.recall import catchup, changelog
from context_center.engine.recall.index import RecallIndex
from context_center.engine.recall.subjects import REGROUP_MAX, SubjectMap, subject_map

TITLES = ["Release branch", "Node version", "On-call rotation 2025", "On-call rotation 2026"]
TITLES += ["Notes", "Cache policy", "发布分支", "Deploy window", "Queue retries"]


def replace(f: Fact, **changes: object) -> Fact:
    return f.model_copy(update=changes)


def _new_fact(rng: random.Random, names: list[str]) -> Fact:
    scope = rng.choice([Scope.PROJECT, Scope.PROJECT, Scope.GLOBAL])
    name = rng.choice(names) if rng.random() < 0.5 else f"fact-{rng.randrange(10**6)}"
    body = "Plain text about the release."
    if rng.random() < 0.15:  # a person's link, by name or by reference
        target = rng.choice(names)
        body += f"\nSupersedes: {rng.choice([target, f'global/{target}.md'])}"
    return fact(name, body, title=rng.choice(TITLES), scope=scope, age_days=rng.random() * 90)


def _change(rng: random.Random, index: RecallIndex, live: dict[tuple[str, str], Fact]) -> None:
    names = sorted({f.name for f in live.values()} | {"release-branch", "node-version"})
    op = rng.random()
    if not live or op < 0.4:
        f = _new_fact(rng, names)
        if all(g.name != f.name or g.scope != f.scope for g in live.values()):
            index.upsert(f)
            live[(f.scope.value, f.id)] = f
        return
    key = rng.choice(sorted(live))
    old = live[key]
    if op < 0.6:  # removed
        index.remove(old.id, old.scope)
        del live[key]
    elif op < 0.8:  # its text changed: another title
        new = replace(old, title=rng.choice(TITLES), revision=old.revision + 1)
        index.upsert(new)
        live[key] = new
    else:  # metadata only: a newer time can make it the current fact of its group
        new = replace(
            old, revision=old.revision + 1, updated_at=old.updated_at + timedelta(days=30)
        )
        index.upsert(new)
        live[key] = new


def _same_map(got: SubjectMap, want: SubjectMap, index: RecallIndex) -> None:
    assert got._members == want._members
    assert got.superseded_by == want.superseded_by
    ords = np.arange(index.size, dtype=np.int64)
    assert np.array_equal(got.maybe_superseded(ords), want.maybe_superseded(ords))
    alive = index.columns()[0]
    for o in np.flatnonzero(alive).tolist():
        assert got.current_of(o) == want.current_of(o)
    assert [g.public_dict() for g in got.groups()] == [g.public_dict() for g in want.groups()]


@pytest.mark.parametrize("seed", range(12))
def test_updated_groups_and_masks_are_those_of_a_build(seed: int) -> None:
    rng = random.Random(seed)
    index = RecallIndex()
    first = [_new_fact(rng, ["release-branch", "node-version"]) for _ in range(40)]
    live = {(f.scope.value, f.id): f for f in first}
    index.build(live.values())
    prev = subject_map(index)
    masked = catchup.masked_by_keys(index)
    updated = 0
    for _ in range(30):
        mark = index.mark()
        for _ in range(rng.randint(1, 4)):
            _change(rng, index, live)
        touched = index.touched_since(mark)
        assert touched is not None  # nothing here renumbers the rows
        got = subject_map(index, prev)
        _same_map(got, subject_map(index), index)
        updated += len(touched) <= REGROUP_MAX
        masked = catchup.masked_after(index, masked, touched)
        assert np.array_equal(masked, catchup.masked_by_keys(index))
        prev = got
    assert updated == 30  # every map above was updated, not built afresh


def test_every_change_of_a_row_is_logged_until_the_rows_are_renumbered() -> None:
    index = RecallIndex(compact_min=0, compact_ratio=0.0)
    a, b = fact("a-fact", "one"), fact("b-fact", "two")
    index.build([a, b])
    mark = index.mark()
    assert index.touched_since(mark) == []
    c = fact("c-fact", "three")
    index.upsert(c)  # a new row: ordinal 2
    index.upsert(replace(a, revision=2))  # metadata only: row 0 in place
    index.remove(b.id, b.scope)
    assert index.touched_since(mark) == [0, 1, 2]
    later = index.mark()
    index.compact()  # ordinals renumbered: no mark of before can be answered
    assert index.touched_since(mark) is None and index.touched_since(later) is None
    assert index.touched_since(None) is None


def test_a_log_too_long_answers_none() -> None:
    index = RecallIndex()
    index.build([fact("first", "text")])
    mark = index.mark()
    for i in range(changelog.LOG_MAX + 1):
        index.upsert(fact(f"f-{i}", "text"))
    assert index.touched_since(mark) is None
    fresh = index.mark()
    index.upsert(fact("one-more", "text"))
    assert index.touched_since(fresh) == [index.size - 1]


def test_a_link_target_named_is_found_without_a_map_of_every_name() -> None:
    """Named targets are looked up in the name-hash column: the last live fact of that name
    in the scope asked for, as the former map of every name held it."""
    old = fact("deploy-window", "Deploy on Tuesdays.", title="Deploy window", age_days=9)
    twin = fact("deploy-window", "Global rule.", title="Global deploys", scope=Scope.GLOBAL)
    newer = fact("deploy-rules", "Supersedes: deploy-window\nDeploy on Fridays.", title="Rules")
    by_ref = fact("deploy-global", "Replaces: global/deploy-window.md", title="G", age_days=2)
    gone = fact("deploy-window", "An older file of that name.", id="mem-" + "9" * 32)
    index = RecallIndex()
    index.build([gone, old, twin, newer, by_ref])
    index.remove(gone.id, Scope.PROJECT)  # its row keeps the name: it must not be found
    m = subject_map(index)
    o_old, o_twin = index.ordinal_of(("project", old.id)), index.ordinal_of(("global", twin.id))
    assert m.superseded_by == {
        o_old: [index.ordinal_of(("project", newer.id))],
        o_twin: [index.ordinal_of(("project", by_ref.id))],
    }


def test_a_recaller_updates_the_last_map_after_a_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """After one saved fact the next turn regroups that fact's key only: no sort of every
    key (the map is derived from the last one), and the new fact supersedes its namesake."""
    from context_center.engine.recall import subjects
    from context_center.engine.recall.recaller import Recaller

    older = fact("node-version", "Use Node 18 for the release build.", title="Node version")
    rest = [fact(f"note-{i}", f"Release note {i}.", title=f"Release note {i}") for i in range(5)]
    r = Recaller(None)
    r.recall("node version for the release build", [older, *rest], persist=False)
    builds: list[int] = []
    full = subjects._title_groups
    monkeypatch.setattr(
        subjects,
        "_title_groups",
        lambda *a: builds.append(1) or full(*a),  # type: ignore[func-returns-value]
    )
    newer = fact(
        "node-version-2", "Use Node 22 for the release build.", title="Node version", age_days=0
    )
    result = r.recall("node version for the release build", [older, *rest, newer], persist=False)
    assert builds == []
    assert [s.id for s in result.trace.selected][:1] == [newer.id]
    assert any(s.id == older.id and s.reason.value == "superseded" for s in result.trace.suppressed)
