"""What the facts say, as columns on disk: the suggestions scan's index of fact phrases.

The scan compares each candidate with the phrases of every fact (``known.py``). Cutting
20,000 facts into phrases and tokens is seconds of pure Python, so the cut is kept here, in
the form the comparison reads, and written to the workspace's private cache folder (beside
the recall index, ``phrases-v1.bin``) by ``Engine.index_fact_phrases`` — maintenance the
window runs in the background after it reads the stores, never the scan itself (a scan writes
nothing). A scan opens the file read-only, keeps the rows whose fact is unchanged (each row
carries a blake2b digest of its fact's scope, name, title, description and body) and cuts
only the facts the file does not describe.

Per row (fact): its digest. Per phrase ("piece"): its row, its count of distinct tokens, and
its normalised form (all of them in one NUL-joined text with offsets). Per text key (a fact's
title, description or body, lowercased, letters and digits only): its row, in one NUL-joined
text. Per token: the pieces that hold it (CSR: ``tok_off``, ``tok_pieces``). Nothing here is
ever shown to a model or a person: the scan names a fact by its current ref and title.

``covering_key`` and ``covering_phrase`` give exactly ``known.Probe.says`` over every piece
(tests compare them with ``gate.overlap.phrases_overlap`` piece by piece): the token rule is
evaluated on arrays for every piece that shares a token with the statement, the containment
rule by searching the joined normalised text (statement inside a phrase) and by testing the
shorter phrases one by one (phrase inside the statement).
"""

from __future__ import annotations

import hashlib
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from context_center.engine import arrayfile
from context_center.engine.gate.overlap import (
    MAX_LENGTH_RATIO,
    MIN_CONTAINMENT_CHARS,
    MIN_SHARED,
    MIN_TOKENS,
)
from context_center.engine.suggestions.known import CUT_RULES

__all__ = ["FILE_NAME", "PhraseIndex", "digest_of"]

FILE_NAME = "phrases-v1.bin"
MAGIC = b"CCPHRASE"
# The file describes facts as this build cuts them: a change to the cutting (``known.CUT_RULES``)
# or to Python's Unicode tables (NFKC, ``isalnum``) makes older files unread.
STAMP = {"format": 1, "cut": CUT_RULES, "unicode": unicodedata.unidata_version}
NOWHERE = np.iinfo(np.int64).max  # "no position": larger than any fact's

Piece = tuple[str, tuple[str, ...]]  # a phrase's normalised form and its distinct tokens
Entry = tuple[bytes, Sequence[str], Sequence[Piece]]  # digest, text keys, pieces


def digest_of(parts: Sequence[str]) -> bytes:
    """16 bytes naming a fact's texts: its scope, name, title, description and body."""
    lengths = ",".join(str(len(p)) for p in parts)
    data = (lengths + "\x00" + "\x00".join(parts)).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=16).digest()


def _joined(items: Sequence[str]) -> tuple[str, np.ndarray]:
    """Items joined, each followed by NUL, and where each starts (one more: the end)."""
    starts = np.zeros(len(items) + 1, dtype=np.int64)
    if items:
        np.cumsum(np.fromiter((len(s) + 1 for s in items), np.int64, len(items)), out=starts[1:])
    return "".join(s + "\x00" for s in items), starts


def _slices(text: str, starts: np.ndarray, keep: np.ndarray) -> list[str]:
    """The kept items of a joined text, without their NUL."""
    at = starts.tolist()
    return [text[at[i] : at[i + 1] - 1] for i in np.flatnonzero(keep).tolist()]


