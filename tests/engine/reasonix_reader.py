"""An independent reader of Reasonix's memory files, written from its rules (REFERENCE.md).

It is deliberately small and shares no code with the engine, so a test can check that what
the engine writes is what Reasonix would read back:

* frontmatter is a line splitter: the first line (trimmed) is ``---`` and the next line that
  trims to ``---`` closes the block; each line is cut at its first ``:``, the key trimmed and
  lowercased, the value trimmed and then stripped of every ``"`` and ``'`` at either end, with
  no unescaping; a line without ``:`` is skipped; a key with an empty value takes the ``-``
  items of the lines below it (joined with ", ") or is left out; indented ``metadata:``
  children are therefore plain keys; the last line of a key wins. No fence, or a fence that
  is never closed: no keys, the whole text is the body;
* a fact: name = ``name`` else the file stem; id = ``id`` else ``legacy-`` + the first 24 hex
  digits of sha256("reasonix-memory-v2\\0" + scope + "\\0" + slug(name)) where scope is the
  declared ``scope`` (project/global) else global for user/feedback types and project
  otherwise; type = ``fact_type`` if valid, else ``type`` (anything unknown is project);
  the displayed title is the title with whitespace collapsed, else the name with ``-`` as
  spaces;
* a ``MEMORY.md`` line ``- [Title](name.md) — …`` is an index line.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

_QUOTES = "\"'"
_TYPES = ("user", "feedback", "project", "reference")
INDEX_LINE = re.compile(r"^\s*-\s\[.+?\]\(([^)]+)\.md\)\s*—\s.*$")


def go_trim_space(text: str) -> str:
    """Go's strings.TrimSpace: Unicode White_Space at both ends."""
    return text.strip(
        " \t\n\v\f\r\x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
        "\u2009\u200a\u2028\u2029\u202f\u205f\u3000"
    )


def split(text: str) -> tuple[dict[str, str], str]:
    text = text.replace("\r\n", "\n")
    lines = text.split("\n")
    if go_trim_space(lines[0]) != "---":
        return {}, text
    for close in range(1, len(lines)):
        if go_trim_space(lines[close]) != "---":
            continue
        content = lines[1:close]
        keys: dict[str, str] = {}
        j = 0
        while j < len(content):
            line = content[j]
            j += 1
            if ":" not in line:
                continue
            raw_key, _, raw_value = line.partition(":")
            key = go_trim_space(raw_key).lower()
            value = go_trim_space(raw_value).strip(_QUOTES)
            if value:
                keys[key] = value
                continue
            items = []
            while j < len(content) and go_trim_space(content[j]).startswith("-"):
                items.append(go_trim_space(go_trim_space(content[j])[1:]).strip(_QUOTES))
                j += 1
            if items:
                keys[key] = ", ".join(items)
        return keys, "\n".join(lines[close + 1 :])
    return {}, text


def slug(name: str) -> str:
    return re.sub(r"[\W_]+", "-", go_trim_space(name).lower()).strip("-")


def legacy_id(name: str, scope: str) -> str:
    seed = "reasonix-memory-v2\x00" + scope + "\x00" + slug(name)
    return "legacy-" + hashlib.sha256(seed.encode("utf-8")).hexdigest()[:24]


@dataclass
class ReasonixFact:
    id: str
    revision: int
    name: str
    title: str
    display_title: str
    description: str
    type: str
    scope: str  # as declared, "" when not
    created_at: str
    updated_at: str
    body: str


def read_fact(path: Path) -> ReasonixFact:
    keys, body = split(path.read_text(encoding="utf-8").removeprefix("\ufeff"))
    name = keys.get("name") or path.name.removesuffix(".md")
    fact_type = keys.get("fact_type", "").strip().lower()
    if fact_type not in _TYPES:
        fact_type = keys.get("type", "").strip().lower()
        fact_type = fact_type if fact_type in _TYPES else "project"
    declared = keys.get("scope", "").strip().lower()
    declared = declared if declared in ("project", "global") else ""
    id_scope = declared or ("global" if fact_type in ("user", "feedback") else "project")
    revision_text = keys.get("revision", "").strip()
    revision = int(revision_text) if revision_text.isdigit() and int(revision_text) > 0 else 1
    title = " ".join(keys.get("title", "").split())
    return ReasonixFact(
        id=keys.get("id") or legacy_id(name, id_scope),
        revision=revision,
        name=name,
        title=keys.get("title", ""),
        display_title=title or name.replace("-", " "),
        description=keys.get("description", ""),
        type=fact_type,
        scope=declared,
        created_at=keys.get("created_at", ""),
        updated_at=keys.get("updated_at", ""),
        body=go_trim_space(body),
    )


def index_files(text: str) -> list[str]:
    """The file stems of a MEMORY.md's index lines, in order."""
    out = []
    for line in text.split("\n"):
        m = INDEX_LINE.match(line.rstrip("\r"))
        if m:
            out.append(m.group(1))
    return out
