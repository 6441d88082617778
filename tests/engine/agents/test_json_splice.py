"""Editing an agent's JSON config keeps the text of everything the edit did not touch: the
result always reads back as the edited value, unchanged members keep their exact text (a
Prettier-style one-line array stays one line), and what the scanner does not handle falls
back to plain serialising."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from context_center.engine.agents.config_files import ConfigUnreadable, edit_json
from context_center.engine.agents.json_splice import _parse, same, splice

PRETTIER = """{
  "mcpServers": {
    "github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] },
    "browser": {
      "command": "npx",
      "args": ["-y", "browser-mcp"],
      "env": {"HEADLESS": "1", "NAME": "caf\\u00e9"}
    }
  },
  "x-note":   "keep  this"
}
"""
OURS = {"type": "stdio", "command": "context-center", "args": ["mcp", "--agent", "claude-code"]}


def _edit(text: str, change: Any, indent: int | str = 2) -> tuple[str | None, Any]:
    old = json.loads(text)
    new = copy.deepcopy(old)
    change(new)
    return splice(text, old, new, indent), new


def test_a_new_member_leaves_every_other_line_as_written() -> None:
    out, new = _edit(PRETTIER, lambda d: d["mcpServers"].__setitem__("context-center", OURS))
    assert out is not None and json.loads(out) == new
    for line in PRETTIER.splitlines():
        if line.strip() not in ("}", "},"):
            assert line.rstrip(",") in out, line  # github, browser, the escape, the note
    assert '"args": ["-y", "browser-mcp"]' in out and "caf\\u00e9" in out
    assert out.endswith("}\n")
    added = out[out.index('"context-center"') - 4 :]
    assert added.startswith('    "context-center": {\n      "type": "stdio",')


def test_removing_a_member_gives_back_the_text_without_it() -> None:
    with_ours, _ = _edit(PRETTIER, lambda d: d["mcpServers"].__setitem__("context-center", OURS))
    assert with_ours is not None
    back, new = _edit(with_ours, lambda d: d["mcpServers"].pop("context-center"))
    assert back is not None and json.loads(back) == new == json.loads(PRETTIER)
    assert (
        '"github": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"] }'
        in back
    )
    first, _ = _edit(PRETTIER, lambda d: d["mcpServers"].pop("github"))
    assert first is not None and json.loads(first)["mcpServers"].keys() == {"browser"}
    assert '"env": {"HEADLESS": "1", "NAME": "caf\\u00e9"}' in first


def test_a_one_line_object_stays_on_one_line() -> None:
    out, new = _edit(
        '{"mcpServers": {"a": {"command": "x"}}}', lambda d: d["mcpServers"].update(b=OURS)
    )
    assert out is not None and "\n" not in out and json.loads(out) == new
    assert out.startswith('{"mcpServers": {"a": {"command": "x"}, "b": {"type": "stdio"')


def test_appending_to_a_hook_list_keeps_the_groups_already_there() -> None:
    text = (
        '{\n\t"hooks": {\n\t\t"PreToolUse": [\n\t\t\t{"matcher": "Bash", "hooks": '
        '[{"type": "command", "command": "./check.sh"}]}\n\t\t]\n\t}\n}'
    )
    group = {"matcher": "Write", "hooks": [{"type": "command", "command": "context-center hook"}]}
    out, new = _edit(text, lambda d: d["hooks"]["PreToolUse"].append(group), "\t")
    assert out is not None and json.loads(out) == new
    assert (
        '\t\t\t{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh"}]},\n'
        in out
    )
    assert '\t\t\t{\n\t\t\t\t"matcher": "Write",' in out
    assert not out.endswith("\n")  # the file had no final line break: none is added


def test_what_the_scanner_does_not_handle_is_serialised_instead(tmp_path: Path) -> None:
    assert _edit('{"a": 1, "a": 2}', lambda d: d.update(b=1))[0] is None  # a duplicate key
    assert _edit('{"a": NaN}', lambda d: d.update(b=1))[0] is None
    # a config file holding them is refused, never collapsed by a rewrite
    path = tmp_path / "x.json"
    for text in ('{"a": 1, "a": 2}\n', '{"a": NaN}\n'):
        path.write_text(text)
        with pytest.raises(ConfigUnreadable):
            edit_json(path, "x.json", lambda d: d.update(b=1))


def test_types_that_python_finds_equal_are_not_the_same_json() -> None:
    assert not same(1, True) and not same(1, 1.0) and not same({"a": 1, "b": 2}, {"b": 2, "a": 1})
    out, _ = _edit('{"a": 1}', lambda d: d.update(a=True))
    assert out == '{"a": true}'


_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-1000, 1000), st.text(max_size=6), st.floats(-10, 10)
)
_values = st.recursive(
    _scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)


@st.composite
def _texts(draw: st.DrawFn) -> str:
    value = draw(st.dictionaries(st.text(max_size=4), _values, min_size=1, max_size=4))
    style = draw(st.sampled_from([None, 2, 4, "\t"]))
    return json.dumps(value, indent=style, ensure_ascii=draw(st.booleans())) + draw(
        st.sampled_from(["", "\n", "\n\n"])
    )


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*at, i))
    return out


@settings(max_examples=300, deadline=None)
@given(text=_texts(), data=st.data())
def test_any_edit_reads_back_as_the_new_value_and_keeps_untouched_text(
    text: str, data: st.DataObject
) -> None:
    old = json.loads(text)
    new = copy.deepcopy(old)
    for _ in range(data.draw(st.integers(1, 3))):
        containers = [p for p in _paths(new) if isinstance(_get(new, p), dict | list)]
        where = _get(new, data.draw(st.sampled_from(containers)))
        if isinstance(where, dict):
            if where and data.draw(st.booleans()):
                where.pop(data.draw(st.sampled_from(sorted(where))))
            else:
                where[data.draw(st.text(max_size=4))] = data.draw(_values)
        elif where and data.draw(st.booleans()):
            where.pop(data.draw(st.integers(0, len(where) - 1)))
        else:
            where.append(data.draw(_values))
    out = splice(text, old, new, 2)
    assert out is not None
    assert same(json.loads(out), new)
    if same(old, new):
        assert out == text
    root = _parse(text, 0)
    for key, key_at, node in root.members:  # an untouched top-level member keeps its text
        if key in new and same(old[key], new[key]):
            assert text[key_at : node.end] in out, key


def _get(value: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        value = value[p]
    return value


def test_a_minified_file_stays_minified() -> None:
    text = '{"mcpServers":{"a":{"command":"x"}},"z":[1,2]}'
    out, new = _edit(text, lambda d: (d["mcpServers"].update(cc=OURS), d["z"].append(3)))
    assert (
        out is not None and json.loads(out) == new and " " not in out.replace("context-center", "")
    )
    assert out.startswith('{"mcpServers":{"a":{"command":"x"},"cc":{"type":"stdio",')
    assert out.endswith('"z":[1,2,3]}')


def test_an_object_of_many_servers_takes_one_pass() -> None:
    """Members are found by key, not by a search per key (32,000 servers took 6.9 s)."""
    text = json.dumps({"mcpServers": {f"s{i}": {"command": "x"} for i in range(20_000)}}, indent=2)
    out, new = _edit(text, lambda d: d["mcpServers"].__setitem__("context-center", OURS))
    assert out is not None and json.loads(out) == new
    assert out.startswith(text[: text.rindex("}\n  }")])


def test_windows_line_breaks_are_kept_by_connect_and_disconnect(tmp_path: Path) -> None:
    from context_center.engine.agents.config_files import apply, edit_toml

    path = tmp_path / "mcp.json"
    original = '{\r\n  "mcpServers": {\r\n    "a": {"command": "x"}\r\n  }\r\n}\r\n'
    path.write_bytes(original.encode())
    edit = edit_json(path, "mcp.json", lambda d: d["mcpServers"].__setitem__("cc", OURS))
    assert edit.after is not None and "\n" not in edit.after.replace("\r\n", "")
    assert '    "a": {"command": "x"},\r\n' in edit.after
    apply(edit)
    undo = edit_json(path, "mcp.json", lambda d: d["mcpServers"].pop("cc"))
    apply(undo)
    assert path.read_bytes() == original.encode()
    same_data = edit_json(path, "mcp.json", lambda d: None)
    assert not same_data.changed
    toml = tmp_path / "config.toml"
    toml_text = '# mine\r\n[mcp_servers.a]\r\ncommand = "x"\r\n'
    toml.write_bytes(toml_text.encode())
    added = edit_toml(toml, "config.toml", lambda doc: doc.add("model", "o3"))
    assert added.after is not None and "\n" not in added.after.replace("\r\n", "")
    assert added.after.startswith("# mine\r\n")
    assert '[mcp_servers.a]\r\ncommand = "x"\r\n' in added.after
