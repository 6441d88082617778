"""A derived copy of the parsed bilingual vocabulary, so a cold process need not parse it.

Parsing ``data/bilingual.tsv`` (``vocab.parse``: 2,600 forms normalised, split, stemmed) costs
a cold per-turn process about 15 ms, on every turn. The parsed value is written once to
``recall-vocab.bin`` under the cache root (``paths.cache_root``; 0600 in a 0700 folder) and
read back by the next process in a few milliseconds.

The file is used only when its ``key`` is the key of what would be parsed now: a blake2b
digest of the vocabulary file's bytes and of the source files of the modules whose code
decides the parse (``vocab``, ``tokenize``, ``stem``), the Python version and the Unicode
database version (normalisation). The payload is ``marshal``'s form of the parts (the same
Python reads back what it wrote, several times faster than JSON) behind a magic and a blake2b
digest of it, and is assembled only when every part has the expected shape. Any difference,
or an unreadable, damaged or malformed file, and the text is parsed as before (and the file
written again). It is derived data: deleting it only costs the next process the parse.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import sys
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from context_center.engine.recall.vocab import Vocabulary

FORMAT = 2  # 1: JSON (recall-vocab.json)
FILE_NAME = "recall-vocab.bin"
OLD_FILE_NAME = "recall-vocab.json"


def cache_file() -> Path:
    from context_center.engine.store.paths import cache_root

    return cache_root() / FILE_NAME


def key_of(data: bytes, modules: tuple[ModuleType, ...]) -> str | None:
    """The digest a cached parse of ``data`` must carry; None when a module's source cannot
    be read (then nothing is cached)."""
    digest = hashlib.blake2b(digest_size=20)
    digest.update(f"{FORMAT}\0{sys.version}\0{unicodedata.unidata_version}\0".encode())
    digest.update(len(data).to_bytes(8, "little"))
    digest.update(data)
    for module in modules:
        path = getattr(module, "__file__", None)
        if not path or not path.endswith(".py"):
            return None
        try:
            source = Path(path).read_bytes()
        except OSError:
            return None
        digest.update(f"\0{module.__name__}\0{len(source)}\0".encode())
        digest.update(source)
    return digest.hexdigest()


# What a copy holds, in the shapes ``vocab.assemble`` builds a ``Vocabulary`` from (this
# module builds no object of ``vocab``'s, which imports it): each group's forms as
# (text, terms, cjk), the stemmed word sequences and the Chinese forms with their groups,
# and each group's columns as written.
FormParts = tuple[str, tuple[str, ...], bool]
Parts = tuple[
    tuple[tuple[FormParts, ...], ...],
    dict[tuple[str, ...], tuple[int, ...]],
    dict[str, tuple[int, ...]],
    tuple[tuple[tuple[str, ...], tuple[str, ...]], ...],
]

MAGIC = b"ccvocab" + bytes([FORMAT])
_DIGEST = 16


def encode(vocab: Vocabulary, key: str) -> bytes:
    """The cache file's bytes: a magic, a digest of the payload and the payload, the parts in
    ``marshal``'s form (a few times faster to read back than JSON, and the key pins the
    Python that wrote it)."""
    parts: Parts = (
        tuple(
            tuple((f.text, tuple(f.terms), bool(f.cjk)) for f in group) for group in vocab.groups
        ),
        {tuple(k): tuple(v) for k, v in vocab.by_words.items()},
        {k: tuple(v) for k, v in vocab.by_cjk.items()},
        tuple((tuple(en), tuple(zh)) for en, zh in vocab.columns),
    )
    payload = marshal.dumps((key, parts))
    return MAGIC + hashlib.blake2b(payload, digest_size=_DIGEST).digest() + payload


def _well_formed(parts: Any) -> bool:
    """Whether ``parts`` has the four containers ``vocab.assemble`` takes. What they hold is
    what ``encode`` wrote: the digest and the key say the payload is the copy this module
    wrote for this very vocabulary, parse and Python (a check of every form would cost half
    of what reading the copy saves)."""
    return (
        type(parts) is tuple
        and len(parts) == 4
        and tuple(map(type, parts)) == (tuple, dict, dict, tuple)
    )


def decode(raw: bytes, key: str) -> Parts | None:
    """The vocabulary's parts in ``raw``, or None when it is not a copy for ``key``."""
    head = len(MAGIC) + _DIGEST
    if len(raw) <= head or raw[: len(MAGIC)] != MAGIC:
        return None
    payload = raw[head:]
    if hashlib.blake2b(payload, digest_size=_DIGEST).digest() != raw[len(MAGIC) : head]:
        return None  # damaged: parse instead
    try:
        value: Any = marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return None
    if type(value) is not tuple or len(value) != 2 or value[0] != key:
        return None
    parts = value[1]
    return parts if _well_formed(parts) else None


def load(key: str) -> Parts | None:
    """The cached vocabulary's parts for ``key``, if the cache file holds them."""
    from context_center.engine.store.cachedirs import read_derived

    raw = read_derived(cache_file())
    return None if raw is None else decode(raw, key)


def save(vocab: Vocabulary, key: str) -> None:
    """Write the cache file (quietly: failing to only costs the next process the parse)."""
    from context_center.engine.store.cachedirs import write_derived

    path = cache_file()
    write_derived(path, encode(vocab, key))
    with contextlib.suppress(OSError):  # the JSON copy of format 1
        (path.parent / OLD_FILE_NAME).unlink(missing_ok=True)
