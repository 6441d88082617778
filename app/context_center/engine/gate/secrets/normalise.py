"""The matching copy of a text and the offset map back to the original.

Matching runs on a normalised copy: each character is NFKC-normalised on its own (full-width
``ｇｈｐ＿`` becomes ``ghp_``, ``：`` becomes ``:``) and every invisible character is dropped —
each Default_Ignorable_Code_Point (``DEFAULT_IGNORABLE_RANGES``: zero-width spaces and joiners,
the soft hyphen, bidi controls, the combining grapheme joiner U+034F, Khmer and Mongolian
invisibles, the Hangul fillers, variation selectors U+FE00-U+FE0F and U+E0100-U+E01EF, tag
characters U+E0000-U+E007F) and every other format character (category Cf) — so a key split by
an invisible character is still one key. Then, inside a run of letters and digits that mixes
ASCII with Cyrillic or Greek, each look-alike letter becomes its Latin twin (``ѕk_livе_`` with
a Cyrillic ``ѕ`` and ``е`` is read as ``sk_live_``); a word wholly in Cyrillic or Greek is left
alone. Pure ASCII input (the common case) skips all of this. Terminal escape sequences and
control characters are taken out last (``without_controls``): a token split by a colour code
is one token.

``View`` generalises the map: a text plus, for each of its characters, the ``[start, end)`` it
stands for in a parent view (or in the original). The obfuscation decoders build views on top
of the normalised one (a percent-decoded copy, a copy with split strings joined, a decoded
base64 run), and ``View.span`` takes a finding in any of them back to the original text.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from context_center.engine import rxcache
from context_center.engine.gate.control import ESCAPE_SEQUENCE
from context_center.engine.gate.secrets.lazy import lazy_compile

# Unicode's Default_Ignorable_Code_Point property (DerivedCoreProperties.txt, Unicode 15.1) as
# inclusive ranges: code points a renderer shows as nothing. Python's ``unicodedata`` does not
# expose the property, and only some of these are category Cf: U+034F, U+17B4/5, U+180B-U+180D,
# U+180F and the variation selectors are Mn; the Hangul fillers U+115F, U+1160, U+3164, U+FFA0
# are Lo; U+2065, U+FFF0-U+FFF8 and most of U+E0000-U+E0FFF are unassigned.
DEFAULT_IGNORABLE_RANGES: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),  # soft hyphen
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x061C, 0x061C),  # Arabic letter mark
    (0x115F, 0x1160),  # Hangul choseong / jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors and vowel separator
    (0x200B, 0x200F),  # zero-width space, ZWNJ, ZWJ, LRM, RLM
    (0x202A, 0x202E),  # bidi embeddings and overrides
    (0x2060, 0x206F),  # word joiner, invisible operators, bidi isolates, deprecated formats
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors 1-16
    (0xFEFF, 0xFEFF),  # zero-width no-break space (BOM)
    (0xFFA0, 0xFFA0),  # half-width Hangul filler
    (0xFFF0, 0xFFF8),  # unassigned
    (0x1BCA0, 0x1BCA3),  # shorthand format controls
    (0x1D173, 0x1D17A),  # musical symbol format controls
    (0xE0000, 0xE0FFF),  # tag characters U+E0000-U+E007F, variation selectors 17-256, unassigned
)
_IGNORABLE_STARTS = [lo for lo, _ in DEFAULT_IGNORABLE_RANGES]

# Cyrillic and Greek letters drawn like a Latin one (Unicode's confusables, the common ones).
_LOOK_ALIKE_PAIRS = (
    # Cyrillic
    "АA ВB ЕE ЅS ІI ЈJ КK МM НH ОO РP СC ТT ХX УY ҮY "
    "аa еe іi јj оo рp сc хx уy ѕs ԁd һh ԛq ԝw үy "
    # Greek
    "ΑA ΒB ΕE ΖZ ΗH ΙI ΚK ΜM ΝN ΟO ΡP ΤT ΥY ΧX οo ιi κk νv ρp τt υu χx"
)
_LOOK_ALIKES = {ord(pair[0]): pair[1] for pair in _LOOK_ALIKE_PAIRS.split()}
_LOOK_ALIKE_CHARS = "".join(chr(cp) for cp in _LOOK_ALIKES)
_HAS_LOOK_ALIKE = rxcache.compile("[" + _LOOK_ALIKE_CHARS + "]")  # 1.6 ms to compile
# A run of letters, digits and the token punctuation ``_-``, any script.
_WORD_RUN = re.compile(r"(?<![\w\-])[\w\-]++")
_ASCII_ALNUM = re.compile(r"[A-Za-z0-9]")


def is_default_ignorable(ch: str) -> bool:
    """Whether ``ch`` is a Default_Ignorable_Code_Point (invisible when rendered)."""
    cp = ord(ch)
    i = bisect_right(_IGNORABLE_STARTS, cp) - 1
    return i >= 0 and cp <= DEFAULT_IGNORABLE_RANGES[i][1]


def _invisible(ch: str) -> bool:
    return is_default_ignorable(ch) or unicodedata.category(ch) == "Cf"


@lru_cache(maxsize=8192)  # a pure function of one character: texts repeat their characters
def _char_replacement(ch: str) -> str:
    """What one character becomes in the matching copy ('' when it is dropped)."""
    if _invisible(ch):
        return ""
    rep = unicodedata.normalize("NFKC", ch)
    # NFKC can itself produce an invisible character (U+3164 HANGUL FILLER becomes U+1160).
    return "".join(c for c in rep if not _invisible(c))


def _fold_look_alikes(text: str) -> str:
    """Latin twins for Cyrillic/Greek look-alikes inside runs that also hold ASCII letters or
    digits (one character for one: the offset map is unchanged)."""
    if not _HAS_LOOK_ALIKE.search(text):
        return text
    parts: list[str] = []
    pos = 0
    for m in _WORD_RUN.finditer(text):
        run = m.group()
        if _HAS_LOOK_ALIKE.search(run) and _ASCII_ALNUM.search(run):
            parts.append(text[pos : m.start()])
            parts.append(run.translate(_LOOK_ALIKES))
            pos = m.end()
    if not parts:
        return text
    parts.append(text[pos:])
    return "".join(parts)


# Characters that stay as they are in the matching copy, by a static test: ASCII, the CJK
# Unified Ideographs and the common CJK and general punctuation NFKC leaves alone (none is
# invisible or a look-alike; tests/engine/gate/test_secret_prefilter.py checks every one). A
# text made only of these is its own matching copy, found without looking at each character.
_PLAIN_CLASS = (
    r"\x00-\x7f\u4e00-\u9fff\u3001-\u3011\u3014-\u301f\u2010\u2012-\u2016\u2018-\u201f\u00b7"
)
_PLAIN = lazy_compile(f"[{_PLAIN_CLASS}]*+")  # a large class: compiled when first needed
_NOT_PLAIN = lazy_compile(f"[^{_PLAIN_CLASS}]")
# Characters known to stay as they are in the matching copy (every ASCII one, and the
# non-ASCII ones met so far, up to a bound): a text's other characters are found with one set
# difference, so a Chinese text does not look up each of its characters again.
_UNCHANGED: set[str] = {chr(cp) for cp in range(128)}
_UNCHANGED_MAX = 1 << 16


def _replacements(text: str) -> dict[str, str]:
    """The characters of a non-ASCII ``text`` that change in the matching copy."""
    out: dict[str, str] = {}
    for ch in set(_NOT_PLAIN.findall(text)).difference(_UNCHANGED):
        rep = _char_replacement(ch)
        if rep != ch:
            out[ch] = rep
        elif len(_UNCHANGED) < _UNCHANGED_MAX:
            _UNCHANGED.add(ch)
    return out


def normalise_for_matching(text: str) -> tuple[str, list[int] | None]:
    """The matching copy of ``text`` and a map from its offsets to the original's.

    ``mapping[i]`` is the original index of normalised character ``i``; ``None`` means the
    copy is aligned with the original one for one (the map is the identity).
    """
    if text.isascii():
        return text, None
    replacements = _replacements(text)
    if not replacements:
        return _fold_look_alikes(text), None
    special = re.compile("[" + "".join(re.escape(ch) for ch in replacements) + "]")
    parts: list[str] = []
    mapping: list[int] = []
    pos = 0
    for m in special.finditer(text):
        start = m.start()
        if start > pos:  # an unchanged stretch maps one to one
            parts.append(text[pos:start])
            mapping.extend(range(pos, start))
        rep = replacements[m.group()]
        if rep:
            parts.append(rep)
            mapping.extend([start] * len(rep))
        pos = start + 1
    if pos < len(text):
        parts.append(text[pos:])
        mapping.extend(range(pos, len(text)))
    return _fold_look_alikes("".join(parts)), mapping


@dataclass(frozen=True, slots=True)
class View:
    """A text and where each of its characters comes from.

    ``starts[i]``/``ends[i]`` is the ``[start, end)`` character ``i`` stands for in
    ``parent`` (in the original text when ``parent`` is None); ``starts is None`` means the
    identity. ``decoded`` marks a view that is not a copy of its parent but a decoding of it
    (base64, hex): the decoders do not run on it again.
    """

    text: str
    starts: list[int] | None = None
    ends: list[int] | None = None
    parent: View | None = None
    decoded: bool = False

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original ``[start, end)`` of this view's ``[start, end)`` (``end > start``)."""
        view: View | None = self
        while view is not None:
            if view.starts is not None and view.ends is not None:
                start, end = view.starts[start], view.ends[end - 1]
            view = view.parent
        return start, end


