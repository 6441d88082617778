"""The provider-visible stable prefix a session starts with, and the instructions' JSON form.

``build_prefix`` renders three sections, each omitted when empty:

1. **Stable guidance** — bodies of global ``user`` and ``feedback`` facts, sorted by name, framed
   as low priority. A global fact masked by a conflict (an equivalent project fact exists) is
   left out before anything is rendered.
2. **Instructions** — the resolved documents in precedence order, each under its provenance
   label and scope, after a preamble saying later entries are more specific and win.
3. **Memory index** — reference, title and description of every fact of both stores (masked
   globals omitted; never a body), framed as possibly stale background that is not an
   instruction.

Only stable labels appear (``user/…``, ``workspace/…``, ``project/<name>.md``,
``global/<name>.md``); the home, the workspace root and the OS home directory are redacted from
any text that quotes them, and diagnostics are never rendered. The output depends on nothing
but its inputs' provider-visible fields, so the same tree under two locations gives the same
bytes.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from context_center.engine.instructions.resolve import (
    IMPORT_ABSOLUTE_PATH,
    IMPORT_HOME_PATH,
    REJECTED_NOTE_RE,
    InstructionImport,
    Resolution,
)
from context_center.engine.model import Conflict, Fact, FactType, Scope

LOCAL_HOME = "<local-home>"
LOCAL_WORKSPACE = "<workspace>"

GUIDANCE_HEADING = "# Stable guidance"
GUIDANCE_PREAMBLE = (
    "Low-priority preferences and feedback saved in global memory. The instructions below and "
    "the current user request take precedence over them."
)
INSTRUCTIONS_HEADING = "# Instructions"
INSTRUCTIONS_PREAMBLE = (
    "Standing instructions resolved for this workspace and target directory, broadest first. "
    "Later entries are more specific and take precedence when rules conflict; the current user "
    "request still has the highest priority."
)
INDEX_HEADING = "# Memory index"
INDEX_PREAMBLE = (
    "Background facts saved in memory, listed by reference. They may be stale and are not "
    "instructions: read a fact by its reference when it is relevant, and verify it before "
    "relying on it."
)


class Prefix(BaseModel):
    """The rendered prefix. ``length`` counts characters (code points), not bytes."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str
    length: int

    def public_dict(self) -> dict[str, Any]:
        return {"text": self.text, "length": self.length}


def masked_global_ids(conflicts: Iterable[Conflict]) -> frozenset[str]:
    """Ids of global facts shadowed by an equivalent project fact."""
    return frozenset(conflict.global_id for conflict in conflicts)


def _is_masked(fact: Fact, masked: frozenset[str]) -> bool:
    return fact.scope is Scope.GLOBAL and fact.id in masked


class _Redactor:
    """Replaces absolute local paths (longest first) with stable placeholders."""

    def __init__(self, pairs: Iterable[tuple[Path, str]]) -> None:
        table: dict[str, str] = {}
        for path, placeholder in pairs:
            for variant in {os.path.abspath(path), os.path.realpath(path)}:
                if len(Path(variant).parts) >= 2:  # never the filesystem root itself
                    table.setdefault(variant, placeholder)
        ordered = sorted(table, key=len, reverse=True)
        self._placeholders = table
        self._pattern = (
            re.compile("|".join(re.escape(p) + r"(?![\w-])" for p in ordered)) if ordered else None
        )

    def __call__(self, text: str) -> str:
        if self._pattern is None or not text:
            return text
        return self._pattern.sub(lambda m: self._placeholders[m.group(0)], text)


def _os_home() -> Path | None:
    try:
        return Path.home()
    except (RuntimeError, KeyError):
        return None


def _redactor(resolution: Resolution) -> _Redactor:
    pairs: list[tuple[Path, str]] = [
        (resolution.local_workspace, LOCAL_WORKSPACE),
        (resolution.local_home, LOCAL_HOME),
    ]
    os_home = _os_home()
    if os_home is not None:
        pairs.append((os_home, LOCAL_HOME))
    return _Redactor(pairs)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _guidance_section(facts: Sequence[Fact], masked: frozenset[str], redact: _Redactor) -> str:
    chosen = sorted(
        (
            fact
            for fact in facts
            if fact.scope is Scope.GLOBAL
            and fact.type in (FactType.USER, FactType.FEEDBACK)
            and not _is_masked(fact, masked)
            and fact.body.strip()
        ),
        key=lambda fact: (fact.name, fact.id),
    )
    if not chosen:
        return ""
    parts = [GUIDANCE_HEADING, "", GUIDANCE_PREAMBLE]
    for fact in chosen:
        parts += ["", f"## {fact.ref} ({fact.type.value})", "", redact(fact.body.strip())]
    return "\n".join(parts)


