"""Reading and writing one fact file: strict-but-tolerant frontmatter, canonical output.

Reading is tolerant of legacy shapes (no id, no revision, top-level ``type``/``scope``,
Claude Code memory files with only ``name/description/type``) and strict about danger:
unsafe YAML tags, aliases, duplicate keys, NUL bytes, invalid UTF-8 and oversized files are
rejected with a code instead of being half-read. Every scalar is read as a string (YAML 1.1's
``no`` stays "no"), then validated explicitly. Writing always produces the canonical form of
ARCHITECTURE.md, the form Reasonix writes.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import yaml
from frontmatter.default_handlers import YAMLHandler
from pydantic import ValidationError

from context_center.engine.model import Fact, FactType, Scope, format_time

MAX_FILE_BYTES = 1024 * 1024
MAX_REVISION = 10**12
LEGACY_ID_TAG = "context-engine-v2/legacy-id"


class FactFileError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


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


def legacy_id(scope: Scope, stem: str) -> str:
    digest = hashlib.sha256(f"{LEGACY_ID_TAG}\0{scope.value}\0{stem.lower()}".encode()).hexdigest()
    return "legacy-" + digest[:32]


def _parse_time(value: Any, field: str) -> datetime | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise FactFileError("invalid_field", f"{field} must be a timestamp")
    try:
        parsed = datetime.fromisoformat(value.strip().replace("z", "Z"))
    except ValueError as exc:
        raise FactFileError(
            "invalid_field", f"{field} is not an RFC 3339 timestamp: {value!r}"
        ) from exc
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    return parsed.astimezone(UTC)


def _str_field(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise FactFileError("invalid_field", f"{key} must be text")
    return value.strip()


def _type_value(raw: Any, where: str) -> FactType | None:
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str):
        raise FactFileError("invalid_field", f"{where} must be text")
    try:
        return FactType(raw.strip().lower())
    except ValueError as exc:
        raise FactFileError(
            "invalid_type", f"{where} {raw!r} is not one of user, feedback, project, reference"
        ) from exc


@dataclass(frozen=True)
class ParsedFile:
    fact: Fact
    legacy: bool  # True when migration would write new metadata
    sha256: str


def parse_fact_bytes(
    data: bytes,
    *,
    stem: str,
    directory_scope: Scope,
    mtime: datetime,
    prefer_declared_name: bool = False,
) -> ParsedFile:
    """Parse one fact file. Raises FactFileError with a diagnostic code."""
    if len(data) > MAX_FILE_BYTES:
        raise FactFileError(
            "too_large", f"file is {len(data)} bytes; the limit is {MAX_FILE_BYTES}"
        )
    if b"\0" in data:
        raise FactFileError("nul_bytes", "file contains NUL bytes")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FactFileError("invalid_utf8", f"file is not valid UTF-8 (byte {exc.start})") from exc
    text = text.removeprefix("\ufeff")
    front, body = split_frontmatter(text)
    legacy = front is None
    front = front or {}
    metadata = front.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise FactFileError("invalid_field", "metadata must be a mapping")

    fact_type = (
        _type_value(metadata.get("fact_type"), "metadata.fact_type")
        or _type_value(metadata.get("type"), "metadata.type")
        or _type_value(front.get("type"), "type")
    )
    if fact_type is None:
        legacy = True
        fact_type = FactType.PROJECT if directory_scope is Scope.PROJECT else FactType.USER

    declared_scope = metadata.get("scope") or front.get("scope")
    if declared_scope is None or declared_scope == "":
        legacy = True
    elif not isinstance(declared_scope, str) or declared_scope.strip().lower() not in (
        "project",
        "global",
    ):
        raise FactFileError("invalid_field", f"scope {declared_scope!r} is not project or global")
    elif declared_scope.strip().lower() != directory_scope.value:
        raise FactFileError(
            "scope_mismatch",
            f"file declares scope {declared_scope!r} but lies in the {directory_scope.value} store",
        )
    if "metadata" not in front:
        legacy = True

    raw_id = front.get("id")
    if raw_id is None or raw_id == "":
        legacy = True
        fact_id = legacy_id(directory_scope, stem)
    elif isinstance(raw_id, str):
        fact_id = raw_id.strip()
    else:
        raise FactFileError("invalid_field", "id must be text")

    raw_rev = front.get("revision")
    if raw_rev is None or raw_rev == "":
        legacy = True
        revision = 1
    else:
        if not isinstance(raw_rev, str) or not raw_rev.strip().isdigit():
            raise FactFileError("invalid_field", f"revision {raw_rev!r} is not a positive integer")
        revision = int(raw_rev.strip()[:20])
        if revision > MAX_REVISION or len(raw_rev.strip()) > 15:
            raise FactFileError(
                "invalid_field", f"revision {raw_rev.strip()[:30]!r} is out of range"
            )

    created = _parse_time(front.get("created_at"), "created_at")
    updated = _parse_time(front.get("updated_at"), "updated_at")
    if created is None or updated is None:
        # Until migration writes the file's mtime into it, a missing update time stays
        # missing, so freshness counts it as current rather than guessing from the mtime.
        legacy = True
        created = created or updated or mtime

    fm_name = _str_field(front, "name")
    if prefer_declared_name and re.fullmatch(r"\w[\w-]*", fm_name):
        stem = fm_name
    title = _str_field(front, "title") or (fm_name if fm_name and fm_name != stem else "") or stem
    try:
        fact = Fact(
            id=fact_id,
            revision=revision,
            created_at=created,
            updated_at=updated,
            name=stem,
            title=title,
            description=_str_field(front, "description"),
            type=fact_type,
            scope=directory_scope,
            body=body.strip("\n"),
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        raise FactFileError(
            "invalid_field", f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
        ) from exc
    return ParsedFile(fact=fact, legacy=legacy, sha256=hashlib.sha256(data).hexdigest())


def _scalar(key: str, value: str) -> str:
    dumped: str = yaml.safe_dump({key: value}, allow_unicode=True, width=10**9, sort_keys=False)
    return dumped.rstrip("\n")


def routing_type(fact_type: FactType, scope: Scope) -> FactType:
    """The `metadata.type` older clients route by: project store keeps project/reference."""
    if scope is Scope.PROJECT:
        return (
            fact_type if fact_type in (FactType.PROJECT, FactType.REFERENCE) else FactType.PROJECT
        )
    return fact_type if fact_type in (FactType.USER, FactType.FEEDBACK) else FactType.USER


def render_fact(fact: Fact) -> bytes:
    """The canonical file for a fact."""
    route = routing_type(fact.type, fact.scope)
    lines = [
        "---",
        f"id: {fact.id}",
        f"revision: {fact.revision}",
        f"created_at: {format_time(fact.created_at)}" if fact.created_at else "created_at: ",
        f"updated_at: {format_time(fact.updated_at)}" if fact.updated_at else "updated_at: ",
        _scalar("name", fact.name),
        _scalar("title", fact.title),
        _scalar("description", fact.description),
        "metadata:",
        f"  type: {route.value}",
    ]
    if route is not fact.type:
        lines.append(f"  fact_type: {fact.type.value}")
    lines.append(f"  scope: {fact.scope.value}")
    lines.append("---")
    body = fact.body.strip("\n")
    text = "\n".join(lines) + "\n\n" + (body + "\n" if body else "")
    return text.encode("utf-8")