def _replace_chars(text: str, replacements: dict[str, str]) -> str:
    """``text`` with each character of ``replacements`` (one character for one) replaced.
    One ``str.replace`` per character, much faster than ``translate`` on a non-ASCII text
    for the few a text holds; a replacement never changes again (NFKC is idempotent and
    drops no character of its own result), so the order does not matter."""
    if len(replacements) > 8:
        return text.translate({ord(ch): rep for ch, rep in replacements.items()})
    for ch, rep in replacements.items():
        text = text.replace(ch, rep)
    return text


def base_view(text: str) -> View:
    """The normalised copy of ``text`` as a view on it."""
    if text.isascii() or _PLAIN.fullmatch(text) is not None:
        return View(text)  # its own matching copy
    replacements = _replacements(text)
    if not replacements:
        return View(_fold_look_alikes(text))
    if all(len(rep) == 1 for rep in replacements.values()):
        # one character for one (full-width punctuation, say): the offsets are unchanged,
        # so the view is the identity, as ``normalise_for_matching`` would map it
        return View(_fold_look_alikes(_replace_chars(text, replacements)))
    norm, mapping = normalise_for_matching(text)
    if mapping is None:
        return View(norm)
    ends = [m + 1 for m in mapping]
    return View(norm, mapping, ends)


