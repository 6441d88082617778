"""A fact file's fields from its frontmatter mapping, and the canonical file read without YAML.

Both readers of a fact file share this module. ``factfile.parse_fact_bytes`` (every load,
every write) splits the frontmatter with python-frontmatter, composes it with libyaml and
validates the ``Fact`` with pydantic. A cold recall process reads only a few files (the facts
its block shows, the files our own writes changed since the recall cache was written), and
importing YAML, python-frontmatter and pydantic for them cost more than the rest of its turn.
So ``canonical_values`` reads a file that is exactly in the form ``factfile.render_fact``
writes (the form Reasonix writes too) with a line reader, and answers None for anything else
-- a YAML construct, a quoted value it does not take apart with certainty, a missing field, a
value the model would refuse -- so that the caller reads that file the full way. What it
answers is what the full reader answers for the same bytes: the mapping goes through the same
field rules (``fact_values``), and every value it takes is one YAML reads as the same text
(``tests/engine/test_factfields.py`` checks both readers against each other).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from context_center.engine.kinds import ID_RE, FactType, Scope, normalise_body
from context_center.engine.store import legacy, syncfiles
from context_center.engine.store.entries import mtime_of
from context_center.engine.store.guarded import UnsafeFile, read_regular

MAX_FILE_BYTES = 1024 * 1024
MAX_REVISION = 10**12


class FactFileError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def decode(data: bytes) -> str:
    """The file's text; too large, NUL bytes and invalid UTF-8 are refused (coded)."""
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
    return text.removeprefix("\ufeff")


_FACT_FILE_MESSAGES = {"symlink": "a symlink stands in place of a fact file"}


def read_bytes(path: Path | str) -> tuple[bytes, os.stat_result]:
    """A fact file's bytes and stat, through the guarded read; refusals are FactFileErrors."""
    try:
        return read_regular(path, max_bytes=MAX_FILE_BYTES)
    except UnsafeFile as exc:
        raise FactFileError(exc.code, _FACT_FILE_MESSAGES.get(exc.code, str(exc))) from exc


def check_shape(stem: str, text: str) -> None:
    """Sync-tool shapes (conflict copies, git conflict markers) are refused (coded)."""
    try:
        syncfiles.check_shape(stem, text)
    except syncfiles.ShapeError as exc:
        raise FactFileError(exc.code, str(exc)) from exc


# -- the field rules -------------------------------------------------------------------------


def parse_time(value: Any, field: str) -> datetime | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise FactFileError("invalid_field", f"{field} must be a timestamp")
    try:
        parsed = datetime.fromisoformat(value.strip().replace("z", "Z"))
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)
        return parsed.astimezone(UTC)
    except (ValueError, OverflowError) as exc:  # 0001-01-01T00:00:00+01:00 has no UTC time
        raise FactFileError(
            "invalid_field", f"{field} is not an RFC 3339 timestamp: {value!r}"
        ) from exc


def _str_field(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if value is None:
        return ""
    if not isinstance(value, str):
        raise FactFileError("invalid_field", f"{key} must be text")
    if "\x00" in value:  # YAML's "\0" escape: refused as a NUL byte in the file is
        raise FactFileError("nul_bytes", f"{key} holds a NUL character")
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


@dataclass
class _Fields:
    """What the frontmatter says, before defaults; ``legacy`` collects what is missing."""

    front: dict[str, Any]
    metadata: dict[str, Any]
    legacy: bool = False


def _declared_type(f: _Fields) -> FactType | None:
    return (
        _type_value(f.metadata.get("fact_type"), "metadata.fact_type")
        or _type_value(f.metadata.get("type"), "metadata.type")
        or _type_value(f.front.get("type"), "type")
    )


def _declared_scope(f: _Fields, directory_scope: Scope) -> str | None:
    declared = f.metadata.get("scope") or f.front.get("scope")
    if declared is None or declared == "":
        return None
    if not isinstance(declared, str) or declared.strip().lower() not in ("project", "global"):
        raise FactFileError("invalid_field", f"scope {declared!r} is not project or global")
    if declared.strip().lower() != directory_scope.value:
        raise FactFileError(
            "scope_mismatch",
            f"file declares scope {declared!r} but lies in the {directory_scope.value} store",
        )
    return declared.strip().lower()


def _revision(raw: Any) -> int | None:
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str) or not raw.strip().isdigit():
        raise FactFileError("invalid_field", f"revision {raw!r} is not a positive integer")
    text = raw.strip()
    if len(text) > 15 or int(text) > MAX_REVISION:
        raise FactFileError("invalid_field", f"revision {text[:30]!r} is out of range")
    return int(text)


