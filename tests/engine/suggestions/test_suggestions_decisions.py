"""Accepting (a person's explicit action) and dismissing (remembered) candidates."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import frontmatter
import pytest
from sugg_env import Env

from context_center.engine.errors import AlreadyExists, InvalidRequest, NotFound
from context_center.engine.model import FactType, Scope
from context_center.engine.store.memory import Memory
from context_center.engine.store.paths import Layout
from context_center.engine.suggestions import (
    CandidateEdit,
    RemoteWorkspace,
    ScanResult,
    SkillOutsideWorkspace,
    accept,
    append_turn,
    dismiss,
    load_decisions,
    scan,
)

NOW = datetime(2026, 10, 10, 12, 0, tzinfo=UTC)


def _scan(env: Env) -> ScanResult:
    return scan(env.layout, [], [], now=NOW, **env.scan_kwargs())  # type: ignore[arg-type]


def _kw(env: Env) -> dict[str, object]:
    return env.scan_kwargs() | {"now": NOW}


def test_accept_a_memory_by_id_writes_the_fact_and_records_the_decision(env: Env) -> None:
    cand = next(m for m in _scan(env).memories if "ruff" in m.title)
    result = accept(env.layout, cand.id, **_kw(env))  # type: ignore[arg-type]
    assert result.kind == "memory" and result.ref == f"project/{cand.name}.md"
    fact = Memory(env.layout).resolve(result.ref).fact
    assert fact.body.strip() == cand.body.strip()
    assert fact.type is FactType.PROJECT and fact.scope is Scope.PROJECT
    assert fact.title == cand.title and fact.description == cand.description
    [decision] = load_decisions(env.layout)
    assert (decision.id, decision.decision, decision.ref) == (cand.id, "accepted", result.ref)
    again = _scan(env)
    assert cand.id not in {m.id for m in again.memories}
    with pytest.raises(InvalidRequest, match="already accepted"):
        accept(env.layout, cand.id, **_kw(env))  # type: ignore[arg-type]


def test_accept_with_edits_and_global_scope(env: Env) -> None:
    cand = next(m for m in _scan(env).memories if "pnpm" in m.title)
    edit = CandidateEdit(
        name="package-manager", title="Use pnpm", scope=Scope.GLOBAL, body="Use pnpm.\n"
    )
    result = accept(env.layout, cand, edit, **_kw(env))  # type: ignore[arg-type]
    assert result.ref == "global/package-manager.md"
    fact = Memory(env.layout).resolve("global/package-manager").fact
    assert (fact.title, fact.body.strip(), fact.type) == ("Use pnpm", "Use pnpm.", cand.type)
    # Once accepted it stays out of later scans.
    facts = Memory(env.layout).load(persist_cache=False).facts
    assert cand.id not in {
        m.id for m in scan(env.layout, facts, [], now=NOW, **env.scan_kwargs()).memories
    }  # type: ignore[arg-type]


def test_accept_a_skill_writes_skill_md_once(empty_env: Env) -> None:
    t0 = datetime(2026, 10, 1, tzinfo=UTC)
    for i, (session, text) in enumerate(
        [
            ("s1", "run the tests, then fix lint, then commit"),
            ("s1", "先跑测试，然后修复 lint，最后提交"),
            ("s2", "run the tests, then fix lint, then commit"),
        ]
    ):
        append_turn(empty_env.layout, text, session=session, time=t0 + timedelta(minutes=i))
    [skill] = _scan(empty_env).skills
    result = accept(empty_env.layout, skill.id, **_kw(empty_env))  # type: ignore[arg-type]
    path = empty_env.workspace / ".agents" / "skills" / "test-fix-lint-commit" / "SKILL.md"
    assert (
        result.ref == ".agents/skills/test-fix-lint-commit/SKILL.md"
        and Path(result.path or "") == path
    )
    post = frontmatter.loads(path.read_text(encoding="utf-8"))
    assert post["name"] == "test-fix-lint-commit" and post["description"] == skill.description
    for step in skill.steps:
        assert step in post.content
    assert _scan(empty_env).skills == []
    with pytest.raises(InvalidRequest):
        accept(empty_env.layout, skill.id, **_kw(empty_env))  # type: ignore[arg-type]


def test_accepting_a_skill_never_overwrites(empty_env: Env) -> None:
    t0 = datetime(2026, 10, 1, tzinfo=UTC)
    for i, session in enumerate(["s1", "s1", "s2"]):
        append_turn(
            empty_env.layout,
            "build it, then deploy to staging",
            session=session,
            time=t0 + timedelta(minutes=i),
        )
    [skill] = _scan(empty_env).skills
    target = empty_env.workspace / ".agents" / "skills" / skill.name / "SKILL.md"
    target.parent.mkdir(parents=True)
    target.write_text("mine\n")
    with pytest.raises(AlreadyExists):
        accept(empty_env.layout, skill, **_kw(empty_env))  # type: ignore[arg-type]
    assert target.read_text() == "mine\n"
    assert load_decisions(empty_env.layout) == []
    # An edited name goes elsewhere and works.
    result = accept(empty_env.layout, skill, {"name": "ship-to-staging"}, **_kw(empty_env))  # type: ignore[arg-type]
    assert result.ref == ".agents/skills/ship-to-staging/SKILL.md"
    assert "ship-to-staging" in (empty_env.workspace / result.ref).read_text()


def test_dismiss_is_remembered_even_when_said_again(env: Env) -> None:
    cand = next(m for m in _scan(env).memories if "force-push" in m.title)
    decision = dismiss(env.layout, cand.id, **_kw(env))  # type: ignore[arg-type]
    assert decision.decision == "dismissed"
    assert cand.id not in {m.id for m in _scan(env).memories}
    # Said again in a newer session: a new turn, a new id, the same statement: still dismissed.
    append_turn(
        env.layout,
        "never force-push to main — open a pull request instead!",
        session="later",
        time=datetime(2026, 10, 9, tzinfo=UTC),
    )
    assert not any("force-push" in m.title for m in _scan(env).memories)
    # Dismissing twice is harmless; accepting after dismissing is refused.
    assert dismiss(env.layout, cand.id, **_kw(env)) == decision  # type: ignore[arg-type]
    with pytest.raises(InvalidRequest, match="already dismissed"):
        accept(env.layout, cand.id, **_kw(env))  # type: ignore[arg-type]
    saved = json.loads((env.layout.state_dir / "suggestions.json").read_text())
    assert saved["v"] == 1 and [d["id"] for d in saved["decisions"]] == [cand.id]


def test_dismiss_a_skill(empty_env: Env) -> None:
    t0 = datetime(2026, 10, 1, tzinfo=UTC)
    for i, session in enumerate(["s1", "s2", "s2"]):
        append_turn(
            empty_env.layout,
            "update the changelog, then tag a release",
            session=session,
            time=t0 + timedelta(minutes=i),
        )
    [skill] = _scan(empty_env).skills
    dismiss(empty_env.layout, skill, **_kw(empty_env))  # type: ignore[arg-type]
    assert _scan(empty_env).skills == []


def test_unknown_ids_are_not_found(env: Env) -> None:
    with pytest.raises(NotFound):
        accept(env.layout, "memory-0000000000000000", **_kw(env))  # type: ignore[arg-type]
    with pytest.raises(NotFound):
        dismiss(env.layout, "skill-0000000000000000", **_kw(env))  # type: ignore[arg-type]
    assert not (env.layout.state_dir / "suggestions.json").exists()


def test_remote_workspace_refuses_accept_and_dismiss(env: Env) -> None:
    layout = Layout(env.home, Path("ssh://box/srv/shop"))
    with pytest.raises(RemoteWorkspace) as err:
        accept(layout, "memory-0000000000000000", **_kw(env))  # type: ignore[arg-type]
    assert err.value.code == "remote_workspace"
    with pytest.raises(RemoteWorkspace):
        dismiss(layout, "memory-0000000000000000", **_kw(env))  # type: ignore[arg-type]


def test_a_broken_decisions_file_is_never_replaced(env: Env) -> None:
    path = env.layout.state_dir / "suggestions.json"
    path.write_text("{not json")
    result = _scan(env)  # scanning still works and says why decisions were ignored
    assert result.memories and result.notes
    with pytest.raises(Exception, match="not a valid decisions file"):
        dismiss(env.layout, result.memories[0].id, **_kw(env))  # type: ignore[arg-type]
    assert path.read_text() == "{not json"


@pytest.fixture
def umask022() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_decisions_are_private_from_the_first_write(empty_env: Env, umask022: None) -> None:
    t0 = datetime(2026, 10, 1, tzinfo=UTC)
    for i, session in enumerate(["s1", "s2", "s2"]):
        append_turn(
            empty_env.layout,
            "update the changelog, then tag a release",
            session=session,
            time=t0 + timedelta(minutes=i),
        )
    [skill] = _scan(empty_env).skills
    dismiss(empty_env.layout, skill, **_kw(empty_env))  # type: ignore[arg-type]
    state = empty_env.layout.state_dir
    assert _mode(state) == 0o700
    assert _mode(state / "suggestions.json") == 0o600
    assert _mode(state / "suggestions.json.lock") == 0o600


def test_loose_decisions_permissions_are_tightened_on_the_next_write(
    env: Env, umask022: None
) -> None:
    state = env.layout.state_dir
    path = state / "suggestions.json"
    path.write_text('{"v": 1, "decisions": []}\n')
    os.chmod(path, 0o644)
    os.chmod(state, 0o755)
    cand = _scan(env).memories[0]
    dismiss(env.layout, cand.id, **_kw(env))  # type: ignore[arg-type]
    assert (_mode(state), _mode(path)) == (0o700, 0o600)
    assert [d.id for d in load_decisions(env.layout)] == [cand.id]


def _skill_env(env: Env) -> ScanResult:
    t0 = datetime(2026, 10, 1, tzinfo=UTC)
    for i, session in enumerate(["s1", "s1", "s2"]):
        append_turn(
            env.layout,
            "build it, then deploy to staging",
            session=session,
            time=t0 + timedelta(minutes=i),
        )
    return _scan(env)


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("link", [".agents", ".agents/skills", "skill-folder"])
def test_a_skills_folder_linked_outside_the_workspace_is_refused(empty_env: Env, link: str) -> None:
    [skill] = _skill_env(empty_env).skills
    outside = empty_env.root / "outside"
    outside.mkdir()
    where = empty_env.workspace / (
        f".agents/skills/{skill.name}" if link == "skill-folder" else link
    )
    where.parent.mkdir(parents=True, exist_ok=True)
    where.symlink_to(outside, target_is_directory=True)
    # (a folder of the skill's name suppresses it in a scan: accept the object the scan gave)
    with pytest.raises(SkillOutsideWorkspace) as err:
        accept(empty_env.layout, skill, **_kw(empty_env))  # type: ignore[arg-type]
    assert err.value.code == "outside_workspace" and "outside the workspace" in str(err.value)
    assert _tree(outside) == []  # nothing written there, not even a folder
    assert load_decisions(empty_env.layout) == []


def test_a_skills_folder_linked_inside_the_workspace_is_fine(empty_env: Env) -> None:
    [skill] = _skill_env(empty_env).skills
    shared = empty_env.workspace / "tools" / "agents"
    shared.mkdir(parents=True)
    (empty_env.workspace / ".agents").symlink_to(shared, target_is_directory=True)
    result = accept(empty_env.layout, skill.id, **_kw(empty_env))  # type: ignore[arg-type]
    assert result.ref == f".agents/skills/{skill.name}/SKILL.md"
    assert (shared / "skills" / skill.name / "SKILL.md").is_file()


def test_a_symlinked_skill_md_is_never_followed(empty_env: Env) -> None:
    [skill] = _skill_env(empty_env).skills
    outside = empty_env.root / "outside.md"
    folder = empty_env.workspace / ".agents" / "skills" / skill.name
    folder.mkdir(parents=True)
    (folder / "SKILL.md").symlink_to(
        outside
    )  # dangling: .exists() is False, writing would create it
    with pytest.raises(SkillOutsideWorkspace):
        accept(empty_env.layout, skill, **_kw(empty_env))  # type: ignore[arg-type]
    assert not outside.exists() and (folder / "SKILL.md").is_symlink()
    # a dangling link that stays inside the workspace is an existing skill, not written through
    inside = empty_env.workspace / "notes" / "ship-it.md"
    other = empty_env.workspace / ".agents" / "skills" / "ship-it"
    other.mkdir()
    (other / "SKILL.md").symlink_to(inside)
    with pytest.raises(AlreadyExists):
        accept(empty_env.layout, skill, {"name": "ship-it"}, **_kw(empty_env))  # type: ignore[arg-type]
    assert not inside.exists() and not inside.parent.exists()
    assert load_decisions(empty_env.layout) == []


def test_a_dismissed_rule_said_again_in_more_words_stays_dismissed(empty_env: Env) -> None:
    env = empty_env
    append_turn(env.layout, "Always use pnpm for installs.", session="s1", time=NOW)
    [cand] = _scan(env).memories
    decision = dismiss(env.layout, cand.id, **_kw(env))  # type: ignore[arg-type]
    assert decision.statement == "Always use pnpm for installs"
    later = NOW + timedelta(days=1)
    append_turn(
        env.layout, "From now on, always use pnpm for installs in CI too.", session="s2", time=later
    )
    append_turn(env.layout, "Never push directly to main.", session="s2", time=later)
    # and the opposite rule is a rule of its own
    append_turn(env.layout, "Don't use pnpm for installs, use npm.", session="s3", time=later)
    titles = {m.title for m in _scan(env).memories}
    assert titles == {"Never push directly to main", "Don't use pnpm for installs, use npm"}
