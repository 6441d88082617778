"""The stable prefix: sections, masking, redaction, golden renderings, cache stability."""

from __future__ import annotations

import hashlib
import json
import os
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from context_center.engine.instructions.prefix import (
    GUIDANCE_BUDGET,
    INDEX_BUDGET,
    INDEX_LINE_MAX,
    INDEX_PREAMBLE,
    INSTRUCTIONS_PREAMBLE,
    LOCAL_HOME,
    build_prefix,
    render_instructions_json,
)
from context_center.engine.instructions.resolve import resolve_instructions
from context_center.engine.model import Conflict, Fact, FactType, Scope
from context_center.engine.store.memory import find_conflicts

GOLDEN = Path(__file__).parent / "golden" / "prefix"
UPDATE = os.environ.get("UPDATE_GOLDEN") == "1"
WHEN = datetime(2026, 11, 2, 9, 14, 3, 120000, tzinfo=UTC)


def fact(
    name: str,
    *,
    scope: Scope,
    type: FactType,
    title: str = "",
    description: str = "",
    body: str = "",
    id: str | None = None,
) -> Fact:
    fact_id = id or "mem-" + hashlib.sha256(f"{scope}/{name}".encode()).hexdigest()[:32]
    return Fact(
        id=fact_id,
        revision=1,
        created_at=WHEN,
        updated_at=WHEN,
        name=name,
        title=title or name.replace("-", " ").capitalize(),
        description=description,
        type=type,
        scope=scope,
        body=body or f"Body of {name}.",
    )


def write(path: Path, text: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")


def build_tree(base: Path) -> tuple[Path, Path]:
    """A home and a monorepo with imports, a refusal, a GB18030 file and a local override."""
    home, root = base / "home", base / "work" / "repo"
    write(home / "AGENTS.md", "Answer in the language of the question.")
    (root / ".git").mkdir(parents=True)
    write(root / "AGENTS.md", "# Build and verify\n\n- Run `pytest` before reporting.\n@docs/t.md")
    write(root / "docs" / "t.md", "- Tests live under tests/.\n@../../outside.md")
    write(root / "services" / "api" / "AGENTS.md", "- API 变更保持向后兼容。".encode("gb18030"))
    write(root / "services" / "api" / "AGENTS.local.md", "- Local: use the dev database.")
    write(root / "services" / "web" / "AGENTS.md", "- web only")
    return home, root


def sample_facts(home: Path) -> list[Fact]:
    return [
        fact(
            "editor-preference",
            scope=Scope.GLOBAL,
            type=FactType.USER,
            title="Editor preference",
            description="Tabs, width 4",
            body="Use tabs with width 4.",
        ),
        fact(
            "answer-style",
            scope=Scope.GLOBAL,
            type=FactType.FEEDBACK,
            description="Short answers first",
            body=f"Lead with the answer. Notes live in {home}/notes.",
        ),
        fact(
            "company-wiki",
            scope=Scope.GLOBAL,
            type=FactType.REFERENCE,
            description="https://wiki.example.com",
            body="Reference bodies never enter the prefix.",
        ),
        fact(
            "editor-preference",
            scope=Scope.PROJECT,
            type=FactType.USER,
            title="Editor preference",
            description="Spaces, width 2 in this repo",
            body="Use two spaces here.",
        ),
        fact(
            "release-branch",
            scope=Scope.PROJECT,
            type=FactType.PROJECT,
            title="Release branch",
            description="Releases are cut from release/* branches",
            body="Project bodies never enter the prefix.",
        ),
        fact(
            "发布流程",
            scope=Scope.PROJECT,
            type=FactType.PROJECT,
            title="发布流程",
            description="每周四发布",
            body="正文不进入前缀。",
        ),
    ]


def render(base: Path) -> str:
    home, root = build_tree(base)
    facts = sample_facts(home)
    project = [f for f in facts if f.scope is Scope.PROJECT]
    global_ = [f for f in facts if f.scope is Scope.GLOBAL]
    res = resolve_instructions(home, None, root / "services" / "api")
    return build_prefix(res, facts, find_conflicts(project, global_)).text


def check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if UPDATE:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))
    assert text == path.read_bytes().decode("utf-8")


# --------------------------------------------------------------------------- golden


def test_full_prefix_matches_golden(tmp_path: Path) -> None:
    check_golden("full.txt", render(tmp_path))


def test_instructions_only_matches_golden(tmp_path: Path) -> None:
    home, root = build_tree(tmp_path)
    res = resolve_instructions(home, root, root)
    check_golden("instructions-only.txt", build_prefix(res, [], []).text)


