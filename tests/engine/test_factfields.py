"""The canonical reader (no YAML, no pydantic) answers what the full reader answers, or None.

``factfields.canonical_values`` is what a cold recall process reads fact files with. It must
never disagree with ``factfile.parse_fact_bytes``: for every file, either it declines (None)
and the full reader decides, or both give the same fields and the same legacy flag.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from context_center.engine.errors import InvalidRequest
from context_center.engine.model import Fact, FactType, Scope
from context_center.engine.store.factfields import FactFileError, canonical_values
from context_center.engine.store.factfile import parse_fact_bytes, render_fact

WHEN = datetime(2026, 3, 4, 5, 6, 7, 123000, tzinfo=UTC)
MTIME = datetime(2026, 5, 6, 7, 8, 9, tzinfo=UTC)
awkward = st.text(
    st.sampled_from([*"ab :#'\"\\-?[]{}&*!|>%@`,\t\n\r\u3000\u2028\x85~", "中", "é", "𝄞"]),
    max_size=14,
)
plain = st.text(st.sampled_from([*"abcXYZ019 -_.中文部署"]), min_size=1, max_size=20)


def fact(title: str, description: str, body: str, *, name: str = "a-name", **kw: object) -> Fact:
    fields: dict[str, object] = {
        "id": "mem-" + "ab" * 16,
        "revision": 3,
        "created_at": WHEN,
        "updated_at": WHEN,
        "name": name,
        "title": title,
        "description": description,
        "type": FactType.FEEDBACK,
        "scope": Scope.PROJECT,
        "body": body,
    }
    fields.update(kw)
    return Fact(**fields)  # type: ignore[arg-type]


def both(data: bytes, stem: str = "a-name", scope: Scope = Scope.PROJECT) -> tuple[object, object]:
    """(canonical answer or None, full answer as (fields, legacy) or the error's code)."""
    try:
        parsed = parse_fact_bytes(data, stem=stem, directory_scope=scope, mtime=MTIME)
        full: object = (parsed.fact.model_dump(), parsed.legacy)
    except FactFileError as exc:
        full = exc.code
    try:
        text = data.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None, full
    got = canonical_values(text, stem=stem, directory_scope=scope, mtime=MTIME)
    quick = None if got is None else (dict(got.fields), got.legacy)
    return quick, full


def agree(data: bytes, stem: str = "a-name", scope: Scope = Scope.PROJECT) -> bool:
    """True when the canonical reader answered (and agreed); False when it declined."""
    quick, full = both(data, stem, scope)
    if quick is None:
        return False
    assert quick == full, data
    return True


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(title=awkward, description=awkward, body=awkward)
def test_every_saved_file_reads_the_same_both_ways(title: str, description: str, body: str) -> None:
    try:
        data = render_fact(fact(title, description, body))
    except InvalidRequest:
        return
    agree(data)


@settings(max_examples=200, deadline=None)
@given(title=plain, description=plain, body=plain, fact_type=st.sampled_from(list(FactType)))
def test_a_plain_saved_file_is_read_without_yaml(
    title: str, description: str, body: str, fact_type: FactType
) -> None:
    title, description = title.strip() or "t", description.strip() or "d"
    data = render_fact(fact(title, description, body, type=fact_type))
    assert agree(data), data  # the quick reader must not decline the common case


def test_the_quick_reader_reads_each_form_of_value() -> None:
    for title in (
        "Release branch",
        "Ana's rule: always rebase",
        'say "hi": twice',
        "",
        "部署 流程",
    ):
        data = render_fact(fact(title, "why #1", "Body line.\n\n  indented"))
        assert agree(data), data
    for scope, kind in ((Scope.GLOBAL, FactType.PROJECT), (Scope.PROJECT, FactType.USER)):
        data = render_fact(fact("t", "d", "b", scope=scope, type=kind))  # with metadata.fact_type
        assert b"fact_type" in data
        assert agree(data, scope=scope)
    assert agree(render_fact(fact("t", "d", "")))  # no body at all


# Edits a person (or another tool) makes to a saved file: each must be read the same way by
# both readers, or left to the full one.
EDITS = [
    lambda t: t.replace("\n", "\r\n"),
    lambda t: "\ufeff" + t,
    lambda t: t.replace("title: ", "title:  "),
    lambda t: t.replace("title: ", "title: |\n  "),
    lambda t: t.replace("title: ", "title: >-\n  "),
    lambda t: t.replace("title: ", "title: !!str "),
    lambda t: t.replace("title: ", "title: &a "),
    lambda t: t.replace("title: ", "title: 'it''s "),
    lambda t: t.replace("title: ", 'title: "a\\tb '),
    lambda t: t.replace("title: ", "title: # "),
    lambda t: t.replace("title: ", "title: x #"),
    lambda t: t.replace("title: ", "title: - "),
    lambda t: t.replace("title: ", "title: ? "),
    lambda t: t.replace("title: ", "title: a: b "),
    lambda t: t.replace("title: ", "title: ~"),
    lambda t: t.replace("description: ", "description: '"),
    lambda t: t.replace("description: ", 'description: "'),
    lambda t: t.replace("name: ", "name: Other Name"),
    lambda t: t.replace("name: a-name", "name: A-Name"),
    lambda t: t.replace("revision: 3", "revision: 0"),
    lambda t: t.replace("revision: 3", "revision: 03"),
    lambda t: t.replace("revision: 3", "revision: -3"),
    lambda t: t.replace("revision: 3", "revision: 9999999999999999"),
    lambda t: t.replace("revision: 3", "revision: "),
    lambda t: t.replace("revision: 3\n", ""),
    lambda t: t.replace("id: mem-", "id: mem-x"),
    lambda t: t.replace("id: mem-", "id: legacy-"),
    lambda t: t.replace("id: mem-abab", "id: MEM-ABAB"),
    lambda t: t.replace(".123Z", "Z"),
    lambda t: t.replace(".123Z", ".123456789Z"),
    lambda t: t.replace(".123Z", ".123+02:00"),
    lambda t: t.replace("T05:06:07.123Z", " 05:06:07.123Z"),
    lambda t: t.replace("created_at: 2026-03-04T05:06:07.123Z", "created_at: "),
    lambda t: t.replace("updated_at: 2026-03-04T05:06:07.123Z", "updated_at: "),
    lambda t: t.replace("updated_at: 2026-03-04T05:06:07.123Z", "updated_at: yesterday"),
    lambda t: t.replace("  type: ", "  type: PROJECT").replace("PROJECTproject", "PROJECT"),
    lambda t: t.replace("  type: project", "  type: banana"),
    lambda t: t.replace("  type: ", "   type: "),
    lambda t: t.replace("  scope: project", "  scope: global"),
    lambda t: t.replace("  scope: project", "  scope: Project"),
    lambda t: t.replace("  scope: project\n", ""),
    lambda t: t.replace("metadata:\n", "metadata: {}\n"),
    lambda t: t.replace("metadata:\n", "meta:\n"),
    lambda t: t.replace("\n---\n", "\n---  \n", 1).replace("---  \n", "---\n", 0),
    lambda t: t.replace("\n---\n\n", "\n----\n\n"),
    lambda t: t.replace("\n---\n\n", "\n---\n"),
    lambda t: t.replace("\n---\n\n", "\n---\n\n\n  \n"),
    lambda t: t.replace("\n---\n\n", "\n---\n\n\u3000\n"),
    lambda t: t.replace("\n---\n\n", "\n---\n\n\t"),
    lambda t: t.replace("\n---\n\n", "\n---\n\n---\n"),
    lambda t: t + "\n<<<<<<< HEAD\nmine\n=======\ntheirs\n>>>>>>> other\n",
    lambda t: t + "trailing   \n\n\n",
    lambda t: t.replace("description: ", "extra: 1\ndescription: "),
    lambda t: t.replace("title: ", "title: a\ntitle: "),
    lambda t: t.replace("---\nid:", "---\n# a comment\nid:", 1),
    lambda t: t.replace("---\nid:", "--- \nid:", 1),
    lambda t: t.replace("---\nid:", "---\n\nid:", 1),
    lambda t: t[: t.index("\n---\n")],  # never closed
    lambda t: t.replace("  type: project\n", "  type: project:\n"),  # fact_type decides the type
    lambda t: t.replace("  type: ", "  type: a:"),
    lambda t: t.replace("  scope: project", "  scope: project:"),
    lambda t: t.replace("revision: 3", "revision: 3:"),
    lambda t: t.replace(
        "created_at: 2026-03-04T05:06:07.123Z", "created_at: 0001-01-01T00:00:00+01:00"
    ),
    lambda t: t.replace(
        "created_at: 2026-03-04T05:06:07.123Z", "created_at: 0001-01-01T00:00:00+01:00"
    ).replace("updated_at: 2026-03-04T05:06:07.123Z", "updated_at: user:"),
    lambda t: t.replace(
        "updated_at: 2026-03-04T05:06:07.123Z", "updated_at: 9999-12-31T23:59:59-01:00"
    ),
    lambda t: t + "a NUL \0 in the body\n",
    lambda t: t.replace("title: ", "title: \x7f"),
    lambda t: t.replace("title: ", "title: \u2028"),
    lambda t: t.replace("title: ", "title: \ufeff"),
]


@pytest.mark.parametrize("edit", range(len(EDITS)))
def test_a_hand_edited_file_reads_the_same_or_goes_to_the_full_reader(edit: int) -> None:
    base = render_fact(
        fact("Release branch", "why it matters", "Body text.", type=FactType.FEEDBACK)
    ).decode()
    text = EDITS[edit](base)
    for stem in ("a-name", "other-name"):
        agree(text.encode("utf-8", "surrogatepass"), stem=stem)


def test_random_damage_never_makes_the_readers_disagree() -> None:
    rng = random.Random(20261202)
    base = render_fact(fact("Release branch", "why: it matters", "Body\n\ntext.")).decode()
    alphabet = "-: #'\"\\\n\t ax0中\r{}[]&*!|>"
    for _ in range(3000):
        chars = list(base)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(chars) + 1)
            if rng.random() < 0.5 and chars:
                del chars[min(at, len(chars) - 1)]
            else:
                chars.insert(at, rng.choice(alphabet))
        agree("".join(chars).encode())


