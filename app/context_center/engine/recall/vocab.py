"""The shipped English <-> Chinese developer vocabulary (``data/bilingual.tsv``) as lookups.

Each line of the file is a group of equivalent surface forms (``deploy|deployment`` TAB
``部署|上线|发布``). A form is stored as the index terms it searches: English forms as stemmed
words (common words dropped, ``on-call`` -> ``call`` is *not* what happens: the phrase keeps
its word sequence for detection in a message and searches its non-common words), Chinese forms
as their character bigrams, all of which must be present. A message word or phrase that is a
form of a group expands to the group's other forms (see ``terms.py``).

Loaded once per process, lazily (about 900 lines): from the parsed copy a previous process
left under the cache root when that copy is exactly what would be parsed now
(``vocabcache.py``), else parsed (about 15 ms) and that copy written.
"""

from __future__ import annotations

import os
import sys
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from context_center.engine.recall.stem import stem
from context_center.engine.recall.tokenize import WORD_OR_CJK_RUN as _PART
from context_center.engine.recall.tokenize import cjk_pieces, is_cjk, is_common

if TYPE_CHECKING:
    from context_center.engine.recall import vocabcache

DATA_FILE = "bilingual.tsv"
# A Chinese form shorter than this is never looked up in a message (one character is too
# ambiguous); longer forms are matched as substrings of a CJK run.
MIN_CJK_FORM = 2
MAX_CJK_FORM = 8
MAX_PHRASE_WORDS = 4


@dataclass(frozen=True, slots=True)
class Form:
    """One surface form: how it is written and the index terms that must all be present."""

    text: str
    terms: tuple[str, ...]
    cjk: bool


@dataclass(frozen=True, slots=True)
class Vocabulary:
    groups: tuple[tuple[Form, ...], ...]
    by_words: dict[tuple[str, ...], tuple[int, ...]]  # stemmed word sequence -> groups
    by_cjk: dict[str, tuple[int, ...]]  # a Chinese form -> groups
    first_words: frozenset[str]  # first stems of every English phrase
    # each group's (English forms, Chinese forms) as written: ``pairs`` counts from them
    columns: tuple[tuple[tuple[str, ...], tuple[str, ...]], ...] = field(
        default=(), repr=False, compare=False
    )

    @property
    def pairs(self) -> int:
        """(English form, Chinese form) pairs, for the record (counted when asked: a recall
        turn never asks)."""
        found: set[tuple[str, str]] = set()
        for english, chinese in self.columns:
            found.update(_pairs(english, chinese))
        return len(found)

    def forms(self, group_ids: tuple[int, ...]) -> list[Form]:
        seen: dict[tuple[str, ...], Form] = {}
        for g in group_ids:
            for f in self.groups[g]:
                seen.setdefault(f.terms, f)
        return list(seen.values())


def _norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip().lower()


def form_of(text: str) -> tuple[Form, tuple[str, ...]] | None:
    """The form and, for an all-English form, its full stemmed word sequence (for detection;
    empty for Chinese or mixed forms). None for a form that searches nothing."""
    low = _norm(text)
    terms: list[str] = []
    words: list[str] = []
    only_words = True
    for m in _PART.finditer(low):
        piece = m.group()
        if m.lastgroup == "cjk":
            only_words = False
            terms.extend(cjk_pieces(piece))
        else:
            word = stem(piece)
            words.append(word)
            if not is_common(piece):
                terms.append(word)
    cjk = is_cjk(low)
    if not terms or (cjk and len(low) < MIN_CJK_FORM):
        return None  # one Chinese character is too ambiguous to search for
    return Form(low, tuple(dict.fromkeys(terms)), cjk), (tuple(words) if only_words else ())


def _pairs(english: tuple[str, ...], chinese: tuple[str, ...]) -> set[tuple[str, str]]:
    """(English form, Chinese form) pairs of one line (Latin forms in column two excluded)."""
    return {
        (_norm(e), _norm(z))
        for e in english
        for z in chinese
        if any("\u4e00" <= ch <= "\u9fff" for ch in z)
    }


def parse(text: str) -> Vocabulary:
    groups: list[tuple[Form, ...]] = []
    by_words: dict[tuple[str, ...], list[int]] = {}
    by_cjk: dict[str, list[int]] = {}
    columns: list[tuple[tuple[str, ...], tuple[str, ...]]] = []
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#") or "\t" not in raw:
            continue
        left, _, right = raw.partition("\t")
        forms: list[Form] = []
        gid = len(groups)
        english = tuple(p for p in (s.strip() for s in left.split("|")) if p)
        chinese = tuple(p for p in (s.strip() for s in right.split("|")) if p)
        for surface in [*english, *chinese]:
            parsed = form_of(surface)
            if parsed is None:
                continue
            form, words = parsed
            forms.append(form)
            if words and len(words) <= MAX_PHRASE_WORDS:
                by_words.setdefault(words, []).append(gid)
            elif form.cjk and MIN_CJK_FORM <= len(form.text) <= MAX_CJK_FORM:
                by_cjk.setdefault(form.text, []).append(gid)
        if len(forms) < 2:
            continue
        groups.append(tuple(forms))
        columns.append((english, chinese))
    return Vocabulary(
        groups=tuple(groups),
        by_words={k: tuple(dict.fromkeys(v)) for k, v in by_words.items()},
        by_cjk={k: tuple(dict.fromkeys(v)) for k, v in by_cjk.items()},
        first_words=frozenset(k[0] for k in by_words),
        columns=tuple(columns),
    )


def package_data(name: str) -> bytes:
    """The bytes of ``recall/data/<name>``, through this package's loader (as
    ``pkgutil.get_data`` reads them; ``importlib.resources`` costs a cold process some
    milliseconds to import and set up)."""
    loader = __spec__.loader
    path = os.path.join(os.path.dirname(__file__), "data", name)
    get_data = getattr(loader, "get_data", None)
    if get_data is not None:
        try:
            data: bytes = get_data(path)
            return data
        except OSError:  # a loader that keeps data elsewhere (a frozen bundle): ask it below
            pass
    from importlib import resources

    return resources.files(__package__).joinpath("data", name).read_bytes()


def _text(data: bytes) -> str:
    text = data.decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def package_text(name: str) -> str:
    """``recall/data/<name>`` as text, as ``read_text(encoding="utf-8")`` gives it (UTF-8,
    universal newlines)."""
    return _text(package_data(name))


def assemble(parts: vocabcache.Parts) -> Vocabulary:
    """The vocabulary a derived copy describes (``vocabcache.decode``)."""
    groups, by_words, by_cjk, columns = parts
    return Vocabulary(
        groups=tuple(tuple(Form(*f) for f in group) for group in groups),
        by_words=by_words,
        by_cjk=by_cjk,
        first_words=frozenset(k[0] for k in by_words),
        columns=columns,
    )


@lru_cache(maxsize=1)
def vocabulary() -> Vocabulary:
    """The shipped vocabulary (package data ``recall/data/bilingual.tsv``)."""
    from context_center.engine.recall import stem as stem_module
    from context_center.engine.recall import tokenize, vocabcache

    data = package_data(DATA_FILE)
    key = vocabcache.key_of(data, (sys.modules[__name__], tokenize, stem_module))
    if key is not None:
        cached = vocabcache.load(key)
        if cached is not None:
            return assemble(cached)
    vocab = parse(_text(data))
    if key is not None:
        vocabcache.save(vocab, key)
    return vocab
