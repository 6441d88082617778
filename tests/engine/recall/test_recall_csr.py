"""``csr.compact`` against a posting-by-posting reference: base and delta postings of live
ordinals survive, renumbered in order, on random shapes and chunk sizes (with and without
dead rows: a base with no dead row takes a shortcut)."""

from __future__ import annotations

from array import array

import numpy as np
import pytest

from context_center.engine.recall import csr


def _reference(off, docs, tf, d_docs, d_tf, alive):  # type: ignore[no-untyped-def]
    newpos = np.cumsum(alive) - 1
    ref: dict[int, list[tuple[int, int]]] = {}
    for t in range(len(off) - 1):
        for p in range(off[t], off[t + 1]):
            if alive[docs[p]]:
                ref.setdefault(t, []).append((int(newpos[docs[p]]), int(tf[p])))
    for t in sorted(d_docs):
        for o, f in zip(d_docs[t], d_tf[t], strict=True):
            if alive[o]:
                ref.setdefault(t, []).append((int(newpos[o]), int(f)))
    return ref


@pytest.mark.parametrize("dead", [False, True])
def test_compaction_keeps_exactly_the_live_postings(dead: bool) -> None:
    rng = np.random.default_rng(7 + dead)
    for _ in range(200):
        n, terms = int(rng.integers(1, 60)), int(rng.integers(6, 40))
        v = terms + int(rng.integers(0, 5))  # terms only the delta uses
        lens = rng.integers(0, 6, n)
        tids = (
            np.concatenate([rng.choice(terms, size=k, replace=False) for k in lens])
            if lens.sum()
            else np.zeros(0)
        ).astype(np.int64)
        tfs = rng.integers(1, 5, len(tids)).astype(np.uint16)
        off, docs, tf = csr.counting_csr(tids, tfs, lens, terms, 7)
        added = int(rng.integers(0, 10))
        alive = np.ones(n + added, dtype=bool)
        if dead:
            alive[rng.integers(0, n + added, int(rng.integers(1, 4)))] = False
        d_docs: dict[int, array[int]] = {}
        d_tf: dict[int, array[int]] = {}
        for o in range(n, n + added):
            for t in rng.choice(v, size=int(rng.integers(0, 4)), replace=False).tolist():
                d_docs.setdefault(t, array("I")).append(o)
                d_tf.setdefault(t, array("H")).append(int(rng.integers(1, 9)))
        new = csr.compact(off, docs, tf, d_docs, d_tf, alive, v, int(rng.integers(1, 20)))
        got = {
            t: list(
                zip(
                    new.docs[new.offsets[i] : new.offsets[i + 1]].tolist(),
                    new.tfs[new.offsets[i] : new.offsets[i + 1]].tolist(),
                    strict=True,
                )
            )
            for i, t in enumerate(new.keep_terms.tolist())
        }
        assert got == _reference(off, docs, tf, d_docs, d_tf, alive)


def test_the_terms_of_a_range_of_postings() -> None:
    off = np.array([0, 2, 2, 5, 6], dtype=np.int64)  # term 1 has no posting
    every = [0, 0, 2, 2, 2, 3]
    for s in range(7):
        for e in range(s, 7):
            assert csr.terms_of_range(off, s, e).tolist() == every[s:e]
