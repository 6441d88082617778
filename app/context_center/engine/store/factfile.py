"""Reading and writing one fact file: strict-but-tolerant frontmatter, canonical output.

Reading is tolerant of legacy shapes (no id, no revision, top-level ``type``/``scope``,
Claude Code memory files with only ``name/description/type``) and strict about danger:
unsafe YAML tags, aliases, duplicate keys, NUL bytes, invalid UTF-8 and oversized files are
rejected with a code instead of being half-read, and so are files that are not facts at all
(sync-conflict copies, git conflict markers, empty files, Markdown without frontmatter; see
``syncfiles``). A fact is named and identified the way Reasonix names it (``legacy``). Every scalar is read as a string (YAML 1.1's
``no`` stays "no"), then validated explicitly. Writing always produces the canonical form of
ARCHITECTURE.md, the form Reasonix writes.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import yaml
from frontmatter.default_handlers import YAMLHandler
from pydantic import ValidationError

from context_center.engine.errors import InvalidRequest
from context_center.engine.kinds import FactType, Scope, format_time
from context_center.engine.model import Fact
from context_center.engine.store import fmvalue, syncfiles
from context_center.engine.store.factfields import (
    MAX_FILE_BYTES as MAX_FILE_BYTES,
)
from context_center.engine.store.factfields import (
    MAX_REVISION as MAX_REVISION,
)
from context_center.engine.store.factfields import (
    FactFileError as FactFileError,
)
from context_center.engine.store.factfields import (
    check_shape,
    decode,
    fact_values,
)

_PLAIN_TAGS = frozenset(
    f"tag:yaml.org,2002:{name}"
    for name in ("str", "map", "seq", "int", "float", "bool", "null", "timestamp")
)


# libyaml's composer when available (about 20x faster than PyYAML's pure-Python one), else
# PyYAML's. Either way we build values from the node graph ourselves, so nothing is ever
# constructed from a tag: scalars stay strings, and the checks below run on every node.
_Composer: Any = getattr(yaml, "CBaseLoader", yaml.BaseLoader)


def _line(node: Any) -> int:
    return int(node.start_mark.line) + 1


def _build(node: Any, seen: set[int]) -> Any:
    if id(node) in seen:  # the composer hands back the anchored node for an alias
        raise FactFileError("yaml_alias", f"YAML aliases are not allowed (line {_line(node)})")
    seen.add(id(node))
    if node.tag not in _PLAIN_TAGS:
        raise FactFileError(
            "unsafe_yaml_tag",
            f"frontmatter uses the tag {node.tag!r}, which is not allowed (line {_line(node)})",
        )
    if isinstance(node, yaml.ScalarNode):
        return node.value
    if isinstance(node, yaml.SequenceNode):
        return [_build(child, seen) for child in node.value]
    out: dict[Any, Any] = {}
    for key_node, value_node in node.value:
        key = _build(key_node, seen)
        if not isinstance(key, str):
            raise FactFileError(
                "malformed_yaml", f"frontmatter keys must be text (line {_line(key_node)})"
            )
        if key in out:
            raise FactFileError(
                "duplicate_key", f"duplicate frontmatter key {key!r} (line {_line(key_node)})"
            )
        out[key] = _build(value_node, seen)
    return out


def _load_yaml(text: str) -> Any:
    loader = _Composer(text)
    try:
        if "&" in text or "*" in text:
            # anchors/aliases: look at the event stream, which names aliases explicitly
            for event in yaml.parse(text, Loader=_Composer):
                if isinstance(event, yaml.AliasEvent):
                    mark = event.start_mark
                    line = mark.line + 1 if mark is not None else "?"
                    raise FactFileError("yaml_alias", f"YAML aliases are not allowed (line {line})")
        node = loader.get_single_node()
    except FactFileError:
        raise
    except yaml.YAMLError as exc:
        raise FactFileError(
            "malformed_yaml", f"frontmatter is not valid YAML: {exc}".splitlines()[0]
        ) from exc
    finally:
        loader.dispose()
    if node is None:
        return None
    return _build(node, set())


_HANDLER = YAMLHandler()


def split_frontmatter(text: str) -> tuple[dict[str, Any] | None, str]:
    """Return (frontmatter mapping or None when the file has none, body)."""
    if not _HANDLER.detect(text):
        if text.startswith("---"):
            raise FactFileError(
                "malformed_frontmatter", "frontmatter starts with '---' but is never closed"
            )
        return None, text
    try:
        fm_text, body = _HANDLER.split(text)
    except ValueError as exc:
        raise FactFileError(
            "malformed_frontmatter", "frontmatter could not be split from the body"
        ) from exc
    data = _load_yaml(fm_text)
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise FactFileError(
            "frontmatter_not_mapping", "frontmatter must be a mapping of keys to values"
        )
    return data, body


@dataclass(frozen=True)
class ParsedFile:
    fact: Fact
    legacy: bool  # True when migration would write new metadata (or move the file)
    sha256: str


def _front_matter(text: str, stem: str) -> tuple[dict[str, Any], str]:
    """The frontmatter mapping and body; sync-tool shapes and plain Markdown are refused."""
    check_shape(stem, text)
    front, body = split_frontmatter(text)
    if front is None:
        raise FactFileError(
            syncfiles.NOT_FRONTMATTER,
            "not a fact: the file has no frontmatter block (a first line '---', "
            "'key: value' lines, a closing '---')",
        )
    return front, body


def parse_fact_bytes(
    data: bytes,
    *,
    stem: str,
    directory_scope: Scope,
    mtime: datetime,
    prefer_declared_name: bool = True,  # accepted for old callers: the declared name wins
) -> ParsedFile:
    """Parse one fact file. Raises FactFileError with a diagnostic code."""
    del prefer_declared_name
    front, body = _front_matter(decode(data), stem)
    values = fact_values(front, body, stem=stem, directory_scope=directory_scope, mtime=mtime)
    try:
        fact = Fact(**values.fields)
    except ValidationError as exc:
        first = exc.errors()[0]
        raise FactFileError(
            "invalid_field", f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
        ) from exc
    if values.created_text is not None and fact.created_at is not None:
        _remember_spelling(fact.id, fact.created_at, values.created_text)
    return ParsedFile(fact=fact, legacy=values.legacy, sha256=hashlib.sha256(data).hexdigest())


# -- created_at as it was written ---------------------------------------------------------
#
# Reasonix writes times with Go's RFC3339Nano (``2026-05-14T08:12:33.123456789Z``, or
# ``…:33Z`` when the fraction is zero); a datetime holds microseconds. So that a save keeps
# ``created_at`` exactly as it was written, parsing remembers each non-canonical spelling by
# (id, parsed time), and rendering a fact with that id and time writes the spelling back. Every
# write of an existing fact parses its file first (under the store lock), so the spelling is
# at hand whenever it matters; a fact whose time was changed gets the canonical form.
_RFC3339 = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$")
_SPELLINGS: dict[tuple[str, datetime], str] = {}
_MAX_SPELLINGS = 20_000


def _remember_spelling(fact_id: str, when: datetime, text: str) -> None:
    if text == format_time(when) or not _RFC3339.match(text):
        return
    if len(_SPELLINGS) >= _MAX_SPELLINGS:
        _SPELLINGS.pop(next(iter(_SPELLINGS)))
    _SPELLINGS[(fact_id, when)] = text


def _created_text(fact: Fact) -> str:
    if fact.created_at is None:
        return ""
    return _SPELLINGS.get((fact.id, fact.created_at)) or format_time(fact.created_at)


def routing_type(fact_type: FactType, scope: Scope) -> FactType:
    """The `metadata.type` older clients route by: project store keeps project/reference."""
    if scope is Scope.PROJECT:
        return (
            fact_type if fact_type in (FactType.PROJECT, FactType.REFERENCE) else FactType.PROJECT
        )
    return fact_type if fact_type in (FactType.USER, FactType.FEEDBACK) else FactType.USER


def render_fact(fact: Fact) -> bytes:
    """The canonical file for a fact, read back identically by us and by Reasonix's line
    reader (``fmvalue``). Raises UnrepresentableValue (an InvalidRequest) for a value that has
    no such form."""
    route = routing_type(fact.type, fact.scope)
    lines = [
        "---",
        f"id: {fact.id}",
        f"revision: {fact.revision}",
        f"created_at: {_created_text(fact)}",
        f"updated_at: {format_time(fact.updated_at)}" if fact.updated_at else "updated_at: ",
        f"name: {fmvalue.render_value('name', fact.name)}",
        f"title: {fmvalue.render_value('title', fact.title)}",
        f"description: {fmvalue.render_value('description', fact.description)}",
        "metadata:",
        f"  type: {route.value}",
    ]
    if route is not fact.type:
        lines.append(f"  fact_type: {fact.type.value}")
    lines.append(f"  scope: {fact.scope.value}")
    lines.append("---")
    body = fact.body.strip("\n")
    text = "\n".join(lines) + "\n\n" + (body + "\n" if body else "")
    return _loadable(text)


def _loadable(text: str) -> bytes:
    """``text`` as the file's bytes, refused (coded, before anything is written) when the
    loader would not read it back: every save must leave a fact that can be read, forgotten
    and restored, never one that vanishes into a diagnostic."""
    if "\0" in text:
        raise InvalidRequest(
            "a fact cannot hold NUL characters; nothing was written", code="nul_bytes"
        )
    if syncfiles.has_conflict_markers(text):
        raise InvalidRequest(
            "the text holds git conflict markers (<<<<<<< … >>>>>>> lines): resolve the merge "
            "first; nothing was written",
            code="git_conflict_markers",
        )
    try:
        data = text.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidRequest(
            "the text is not valid Unicode (a lone surrogate); nothing was written",
            code="invalid_utf8",
        ) from exc
    if len(data) > MAX_FILE_BYTES:
        raise InvalidRequest(
            f"the fact would be {len(data):,} bytes; a fact file holds at most "
            f"{MAX_FILE_BYTES:,} (keep long material in a file and reference it); nothing was "
            "written",
            code="too_large",
        )
    return data
