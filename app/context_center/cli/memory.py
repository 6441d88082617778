"""`context-center memory …`: a person's view of and explicit actions on both fact stores."""

from __future__ import annotations

import argparse
from typing import Any

from context_center.cli.common import Output, add_command, json_object_arg, pad, read_text_arg
from context_center.engine import (
    CREATE_FIELDS,
    ContentConflict,
    Engine,
    EngineError,
    Entry,
    Fact,
    FactType,
    InvalidRequest,
    Scope,
    escape_controls,
    format_time,
)

TYPES = [t.value for t in FactType]
SCOPES = [s.value for s in Scope]


def fact_summary(fact: Fact) -> dict[str, Any]:
    data = fact.public_dict()
    data.pop("body")
    return data


def fact_full(entry: Entry) -> dict[str, Any]:
    data = entry.fact.public_dict()
    data["sha256"] = entry.sha256
    return data


def cmd_list(args: argparse.Namespace, engine: Engine) -> Output:
    view = engine.open(persist_cache=True)
    facts = [e.fact for e in view.entries]
    if args.scope:
        facts = [f for f in facts if f.scope.value == args.scope]
    if args.type:
        facts = [f for f in facts if f.type.value == args.type]
    data = {
        "facts": [fact_summary(f) for f in facts],
        "conflicts": [c.model_dump() | {"explanation": c.explanation()} for c in view.conflicts],
        "diagnostics": [d.model_dump(mode="json", exclude_none=True) for d in view.diagnostics],
    }
    lines = [
        f"{pad(f.ref, 40)} r{f.revision:<3} {f.type.value:<9} {f.freshness().value:<7} {f.display_title}"
        for f in facts
    ] or ["(no active facts)"]
    listed = {f.ref for f in facts}
    for c in view.conflicts:  # the text shows those of the facts listed (JSON: every one)
        if c.project_ref in listed or c.global_ref in listed:
            lines.append(f"conflict ({c.key}): {c.project_ref} applies over {c.global_ref}")
    for d in view.diagnostics:
        lines.append(
            f"diagnostic {d.code}: {d.scope.value if d.scope else ''}/{d.path}: {d.message}"
        )
    return Output(data, escape_controls("\n".join(lines)))


def _render_fact_text(fact: Fact, sha256: str) -> str:
    head = [
        f"ref:         {fact.ref}",
        f"id:          {fact.id}",
        f"revision:    {fact.revision}",
        f"type/scope:  {fact.type.value} / {fact.scope.value} ({fact.freshness().value})",
        f"title:       {fact.title}",
        f"description: {fact.description}",
        f"updated:     {format_time(fact.updated_at) if fact.updated_at else '-'}",
        f"hash:        {sha256}  (for `memory save --expected-hash`)",
        "",
        fact.body,
    ]
    return escape_controls("\n".join(head))  # a fact's text never drives the terminal


def cmd_read(args: argparse.Namespace, engine: Engine) -> Output:
    engine.open(persist_cache=False)
    entry = engine.read_fact(args.ref)
    return Output({"fact": fact_full(entry)}, _render_fact_text(entry.fact, entry.sha256))


def _save_fields(args: argparse.Namespace) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    if args.json_input:
        loaded = json_object_arg(read_text_arg(args.json_input), "--json-input")
        allowed = {*CREATE_FIELDS, "expected_revision", "expected_hash"}
        unknown = set(loaded) - allowed
        if unknown:
            raise InvalidRequest(f"unknown field(s) in --json-input: {', '.join(sorted(unknown))}")
        for key, value in loaded.items():
            wanted = int if key == "expected_revision" else str
            if value is not None and (not isinstance(value, wanted) or isinstance(value, bool)):
                raise InvalidRequest(f"--json-input field {key!r} must be {wanted.__name__}")
        fields.update(loaded)
    for key in (*CREATE_FIELDS, "expected_revision", "expected_hash"):
        if key == "body":
            continue  # --body / --body-file below
        value = getattr(args, key)
        if value is not None:
            fields[key] = value
    if args.body is not None:
        fields["body"] = args.body
    if args.body_file is not None:
        fields["body"] = read_text_arg(args.body_file)
    return fields