def test_empty_inputs_give_an_empty_prefix(tmp_path: Path) -> None:
    res = resolve_instructions(tmp_path / "home", tmp_path / "ws", tmp_path / "ws")
    prefix = build_prefix(res, [], [])
    assert (prefix.text, prefix.length) == ("", 0)


# --------------------------------------------------------------------------- cache stability


def test_two_locations_give_byte_identical_prefixes(tmp_path: Path) -> None:
    first = render(tmp_path / "a")
    second = render(tmp_path / "somewhere" / "much" / "deeper-b")
    assert first.encode("utf-8") == second.encode("utf-8")
    assert str(tmp_path) not in first


def test_absolute_paths_and_diagnostics_never_appear(tmp_path: Path) -> None:
    home, root = build_tree(tmp_path)
    res = resolve_instructions(home, None, root / "services" / "api")
    assert [d.code for d in res.diagnostics] == ["import_outside_source"]
    text = build_prefix(res, sample_facts(home), []).text
    assert str(tmp_path) not in text
    assert f"{LOCAL_HOME}/notes" in text
    assert res.diagnostics[0].message not in text
    assert "- web only" not in text


def test_os_home_is_redacted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake_home = tmp_path / "users" / "alice"
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: fake_home))
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    note = fact(
        "paths",
        scope=Scope.GLOBAL,
        type=FactType.USER,
        body=f"Keys in {fake_home}/.ssh; the workspace is {tmp_path / 'ws'}/src; not {fake_home}x.",
    )
    text = build_prefix(res, [note], []).text
    assert "Keys in <local-home>/.ssh; the workspace is <workspace>/src" in text
    assert f"not {fake_home}x." in text  # a longer name that merely starts like the home


# --------------------------------------------------------------------------- sections


def test_masked_global_preference_is_left_out(tmp_path: Path) -> None:
    home, root = build_tree(tmp_path)
    facts = sample_facts(home)
    project = [f for f in facts if f.scope is Scope.PROJECT]
    global_ = [f for f in facts if f.scope is Scope.GLOBAL]
    conflicts = find_conflicts(project, global_)
    assert [(c.project_ref, c.global_ref) for c in conflicts] == [
        ("project/editor-preference.md", "global/editor-preference.md")
    ]
    res = resolve_instructions(home, root, root)

    masked = build_prefix(res, facts, conflicts).text
    assert "Use tabs with width 4." not in masked
    assert "global/editor-preference.md" not in masked
    assert "- project/editor-preference.md — Editor preference: Spaces, width 2" in masked

    unmasked = build_prefix(res, facts, []).text
    assert "Use tabs with width 4." in unmasked
    assert "- global/editor-preference.md — Editor preference: Tabs, width 4" in unmasked


def test_masking_by_shared_id_keeps_the_project_fact(tmp_path: Path) -> None:
    shared = "mem-" + "a" * 32
    g = fact("tone", scope=Scope.GLOBAL, type=FactType.FEEDBACK, id=shared, body="GLOBAL TONE")
    p = fact("tone", scope=Scope.PROJECT, type=FactType.FEEDBACK, id=shared, body="PROJECT")
    conflict = Conflict(
        key="id", project_ref=p.ref, global_ref=g.ref, project_id=shared, global_id=shared
    )
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    text = build_prefix(res, [g, p], [conflict]).text
    assert "GLOBAL TONE" not in text
    assert "- project/tone.md" in text
    assert "global/tone.md" not in text


def test_guidance_is_global_user_and_feedback_sorted_by_name(tmp_path: Path) -> None:
    facts = [
        fact("zeta", scope=Scope.GLOBAL, type=FactType.USER, body="ZETA"),
        fact("alpha", scope=Scope.GLOBAL, type=FactType.FEEDBACK, body="ALPHA"),
        fact("beta", scope=Scope.GLOBAL, type=FactType.PROJECT, body="BETA"),
        fact("gamma", scope=Scope.PROJECT, type=FactType.USER, body="GAMMA"),
    ]
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    text = build_prefix(res, facts, []).text
    guidance = text.split("# Memory index")[0]
    assert guidance.index("ALPHA") < guidance.index("ZETA")
    assert "BETA" not in text and "GAMMA" not in text
    index_lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert index_lines == [
        "- project/gamma.md — Gamma",
        "- global/alpha.md — Alpha",
        "- global/beta.md — Beta",
        "- global/zeta.md — Zeta",
    ]