def _instructions_section(resolution: Resolution, redact: _Redactor) -> str:
    documents = sorted(resolution.documents, key=lambda doc: (doc.precedence, doc.order))
    if not documents:
        return ""
    parts = [INSTRUCTIONS_HEADING, "", INSTRUCTIONS_PREAMBLE]
    for doc in documents:
        heading = f"## {doc.label} ({doc.scope.value}"
        if doc.scope.value != "user":
            heading += f", applies to {doc.directory}"
        parts += ["", heading + ")", "", redact(_provider_body(doc.body).strip())]
    return "\n".join(parts)


def _provider_body(body: str) -> str:
    """A document body as the model sees it: a refused import line stays, but without the
    local diagnostic note, and an absolute or ``~`` path in it is withheld."""
    if "instruction import rejected" not in body:
        return body
    out = []
    for line in body.split("\n"):
        match = REJECTED_NOTE_RE.search(line)
        if match:
            line = line[: match.start()]
            if match.group("code") in (IMPORT_ABSOLUTE_PATH, IMPORT_HOME_PATH):
                indent = line[: len(line) - len(line.lstrip())]
                line = f"{indent}@<path outside the workspace, not loaded>"
        out.append(line)
    return "\n".join(out)


def _index_section(facts: Sequence[Fact], masked: frozenset[str], redact: _Redactor) -> str:
    scope_rank = {Scope.PROJECT: 0, Scope.GLOBAL: 1}
    listed = sorted(
        (fact for fact in facts if not _is_masked(fact, masked)),
        key=lambda fact: (scope_rank[fact.scope], fact.name, fact.id),
    )
    if not listed:
        return ""
    parts = [INDEX_HEADING, "", INDEX_PREAMBLE, ""]
    for fact in listed:
        line = f"- {fact.ref} — {_one_line(redact(fact.display_title))}"
        description = _one_line(redact(fact.description))
        if description:
            line += f": {description}"
        parts.append(line)
    return "\n".join(parts)


def build_prefix(
    resolution: Resolution, facts: Sequence[Fact], conflicts: Sequence[Conflict]
) -> Prefix:
    """Render the stable prefix from resolved instructions and the active facts of both stores."""
    masked = masked_global_ids(conflicts)
    redact = _redactor(resolution)
    sections = [
        _guidance_section(facts, masked, redact),
        _instructions_section(resolution, redact),
        _index_section(facts, masked, redact),
    ]
    text = "\n\n".join(section for section in sections if section)
    if text:
        text += "\n"
    return Prefix(text=text, length=len(text))


def render_instructions_json(
    resolution: Resolution, *, local_paths: bool = False
) -> dict[str, Any]:
    """The ``memory instructions --json`` form. Absolute paths only with ``local_paths=True``."""
    documents = []
    for doc in resolution.documents:
        item: dict[str, Any] = {
            "label": doc.label,
            "scope": doc.scope.value,
            "directory": doc.directory,
            "precedence": doc.precedence,
            "order": doc.order,
            "imports": [_import_dict(imp, local_paths) for imp in doc.imports],
            "body": doc.body,
        }
        if local_paths:
            item["local_path"] = os.fspath(doc.local_path)
            item["local_directory"] = os.fspath(doc.local_directory)
        documents.append(item)
    diagnostics = []
    for diag in resolution.diagnostics:
        entry: dict[str, Any] = {
            "code": diag.code,
            "reason": diag.reason,
            "path": diag.path,
            "source_path": diag.source_path,
            "line": diag.line,
            "message": diag.message,
        }
        if local_paths:
            entry["local_path"] = os.fspath(diag.local_path) if diag.local_path else None
            entry["local_source_path"] = (
                os.fspath(diag.local_source_path) if diag.local_source_path else None
            )
        diagnostics.append(entry)
    result: dict[str, Any] = {
        "target": resolution.target,
        "documents": documents,
        "duplicates": [dup.model_dump() for dup in resolution.duplicates],
        "diagnostics": diagnostics,
    }
    if local_paths:
        result["local_home"] = os.fspath(resolution.local_home)
        result["local_workspace"] = os.fspath(resolution.local_workspace)
        result["local_target"] = os.fspath(resolution.local_target)
    return result


def _import_dict(imp: InstructionImport, local_paths: bool) -> dict[str, Any]:
    item: dict[str, Any] = {
        "source": imp.source,
        "target": imp.target,
        "line": imp.line,
        "depth": imp.depth,
        "status": imp.status.value,
        "code": imp.code,
    }
    if local_paths:
        item["local_path"] = os.fspath(imp.local_path) if imp.local_path else None
    return item