def _fact_id(raw: Any) -> str | None:
    if raw is None or raw == "":
        return None
    if not isinstance(raw, str):
        raise FactFileError("invalid_field", "id must be text")
    return raw.strip()


def _names(f: _Fields, stem: str) -> tuple[str, str]:
    """(name, title): Reasonix's name (the declared one, else the stem) and the title it
    shows (the declared one, else that name with '-' as spaces)."""
    declared = _str_field(f.front, "name")
    raw = declared or stem
    name = legacy.reasonix_slug(raw) or stem
    if declared != name or name != stem:
        f.legacy = True  # migration writes the slug and moves the file to <name>.md
    title = _str_field(f.front, "title") or " ".join(raw.replace("-", " ").split())
    return name, title


@dataclass(frozen=True, slots=True)
class Values:
    """What one file says a fact is, before the model validates it."""

    fields: dict[str, Any]  # the keyword arguments of ``Fact``
    legacy: bool  # True when migration would write new metadata (or move the file)
    created_text: str | None  # created_at as written (for its spelling)


def fact_values(
    front: dict[str, Any], body: str, *, stem: str, directory_scope: Scope, mtime: datetime
) -> Values:
    """The fields of the fact a frontmatter mapping and body describe. Raises
    FactFileError with a diagnostic code."""
    metadata = front.get("metadata") or {}
    if not isinstance(metadata, dict):
        raise FactFileError("invalid_field", "metadata must be a mapping")
    f = _Fields(front, metadata, legacy="metadata" not in front)
    declared_type = _declared_type(f)
    declared_scope = _declared_scope(f, directory_scope)
    fact_id, revision = _fact_id(front.get("id")), _revision(front.get("revision"))
    created_text = front.get("created_at")
    created = parse_time(created_text, "created_at")
    updated = parse_time(front.get("updated_at"), "updated_at")
    name, title = _names(f, stem)
    if fact_id is None:
        fact_id = legacy.legacy_id(name, legacy.identity_scope(declared_scope, declared_type))
    if None in (declared_type, declared_scope, revision, front.get("id") or None, created, updated):
        # Until migration writes the file's mtime into it, a missing update time stays
        # missing, so freshness counts it as current rather than guessing from the mtime.
        f.legacy = True
    default_type = FactType.PROJECT if directory_scope is Scope.PROJECT else FactType.USER
    fields = {
        "id": fact_id,
        "revision": revision or 1,
        "created_at": created or updated or mtime,
        "updated_at": updated,
        "name": name,
        "title": title,
        "description": _str_field(front, "description"),
        "type": declared_type or default_type,
        "scope": directory_scope,
        "body": body.strip("\n"),
    }
    spelled = (
        created_text.strip() if created is not None and isinstance(created_text, str) else None
    )
    return Values(fields, f.legacy, spelled)


# -- the canonical file, without YAML --------------------------------------------------------

# The lines ``render_fact`` writes, in its order: key, and whether the value is a text that
# may be quoted (name, title, description) or a bare token.
_TOP = ("id", "revision", "created_at", "updated_at", "name", "title", "description")
_TEXT_KEYS = frozenset({"name", "title", "description"})
# a bare token; never ending in ':' (YAML would take that for a mapping key)
_TOKEN = re.compile(r"[0-9A-Za-z](?:[0-9A-Za-z:.+\-]*[0-9A-Za-z.+\-])?")
# What may not start a plain YAML scalar, or may start one only in some contexts.
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
# YAML's line breaks and the characters it refuses outright, beyond the C0/C1 controls.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff\ud800-\udfff]")


