"""What we write, Reasonix's line reader and our YAML reader both read back exactly."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import pytest
import reasonix_reader as rx
from hypothesis import given, settings
from hypothesis import strategies as st

from context_center.engine.errors import InvalidName, InvalidRequest
from context_center.engine.facade import Engine
from context_center.engine.model import Fact, FactType, Scope
from context_center.engine.store.factfile import parse_fact_bytes, render_fact
from context_center.engine.store.paths import slugify

WHEN = datetime(2026, 3, 4, 5, 6, 7, 123000, tzinfo=UTC)
# every character but lone surrogates (they cannot be encoded), controls included
values = st.text(st.characters(blacklist_categories=("Cs",)), max_size=80)
awkward = st.text(st.sampled_from([*list("ab :#'\"\\-?[]{}&*!|>%@`,\t\n"), "中", "é"]), max_size=12)


def fact_with(title: str, description: str, name: str = "a-name") -> Fact:
    return Fact(
        id="mem-" + "ab" * 16,
        revision=2,
        created_at=WHEN,
        updated_at=WHEN,
        name=name,
        title=title,
        description=description,
        type=FactType.FEEDBACK,
        scope=Scope.PROJECT,
        body="body",
    )


def read_both(tmp_path: Path, data: bytes, name: str) -> tuple[Fact, rx.ReasonixFact]:
    path = tmp_path / f"{name}.md"
    path.write_bytes(data)
    ours = parse_fact_bytes(data, stem=name, directory_scope=Scope.PROJECT, mtime=WHEN).fact
    return ours, rx.read_fact(path)


def check_round_trip(tmp_path: Path, title: str, description: str, name: str = "a-name") -> None:
    fact = fact_with(title, description, name)
    try:
        data = render_fact(fact)
    except InvalidRequest as exc:
        assert exc.code == "unrepresentable_value"
        assert "cannot be saved" in str(exc)
        bad = {v for v in (title, description) if v}
        # refused only when a value breaks a line, is trimmed or stripped, or holds both quotes
        assert any(
            v != v.strip()
            or any(ord(c) < 32 or 0x7F <= ord(c) <= 0x9F for c in v)
            or v[0] in "'\""
            or v[-1] in "'\""
            or "\u2028" in v
            or "\u2029" in v
            or "\ufeff" in v
            or "\ufffe" in v
            or "\uffff" in v
            or ("'" in v and ('"' in v or "\\" in v))
            for v in bad
        ), (title, description)
        return
    ours, theirs = read_both(tmp_path, data, name)
    expected_title = title or name.replace("-", " ")
    assert (ours.name, ours.title, ours.description) == (name, expected_title, description)
    assert (theirs.name, theirs.description) == (name, description)
    assert theirs.display_title == " ".join(expected_title.split())
    assert theirs.title == title  # the line reader: exactly what was saved
    assert (theirs.id, theirs.revision, theirs.type, theirs.scope) == (
        fact.id,
        2,
        "feedback",
        "project",
    )


@settings(max_examples=300, deadline=None)
@given(title=values, description=values)
def test_any_text_reads_back_identically_or_is_refused(
    tmp_path_factory: pytest.TempPathFactory, title: str, description: str
) -> None:
    check_round_trip(tmp_path_factory.mktemp("rt"), title, description)


@settings(max_examples=300, deadline=None)
@given(title=awkward, description=awkward)
def test_yaml_punctuation_reads_back_identically_or_is_refused(
    tmp_path_factory: pytest.TempPathFactory, title: str, description: str
) -> None:
    check_round_trip(tmp_path_factory.mktemp("rt"), title, description)


@settings(max_examples=100, deadline=None)
@given(raw=st.text(min_size=1, max_size=40))
def test_names_read_back_identically(tmp_path_factory: pytest.TempPathFactory, raw: str) -> None:
    try:
        name = slugify(raw)
    except InvalidName:
        return
    check_round_trip(tmp_path_factory.mktemp("rt"), "T", "d", name=name)


@pytest.mark.parametrize(
    ("title", "line"),
    [
        ("Ana's rule: always rebase", 'title: "Ana\'s rule: always rebase"'),
        ('say "hi": twice', "title: 'say \"hi\": twice'"),
        ("Release branch", "title: Release branch"),
        ("true", 'title: "true"'),
        ("a #b", 'title: "a #b"'),
        ("提交信息: 中文", 'title: "提交信息: 中文"'),
    ],
)
def test_values_needing_quotes_are_quoted_the_way_both_readers_agree(
    engine: Engine, title: str, line: str
) -> None:
    engine.create_fact(name="rule", title=title, type=FactType.FEEDBACK, body="b")
    path = engine.layout.project_store / "rule.md"
    assert f"\n{line}\n" in path.read_text()
    assert rx.read_fact(path).title == title
    assert engine.read_fact("rule").fact.title == title


@pytest.mark.parametrize(
    "title",
    ["two\nlines", "tab\there", '"quoted"', "ends with a quote'", 'it\'s "both": here'],
)
def test_unrepresentable_values_are_refused_with_a_code(engine: Engine, title: str) -> None:
    with pytest.raises(InvalidRequest) as err:
        engine.create_fact(name="rule", title=title, type=FactType.FEEDBACK, body="b")
    assert err.value.code == "unrepresentable_value" and "title" in str(err.value)
    assert not (engine.layout.project_store / "rule.md").exists()
    fact = engine.create_fact(name="rule", title="ok", type=FactType.FEEDBACK, body="b").value
    with pytest.raises(InvalidRequest) as err:
        engine.update_fact("rule", expected_revision=1, description=title)
    assert err.value.code == "unrepresentable_value"
    assert engine.read_fact("rule").fact == fact  # nothing written, no snapshot either
    assert not (engine.layout.project_store / ".revisions").exists()


def test_a_refused_value_is_quoted_with_its_secrets_withheld() -> None:
    """The message quotes the start of the value: a token cut at 60 characters would be too
    short for the scanner to know, so secrets are withheld over the whole value first."""
    from context_center.engine.store.fmvalue import render_value

    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789"
    with pytest.raises(InvalidRequest) as exc:
        render_value("description", f"see the notes in the runbook folder {token} \x1b")
    assert exc.value.code == "unrepresentable_value"
    assert "ghp_abc" not in str(exc.value) and "[withheld: GitHub token]" in str(exc.value)