@dataclass(frozen=True, slots=True, eq=False)
class PhraseIndex:
    """The columns described in the module docstring (build with ``build`` or ``merged``)."""

    digests: np.ndarray  # (rows, 16) uint8
    piece_row: np.ndarray  # int32 (pieces,)
    piece_ntok: np.ndarray  # int32 (pieces,)
    norm_start: np.ndarray  # int64 (pieces + 1,) into ``norms``
    norms: str
    key_row: np.ndarray  # int32 (keys,)
    key_start: np.ndarray  # int64 (keys + 1,) into ``keys``
    keys: str
    tokens: list[str]
    vocab: dict[str, int]
    tok_off: np.ndarray  # int64 (tokens + 1,)
    tok_pieces: np.ndarray  # int32 (postings,)

    @property
    def rows(self) -> int:
        return len(self.digests)

    def row_of(self) -> dict[bytes, int]:
        """Each row's digest → the row."""
        flat = self.digests.tobytes()
        return {flat[16 * i : 16 * i + 16]: i for i in range(self.rows)}

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def build(cls, entries: Iterable[Entry]) -> PhraseIndex:
        return cls.merged(None, None, entries)

    @classmethod
    def merged(
        cls, old: PhraseIndex | None, keep_rows: np.ndarray | None, entries: Iterable[Entry]
    ) -> PhraseIndex:
        """The rows of ``old`` marked in ``keep_rows`` (in their order), then ``entries``."""
        parts = _Parts()
        if old is not None and keep_rows is not None:
            parts.take(old, keep_rows)
        for entry in entries:
            parts.add(entry)
        return parts.finish(cls)

    # -- the file -----------------------------------------------------------------------------

    def save(self, path: Path) -> None:
        """Write the index atomically as a private file (0600 in a 0700 folder)."""
        from context_center.engine.store import atomic
        from context_center.engine.store.cachedirs import private_levels
        from context_center.engine.store.private import FILE_MODE

        def text(value: str) -> np.ndarray:
            return np.frombuffer(value.encode("utf-8", "surrogatepass"), dtype=np.uint8)

        arrays = {
            "digests": self.digests,
            "piece_row": self.piece_row,
            "piece_ntok": self.piece_ntok,
            "norm_start": self.norm_start,
            "norms": text(self.norms),
            "key_row": self.key_row,
            "key_start": self.key_start,
            "keys": text(self.keys),
            "tokens": text("\x00".join(self.tokens)),
            "tok_off": self.tok_off,
            "tok_pieces": self.tok_pieces,
        }
        data = arrayfile.parts(MAGIC, STAMP, arrays, {"rows": self.rows})
        private_levels(path.parent)
        atomic.write_bytes(path, data, mode=FILE_MODE)

    @classmethod
    def load(cls, path: Path) -> PhraseIndex | None:
        """The index in ``path``, or None when it is missing, unreadable or not consistent."""
        try:
            got = arrayfile.unpack_with_header(path, MAGIC, STAMP)
            return _checked(cls, got[0]) if got is not None else None
        except (OSError, ValueError, KeyError, TypeError, UnicodeDecodeError):
            return None

    # -- asking -------------------------------------------------------------------------------

    def covering_key(self, key: str, row_pos: np.ndarray) -> int:
        """The least position (``row_pos[row]``, -1: not a current fact) of a row with a text
        key containing ``key``; ``NOWHERE`` if none."""
        best = NOWHERE
        if not key:
            return best
        keys, starts = self.keys, self.key_start
        found = keys.find(key)
        while found >= 0:
            k = int(np.searchsorted(starts, found, side="right")) - 1
            where = int(row_pos[self.key_row[k]])
            if 0 <= where < best:
                best = where
            found = keys.find(key, int(starts[k + 1]))  # the next key text
        return best

    def covering_phrase(
        self, norm: str, tokens: frozenset[str], row_pos: np.ndarray, limit: int = NOWHERE
    ) -> int:
        """The least position below ``limit`` of a row with a piece that shares a token with
        the statement (``norm``, ``tokens``) and overlaps it; ``limit`` if none."""
        ids = [self.vocab[t] for t in tokens if t in self.vocab]
        if not norm or not ids:
            return limit
        off = self.tok_off
        held = np.concatenate([self.tok_pieces[off[i] : off[i + 1]] for i in ids])
        shared_all = np.bincount(held, minlength=len(self.piece_row))
        cand = np.flatnonzero(shared_all)
        pos = row_pos[self.piece_row[cand]]
        live = (pos >= 0) & (pos < limit)
        cand, pos = cand[live], pos[live]
        if not len(cand):
            return limit
        best = limit
        la, ta = len(norm), len(tokens)
        lb = self.norm_start[cand + 1] - self.norm_start[cand] - 1
        if ta >= MIN_TOKENS:  # rule 4: enough shared tokens, lengths not too far apart
            shared, ntok = shared_all[cand], self.piece_ntok[cand]
            rule4 = (
                (np.maximum(lb, la) <= MAX_LENGTH_RATIO * np.minimum(lb, la))
                & (ntok >= MIN_TOKENS)
                & (shared >= MIN_SHARED)
                & (shared * 3 >= np.minimum(ntok, ta) * 2)
            )
            if rule4.any():
                best = min(best, int(pos[rule4].min()))
        if la >= MIN_CONTAINMENT_CHARS:  # rules 1–2: the statement inside a phrase
            best = min(best, self._containing(norm, shared_all, row_pos, best))
        # rule 2: a (shorter) phrase inside the statement; every piece is >= 4 characters
        shorter = np.flatnonzero((lb < la) & (pos < best))
        if len(shorter):
            order = shorter[np.argsort(pos[shorter], kind="stable")]
            starts, norms = self.norm_start, self.norms
            for j, p, n in zip(
                order.tolist(), cand[order].tolist(), lb[order].tolist(), strict=True
            ):
                s = int(starts[p])
                if norms[s : s + n] in norm:
                    best = min(best, int(pos[j]))
                    break
        return best

    def _containing(
        self, norm: str, shared_all: np.ndarray, row_pos: np.ndarray, limit: int
    ) -> int:
        best = limit
        norms, starts = self.norms, self.norm_start
        found = norms.find(norm)
        while found >= 0:
            p = int(np.searchsorted(starts, found, side="right")) - 1
            if shared_all[p]:
                where = int(row_pos[self.piece_row[p]])
                if 0 <= where < best:
                    best = where
            found = norms.find(norm, int(starts[p + 1]))  # the next piece
        return best


