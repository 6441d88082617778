"""What an agent may see: results walked once and made provider-safe.

Every string in a result for an agent (MCP tools and resources, hook output) passes through
``ProviderText``: the Context Center home and the OS home become ``<local-home>``, the
workspace ``<workspace>``, any other user's home prefix (``/home/ann``, ``C:\\Users\\ann``)
``<local-home>`` too, secrets withheld and control characters escaped (``gate.visible``, the
same rules as the recall block and the prefix). Storage
paths never enter a result in the first place (facts are given by ``project/<name>.md``
references); this is the second line of defence for paths quoted inside fact text.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from context_center.engine.gate.visible import LOCAL_HOME as LOCAL_HOME
from context_center.engine.gate.visible import LOCAL_WORKSPACE as LOCAL_WORKSPACE

# Keys whose values are made by the engine (references, ids, enums, times, numbers): never a
# local path or a control character, so they are not scanned.
SAFE_KEYS = frozenset(
    {
        "revision",
        "type",
        "scope",
        "freshness",
        "created_at",
        "updated_at",
        "score",
        "outcome",
        "operation",
        "controller",
        "pending_id",
        "result_revision",
        "status",
        "code",
        "next_cursor",
        "total",
        "length",
        "at",
        "elapsed_ms",
        "queued_at",
        "decided_at",
    }
)

# Keys whose values are a fact's name, id or reference: a hand-written file's name or id is
# the person's text, and a slug can spell a token (``frob-glpat-…``): ``withhold_in_name``.
NAME_KEYS = frozenset({"ref", "refs", "id", "name", "target_ref", "result_ref"})


class ProviderText:
    """The engine's one provider-visible sanitizer (``gate.visible``) for this home and
    workspace: secrets withheld, local and store paths as markers, control characters
    escaped -- the same text the recall block and the prefix show."""

    def __init__(self, home: Path, workspace: Path, stores: Iterable[Path] = ()) -> None:
        from context_center.engine.gate.visible import visibility

        self._visible = visibility(
            home=(home,), workspace=workspace, cc_home=home, store_paths=tuple(stores)
        )

    def __call__(self, text: str) -> str:
        return self._visible(text) if text else text

    def name(self, text: str) -> str:
        """A fact's name, id or reference as a model may see it (``withhold_in_name``)."""
        from context_center.engine.gate.visible import withhold_in_name

        return self(withhold_in_name(text)) if text else text

    def result(self, value: dict[str, Any]) -> dict[str, Any]:
        """A result object with every string in it redacted."""
        return self.tree(value)  # type: ignore[no-any-return]

    def tree(self, value: Any) -> Any:
        """``value`` (JSON-like: dicts, lists, strings, numbers) with every string redacted
        (values under ``SAFE_KEYS`` are the engine's own and pass as they are; those under
        ``NAME_KEYS`` are names)."""
        if isinstance(value, str):
            return self(value)
        if isinstance(value, dict):
            return {k: self._value(k, v) for k, v in value.items()}
        if isinstance(value, list | tuple):
            return [self.tree(v) for v in value]
        return value

    def _value(self, key: str, value: Any) -> Any:
        if key in SAFE_KEYS:
            return value
        if key in NAME_KEYS:
            if isinstance(value, str):
                return self.name(value)
            if isinstance(value, list | tuple):
                return [self.name(v) if isinstance(v, str) else self.tree(v) for v in value]
        return self.tree(value)


def fact_summary(fact: Any, *, body: bool = False) -> dict[str, Any]:
    """A fact's public fields (``Fact.public_dict``), without the body unless asked."""
    data: dict[str, Any] = fact.public_dict()
    if not body:
        data.pop("body", None)
    return data


def refs_of(items: Iterable[dict[str, Any]]) -> list[str]:
    return [str(item["ref"]) for item in items if item.get("ref")]


def fact_markdown(fact: Any) -> str:
    """The fact as its file holds it: canonical frontmatter, then the body. A value written by
    hand that our writer refuses (a control character, a quote mark at an end: Reasonix's
    reader would not read it back) is shown as a YAML double-quoted scalar, escapes spelled
    out: a fact the store lists can always be read."""
    import json

    from context_center.engine.store import fmvalue
    from context_center.engine.store.factfile import render_fact

    fields = ("name", "title", "description")
    bad = [k for k in fields if fmvalue.problem(getattr(fact, k)) is not None]
    if not bad:
        return render_fact(fact).decode("utf-8")
    stand_in = fact.model_copy(update={k: f"value-{k}" for k in bad})
    text = render_fact(stand_in).decode("utf-8")
    for k in bad:
        quoted = json.dumps(getattr(fact, k), ensure_ascii=False)  # valid YAML, no controls
        text = text.replace(f"\n{k}: value-{k}\n", f"\n{k}: {quoted}\n", 1)
    return text


def clip_lines(text: str, max_chars: int) -> str:
    """``text`` cut at a line end to at most ``max_chars``, with a closing note saying how many
    index lines (facts) were left out and where to find them."""
    if len(text) <= max_chars:
        return text
    note_room = 200
    cut = text.rfind("\n", 0, max(0, max_chars - note_room))
    kept, rest = (text[: cut + 1], text[cut + 1 :]) if cut >= 0 else ("", text)
    left = sum(1 for line in rest.splitlines() if line.startswith("- "))
    what = f"{left} more fact(s)" if left else "the rest"
    return (
        kept + f"\n… {what} left out to keep this short; search memory with the memory_search "
        "tool (or `context-center memory search`).\n"
    )