def test_a_cold_recall_reads_saved_facts_without_yaml_or_pydantic(tmp_path: Path) -> None:
    """The whole path: a recall process whose index comes from its cache, with one fact our
    own save wrote since (the journal), shows that fact without importing either library."""
    home, ws, cache = tmp_path / "home", tmp_path / "ws", tmp_path / "cache"
    ws.mkdir()
    env_py = (
        "import os, sys; os.environ['CONTEXT_CENTER_CACHE'] = sys.argv[2]; "
        "os.environ['CONTEXT_CENTER_NO_DETACH'] = '1'; "
        "from context_center.cli import main; main(sys.argv[3:])"
    )

    def cli(*argv: str, probe: bool = False) -> str:
        code = env_py + ("; print('LOADED', ' '.join(sorted(sys.modules)))" if probe else "")
        args = ["--home", str(home), "--workspace", str(ws), *argv]
        proc = subprocess.run(
            [sys.executable, "-c", code, str(home), str(cache), *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    for i, word in enumerate(
        ("zookeeper quorum size", "kafka retention window", "部署 流水线 审批")
    ):
        cli("memory", "save", "--name", f"fact {i}", "--type", "project", "--body", word)
    cli("recall", "warm the cache")  # loads the stores and writes the recall cache
    cli("memory", "save", "--name", "late fact", "--type", "project", "--body", "flink savepoint")
    heavy = ("pydantic", "pydantic_core", "yaml", "frontmatter")
    for message in ("how big is the zookeeper quorum", "where is the flink savepoint", "部署 审批"):
        out = cli("recall", message, "--json", probe=True)
        loaded = set(out.rsplit("LOADED", 1)[1].split())
        assert '"selected": [\n      {' in out, (message, out)
        assert not loaded & set(heavy), (message, loaded & set(heavy))
    # the prompt hook an agent runs every turn takes the same path
    hook = json.dumps(
        {"hook_event_name": "UserPromptSubmit", "prompt": "flink savepoint", "cwd": str(ws)}
    )
    code = (
        "import io, os, sys; os.environ['CONTEXT_CENTER_CACHE'] = sys.argv[2]; "
        "sys.stdin = io.StringIO(sys.argv[3]); from context_center.cli import main; "
        "main(['--home', sys.argv[1], 'hook', 'claude-code', 'UserPromptSubmit']); "
        "print('LOADED', ' '.join(sorted(sys.modules)))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(home), str(cache), hook],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "flink savepoint" in proc.stdout
    assert not set(proc.stdout.rsplit("LOADED", 1)[1].split()) & set(heavy)


def test_the_full_reader_still_reads_what_the_quick_one_declines(tmp_path: Path) -> None:
    data = render_fact(fact("Release branch", "d", "b")).decode().replace("title: ", "title:  ")
    quick, full = both(data.encode())
    assert quick is None
    assert isinstance(full, tuple) and full[0]["title"] == "Release branch"
