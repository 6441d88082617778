"""Property tests: slugs never leave the store; canonical files round-trip."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from context_center.engine.errors import InvalidName
from context_center.engine.model import Fact, FactType, Scope, normalise_body
from context_center.engine.store.factfile import parse_fact_bytes, render_fact
from context_center.engine.store.fmvalue import UnrepresentableValue
from context_center.engine.store.paths import SLUG_MAX_BYTES, slugify


@given(st.text(max_size=400))
def test_slugs_are_single_safe_path_components(name: str) -> None:
    try:
        slug = slugify(name)
    except InvalidName:
        return
    assert slug and slug == slug.lower()
    assert "/" not in slug and "\\" not in slug and "\0" not in slug
    assert not slug.startswith(("-", ".")) and not slug.endswith("-")
    assert "--" not in slug
    assert len(slug.encode()) <= SLUG_MAX_BYTES
    assert slugify(slug) == slug  # idempotent


text = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=200)


@settings(max_examples=150)
@given(
    title=text,
    description=text,
    body=st.text(
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), max_size=500
    ),
    fact_type=st.sampled_from(list(FactType)),
    scope=st.sampled_from(list(Scope)),
    revision=st.integers(min_value=1, max_value=10**6),
)
def test_canonical_files_round_trip(
    title: str, description: str, body: str, fact_type: FactType, scope: Scope, revision: int
) -> None:
    when = datetime(2026, 3, 4, 5, 6, 7, 123000, tzinfo=UTC)
    fact = Fact(
        id="mem-" + "ab" * 16,
        revision=revision,
        created_at=when,
        updated_at=when,
        name="a-name",
        title=title.strip(),
        description=description.strip(),
        type=fact_type,
        scope=scope,
        body=body.strip("\n"),
    )
    try:
        data = render_fact(fact)
    except UnrepresentableValue:  # no form both readers read back (test_frontmatter_compat)
        return
    parsed = parse_fact_bytes(data, stem="a-name", directory_scope=scope, mtime=when)
    # a missing title reads back the way Reasonix shows it: the name with '-' as spaces
    expected = fact if fact.title else fact.model_copy(update={"title": "a name"})
    assert parsed.fact == expected
    assert fact.body == normalise_body(body) and (not body.strip() or fact.body)
    assert not parsed.legacy