def stable_order(keys: np.ndarray) -> np.ndarray:
    """``np.argsort(keys, kind="stable")`` for non-negative integers: under 2**32 as two
    16-bit radix passes (numpy sorts 16-bit keys by counting, in linear time), about three
    times faster on the three million postings of a 20,000-fact index."""
    if len(keys) == 0 or int(keys.max()) >= 1 << 32 or int(keys.min()) < 0:
        return np.argsort(keys, kind="stable")
    low = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    return low[np.argsort((keys[low] >> 16).astype(np.uint16), kind="stable")]


class _Parts:
    """The columns of an index being built: rows kept from an old one, then new entries."""

    def __init__(self) -> None:
        self.digests: list[np.ndarray] = []
        self.piece_row: list[np.ndarray] = []
        self.piece_ntok: list[np.ndarray] = []
        self.norms: list[str] = []
        self.key_row: list[np.ndarray] = []
        self.keys: list[str] = []
        self.tokens: list[str] = []
        self.vocab: dict[str, int] = {}
        self.post_tok: list[np.ndarray] = []
        self.post_piece: list[np.ndarray] = []
        self.rows = 0
        self.pieces = 0
        # the entries added one by one
        self._digests: list[bytes] = []
        self._piece_row: list[int] = []
        self._piece_ntok: list[int] = []
        self._key_row: list[int] = []
        self._tok: list[int] = []

    def take(self, old: PhraseIndex, keep_rows: np.ndarray) -> None:
        keep_rows = np.asarray(keep_rows, dtype=bool)
        new_row = np.cumsum(keep_rows) - 1
        keep_piece = keep_rows[old.piece_row]
        new_piece = np.cumsum(keep_piece) - 1
        self.digests.append(old.digests[keep_rows])
        self.piece_row.append(new_row[old.piece_row[keep_piece]].astype(np.int32))
        self.piece_ntok.append(old.piece_ntok[keep_piece].astype(np.int32))
        self.norms.extend(_slices(old.norms, old.norm_start, keep_piece))
        keep_key = keep_rows[old.key_row]
        self.key_row.append(new_row[old.key_row[keep_key]].astype(np.int32))
        self.keys.extend(_slices(old.keys, old.key_start, keep_key))
        tok_of = np.repeat(np.arange(len(old.tokens), dtype=np.int64), np.diff(old.tok_off))
        kept = keep_piece[old.tok_pieces]
        self.tokens = list(old.tokens)
        self.vocab = dict(old.vocab)
        self.post_tok.append(tok_of[kept])
        self.post_piece.append(new_piece[old.tok_pieces[kept]])
        self.rows = int(keep_rows.sum())
        self.pieces = int(keep_piece.sum())

    def add(self, entry: Entry) -> None:
        # per token one ``setdefault`` in a comprehension: a 20,000-fact index adds about
        # three million (token, phrase) pairs; each phrase's own number is implied by
        # ``_piece_ntok`` (``finish`` repeats it), and a new token's number is the size of
        # the vocabulary before it (``finish`` reads the new tokens back from it, in order)
        digest, keys, pieces = entry
        row = self.rows
        self.rows += 1
        self._digests.append(digest)
        self._key_row.extend([row] * len(keys))
        self.keys.extend(keys)
        vocab = self.vocab
        known = vocab.setdefault
        self.pieces += len(pieces)
        self._piece_row.extend([row] * len(pieces))
        ntok, norms, tok = self._piece_ntok, self.norms, self._tok
        for norm, toks in pieces:
            ntok.append(len(toks))
            norms.append(norm)
            tok.extend([known(t, len(vocab)) for t in toks])

    def finish(self, cls: type[PhraseIndex]) -> PhraseIndex:
        def ints(chunks: list[np.ndarray], tail: list[int], dtype: Any) -> np.ndarray:
            return np.concatenate([*chunks, np.asarray(tail, dtype=dtype)]).astype(dtype)

        added = np.frombuffer(b"".join(self._digests), dtype=np.uint8).reshape(-1, 16)
        digests = np.concatenate([*self.digests, added]) if self.digests else added
        post_tok = ints(self.post_tok, self._tok, np.int64)
        first_new = self.pieces - len(self._piece_ntok)
        new_pieces = np.repeat(
            np.arange(first_new, self.pieces, dtype=np.int64),
            np.asarray(self._piece_ntok, dtype=np.int64),
        )
        post_piece = np.concatenate([*self.post_piece, new_pieces]).astype(np.int64)
        # every token by its number: those kept from an old index, then the new ones in the
        # order ``add`` numbered them (the vocabulary's insertion order)
        all_tokens = self.tokens + list(self.vocab)[len(self.tokens) :]
        # drop the tokens no piece holds any more, then sort the postings by token
        used = np.bincount(post_tok, minlength=len(all_tokens)) > 0
        renumber = np.cumsum(used) - 1
        tokens = [t for t, u in zip(all_tokens, used.tolist(), strict=True) if u]
        post_tok = renumber[post_tok]
        order = stable_order(post_tok)
        counts = np.bincount(post_tok, minlength=len(tokens))
        tok_off = np.zeros(len(tokens) + 1, dtype=np.int64)
        np.cumsum(counts, out=tok_off[1:])
        norms, norm_start = _joined(self.norms)
        keys, key_start = _joined(self.keys)
        return cls(
            digests=np.ascontiguousarray(digests, dtype=np.uint8),
            piece_row=ints(self.piece_row, self._piece_row, np.int32),
            piece_ntok=ints(self.piece_ntok, self._piece_ntok, np.int32),
            norm_start=norm_start,
            norms=norms,
            key_row=ints(self.key_row, self._key_row, np.int32),
            key_start=key_start,
            keys=keys,
            tokens=tokens,
            vocab={t: i for i, t in enumerate(tokens)},
            tok_off=tok_off,
            tok_pieces=post_piece[order].astype(np.int32),
        )


