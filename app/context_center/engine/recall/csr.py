"""Vectorised CSR postings: the bulk build (a counting sort) and compaction (fold the delta and
drop dead ordinals), both chunked so temporaries stay small. Pure numpy, no index state.

A CSR base is ``offsets[t] : offsets[t+1]`` slicing ``docs`` (uint32 ordinals, ascending within a
term) and ``tfs`` (uint16 weighted term frequencies).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np


def chunks(total: int, size: int) -> Iterable[tuple[int, int]]:
    for s in range(0, total, size):
        yield s, min(total, s + size)


def counting_csr(
    tids: np.ndarray, tfs: np.ndarray, lens: np.ndarray, v: int, chunk: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """CSR (offsets, ordinals, tfs) from doc-major flat postings: document ``d`` owns the
    next ``lens[d]`` entries of ``tids``/``tfs``. A counting sort, one chunk of documents
    at a time; ordinals come out ascending within each term."""
    total = len(tids)
    df = np.bincount(tids, minlength=v) if total else np.zeros(v, dtype=np.int64)
    off = np.zeros(v + 1, dtype=np.int64)
    np.cumsum(df, out=off[1:])
    docs = np.empty(total, dtype=np.uint32)
    out_tf = np.empty(total, dtype=np.uint16)
    fill = off[:-1].copy()
    doc_end = np.cumsum(lens, dtype=np.int64)
    d0 = 0
    n = len(lens)
    while d0 < n:
        p0 = int(doc_end[d0 - 1]) if d0 else 0
        d1 = int(np.searchsorted(doc_end, p0 + chunk, side="right"))
        d1 = max(d1, d0 + 1)
        p1 = int(doc_end[d1 - 1])
        t_c = tids[p0:p1]
        order = np.argsort(t_c, kind="stable")
        ts = t_c[order]
        idx = np.arange(len(ts), dtype=np.int64)
        first = np.ones(len(ts), dtype=np.bool_)
        first[1:] = ts[1:] != ts[:-1]
        run_start = np.maximum.accumulate(np.where(first, idx, 0))
        pos = fill[ts] + (idx - run_start)
        d_c = np.repeat(np.arange(d0, d1, dtype=np.uint32), lens[d0:d1])
        docs[pos] = d_c[order]
        out_tf[pos] = tfs[p0:p1][order]
        fill += np.bincount(t_c, minlength=v)
        d0 = d1
    return off, docs, out_tf


def terms_of_range(off: np.ndarray, s: int, e: int) -> np.ndarray:
    """The term id of each posting ``s`` .. ``e - 1`` of a CSR with offsets ``off``: one
    ``repeat`` over the terms that range touches (a binary search per posting costs about ten
    times as much at millions of postings)."""
    if e <= s:
        return np.zeros(0, dtype=np.int64)
    t0 = int(np.searchsorted(off, s, side="right")) - 1
    t1 = int(np.searchsorted(off, e - 1, side="right"))  # one past the last term touched
    starts = np.maximum(off[t0:t1], s)
    ends = np.minimum(off[t0 + 1 : t1 + 1], e)
    return np.repeat(np.arange(t0, t1, dtype=np.int64), ends - starts)


@dataclass(slots=True)
class Compacted:
    keep_terms: np.ndarray  # old term ids that still have postings, ascending
    offsets: np.ndarray
    docs: np.ndarray
    tfs: np.ndarray


def _flat_delta(
    d_docs: dict[int, array[int]], d_tf: dict[int, array[int]], alive: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Live delta postings, flat and grouped by term (ascending ordinals within a term)."""
    d_tids = sorted(d_docs)
    d_lens = np.array([len(d_docs[t]) for t in d_tids], dtype=np.int64)
    d_t = np.repeat(np.array(d_tids, dtype=np.int64), d_lens)
    d_d = np.frombuffer(b"".join(d_docs[t].tobytes() for t in d_tids), dtype=np.uint32)
    d_f = np.frombuffer(b"".join(d_tf[t].tobytes() for t in d_tids), dtype=np.uint16)
    d_keep = alive[d_d] if len(d_d) else np.zeros(0, dtype=np.bool_)
    return d_t[d_keep], d_d[d_keep], d_f[d_keep]


def compact(
    off: np.ndarray,
    b_docs: np.ndarray,
    b_tf: np.ndarray,
    d_docs: dict[int, array[int]],
    d_tf: dict[int, array[int]],
    alive: np.ndarray,
    v: int,
    chunk: int,
) -> Compacted:
    """One fresh base from a base plus delta postings, keeping live ordinals only (renumbered
    in order) and dropping terms left without postings. Peak extra memory is about one new
    base (6 bytes per posting)."""
    newpos = (np.cumsum(alive, dtype=np.int64) - 1).astype(np.uint32)
    d_t, d_d, d_f = _flat_delta(d_docs, d_tf, alive)
    d_counts = np.bincount(d_t, minlength=v) if len(d_t) else np.zeros(v, np.int64)
    # Live base postings per term, chunk by chunk (every one of them when no base row died).
    base_rows = int(b_docs.max()) + 1 if len(b_docs) else 0
    if bool(alive[:base_rows].all()):
        kept = np.zeros(v, dtype=np.int64)
        kept[: len(off) - 1] = np.diff(off)
    else:
        kept = np.zeros(v, dtype=np.int64)
        for s, e in chunks(len(b_docs), chunk):
            t_c = terms_of_range(off, s, e)
            kept += np.bincount(t_c[alive[b_docs[s:e]]], minlength=v)
    counts = kept + d_counts
    new_off_full = np.zeros(v + 1, dtype=np.int64)
    np.cumsum(counts, out=new_off_full[1:])  # unused terms take no room
    total = int(new_off_full[-1])
    new_docs = np.empty(total, dtype=np.uint32)
    new_tf = np.empty(total, dtype=np.uint16)
    # A live base posting goes to (its rank among live base postings) + shift[term].
    kept_before = np.zeros(v, dtype=np.int64)
    np.cumsum(kept[:-1], out=kept_before[1:])
    shift = new_off_full[:-1] - kept_before
    g = 0
    for s, e in chunks(len(b_docs), chunk):
        keep_c = alive[b_docs[s:e]]
        t_c = terms_of_range(off, s, e)[keep_c]
        pos = np.arange(g, g + len(t_c), dtype=np.int64) + shift[t_c]
        new_docs[pos] = newpos[b_docs[s:e][keep_c]]
        new_tf[pos] = b_tf[s:e][keep_c]
        g += len(t_c)
    if len(d_t):
        starts = np.zeros(v + 1, dtype=np.int64)
        np.cumsum(d_counts, out=starts[1:])
        rank = np.arange(len(d_t), dtype=np.int64) - starts[d_t]
        pos = new_off_full[d_t] + kept[d_t] + rank
        new_docs[pos] = newpos[d_d]
        new_tf[pos] = d_f
    keep_terms = np.flatnonzero(counts > 0)
    b_off = np.zeros(len(keep_terms) + 1, dtype=np.int64)
    np.cumsum(counts[keep_terms], out=b_off[1:])
    return Compacted(keep_terms, b_off, new_docs, new_tf)
