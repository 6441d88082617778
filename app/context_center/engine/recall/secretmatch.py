"""A match that lies only inside a secret does not count.

Fact text is indexed as written, so a secret the gate did not catch at write time (a password
stated in a body) is a searchable term. Showing that it matched — a hit for `hunter2`, or a
recall reason "matched … hunter2" — would tell a model the secret's value even though the
snippet withholds it. So a match whose every occurrence in the fact falls inside a span the
provider-visible sanitizer withholds is dropped, and a fact matched only that way is no hit.
The spans are a property of the fact's text, found once per change: the recall index scans
each fact it adds (``withheld``) and keeps the spans per row, in its cache too, stamped with
``signature()`` -- the files of the code that decides them -- so a cached row is trusted only
by the same scanner. A row whose spans the index does not know (a cache written before they
were kept, or by another scanner) is scanned when it first reaches the output, and the
answer is kept under the digest of exactly the text scanned (``digest.index_text``, a
bounded memo), so a text edited in place, even at the same revision, is scanned again.
"""

from __future__ import annotations

import hashlib
import os
import re
import sys
from collections import OrderedDict
from threading import Lock
from typing import TYPE_CHECKING, Protocol, TypeVar

import numpy as np

from context_center.engine.recall.digest import content_digest, index_text

if TYPE_CHECKING:
    from context_center.engine.model import Fact


class _Find(Protocol):
    @property
    def find(self) -> str: ...


F = TypeVar("F", bound=_Find)

Spans = tuple[tuple[int, int], ...]
_CACHE: OrderedDict[bytes, tuple[str, Spans]] = OrderedDict()
_CACHE_SIZE = 4096
_LOCK = Lock()
_NONE: Spans = ()


def withheld(text: str) -> Spans:
    """The (start, end) spans of ``text`` the provider-visible sanitizer withholds."""
    if not text:
        return _NONE
    signature()  # taken before the scanner is first loaded: it describes the code that runs
    from context_center.engine.gate.secrets import find_sensitive
    from context_center.engine.gate.visible import KEPT_KINDS

    found = tuple((s.start, s.end) for s in find_sensitive(text) if s.kind not in KEPT_KINDS)
    return found or _NONE


_SIGNATURE: list[bytes | None] = []


def signature() -> bytes | None:
    """What decides ``withheld``'s answer, as a digest: the Python and Unicode versions and
    the name, size and modification time of every source file of the secret scan (this
    package's ``gate/secrets``, ``gate/visible.py`` and this module, detect-secrets' plugins), as the
    interpreter's own bytecode cache tells a changed source (a few stats, well under a
    millisecond). Taken once per process (the code that scans is the code loaded); None when
    a file cannot be found or read, and then no kept span is trusted."""
    if not _SIGNATURE:
        _SIGNATURE.append(_signature())
    return _SIGNATURE[0]


def _signature() -> bytes | None:
    import unicodedata

    here = os.path.abspath(__file__)
    gate = os.path.join(os.path.dirname(os.path.dirname(here)), "gate")
    ours = _sources(os.path.join(gate, "secrets"), os.path.join(gate, "visible.py"), here)
    theirs = _detect_secrets_dir()
    if ours is None or theirs is None:
        return None
    plugins = _sources(os.path.join(theirs, "plugins"), os.path.join(theirs, "__init__.py"))
    if plugins is None:
        return None
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{sys.version}\0{unicodedata.unidata_version}\0".encode())
    for name, size, mtime in (*ours, *plugins):
        digest.update(f"{name}\0{size}\0{mtime}\0".encode())
    return digest.digest()


def _sources(folder: str, *also: str) -> list[tuple[str, int, int]] | None:
    """(name, size, mtime_ns) of each of ``also`` and of every ``.py`` file in ``folder``, in
    name order; None when one cannot be read or the folder has none."""
    try:
        named = [(os.path.basename(path), os.stat(path)) for path in also]
        with os.scandir(folder) as entries:
            found = sorted(
                (e.name, e.stat()) for e in entries if e.name.endswith(".py") and e.is_file()
            )
    except OSError:
        return None
    if not found:
        return None
    return [(name, st.st_size, st.st_mtime_ns) for name, st in (*named, *found)]


def _detect_secrets_dir() -> str | None:
    """Where detect-secrets is installed (its plugins' patterns are scanned with), found
    without importing it."""
    from importlib.util import find_spec

    try:
        spec = find_spec("detect_secrets")
    except (ImportError, ValueError):
        return None
    origin = spec.origin if spec is not None else None
    return os.path.dirname(origin) if origin else None


def _kept_shapes(
    n: int, known: np.ndarray, rows: np.ndarray, off: np.ndarray, spans: np.ndarray, sig: np.ndarray
) -> bool:
    return (
        known.shape == (n,)
        and known.dtype == np.uint8
        and rows.ndim == 1
        and rows.dtype == np.uint32
        and off.ndim == 1
        and off.dtype == np.int64
        and off.shape == (len(rows) + 1,)
        and spans.ndim == 2
        and spans.dtype == np.int64
        and spans.shape[1] == 2
        and sig.ndim == 1
        and sig.dtype == np.uint8
    )


