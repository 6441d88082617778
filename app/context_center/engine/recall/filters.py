"""Recall stage 3: policy filters over the candidates, each adding its suppressions.

The candidates of a turn flow through these in order; each filter removes facts and records
them under its reason code, so every candidate is accounted for by the first rule that removed
it:

1. ``project_override`` -- a global fact whose project twin applies in this workspace;
2. ``stable_guidance`` -- a global user/feedback fact, already in the stable guidance;
3. ``superseded`` -- a fact a newer one on the same subject replaces (``subjects.py``); the
   current fact takes its place when it was not a candidate itself;
4. ``weak_match`` / ``broad_match`` -- under ``RELATIVE_CUT`` x the best remaining score
   (``broad_match`` when the broad-fact penalty put it there);
5. ``thin_match`` -- fewer matched concepts than the best fact and under ``THIN_CUT`` x its
   score;
6. ``side_match`` -- beyond the best ``SIDE_CAP`` facts matched only on words frequent in the
   store, with no distinctive term.

The fact limit and the character budget (``over_budget``) follow in ``pipeline.py``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from context_center.engine.kinds import FactType, Scope
from context_center.engine.recall import masks
from context_center.engine.recall.index import SCOPE_CODES, TYPE_CODES, RecallIndex
from context_center.engine.recall.matching import state_cache
from context_center.engine.recall.policy import (
    BROAD_FACTOR,
    RELATIVE_CUT,
    SIDE_CAP,
    SIDE_MIN_FACTS,
    THIN_CUT,
    Reason,
)
from context_center.engine.recall.subjects import SubjectMap
from context_center.engine.recall.trace import Suppression

if TYPE_CHECKING:
    from context_center.engine.model import Fact

# Per-fact suppressions listed in a trace per kind (the rest are counted in suppressed_more).
LIST_CAP = 10
# Candidates (best first) checked for a newer fact on the same subject.
SUPERSEDED_CHECK = 64
_GLOBAL = SCOPE_CODES[Scope.GLOBAL]
_GUIDANCE = (TYPE_CODES[FactType.USER], TYPE_CODES[FactType.FEEDBACK])


@dataclass(slots=True)
class Ranked:
    ordinal: int
    fact: Fact
    score: float


def _order_key(r: Ranked) -> tuple[float, float, str]:
    upd = r.fact.updated_at
    return (-r.score, -(upd.timestamp() if upd is not None else -math.inf), r.fact.id)


_SAMPLE_FROM = 4096
_SAMPLE_STRIDE = 16


def kth_largest(a: np.ndarray, k: int) -> float:
    """The k-th largest value of ``a`` (1 <= k <= len(a)), exactly.

    A large array is first narrowed to the values at or above the k-th largest of every 16th
    value: at least k values of ``a`` are that large, so the k-th largest is among them."""
    n = len(a)
    if n >= _SAMPLE_FROM and k * _SAMPLE_STRIDE * 4 <= n:
        sample = a[::_SAMPLE_STRIDE]
        m = len(sample)
        a = masks.one(a >= np.partition(sample, m - k)[m - k], a)
        n = len(a)
    return float(np.partition(a, n - k)[n - k])


def ranked(index: RecallIndex, ords: np.ndarray, scores: np.ndarray, k: int) -> list[Ranked]:
    """The best ``k`` by score, then newer updated_at, then id (ties at the edge kept)."""
    if len(ords) == 0 or k <= 0:
        return []
    if len(ords) > k:
        pick = scores >= kth_largest(scores, k)
        ords, scores = masks.where(pick, ords, scores)
    items = [
        Ranked(o, index.fact(o), float(v))
        for o, v in zip(ords.tolist(), scores.tolist(), strict=True)
    ]
    items.sort(key=_order_key)
    return items[:k]


def suppression(reason: Reason, r: Ranked, message: str | None = None) -> Suppression:
    return Suppression(
        reason=reason,
        message=message or reason.text,
        id=r.fact.id,
        revision=r.fact.revision,
        ref=r.fact.ref,
        score=round(float(r.score), 4),
    )


@dataclass(slots=True)
class Pool:
    """The candidates still eligible, and what the filters removed so far."""

    index: RecallIndex
    ords: np.ndarray
    scores: np.ndarray
    broad: np.ndarray  # penalised as a broad fact
    notes: dict[int, str] = field(default_factory=dict)  # ordinal -> extra reason
    suppressed: list[Suppression] = field(default_factory=list)
    more: int = 0
    # set aside by ``pre_cut``: certain to be weak_match, listed with the relative cut's
    weak: tuple[np.ndarray, np.ndarray] | None = None

    def drop(
        self,
        reason: Reason,
        mask: np.ndarray,
        messages: dict[int, str] | None = None,
        message: str | None = None,
    ) -> None:
        """Remove the candidates under ``mask``, listing up to LIST_CAP of them (with their
        ``messages``, or ``message`` for all of them)."""
        if not mask.any():
            return
        ords, scores = masks.where(mask, self.ords, self.scores)
        listed = ranked(self.index, ords, scores, LIST_CAP)
        self.more += int(np.count_nonzero(mask)) - len(listed)
        self.suppressed.extend(
            suppression(reason, r, messages.get(r.ordinal) if messages else message) for r in listed
        )
        self.ords, self.scores, self.broad = masks.where(~mask, self.ords, self.scores, self.broad)


member = masks.member  # ``np.isin`` for ordinals under a size (kept under its old name here)

_KINDS = ("filters", "kinds")


def _kinds(index: RecallIndex) -> tuple[np.ndarray, np.ndarray]:
    """(global fact?, global user or feedback fact?) per ordinal, once per index state (a
    fact's scope and type change only with the state)."""
    _, scope, type_, _ = index.columns()
    cache = state_cache(index)
    found, kinds = cache.get(_KINDS)
    if not found or len(kinds[0]) != len(scope):  # type: ignore[index]
        g = scope == _GLOBAL
        kinds = (g, g & ((type_ == _GUIDANCE[0]) | (type_ == _GUIDANCE[1])))
        cache.put(_KINDS, kinds, 2 * len(scope) + 64)
    return kinds  # type: ignore[return-value]


def overridden_marks(index: RecallIndex, overridden: np.ndarray) -> np.ndarray | None:
    """Per ordinal: a global fact that a project twin overrides (``overridden``: their
    ordinals); None when there is none. Made once per turn for the filters that ask."""
    if not len(overridden):
        return None
    out: np.ndarray = masks.marks(overridden, index.size) & _kinds(index)[0]
    return out


def policy_mask(pool: Pool, overridden: np.ndarray | None, subjects: SubjectMap) -> np.ndarray:
    """Candidates the policy filters (project override, stable guidance, superseded) may
    remove or replace (a superset: every fact in a same-subject group). ``overridden``:
    ``overridden_marks``."""
    mask: np.ndarray = _kinds(pool.index)[1][pool.ords]
    if overridden is not None:
        mask |= overridden[pool.ords]
    mask |= subjects.maybe_superseded(pool.ords)
    return mask


def pre_cut(pool: Pool, policy: np.ndarray) -> None:
    """Set aside, before the policy filters, the candidates the relative cut is certain to
    drop as weak_match: the best score among facts no policy filter touches (``policy`` is
    False) is a floor for the best eligible score, and only a current version's score can
    rise. Saves the filters' work on thousands of loose candidates; the trace is the same."""
    sure = ~policy
    if len(pool.ords) <= LIST_CAP or not sure.any():
        return
    floor = RELATIVE_CUT * float(masks.one(sure, pool.scores).max())
    s = pool.scores
    below = sure & (s < floor) & (~pool.broad | (s / BROAD_FACTOR < floor))
    if not below.any():
        return
    weak_ords, weak_scores = masks.where(below, pool.ords, s)
    pool.weak = (weak_ords, weak_scores)
    pool.ords, pool.scores, pool.broad = masks.where(~below, pool.ords, s, pool.broad)


def project_override(pool: Pool, overridden: np.ndarray | None) -> None:
    """``overridden``: ``overridden_marks``."""
    if overridden is None:
        return
    pool.drop(Reason.PROJECT_OVERRIDE, overridden[pool.ords])


def stable_guidance(pool: Pool) -> None:
    pool.drop(Reason.STABLE_GUIDANCE, _kinds(pool.index)[1][pool.ords])


def _maybe_superseded_first(pool: Pool, subjects: SubjectMap) -> np.ndarray:
    """Positions, among the best SUPERSEDED_CHECK candidates as ``np.argpartition`` orders
    them, of those in a same-subject group. Their order decides ties later, so a shortcut is
    taken only where there is no order to keep: the best few are found from the exact
    SUPERSEDED_CHECK-th score when no tie straddles it, and used when at most one of them
    is in a group (else argpartition orders them, as before)."""
    n = len(pool.ords)
    if n <= SUPERSEDED_CHECK:
        first = np.arange(n)
    else:
        s = pool.scores
        above = s >= kth_largest(s, SUPERSEDED_CHECK)
        if int(np.count_nonzero(above)) == SUPERSEDED_CHECK:
            few = above.nonzero()[0]
            maybe: np.ndarray = few[subjects.maybe_superseded(pool.ords[few])]
            if len(maybe) <= 1:
                return maybe
        first = np.argpartition(-s, SUPERSEDED_CHECK)[:SUPERSEDED_CHECK]
    out: np.ndarray = first[subjects.maybe_superseded(pool.ords[first])]
    return out


def superseded(
    pool: Pool,
    subjects: SubjectMap,
    blocked: np.ndarray | Callable[[], np.ndarray],
    named: np.ndarray | None = None,
) -> None:
    """Drop superseded candidates; the current fact of each group takes the best score of its
    group's candidates (it may not have matched the message itself). ``blocked``: ordinals
    earlier filters removed, which never come back this way (or a function giving them, asked
    only when a current fact may come in, before this filter changes the pool). ``named``
    (per ordinal): the
    message matched the fact's name, title or description; a current fact that did not match
    the message itself comes in only for an older fact the message matched so (the message is
    about their subject, not about a side remark in the old body)."""
    if not len(pool.ords):
        return
    # Only the best candidates can be injected: the rest are checked no further (they are
    # listed under the later rule that removes them).
    maybe = _maybe_superseded_first(pool, subjects)
    if not len(maybe):
        return
    mask = np.zeros(len(pool.ords), dtype=np.bool_)
    messages: dict[int, str] = {}
    promote: dict[int, tuple[float, int]] = {}
    for i in maybe.tolist():
        o = int(pool.ords[i])
        found = subjects.current_of(o)
        if found is None:
            continue
        cur, how = found
        mask[i] = True
        current = pool.index.fact(cur)
        why = "supersedes link" if how == "supersedes" else "same title"
        messages[o] = f"superseded by {current.ref} (newer, {why})"
        s = float(pool.scores[i])
        if s > promote.get(cur, (-1.0, 0))[0]:
            promote[cur] = (s, o)
    if promote and callable(blocked):
        blocked = blocked()  # of the pool as it came in
    pool.drop(Reason.SUPERSEDED, mask, messages)
    for cur, (s, old) in promote.items():
        if np.any(blocked == cur):
            continue
        where = (pool.ords == cur).nonzero()[0]
        note = f"current version of {pool.index.fact(old).ref}"
        if len(where):
            j = int(where[0])
            if s > pool.scores[j]:
                pool.scores[j] = s
                pool.notes[cur] = note
            continue
        if named is not None and not named[old]:
            continue
        if pool.weak is not None and np.any(pool.weak[0] == cur):  # set aside by pre_cut
            back = pool.weak[0] != cur
            pool.weak = (pool.weak[0][back], pool.weak[1][back])
        pool.ords = np.append(pool.ords, np.int64(cur))
        pool.scores = np.append(pool.scores, s)
        pool.broad = np.append(pool.broad, False)
        pool.notes[cur] = note


def relative_cut(pool: Pool) -> None:
    """Keep scores of at least RELATIVE_CUT x the best; a broad fact that only the penalty
    put under the line is ``broad_match``, anything else ``weak_match``."""
    if not len(pool.ords):
        return
    floor = RELATIVE_CUT * float(pool.scores.max())
    cut = pool.scores < floor
    if not cut.any() and pool.weak is None:
        return
    broad = cut & pool.broad & (pool.scores / BROAD_FACTOR >= floor)
    pool.drop(Reason.BROAD_MATCH, broad)
    weak = pool.scores < floor
    if pool.weak is None:
        pool.drop(Reason.WEAK_MATCH, weak)
        return
    weak_ords, weak_scores = masks.where(weak, pool.ords, pool.scores)
    ords = np.concatenate([weak_ords, pool.weak[0]])
    scores = np.concatenate([weak_scores, pool.weak[1]])
    listed = ranked(pool.index, ords, scores, LIST_CAP)
    pool.more += len(ords) - len(listed)
    pool.suppressed.extend(suppression(Reason.WEAK_MATCH, r) for r in listed)
    pool.ords, pool.scores, pool.broad = masks.where(~weak, pool.ords, pool.scores, pool.broad)
    pool.weak = None


def thin_match(pool: Pool, count: np.ndarray) -> None:
    """Drop facts that matched fewer of the message's concepts than the best fact did and
    score under THIN_CUT x its score: they share only a side word with the request."""
    if len(pool.ords) < 2:
        return
    top = int(np.argmax(pool.scores))
    best, best_count = float(pool.scores[top]), int(count[pool.ords[top]])
    mask = (count[pool.ords] < best_count) & (pool.scores < THIN_CUT * best)
    pool.drop(Reason.THIN_MATCH, mask)


def side_match(
    pool: Pool,
    frequent_only: np.ndarray,
    strong: np.ndarray,
    unknown: tuple[str, ...] = (),
    cap: int = SIDE_CAP,
) -> None:
    """Facts matched only on words frequent in this store (``frequent_only`` per ordinal),
    with no distinctive term (not ``strong``): at most ``cap`` of them (the best) stay, once
    the store has SIDE_MIN_FACTS facts (below that every shared word is "frequent"); none
    when a specific word of the message (``unknown``) is in no fact at all -- the message is
    about something the store does not know, and its frequent words match by coincidence."""
    if len(pool.index) < SIDE_MIN_FACTS or not len(pool.ords):
        return
    w = frequent_only[pool.ords] & ~strong[pool.ords]
    if unknown and w.any():
        words = ", ".join(unknown[:3])
        why = f"matched only words frequent in this store, and the message's {words} is in no fact"
        pool.drop(Reason.SIDE_MATCH, w, message=why)
        return
    idx = w.nonzero()[0]
    if len(idx) <= cap:
        return
    mask = w.copy()
    mask[idx[_best_first(-pool.scores[idx], cap)]] = False  # the best ``cap`` stay
    pool.drop(Reason.SIDE_MATCH, mask)


def _best_first(neg: np.ndarray, cap: int) -> np.ndarray:
    """Positions of the ``cap`` smallest of ``neg`` (0 < cap < len), ties by position: the
    first ``cap`` of ``np.argsort(neg, kind="stable")``, sorting only the values at most the
    cap-th smallest (the rest cannot be among them)."""
    kth = np.partition(neg, cap - 1)[cap - 1]
    near: np.ndarray = (neg <= kth).nonzero()[0]
    best: np.ndarray = near[np.argsort(neg[near], kind="stable")[:cap]]
    return best