def test_instructions_are_in_precedence_order_with_preamble(tmp_path: Path) -> None:
    home, root = build_tree(tmp_path)
    res = resolve_instructions(home, None, root / "services" / "api")
    text = build_prefix(res, [], []).text
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == [
        "## user/AGENTS.md (user)",
        "## workspace/AGENTS.md (project, applies to workspace)",
        "## workspace/services/api/AGENTS.md (ancestor, applies to workspace/services/api)",
        "## workspace/services/api/AGENTS.local.md (local, applies to workspace/services/api)",
    ]
    assert INSTRUCTIONS_PREAMBLE in text
    assert "later entries are more specific" in INSTRUCTIONS_PREAMBLE.lower()
    assert INDEX_PREAMBLE not in text  # no facts, no index


def test_length_counts_characters(tmp_path: Path) -> None:
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    prefix = build_prefix(res, [fact("中文", scope=Scope.GLOBAL, type=FactType.USER)], [])
    assert prefix.length == len(prefix.text)
    assert prefix.length < len(prefix.text.encode("utf-8"))
    public = prefix.public_dict()
    assert (public["text"], public["length"], public["agent"]) == (
        prefix.text,
        prefix.length,
        "reasonix",
    )
    assert [p["name"] for p in public["parts"]] == ["guidance", "instructions", "index"]


# --------------------------------------------------------------------------- JSON


def test_render_instructions_json(tmp_path: Path) -> None:
    home, root = build_tree(tmp_path)
    res = resolve_instructions(home, None, root / "services" / "api")
    data = render_instructions_json(res)
    assert str(tmp_path) not in json.dumps(data, ensure_ascii=False)
    assert data["target"] == "workspace/services/api"
    root_doc = data["documents"][1]
    assert {k: root_doc[k] for k in ("label", "scope", "directory", "precedence", "order")} == {
        "label": "workspace/AGENTS.md",
        "scope": "project",
        "directory": "workspace",
        "precedence": 10,
        "order": 1,
    }
    assert [(i["source"], i["target"], i["status"], i["code"]) for i in root_doc["imports"]] == [
        ("workspace/AGENTS.md", "workspace/docs/t.md", "loaded", None),
        ("workspace/docs/t.md", "../../outside.md", "rejected", "import_outside_source"),
    ]
    assert data["diagnostics"] == [
        {
            "code": "import_outside_source",
            "severity": "error",
            "reason": "parent_escape",
            "path": "../../outside.md",
            "source_path": "workspace/docs/t.md",
            "line": 2,
            "message": res.diagnostics[0].message,
        }
    ]
    local = render_instructions_json(res, local_paths=True)
    assert local["local_workspace"] == str(root)
    assert local["documents"][1]["local_path"] == str(root / "AGENTS.md")
    assert local["diagnostics"][0]["local_source_path"] == str(root / "docs" / "t.md")


def test_refused_imports_carry_no_path_or_diagnostic_into_the_prefix(tmp_path: Path) -> None:
    home, repo = tmp_path / "home", tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    home.mkdir()
    (repo / "AGENTS.md").write_text("rules\n@/etc/hostname\n@~/secret.md\n@../up.md\n")
    res = resolve_instructions(home, repo, repo)
    assert len(res.diagnostics) == 3
    text = build_prefix(res, [], []).text
    assert "/etc/hostname" not in text and "~/secret.md" not in text
    assert "instruction import rejected" not in text and "<!--" not in text
    assert "@../up.md" in text  # a relative line stays visible
    assert text.count("@<path outside the workspace, not loaded>") == 2


# --------------------------------------------------------------------------- budgets


def many_facts(
    n: int, *, scope: Scope = Scope.PROJECT, type: FactType = FactType.PROJECT
) -> list[Fact]:
    out = []
    for i in range(n):
        f = fact(f"fact-{i:05d}", scope=scope, type=type, description=f"description {i}")
        out.append(f.model_copy(update={"updated_at": WHEN + timedelta(minutes=i)}))
    return out


def test_index_lists_the_newest_within_its_budget_and_says_how_many_more(tmp_path: Path) -> None:
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    facts = many_facts(3000)
    prefix = build_prefix(res, facts, [])
    index = next(p for p in prefix.parts if p.name == "index")
    assert (index.total, index.budget) == (3000, INDEX_BUDGET)
    assert 0 < index.shown < 3000 and index.chars <= INDEX_BUDGET
    lines = [ln for ln in prefix.text.splitlines() if ln.startswith("- project/")]
    assert lines[0].startswith("- project/fact-02999.md")  # newest first
    assert lines[1].startswith("- project/fact-02998.md")
    left = 3000 - index.shown
    assert prefix.text.rstrip().endswith(
        f"- … and {left:,} more facts not listed here: use `memory search` to find them."
    )
    assert prefix.index_order.startswith("newest first")


