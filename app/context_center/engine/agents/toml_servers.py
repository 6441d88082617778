"""``[mcp_servers.context-center]`` in a Codex ``config.toml``, edited with tomlkit so every
other table, comment and blank line stays where it was.

A comment just above the table that follows belongs, in tomlkit's model, to the end of the
table before it. When our table is added after the last ``mcp_servers`` table, those trailing
comments move below our table (they stay just above the table they describe); removing our
table gives them back to the table before it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from context_center.engine.agents.config_files import ConfigUnreadable
from context_center.engine.errors import InvalidRequest


def _trivia(item: Any) -> bool:
    from tomlkit.items import Comment, Whitespace

    return isinstance(item, Comment | Whitespace)


def _tables(servers: Any) -> list[tuple[str, Any]]:
    from tomlkit.items import Table

    return [(str(k), v) for k, v in servers.value.body if k is not None and isinstance(v, Table)]


def _pop_trailing_comments(table: Any) -> list[Any]:
    """The comments (and what follows them) at the end of ``table``'s body, removed from it;
    the blank lines before the first comment stay."""
    from tomlkit.items import Comment

    body = table.value.body
    end = len(body)
    start = end
    while start > 0 and body[start - 1][0] is None and _trivia(body[start - 1][1]):
        start -= 1
    first = next((i for i in range(start, end) if isinstance(body[i][1], Comment)), end)
    moved = [item for _, item in body[first:]]
    del body[first:]
    return moved


def server_change(
    name: str,
    entry: dict[str, Any] | None,
    display: str,
    is_ours: Callable[[Any], bool],
) -> Callable[[Any], None]:
    """A ``change`` for ``edit_toml``: set (``entry``) or remove (None) the server ``name``."""

    def change(doc: Any) -> None:
        import tomlkit

        servers = doc.get("mcp_servers")
        if servers is None:
            if entry is None:
                return
            servers = tomlkit.table(is_super_table=True)
            doc.add("mcp_servers", servers)
        if not hasattr(servers, "value") or not hasattr(servers, "get"):
            raise ConfigUnreadable(f"mcp_servers in {display} is not a table; nothing was written")
        current = servers.get(name)
        plain = current.unwrap() if current is not None and hasattr(current, "unwrap") else current
        if current is not None and not is_ours(plain):
            raise InvalidRequest(
                f"{display} already has a server named {name!r} that does not run Context "
                "Center; nothing was written"
            )
        if entry is None:
            if current is None:
                return  # not wired here: the file stays as it is
            _remove(servers, name)
            if not servers and servers.is_super_table():
                del doc["mcp_servers"]  # connect's own ``[mcp_servers.x]``; a ``[mcp_servers]``
            return  # the person wrote stays
        # keys the person added to our table (``env``, ``startup_timeout_sec``) stay
        extra = {k: v for k, v in (plain or {}).items() if k not in entry}
        if plain is not None and plain == {**plain, **entry}:
            return  # wired so already
        table = tomlkit.table()
        table["command"] = entry["command"]
        table["args"] = entry["args"]
        for key, value in extra.items():
            table[key] = value
        table.add(tomlkit.nl())  # a blank line before whatever follows
        if current is not None:
            servers[name] = table
            return
        tables = _tables(servers)
        for item in _pop_trailing_comments(tables[-1][1]) if tables else []:
            table.add(item)
        servers.add(name, table)

    return change


def expected(
    name: str, entry: dict[str, Any] | None
) -> Callable[[dict[str, Any], dict[str, Any]], bool]:
    """Whether the file's data after ``server_change(name, entry, …)`` is the data before,
    with the server set to ``entry`` or removed (and ``mcp_servers`` with it, when left empty,
    unless the person wrote the ``[mcp_servers]`` table itself)."""

    def check(old: dict[str, Any], new: dict[str, Any]) -> bool:
        want = expect(old)
        if new == want:
            return True
        rest = {k: v for k, v in new.items() if k != "mcp_servers"}
        return entry is None and new.get("mcp_servers") == {} and rest == want

    def expect(old: dict[str, Any]) -> dict[str, Any]:
        new = dict(old)
        servers = new.get("mcp_servers")
        if entry is None:
            if isinstance(servers, dict) and name in servers:
                servers = {k: v for k, v in servers.items() if k != name}
                if servers:
                    new["mcp_servers"] = servers
                else:
                    del new["mcp_servers"]
            return new
        servers = servers if isinstance(servers, dict) else {}
        mine = servers.get(name)
        new["mcp_servers"] = {
            **servers,
            name: {**(mine if isinstance(mine, dict) else {}), **entry},
        }
        return new

    return check


def _remove(servers: Any, name: str) -> None:
    tables = _tables(servers)
    names = [n for n, _ in tables]
    index = names.index(name)
    ours = tables[index][1]
    body = ours.value.body
    keyed = max((i for i, (k, _) in enumerate(body) if k is not None), default=-1)
    trailing = [item for _, item in body[keyed + 1 :]]
    if trailing and not _is_comment(trailing[0]):
        trailing = trailing[1:]  # our own blank line goes with us
    del servers[name]
    if index > 0:
        for item in trailing:
            tables[index - 1][1].add(item)


def _is_comment(item: Any) -> bool:
    from tomlkit.items import Comment

    return isinstance(item, Comment)