def _kept_values(
    n: int, known: np.ndarray, rows: np.ndarray, off: np.ndarray, spans: np.ndarray
) -> bool:
    """Offsets that cut ``spans`` into one non-empty run per row of ``rows`` (ascending
    rows under ``n``, exactly those ``known`` marks 2), and spans that are (start, end) with
    0 <= start < end."""
    if int(off[0]) != 0 or int(off[-1]) != len(spans) or bool(np.any(np.diff(off) < 1)):
        return False
    if bool(np.any(known > 2)) or int(np.count_nonzero(known == 2)) != len(rows):
        return False
    if len(rows) and (
        int(rows.max()) >= n
        or bool(np.any(np.diff(rows.astype(np.int64)) < 1))
        or not bool(np.all(known[rows] == 2))
    ):
        return False
    return not len(spans) or bool(np.all((spans[:, 0] >= 0) & (spans[:, 1] > spans[:, 0])))


class Kept:
    """Withheld spans of many texts as four arrays (the recall cache's form), found by the
    scanner whose ``signature()`` is ``sig``: per row ``known`` (0 not known, 1 none, 2
    some), the ascending ``rows`` that have spans and, for ``rows[i]``, the (start, end)
    pairs ``spans[off[i]:off[i + 1]]``."""

    __slots__ = ("known", "off", "rows", "sig", "spans")

    def __init__(
        self, known: np.ndarray, rows: np.ndarray, off: np.ndarray, spans: np.ndarray, sig: bytes
    ) -> None:
        self.known, self.rows, self.off, self.spans, self.sig = known, rows, off, spans, sig

    @classmethod
    def of(cls, n: int, items: dict[str, np.ndarray]) -> Kept | None:
        """The arrays named ``kept_*`` in ``items`` if they are well formed for ``n`` rows."""
        known, rows = items.get("kept_known"), items.get("kept_rows")
        off, spans, sig = items.get("kept_off"), items.get("kept_spans"), items.get("kept_sig")
        if known is None or rows is None or off is None or spans is None or sig is None:
            return None
        if not _kept_shapes(n, known, rows, off, spans, sig) or not _kept_values(
            n, known, rows, off, spans
        ):
            return None
        return cls(known, rows, off, spans, bytes(sig.tobytes()))

    @staticmethod
    def arrays(items: list[Spans | None], sig: bytes) -> dict[str, np.ndarray]:
        """The ``kept_*`` arrays of one span list per row (None: not known)."""
        known = np.zeros(len(items), dtype=np.uint8)
        rows: list[int] = []
        off = [0]
        flat: list[int] = []
        for row, spans in enumerate(items):
            if spans is None:
                continue
            if not spans:
                known[row] = 1
                continue
            known[row] = 2
            rows.append(row)
            for start, end in spans:
                flat += (start, end)
            off.append(len(flat) // 2)
        return {
            "kept_known": known,
            "kept_rows": np.asarray(rows, dtype=np.uint32),
            "kept_off": np.asarray(off, dtype=np.int64),
            "kept_spans": np.asarray(flat, dtype=np.int64).reshape(-1, 2),
            "kept_sig": np.frombuffer(sig, dtype=np.uint8).copy(),
        }

    def spans_of(self, row: int) -> Spans | None:
        """Row ``row``'s spans; None when not known, or found by another scanner."""
        state = int(self.known[row])
        if state == 0 or self.sig != signature():
            return None
        if state == 1:
            return _NONE
        i = int(np.searchsorted(self.rows, row))
        part = self.spans[int(self.off[i]) : int(self.off[i + 1])].tolist()
        return tuple((int(a), int(b)) for a, b in part)


def _spans(fact: Fact, digest: bytes | None = None) -> tuple[str, Spans]:
    """The fact's text and its withheld spans; ``digest``: ``content_digest(fact)`` when the
    caller knows it (the recall index keeps it per ordinal)."""
    key = digest if digest is not None else content_digest(fact)
    with _LOCK:
        hit = _CACHE.get(key)
        if hit is not None:
            _CACHE.move_to_end(key)
            return hit
    text = index_text(fact)
    value = (text, withheld(text))
    with _LOCK:
        _CACHE[key] = value
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return value


def spans_of(fact: Fact, digest: bytes | None = None) -> Spans:
    """``fact``'s withheld spans, through the memo (``digest``: its ``content_digest``)."""
    return _spans(fact, digest)[1]


def secret_only(fact: Fact, find: str, digest: bytes | None = None) -> bool:
    """True when ``find`` occurs in the fact only inside withheld spans. ``digest``: the
    fact's ``content_digest`` if known (saves hashing its text)."""
    if not find:
        return False
    text, spans = _spans(fact, digest)
    return bool(spans) and _inside(text, spans, find)


def shown(
    fact: Fact, finds: list[F], digest: bytes | None = None, known: Spans | None = None
) -> list[F]:
    """The items of ``finds`` (each with a ``find``) for which ``secret_only`` is False, in
    order; the fact's spans are looked up once (``secret_only`` per item, in one call).
    ``known``: the spans ``withheld`` found in the fact's ``index_text`` when the caller
    keeps them (the recall index); else they are found here."""
    if not any(f.find for f in finds):
        return list(finds)
    if known is not None:
        if not known:
            return list(finds)
        text, spans = index_text(fact), known
        if max(end for _, end in spans) > len(text):  # not this text's: find them again
            text, spans = _spans(fact, digest)
    else:
        text, spans = _spans(fact, digest)
    if not spans:
        return list(finds)
    return [f for f in finds if not (f.find and _inside(text, spans, f.find))]


def _inside(text: str, spans: Spans, find: str) -> bool:
    """``find`` occurs in ``text``, every time inside one of ``spans``."""
    seen = False
    for m in re.finditer(re.escape(find), text, re.IGNORECASE):
        seen = True
        if not any(start <= m.start() and m.end() <= end for start, end in spans):
            return False
    return seen