def _enum(cls: Any, value: Any, what: str) -> Any:
    if value is None:
        return None
    try:
        return cls(str(value))
    except ValueError as exc:
        raise InvalidRequest(
            f"{what} {value!r} is not one of {', '.join(m.value for m in cls)}"
        ) from exc


def cmd_save(args: argparse.Namespace, engine: Engine) -> Output:
    fields = _save_fields(args)
    engine.prepare_write()  # migration only when legacy files exist; no store is loaded
    if args.ref is None:
        for required in ("name", "type", "body"):
            if not fields.get(required):
                raise InvalidRequest(f"creating a fact needs --{required}")
        if "expected_revision" in fields:
            raise InvalidRequest(
                "--expected-revision is for updates; pass the fact's reference to update it"
            )
        done = engine.create_fact(
            name=str(fields["name"]),
            title=str(fields.get("title") or ""),
            description=str(fields.get("description") or ""),
            type=_enum(FactType, fields["type"], "type"),
            scope=_enum(Scope, fields.get("scope") or "project", "scope"),
            body=str(fields["body"]),
        )
        fact = done.value
        return Output(
            {"action": "created", "fact": fact.public_dict(), "changes": done.to_json()},
            f"created {fact.ref} (revision 1)",
        )
    if fields.get("expected_revision") is None:
        raise InvalidRequest("updating a fact needs --expected-revision (the revision you read)")
    try:
        expected = int(fields["expected_revision"])
    except (TypeError, ValueError) as exc:
        raise InvalidRequest("expected_revision must be an integer") from exc
    if fields.get("scope"):
        entry = engine.read_fact(args.ref)
        if entry.fact.scope.value != fields["scope"]:
            raise InvalidRequest(
                f"{entry.fact.ref} is a {entry.fact.scope.value} fact; moving between scopes is not an update"
            )
    try:
        done = engine.update_fact(
            args.ref,
            expected_revision=expected,
            expected_sha=fields.get("expected_hash"),
            name=fields.get("name"),
            title=fields.get("title"),
            description=fields.get("description"),
            type=_enum(FactType, fields.get("type"), "type"),
            body=fields.get("body"),
        )
    except ContentConflict as exc:
        raise _with_hash_hint(exc, engine, args.ref) from exc
    fact = done.value
    return Output(
        {"action": "updated", "fact": fact.public_dict(), "changes": done.to_json()},
        f"updated {fact.ref} to revision {fact.revision}",
    )


def _with_hash_hint(exc: ContentConflict, engine: Engine, ref: str) -> ContentConflict:
    """The refusal, plus the hash to pass and the flag that takes it."""
    try:
        now = engine.read_fact(ref).sha256
    except EngineError:
        return exc
    return ContentConflict(
        f"{exc}. Its content hash now is {now}: check the file, then save again with "
        f"--expected-hash {now} (`memory read {ref}` shows it too)",
        current_revision=exc.current_revision,
    )


def cmd_revisions(args: argparse.Namespace, engine: Engine) -> Output:
    engine.open(persist_cache=False)
    revs = engine.revisions(args.ref)
    current = revs[0].fact
    data = {
        "ref": current.ref,
        "id": current.id,
        "current_revision": current.revision,
        "revisions": [
            {
                "revision": r.revision,
                "current": r.current,
                "updated_at": format_time(r.fact.updated_at) if r.fact.updated_at else None,
                "title": r.fact.title,
                "description": r.fact.description,
                "type": r.fact.type.value,
                "body": r.fact.body,
            }
            for r in revs
        ],
    }
    lines = [f"{current.ref} ({current.id})"]
    for r in revs:
        when = format_time(r.fact.updated_at) if r.fact.updated_at else "-"
        lines.append(
            f"  r{r.revision:<4} {when}  {r.fact.display_title}{'  (current)' if r.current else ''}"
        )
    return Output(data, escape_controls("\n".join(lines)))


def cmd_restore(args: argparse.Namespace, engine: Engine) -> Output:
    engine.prepare_write()
    done = engine.restore_fact(args.ref, args.revision)
    fact = done.value
    return Output(
        {
            "action": "restored",
            "restored_revision": args.revision,
            "fact": fact.public_dict(),
            "changes": done.to_json(),
        },
        f"restored revision {args.revision} of {fact.ref} as revision {fact.revision}",
    )


