"""Recall's explanations (a trace's Why and Why not) in the window's language.

The engine writes them in English: the trace is a contract, and agents read it. The window
shows them translated, rebuilt from the reason code and the parts the engine's own forms carry
(matched terms, a "via" translation, the fact that supersedes, the policy's numbers). A text is
translated only when the English rebuilt from those parts is exactly what the engine wrote, so
a form this module does not know (or an engine that changed its wording) is shown as written,
never misread.
"""

from __future__ import annotations

import re
from typing import Any

from context_center.ui.i18n import QT_TRANSLATE_NOOP, Texts
from context_center.ui.terms import scope_label

TEXT = Texts(
    "RecallText",
    {
        "matched": QT_TRANSLATE_NOOP("RecallText", "matched {terms}; {scope} scope"),
        "via": QT_TRANSLATE_NOOP("RecallText", "{term} via {via}"),
        "more": QT_TRANSLATE_NOOP("RecallText", "+{n} more"),
        "sep": QT_TRANSLATE_NOOP("RecallText", ", "),
        "only": QT_TRANSLATE_NOOP("RecallText", "matched only {words}: {why}"),
        "a_number": QT_TRANSLATE_NOOP("RecallText", "a number"),
        "why_distinctive": QT_TRANSLATE_NOOP(
            "RecallText",
            "one term alone must be identifier-like or rare in the store (or long, in a "
            "message of at most two terms)",
        ),
        "why_head": QT_TRANSLATE_NOOP(
            "RecallText", "none of it in the fact's name, title or description"
        ),
        "frequent_unknown": QT_TRANSLATE_NOOP(
            "RecallText",
            "matched only words frequent in this store, and the message's {words} is in no fact",
        ),
        "superseded_by": QT_TRANSLATE_NOOP("RecallText", "superseded by {ref} (newer, {how})"),
        "supersedes link": QT_TRANSLATE_NOOP("RecallText", "supersedes link"),
        "same title": QT_TRANSLATE_NOOP("RecallText", "same title"),
        # one per engine reason code (engine/recall/policy.py); {0}, {1}: the policy's numbers
        "generic_turn": QT_TRANSLATE_NOOP("RecallText", "generic user turn"),
        "no_searchable_terms": QT_TRANSLATE_NOOP(
            "RecallText", "no searchable terms (only common words)"
        ),
        "store_empty": QT_TRANSLATE_NOOP("RecallText", "memory store is empty"),
        "no_distinctive_match": QT_TRANSLATE_NOOP(
            "RecallText", "no sufficiently distinctive match"
        ),
        "weak_match": QT_TRANSLATE_NOOP(
            "RecallText", "score under {0} × the best eligible match's score (relative cut)"
        ),
        "project_override": QT_TRANSLATE_NOOP(
            "RecallText", "an equivalent project fact overrides this global fact"
        ),
        "stable_guidance": QT_TRANSLATE_NOOP(
            "RecallText", "global user/feedback fact is already in the stable guidance"
        ),
        "superseded": QT_TRANSLATE_NOOP(
            "RecallText", "a newer fact on the same subject replaces this one"
        ),
        "broad_match": QT_TRANSLATE_NOOP(
            "RecallText",
            "a broad fact matched only on words frequent in this store (score x {0}), then "
            "under {1} x the best eligible match's score",
        ),
        "thin_match": QT_TRANSLATE_NOOP(
            "RecallText",
            "matched fewer of the message's terms than the best fact and scored under {0} x "
            "its score",
        ),
        "over_budget": QT_TRANSLATE_NOOP("RecallText", "matched facts exceeded the recall budget"),
        # over_budget for a fact chosen but not placed (engine/recall/pipeline.py)
        "did_not_fit": QT_TRANSLATE_NOOP(
            "RecallText", "did not fit in the character budget even when shortened"
        ),
        "side_match": QT_TRANSLATE_NOOP(
            "RecallText",
            "matched only words frequent in this store, beside a distinctive match or more such "
            "facts",
        ),
        "body_only": QT_TRANSLATE_NOOP(
            "RecallText",
            "matched only in the fact's body: no matched term in its name, title or "
            "description, no identifier, fewer than two words rare in the store and fewer than "
            "three terms",
        ),
    },
)

_MATCHED = re.compile(r"matched (?P<terms>.+); (?P<scope>project|global) scope")
_ONLY = re.compile(r"matched only (?P<words>.+?): (?P<why>.+)")
_FREQUENT = re.compile(
    r"matched only words frequent in this store, and the message's (?P<words>.+) is in no fact"
)
_SUPERSEDED = re.compile(
    r"superseded by (?P<ref>\S+) \(newer, (?P<how>supersedes link|same title)\)"
)
_VIA = re.compile(r"(?P<term>.+?) via (?P<via>.+)")
_MORE = re.compile(r"\+(?P<n>\d+) more")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
_WHY_KEYS = ("why_distinctive", "why_head")


def _english(key: str, **parts: Any) -> str:
    return TEXT.source[key].format(**parts)


def _terms(text: str) -> tuple[str, str]:
    """``text`` (a list of matched terms) as (the English rebuilt, the translation)."""
    english, shown = [], []
    for item in text.split(", "):
        more, via = _MORE.fullmatch(item), _VIA.fullmatch(item)
        if more:
            english.append(_english("more", n=more["n"]))
            shown.append(TEXT["more"].format(n=more["n"]))
        elif via:
            english.append(_english("via", term=via["term"], via=via["via"]))
            shown.append(TEXT["via"].format(term=via["term"], via=via["via"]))
        elif item == TEXT.source["a_number"]:
            english.append(item)
            shown.append(TEXT["a_number"])
        else:
            english.append(item)
            shown.append(item)
    return ", ".join(english), TEXT["sep"].join(shown)


def why_selected(reason: str) -> str:
    """A selected fact's reason ("matched deploy, 部署 via deploy; project scope")."""
    m = _MATCHED.fullmatch(reason)
    if m is None:
        return reason
    terms = _terms(m["terms"])
    if _english("matched", terms=terms[0], scope=m["scope"]) != reason:
        return reason
    return TEXT["matched"].format(terms=terms[1], scope=scope_label(m["scope"]))


def why_not(code: str, message: str, fixed: str) -> str:
    """A left-out fact's (or turn's) reason: ``code`` the engine's reason code, ``message``
    what it wrote, ``fixed`` that code's own text (``Reason.text``)."""
    if message == fixed and code in TEXT.source:
        source = TEXT.source[code]
        numbers = _NUMBER.findall(message) if "{0}" in source else []
        if source.format(*numbers) == message:
            return TEXT[code].format(*numbers)
        return message
    return _composite(message)


def _composite(message: str) -> str:
    if message == TEXT.source["did_not_fit"]:
        return TEXT["did_not_fit"]
    m = _FREQUENT.fullmatch(message)
    if m is not None and _english("frequent_unknown", words=m["words"]) == message:
        return TEXT["frequent_unknown"].format(words=TEXT["sep"].join(m["words"].split(", ")))
    m = _SUPERSEDED.fullmatch(message)
    if m is not None and _english("superseded_by", ref=m["ref"], how=m["how"]) == message:
        return TEXT["superseded_by"].format(ref=m["ref"], how=TEXT[m["how"]])
    m = _ONLY.fullmatch(message)
    if m is not None:
        why = next((k for k in _WHY_KEYS if TEXT.source[k] == m["why"]), None)
        words = _terms(m["words"])
        if why and _english("only", words=words[0], why=m["why"]) == message:
            return TEXT["only"].format(words=words[1], why=TEXT[why])
    return message