def _text_value(raw: str) -> str | None:
    """The text YAML reads from ``raw`` (what follows ``key: `` on one line), when that is
    certain without YAML: a plain scalar that YAML takes whole, or a quoted one with nothing
    to unescape. None: let YAML read it."""
    if raw == '""' or raw == "''":
        return ""
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "\"'":
        inner = raw[1:-1]
        if raw[0] in inner or "\\" in inner or _UNSAFE.search(inner):
            return None  # a doubled quote or an escape: YAML's rules decide
        return inner
    if (
        not raw
        or raw[0] in _INDICATORS
        or raw != raw.strip()
        or raw.endswith(":")
        or ": " in raw
        or " #" in raw
        or _UNSAFE.search(raw)
    ):
        return None
    return raw


def _canonical_front(text: str) -> tuple[dict[str, Any], str] | None:
    """The mapping and body of a file laid out exactly as ``render_fact`` writes it."""
    if not text.startswith("---\n"):
        return None
    end = text.find("\n---\n", 3)
    if end < 0:
        return None
    lines = text[4:end].split("\n")
    if len(lines) not in (10, 11) or lines[7] != "metadata:":
        return None
    front: dict[str, Any] = {}
    for key, line in zip(_TOP, lines[:7], strict=True):
        if not line.startswith(key + ":"):
            return None
        raw = line[len(key) + 1 :]
        if raw == "":
            return None  # an empty time: the full reader decides what it stands for
        if raw[0] != " ":
            return None
        raw = raw[1:]
        if key in _TEXT_KEYS:
            value = _text_value(raw)
            if value is None:
                return None
        elif not _TOKEN.fullmatch(raw):
            return None
        else:
            value = raw
        front[key] = value
    metadata: dict[str, Any] = {}
    meta_keys = ("type", "fact_type", "scope") if len(lines) == 11 else ("type", "scope")
    for key, line in zip(meta_keys, lines[8:], strict=True):
        prefix = f"  {key}: "
        if not line.startswith(prefix) or not _TOKEN.fullmatch(line[len(prefix) :]):
            return None
        metadata[key] = line[len(prefix) :]
    front["metadata"] = metadata
    rest = text[end + 5 :]
    if rest in ("", "\n"):
        return front, ""
    # "\n" and the body. The full reader's split (python-frontmatter: ``^-{3,}\s*$``) eats
    # the whitespace after '---' up to the last line break before the first visible
    # character; here that is the blank line alone when the body's leading whitespace holds
    # no line break, and the body is then the same text (what follows is stripped and
    # normalised alike). Any other start is left to the full reader.
    if not rest.startswith("\n"):
        return None
    body = rest[1:]
    for ch in body:
        if not ch.isspace():
            return front, body
        if ch == "\n":
            return None
    return None  # only whitespace


def canonical_values(
    text: str, *, stem: str, directory_scope: Scope, mtime: datetime
) -> Values | None:
    """``fact_values`` of a file in the canonical form, with the checks the model makes
    (so a ``Fact`` built from them without validation is the one pydantic builds), or None
    when the file must be read the full way (any other form, a value the model or the field
    rules would refuse)."""
    if "\0" in text or len(text) > MAX_FILE_BYTES:
        return None  # what ``decode`` refuses (the real caller decodes first)
    shaped = _canonical_front(text)
    if shaped is None:
        return None
    try:
        check_shape(stem, text)
    except FactFileError:
        return None
    front, body = shaped
    try:
        values = fact_values(front, body, stem=stem, directory_scope=directory_scope, mtime=mtime)
    except FactFileError:
        return None  # the full reader reports it, with its message
    fields = values.fields
    if not ID_RE.match(fields["id"]):
        return None  # the model's id check (the full reader reports it)
    fields["body"] = normalise_body(fields["body"])
    return values


def read_canonical(
    path: Path | str, *, stem: str, scope: Scope
) -> tuple[Values | None, bytes, os.stat_result]:
    """Read one fact file: (``canonical_values`` of it or None, its bytes, its stat). Raises
    FactFileError (a refused read, or bytes that are no text) and OSError."""
    data, st = read_bytes(path)
    values = canonical_values(decode(data), stem=stem, directory_scope=scope, mtime=mtime_of(st))
    return values, data, st