def _text(arr: np.ndarray) -> str:
    return str(memoryview(arr).cast("B"), "utf-8", "surrogatepass")  # type: ignore[arg-type]


def _monotonic(starts: np.ndarray, end: int) -> bool:
    return bool(
        starts.ndim == 1
        and len(starts) >= 1
        and int(starts[0]) == 0
        and int(starts[-1]) == end
        and not np.any(np.diff(starts) < 1)
    )


def _within(values: np.ndarray, count: int) -> bool:
    return values.ndim == 1 and (
        not len(values) or (int(values.min()) >= 0 and int(values.max()) < count)
    )


def _checked(cls: type[PhraseIndex], z: dict[str, np.ndarray]) -> PhraseIndex | None:
    """The arrays as an index, if every column fits the others; else None."""
    digests = z["digests"]
    if digests.dtype != np.uint8 or digests.ndim != 2 or digests.shape[1] != 16:
        return None
    rows = len(digests)
    if rows and len(np.unique(digests.view(np.dtype((np.void, 16))).ravel())) != rows:
        return None  # a fact's row twice: one of them could never be placed
    norms, keys = _text(z["norms"]), _text(z["keys"])
    blob = _text(z["tokens"])
    tokens = blob.split("\x00") if blob else []
    piece_row, piece_ntok = z["piece_row"], z["piece_ntok"]
    norm_start, key_start, key_row = z["norm_start"], z["key_start"], z["key_row"]
    tok_off, tok_pieces = z["tok_off"], z["tok_pieces"]
    pieces = len(piece_row)
    columns = (piece_row, piece_ntok, norm_start, key_start, key_row, tok_off, tok_pieces)
    if any(c.ndim != 1 for c in columns):
        return None
    if not (
        piece_row.dtype == piece_ntok.dtype == key_row.dtype == tok_pieces.dtype == np.int32
        and norm_start.dtype == key_start.dtype == tok_off.dtype == np.int64
        and len(piece_ntok) == pieces
        and len(norm_start) == pieces + 1
        and len(key_start) == len(key_row) + 1
        and len(tok_off) == len(tokens) + 1
        and _monotonic(norm_start, len(norms))
        and _monotonic(key_start, len(keys))
        and (len(tokens) == 0 or _monotonic(tok_off, len(tok_pieces)))
        and _within(piece_row, rows)
        and _within(key_row, rows)
        and _within(tok_pieces, pieces)
    ):
        return None
    return cls(
        digests=digests,
        piece_row=piece_row,
        piece_ntok=piece_ntok,
        norm_start=norm_start,
        norms=norms,
        key_row=key_row,
        key_start=key_start,
        keys=keys,
        tokens=tokens,
        vocab={t: i for i, t in enumerate(tokens)},
        tok_off=tok_off,
        tok_pieces=tok_pieces,
    )