def edited_view(parent: View, edits: Iterable[tuple[int, int, str]]) -> View:
    """``parent`` with each ``(start, end, replacement)`` applied (sorted, not overlapping);
    every character of a replacement stands for the whole ``[start, end)`` it replaced."""
    text = parent.text
    parts: list[str] = []
    starts: list[int] = []
    ends: list[int] = []
    pos = 0
    for start, end, rep in edits:
        if start > pos:
            parts.append(text[pos:start])
            starts.extend(range(pos, start))
            ends.extend(range(pos + 1, start + 1))
        parts.append(rep)
        starts.extend([start] * len(rep))
        ends.extend([end] * len(rep))
        pos = end
    if pos < len(text):
        parts.append(text[pos:])
        starts.extend(range(pos, len(text)))
        ends.extend(range(pos + 1, len(text) + 1))
    return View("".join(parts), starts, ends, parent)


def edited_text(text: str, edits: Iterable[tuple[int, int, str]]) -> str:
    """``edited_view(View(text), edits).text`` without the offset map (built only when a
    finding needs it)."""
    parts: list[str] = []
    pos = 0
    for start, end, rep in edits:
        if start > pos:
            parts.append(text[pos:start])
        parts.append(rep)
        pos = end
    if pos < len(text):
        parts.append(text[pos:])
    return "".join(parts)


def decoded_view(parent: View, start: int, end: int, decoded: str) -> View:
    """``decoded`` as a view whose every character stands for ``parent[start:end]``."""
    n = len(decoded)
    return View(decoded, [start] * n, [end] * n, parent, decoded=True)


# Terminal escape sequences (``gate.control.ESCAPE_SEQUENCE``), and every C0 control but tab,
# line feed and carriage return (a CR is a line break the joins read), DEL and the C1
# controls (a lone ESC, an OSC's closing BEL among them): none is part of a value.
_CONTROLS = re.compile(f"{ESCAPE_SEQUENCE.pattern}|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


def without_controls(view: View) -> View:
    """``view`` with its escape sequences and control characters taken out, so a token split
    by a colour code (``ghp_ab<ESC>[0mcd…``) or a NUL is read whole; the same view when it has
    none. A finding in it spans the controls inside it in the original."""
    if _CONTROLS.search(view.text) is None:
        return view
    return edited_view(view, ((m.start(), m.end(), "") for m in _CONTROLS.finditer(view.text)))
