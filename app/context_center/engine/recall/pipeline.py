"""One recall turn as forward stages, each handing its result to the next:

1. terms (``terms.plan``): generic turn? searchable terms, concepts and their expansions;
2. candidates and scores (``scoring``): BM25F per concept, distinctive matches, adjustments;
3. policy filters (``filters``): project override, stable guidance, superseded, relative cut,
   each adding its suppressions;
4. budget: the fact limit, then the character budget (``block.pack``);
5. block and trace (``trace``).

A new rule is one stage or one filter. Nothing here reads or writes files.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime

import numpy as np

from context_center.engine.gate.visible import provider_visible
from context_center.engine.recall import block as blk
from context_center.engine.recall import filters, masks, scoring
from context_center.engine.recall.filters import LIST_CAP, Pool, Ranked, ranked, suppression
from context_center.engine.recall.index import RecallIndex
from context_center.engine.recall.policy import PROJECT_BOOST, STALE_FACTOR, Reason, reason_text
from context_center.engine.recall.scoring import Match, Scored
from context_center.engine.recall.secretmatch import shown
from context_center.engine.recall.subjects import SubjectMap
from context_center.engine.recall.terms import Plan, plan
from context_center.engine.recall.trace import RecallTrace, SelectedFact, Suppression


@dataclass(frozen=True, slots=True)
class RecallResult:
    """The block to append to the user turn ("" when nothing is recalled) and its trace."""

    block: str
    trace: RecallTrace


@dataclass(slots=True)
class Turn:
    """What one turn needs besides the message; the callables are per-index-state caches."""

    index: RecallIndex
    now: datetime
    limit: int
    budget: int
    overridden: np.ndarray  # ordinals of global facts a project twin overrides
    subjects: Callable[[], SubjectMap]
    started: float


@dataclass(slots=True)
class _Outcome:
    whole: Reason | None = None
    suppressed: tuple[Suppression, ...] = ()
    more: int = 0
    candidates: int = 0
    packed: blk.Packed | None = None
    matched: dict[int, list[Match]] | None = None


# -- stage 5: block and trace ------------------------------------------------------------------


def _selected(packed: blk.Packed, matched: dict[int, list[Match]]) -> list[SelectedFact]:
    out = []
    for entry, shortened in packed.placed:
        f = entry.fact
        found = matched.get(id(f), [])
        out.append(
            SelectedFact(
                id=f.id,
                revision=f.revision,
                ref=f.ref,
                scope=f.scope,
                type=f.type,
                title=provider_visible(f.display_title),
                score=round(float(entry.score), 4),
                matched=tuple(dict.fromkeys(m.label for m in found)),
                expanded=tuple(m.text() for m in found if m.via),
                reason=entry.reason,
                freshness=entry.freshness,
                shortened=shortened,
            )
        )
    return out


def finish(p: Plan, turn: Turn, out: _Outcome) -> RecallResult:
    packed = out.packed
    selected = _selected(packed, out.matched or {}) if packed is not None else []
    block = packed.block if packed is not None else ""
    sup = list(out.suppressed)
    whole = out.whole
    if not selected and whole is None:
        over = any(s.reason is Reason.OVER_BUDGET for s in sup)
        whole = (
            Reason.OVER_BUDGET if over else (sup[0].reason if sup else Reason.NO_DISTINCTIVE_MATCH)
        )
    if whole is not None:
        sup.insert(0, Suppression(reason=whole, message=whole.text))
    trace = RecallTrace(
        at=turn.now,
        query=p.message,
        terms=p.terms,
        selected=tuple(selected),
        suppressed=tuple(sup),
        suppressed_more=out.more,
        candidates=out.candidates,
        omitted=packed.omitted if packed is not None else 0,
        chars_used=len(block),
        char_budget=turn.budget,
        max_facts=turn.limit,
        elapsed_ms=round((time.perf_counter() - turn.started) * 1000, 3),
        block=block,
    )
    return RecallResult(block, trace)


# -- stage 2 helpers -------------------------------------------------------------------------


def _may_rank_in_top(raw: np.ndarray, k: int) -> np.ndarray:
    """Positions of raw scores that can still be among the best ``k`` once adjusted (an
    adjusted score is raw x a factor in [0.92, 1.08] here), so the work stays on a few dozen
    facts when tens of thousands matched loosely."""
    if len(raw) <= k:
        return np.arange(len(raw))
    floor = filters.kth_largest(raw, k) * (STALE_FACTOR / PROJECT_BOOST) * (1.0 - 1e-9)
    return (raw >= floor).nonzero()[0]


def _loose(
    turn: Turn, sc: Scored, loose: np.ndarray, reason: Reason = Reason.NO_DISTINCTIVE_MATCH
) -> tuple[list[Suppression], int]:
    """Facts that matched, but not distinctively (or only deep in their body): listed last
    (they never compete)."""
    if not len(loose):
        return [], 0
    top = loose[_may_rank_in_top(sc.raw[loose], LIST_CAP)]
    s, _ = scoring.adjusted(turn.index, sc, top, turn.now)
    listed = ranked(turn.index, top, s, LIST_CAP)
    out = []
    sc.matched_many([r.ordinal for r in listed])  # one lookup for all of them
    for r in listed:
        matches = _shown_matches(turn, sc, r)
        if not matches and sc.matched(r.ordinal):
            continue  # matched only inside a withheld secret: never named, nor listed
        words = ", ".join(m.text() for m in matches) or "a number"
        why = (
            "one term alone must be identifier-like or rare in the store (or long, in a "
            "message of at most two terms)"
            if reason is Reason.NO_DISTINCTIVE_MATCH
            else "none of it in the fact's name, title or description"
        )
        out.append(suppression(reason, r, f"matched only {words}: {why}"))
    return out, len(loose) - len(out)


# -- stage 4: budget ---------------------------------------------------------------------------


def _budget(
    turn: Turn, sc: Scored, pool: Pool
) -> tuple[blk.Packed, list[Suppression], int, dict[int, list[Match]]]:
    ranked_all = ranked(turn.index, pool.ords, pool.scores, turn.limit + LIST_CAP)
    sc.matched_many([r.ordinal for r in ranked_all])  # one lookup for all of them
    # A fact matched only inside a withheld secret is no candidate (its match would tell the
    # model the secret's value).
    ranked_all = [r for r in ranked_all if _shown_matches(turn, sc, r)]
    chosen, over_limit = ranked_all[: turn.limit], ranked_all[turn.limit :]
    over_count = len(pool.ords) - len(chosen)
    over = [suppression(Reason.OVER_BUDGET, r) for r in over_limit]
    more = over_count - len(over_limit)
    matched: dict[int, list[Match]] = {}
    entries = [_entry(turn, sc, pool, r, matched) for r in chosen]
    packed = blk.pack(entries, turn.budget, over_count)
    # Entries that did not fit rank above those over the fact limit; one list for the kind.
    dropped = [
        Suppression(
            reason=Reason.OVER_BUDGET,
            message="did not fit in the character budget even when shortened",
            id=e.fact.id,
            revision=e.fact.revision,
            ref=e.fact.ref,
            score=round(float(e.score), 4),
        )
        for e in packed.dropped
    ]
    over = dropped + over
    more += max(0, len(over) - LIST_CAP)
    return packed, over[:LIST_CAP], more, matched


def _shown_matches(turn: Turn, sc: Scored, r: Ranked) -> list[Match]:
    """The matches of ``r`` a model may be told of: none that lies only inside a secret."""
    found = sc.matched(r.ordinal)
    if not found:
        return []
    # the spans of exactly the text the index describes, found when the row was added
    return shown(r.fact, found, known=turn.index.withheld_of(r.ordinal))


def _entry(
    turn: Turn, sc: Scored, pool: Pool, r: Ranked, matched: dict[int, list[Match]]
) -> blk.Entry:
    found = _shown_matches(turn, sc, r)
    matched[id(r.fact)] = found
    reason = reason_text([m.text() for m in found], r.fact.scope.value)
    note = pool.notes.get(r.ordinal)
    if note:
        reason = f"{reason}; {note}" if found else f"{note}; {r.fact.scope.value} scope"
    return blk.Entry(
        fact=r.fact,
        score=r.score,
        reason=reason,
        freshness=r.fact.freshness(turn.now),
        text=blk.snippet(r.fact, [m.find for m in found], spans=turn.index.withheld_of(r.ordinal)),
    )


# -- the turn ----------------------------------------------------------------------------------


def _blocked(index: RecallIndex, cand: np.ndarray, pool: Pool) -> np.ndarray:
    """The candidates (in order) earlier filters removed: neither still in the pool nor set
    aside by ``pre_cut`` (those may come back). One mark per ordinal, no sort."""
    kept = np.zeros(index.size, dtype=np.bool_)
    kept[pool.ords] = True
    if pool.weak is not None:
        kept[pool.weak[0]] = True
    out: np.ndarray = masks.one(~kept[cand], cand)
    return out


def run(message: str, turn: Turn) -> RecallResult:
    p = plan(message)  # stage 1
    if p.whole is not None:
        return finish(p, turn, _Outcome(whole=p.whole))
    index = turn.index
    if len(index) == 0:
        return finish(p, turn, _Outcome(whole=Reason.STORE_EMPTY))
    sc = scoring.score(index, p)  # stage 2
    cand, loose, body = scoring.candidates(index, sc)
    not_distinct, more = _loose(turn, sc, loose)
    in_body, body_more = _loose(turn, sc, body, Reason.BODY_ONLY)
    not_distinct, more = in_body + not_distinct, more + body_more
    if not len(cand):
        return finish(
            p,
            turn,
            _Outcome(whole=Reason.NO_DISTINCTIVE_MATCH, suppressed=tuple(not_distinct), more=more),
        )
    broad = ~sc.head if sc.frequent_only[cand].any() else None  # see scoring.adjusted
    s, b = scoring.adjusted(index, sc, cand, turn.now, broad)
    pool = Pool(index, cand, s, b)  # stage 3
    overridden = filters.overridden_marks(index, turn.overridden)
    filters.pre_cut(pool, filters.policy_mask(pool, overridden, turn.subjects()))
    filters.project_override(pool, overridden)
    filters.stable_guidance(pool)
    if len(pool.ords):
        filters.superseded(pool, turn.subjects(), lambda: _blocked(index, cand, pool), sc.head)
    filters.relative_cut(pool)
    filters.thin_match(pool, sc.count)
    filters.side_match(pool, sc.frequent_only, sc.strong, sc.unknown)
    suppressed = list(pool.suppressed)
    more += pool.more
    if not len(pool.ords):
        return finish(
            p,
            turn,
            _Outcome(suppressed=tuple(suppressed + not_distinct), more=more, candidates=len(cand)),
        )
    packed, over, over_more, matched = _budget(turn, sc, pool)  # stage 4
    return finish(  # stage 5
        p,
        turn,
        _Outcome(
            suppressed=tuple(suppressed + over + not_distinct),
            more=more + over_more,
            candidates=len(cand),
            packed=packed,
            matched=matched,
        ),
    )
