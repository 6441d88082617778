"""A derived copy of the parsed bilingual vocabulary, so a cold process need not parse it.

Parsing ``data/bilingual.tsv`` (``vocab.parse``: 2,600 forms normalised, split, stemmed) costs
a cold per-turn process about 15 ms, on every turn. The parsed value is written once to
``recall-vocab.json`` under the cache root (``paths.cache_root``; 0600 in a 0700 folder) and
read back by the next process in a few milliseconds.

The file is used only when its ``key`` is the key of what would be parsed now: a blake2b
digest of the vocabulary file's bytes and of the source files of the modules whose code
decides the parse (``vocab``, ``tokenize``, ``stem``), the Python version and the Unicode
database version (normalisation). Any difference, or an unreadable or malformed file, and the
text is parsed as before (and the file written again). It is derived data: deleting it only
costs the next process the parse.
"""

from __future__ import annotations

import hashlib
import json
import sys
import unicodedata
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from context_center.engine.recall.vocab import Vocabulary

FORMAT = 1
FILE_NAME = "recall-vocab.json"


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


def _joinable(parts: tuple[str, ...]) -> bool:
    return all(p and " " not in p for p in parts)


def encode(vocab: Vocabulary, key: str) -> bytes | None:
    """The cache file's bytes: flat lists (a form's terms, a word sequence and a list of
    group numbers joined by spaces), which read back several times faster than nested
    ones. None when a term or word holds a space (none does: they are word runs, stems and
    CJK pairs), so that joining could not be undone."""
    forms: list[object] = []
    for group in vocab.groups:
        for f in group:
            if not _joinable(f.terms):
                return None
            forms.extend((f.text, " ".join(f.terms), int(f.cjk)))
    words: list[str] = []
    for seq, ids in vocab.by_words.items():
        if not _joinable(seq):
            return None
        words.extend((" ".join(seq), " ".join(map(str, ids))))
    cjk = [x for text, ids in vocab.by_cjk.items() for x in (text, " ".join(map(str, ids)))]
    value = {
        "format": FORMAT,
        "key": key,
        "forms": forms,
        "sizes": [len(group) for group in vocab.groups],
        "by_words": words,
        "by_cjk": cjk,
        "columns": [[list(en), list(zh)] for en, zh in vocab.columns],
    }
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def _ids(text: str) -> tuple[int, ...]:
    return tuple(map(int, text.split(" ")))


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


def decode(raw: bytes, key: str) -> Parts | None:
    """The vocabulary's parts in ``raw``, or None when it is not a copy for ``key``."""
    try:
        value: Any = json.loads(raw)
        if value.get("format") != FORMAT or value.get("key") != key:
            return None
        flat, sizes = value["forms"], value["sizes"]
        forms: list[FormParts] = [
            (flat[i], tuple(flat[i + 1].split(" ")), flat[i + 2] == 1)
            for i in range(0, len(flat), 3)
        ]
        groups = []
        at = 0
        for size in sizes:
            groups.append(tuple(forms[at : at + size]))
            at += size
        words, cjk = value["by_words"], value["by_cjk"]
        by_words = {tuple(words[i].split(" ")): _ids(words[i + 1]) for i in range(0, len(words), 2)}
        by_cjk = {cjk[i]: _ids(cjk[i + 1]) for i in range(0, len(cjk), 2)}
        columns = tuple((tuple(en), tuple(zh)) for en, zh in value["columns"])
        if not all(isinstance(f[0], str) for f in forms) or at != len(forms):
            return None
    except (ValueError, TypeError, KeyError, AttributeError, IndexError, RecursionError):
        return None  # not a copy this module wrote: parse instead
    return tuple(groups), by_words, by_cjk, columns


def load(key: str) -> Parts | None:
    """The cached vocabulary's parts for ``key``, if the cache file holds them."""
    from context_center.engine.store.cachedirs import read_derived

    raw = read_derived(cache_file())
    return None if raw is None else decode(raw, key)


def save(vocab: Vocabulary, key: str) -> None:
    """Write the cache file (quietly: failing to only costs the next process the parse)."""
    from context_center.engine.store.cachedirs import write_derived

    data = encode(vocab, key)
    if data is not None:
        write_derived(cache_file(), data)