def test_a_long_entry_is_shortened_after_its_reference(tmp_path: Path) -> None:
    """The 240-character cap never cuts a reference: the model reads a fact by it."""
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    long_name = "a-" + "x" * 247  # a name near the stem's 252-byte cap: a ref over 240
    wordy = "w" + "-word" * 40
    facts = [
        fact(long_name, scope=Scope.PROJECT, type=FactType.PROJECT, description="d " * 100),
        fact(wordy, scope=Scope.PROJECT, type=FactType.PROJECT, description="words " * 60),
    ]
    lines = [ln for ln in build_prefix(res, facts, []).text.splitlines() if ln.startswith("- p")]
    by_ref = {ln.split(" ")[1]: ln for ln in lines}
    assert by_ref[f"project/{long_name}.md"] == f"- project/{long_name}.md"
    mid = by_ref[f"project/{wordy}.md"]
    assert INDEX_LINE_MAX - 2 <= len(mid) <= INDEX_LINE_MAX and mid.endswith("…")
    assert mid.startswith(f"- project/{wordy}.md — ")


def test_recall_counts_put_the_most_recalled_first(tmp_path: Path) -> None:
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    facts = many_facts(50)
    prefix = build_prefix(res, facts, [], recall_counts={facts[3].id: 9, facts[10].id: 2})
    lines = [ln for ln in prefix.text.splitlines() if ln.startswith("- project/")]
    assert lines[0].startswith("- project/fact-00003.md")
    assert lines[1].startswith("- project/fact-00010.md")
    assert lines[2].startswith("- project/fact-00049.md")
    assert prefix.index_order.startswith("most recalled")


def test_guidance_has_its_own_budget_and_long_bodies_are_cut(tmp_path: Path) -> None:
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    facts = [
        f.model_copy(update={"body": f"rule {i} " + "word " * 400})
        for i, f in enumerate(many_facts(40, scope=Scope.GLOBAL, type=FactType.FEEDBACK))
    ]
    prefix = build_prefix(res, facts, [])
    guidance = next(p for p in prefix.parts if p.name == "guidance")
    assert guidance.chars <= GUIDANCE_BUDGET and 0 < guidance.shown < 40
    assert "(truncated: read global/fact-00039.md)" in prefix.text
    assert (
        f"({40 - guidance.shown:,} more guidance facts not shown: use `memory search`.)"
        in prefix.text
    )


def test_prefix_is_byte_stable_for_an_unchanged_store(tmp_path: Path) -> None:
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    facts = many_facts(2000) + many_facts(300, scope=Scope.GLOBAL, type=FactType.USER)
    first = build_prefix(res, facts, []).text
    shuffled = list(reversed(facts))
    assert build_prefix(res, shuffled, []).text.encode() == first.encode()


def test_a_large_instruction_file_is_kept_whole_but_warned_about(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / "AGENTS.md", "- rule\n" * 2000)
    res = resolve_instructions(tmp_path / "h", ws, ws)
    prefix = build_prefix(res, [], [])
    assert prefix.text.count("- rule") == 2000
    assert any("workspace/AGENTS.md adds" in w for w in prefix.warnings)


def test_secrets_in_guidance_are_withheld(tmp_path: Path) -> None:
    res = resolve_instructions(tmp_path / "h", tmp_path / "ws", tmp_path / "ws")
    secret = fact("deploy", scope=Scope.GLOBAL, type=FactType.USER, body="password=hunter2hunter2")
    text = build_prefix(res, [secret], []).text
    assert "hunter2" not in text and "[withheld:" in text


def test_store_paths_in_guidance_are_the_same_marker_as_in_the_block(tmp_path: Path) -> None:
    from context_center.engine import Engine

    home, ws = tmp_path / "home", tmp_path / "ws"
    (ws / ".git").mkdir(parents=True)
    engine = Engine(home=home, workspace=ws)
    store = engine.layout.global_store
    engine.create_fact(
        name="notes-location",
        title="Notes location",
        description="where the notes are",
        type=FactType.USER,
        scope=Scope.GLOBAL,
        body=f"My notes are in {store}/notes-location.md and {engine.layout.cache_dir}/x.",
    )
    text = engine.prefix(ws).text
    assert str(store) not in text and str(engine.layout.cache_dir) not in text
    assert "<memory-store>/notes-location.md" in text