def cmd_forget(args: argparse.Namespace, engine: Engine) -> Output:
    engine.prepare_write()
    done = engine.forget_fact(args.ref, expected_revision=args.expected_revision)
    fact, dest = done.value
    archive_ref = f"{fact.scope.value}/.archive/{dest.name}"
    return Output(
        {
            "action": "forgotten",
            "ref": fact.ref,
            "id": fact.id,
            "archive_ref": archive_ref,
            "archive_path": str(dest),
            "changes": done.to_json(),
        },
        f"forgot {fact.ref}; archived as {archive_ref}",
    )


def cmd_archived(args: argparse.Namespace, engine: Engine) -> Output:
    entries = engine.archived()
    rows = []
    for e in entries:
        row: dict[str, Any] = {
            "archive_ref": engine.archive_ref(e),
            "path": str(e.path),
            "archived_at": format_time(e.archived_at) if e.archived_at else None,
        }
        if e.fact is not None:
            row.update(
                {
                    "ref": e.fact.ref,
                    "id": e.fact.id,
                    "revision": e.fact.revision,
                    "title": e.fact.title,
                    "description": e.fact.description,
                    "type": e.fact.type.value,
                    "scope": e.fact.scope.value,
                    "preview": e.fact.body[:200],
                }
            )
        else:
            row["error"] = e.error
        rows.append(row)
    text = (
        "\n".join(f"{r['archive_ref']}  {r.get('title') or r.get('error')}" for r in rows)
        or "(archive is empty)"
    )
    return Output({"archived": rows}, escape_controls(text))


def cmd_recover(args: argparse.Namespace, engine: Engine) -> Output:
    engine.prepare_write()
    done = engine.recover_fact(args.path)
    fact = done.value
    return Output(
        {"action": "recovered", "fact": fact.public_dict(), "changes": done.to_json()},
        f"recovered {fact.ref} as revision {fact.revision}",
    )


def cmd_migrate(args: argparse.Namespace, engine: Engine) -> Output:
    done = engine.migrate()
    changed = done.value
    return Output(
        {"migrated": len(changed), "refs": changed, "changes": done.to_json()},
        f"migrated {len(changed)} fact(s)",
    )


def register_memory(subparsers: Any) -> None:
    p = add_command(
        subparsers, "list", cmd_list, "active facts of both scopes, conflicts and diagnostics"
    )
    p.add_argument("--scope", choices=SCOPES)
    p.add_argument("--type", choices=TYPES)

    p = add_command(subparsers, "read", cmd_read, "one fact by reference, name or id")
    p.add_argument("ref")

    p = add_command(
        subparsers,
        "save",
        cmd_save,
        "create a fact (fails if the name is taken) or, with REF, update it with --expected-revision",
    )
    p.add_argument("ref", nargs="?", help="the fact to update; omit to create")
    p.add_argument("--name")
    p.add_argument("--title")
    p.add_argument("--description")
    p.add_argument("--type", choices=TYPES)
    p.add_argument("--scope", choices=SCOPES)
    p.add_argument("--body")
    p.add_argument("--body-file", metavar="FILE", help="read the body from FILE ('-' for stdin)")
    p.add_argument(
        "--json-input",
        metavar="FILE",
        help="read the fields as a JSON object from FILE ('-' for stdin)",
    )
    p.add_argument("--expected-revision", type=int)
    p.add_argument("--expected-hash", metavar="SHA256", help="the sha256 `memory read` reported")

    p = add_command(subparsers, "revisions", cmd_revisions, "a fact's revision history")
    p.add_argument("ref")

    p = add_command(subparsers, "restore", cmd_restore, "copy an old revision into a new one")
    p.add_argument("ref")
    p.add_argument("revision", type=int)

    p = add_command(subparsers, "forget", cmd_forget, "move a fact to the archive")
    p.add_argument("ref")
    p.add_argument("--expected-revision", type=int)

    add_command(subparsers, "archived", cmd_archived, "forgotten facts in both archives")

    p = add_command(
        subparsers, "recover", cmd_recover, "bring an archived fact back as a new revision"
    )
    p.add_argument("path", help="an archive_ref (project/.archive/<file>) or the entry's path")

    add_command(subparsers, "migrate", cmd_migrate, "upgrade legacy facts in place (idempotent)")
