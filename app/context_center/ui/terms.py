"""The words the window shows for the engine's fact types, scopes and freshness values.

A fact's *type* (user, feedback, project, reference) and its *scope* (project, global) share
the word "project", so each is translated with its own disambiguation, and a place that shows
both names them: ``type_and_scope(...)`` → "type: project · scope: project"
(类型：项目 · 范围：项目). The engine's values stay the data (combo box ``currentData()``,
file contents); only the displayed text is translated.
"""

from __future__ import annotations

from collections.abc import Callable

from context_center.engine import FactType, Freshness, Scope
from context_center.ui.i18n import current_language, translate

_cache: dict[tuple[str, str, str], str] = {}


def _cached(kind: str, value: str, make: Callable[[], dict[str, str]]) -> str:
    """Tables call these per painted cell: one dict lookup once a word was translated."""
    key = (current_language(), kind, value)
    text = _cache.get(key)
    if text is None:
        text = _cache[key] = make().get(value, value)
    return text


def type_label(value: str) -> str:
    """A fact type as shown (``value`` is ``FactType.value``)."""
    return _cached("type", value, _types)


def _types() -> dict[str, str]:
    return {
        "user": translate("Terms", "user", "fact type"),
        "feedback": translate("Terms", "feedback", "fact type"),
        "project": translate("Terms", "project", "fact type"),
        "reference": translate("Terms", "reference", "fact type"),
    }


def scope_label(value: str) -> str:
    """A scope as shown (``value`` is ``Scope.value``)."""
    return _cached("scope", value, _scopes)


def _scopes() -> dict[str, str]:
    return {
        "project": translate("Terms", "project", "scope"),
        "global": translate("Terms", "global", "scope"),
    }


def freshness_label(value: str) -> str:
    """A freshness value as shown (``Freshness.value``)."""
    return _cached("freshness", value, _freshness)


def _freshness() -> dict[str, str]:
    return {
        "fresh": translate("Terms", "fresh", "freshness"),
        "current": translate("Terms", "current", "freshness"),
        "stale": translate("Terms", "stale", "freshness"),
    }


def type_and_scope(type_value: str, scope_value: str) -> str:
    """Both, each named: "type: project · scope: global"."""
    return translate("Terms", "type: {type} · scope: {scope}").format(
        type=type_label(type_value), scope=scope_label(scope_value)
    )


def type_choices() -> list[tuple[str, str]]:
    """(shown, value) for every fact type, for a combo box."""
    return [(type_label(t.value), t.value) for t in FactType]


def scope_choices() -> list[tuple[str, str]]:
    return [(scope_label(s.value), s.value) for s in Scope]


def fresh_choices() -> list[tuple[str, str]]:
    return [(freshness_label(f.value), f.value) for f in Freshness]


def controller_label(value: str) -> str:
    """Who drove the agent that proposed a write (``Controller.value``)."""
    return _cached("controller", value, _controllers)


def _controllers() -> dict[str, str]:
    return {
        "interactive": translate("Terms", "interactive", "controller"),
        "headless": translate("Terms", "headless", "controller"),
        "subagent": translate("Terms", "subagent", "controller"),
    }


def plural(n: int, one: str, other: str) -> str:
    """``one`` (already translated: "{n} fact") when ``n`` is 1, else ``other`` ("{n} facts").

    English has these two forms; Chinese has one, so both translate alike. The window uses
    this instead of "fact(s)" (Qt's own plurals need a translation file for the source
    language, and English is the source here)."""
    return one if n == 1 else other
