"""Copying Claude Code's memories into the store: a person's action (``context-center import
claude-code``, the window's Import), so nothing is queued for approval.

Each readable memory file becomes a new fact of the chosen scope (project by default):

* name: the slug of its front matter ``name`` (else of the file name); title: that name as
  written; description and body as written; type: Claude Code's own (user, feedback, project,
  reference are the store's four); a file without a type (a plain topic file) becomes
  ``project`` in the project store and ``user`` in the global one, and the item says so;
* a memory whose name is already a fact's name in that scope, or whose title is already a
  fact's title in either scope (letter case and spacing aside), is a duplicate: reported, with
  the fact it repeats, and skipped. So a second import finds everything already there and
  imports nothing;
* a file that cannot be read, is empty, or holds an e-mail address or a secret is skipped with
  the reason (no value is shown);
* ``MEMORY.md`` is Claude Code's index, not a memory: it is never imported.

Planning reads only; the facade (``Engine.import_claude_memory``) creates the facts through
``create_fact``, and with ``dry_run`` creates nothing. Claude Code's files are never changed.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from context_center.engine.claude_memory.reader import ClaudeMemoryFile, ClaudeMemoryView
from context_center.engine.errors import InvalidName
from context_center.engine.kinds import FactType, Scope
from context_center.engine.model import Fact
from context_center.engine.store.paths import slugify

Action = Literal["imported", "would_import", "duplicate", "skipped"]


class ImportItem(BaseModel):
    """What happened (or would happen) to one memory file."""

    model_config = ConfigDict(defer_build=True, frozen=True)

    file: str
    name: str  # the fact's name
    title: str
    type: FactType | None = None
    action: Action
    reason: str = ""  # why it is a duplicate or skipped, or a remark on an import
    ref: str | None = None  # the fact created, or the fact a duplicate repeats


class ImportReport(BaseModel):
    model_config = ConfigDict(defer_build=True, frozen=True)

    source: str  # the memory folder, as ~/… when it is under the home
    exists: bool
    scope: Scope
    dry_run: bool
    items: list[ImportItem] = Field(default_factory=list)

    def count(self, action: Action) -> int:
        return sum(1 for item in self.items if item.action == action)

    def public_dict(self) -> dict[str, object]:
        data = self.model_dump(mode="json")
        data["counts"] = {
            action: self.count(action)
            for action in ("imported", "would_import", "duplicate", "skipped")
        }
        return data


@dataclass(frozen=True, slots=True)
class Planned:
    """One item of the plan; ``description`` and ``body`` are what a fact would get."""

    item: ImportItem
    description: str = ""
    body: str = ""


def title_key(text: str) -> str:
    return " ".join(text.casefold().split()).rstrip(".。!！")


def _name(memory: ClaudeMemoryFile) -> str | None:
    for candidate in (memory.name, memory.file.removesuffix(".md")):
        try:
            return slugify(candidate)
        except InvalidName:
            continue
    return None


def _sensitive(memory: ClaudeMemoryFile) -> str | None:
    from context_center.engine.gate.secrets import find_sensitive

    found = find_sensitive("\n".join((memory.name, memory.description, memory.body)))
    labels = list(dict.fromkeys(span.label for span in found))
    return ", ".join(labels) if labels else None


def _type(memory: ClaudeMemoryFile, scope: Scope) -> tuple[FactType, str]:
    if memory.fact_type is not None:
        return memory.fact_type, ""
    fallback = FactType.PROJECT if scope is Scope.PROJECT else FactType.USER
    said = f"type {memory.type!r} is not" if memory.type else "no type among"
    return fallback, f"{said} user, feedback, project, reference; imported as {fallback.value}"


class _Taken:
    """Names of the target scope and titles of both scopes already used, by fact ref."""

    def __init__(self, facts: Sequence[Fact], scope: Scope) -> None:
        self.scope = scope
        self.names = {f.name: f.ref for f in facts if f.scope is scope}
        self.titles: dict[str, str] = {}
        for fact in facts:
            self.titles.setdefault(title_key(fact.display_title), fact.ref)

    def repeats(self, name: str, title: str) -> tuple[str, str] | None:
        if name in self.names:
            return self.names[name], f"a fact named {name!r} already exists in {self.scope.value}"
        ref = self.titles.get(title_key(title))
        if ref is not None:
            return ref, f"the fact {ref} already has the title {title!r}"
        return None

    def take(self, name: str, title: str) -> None:
        ref = f"{self.scope.value}/{name}.md"
        self.names[name] = ref
        self.titles.setdefault(title_key(title), ref)


def _plan_one(memory: ClaudeMemoryFile, scope: Scope, taken: _Taken) -> Planned:
    name = _name(memory) or ""
    title = memory.name.strip() or memory.file
    base = {"file": memory.file, "name": name, "title": title, "type": memory.fact_type}
    if memory.problem:
        return Planned(ImportItem(**base, action="skipped", reason=memory.problem))
    if not name:
        return Planned(ImportItem(**base, action="skipped", reason="no usable name"))
    if not memory.body.strip():
        return Planned(ImportItem(**base, action="skipped", reason="the memory is empty"))
    sensitive = _sensitive(memory)
    if sensitive:
        reason = f"it holds sensitive content ({sensitive}); copy what you need by hand"
        return Planned(ImportItem(**base, action="skipped", reason=reason))
    repeated = taken.repeats(name, title)
    if repeated is not None:
        ref, reason = repeated
        return Planned(ImportItem(**base, action="duplicate", reason=reason, ref=ref))
    fact_type, remark = _type(memory, scope)
    taken.take(name, title)
    item = ImportItem(
        **(base | {"type": fact_type}),
        action="would_import",
        reason=remark,
        ref=f"{scope.value}/{name}.md",
    )
    return Planned(item, memory.description, memory.body)


def plan_import(view: ClaudeMemoryView, facts: Sequence[Fact], scope: Scope) -> list[Planned]:
    """What importing ``view``'s memories into ``scope`` would do, given the active facts of
    both scopes. Reads nothing and writes nothing."""
    taken = _Taken(facts, scope)
    return [_plan_one(memory, scope, taken) for memory in view.memories]
