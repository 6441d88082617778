"""`context-center memory …` through the real argument parser: JSON contract and exit codes."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from inproc import run_inprocess


def run(
    home: Path, workspace: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    return run_inprocess(["--home", str(home), "--workspace", str(workspace), *args], stdin)


def ok(home: Path, workspace: Path, *args: str, stdin: str | None = None) -> dict:  # type: ignore[type-arg]
    result = run(home, workspace, *args, "--json", stdin=stdin)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


def fail(home: Path, workspace: Path, *args: str) -> tuple[str, str]:
    result = run(home, workspace, *args, "--json")
    assert result.returncode == 1, (result.stdout, result.stderr)
    error = json.loads(result.stdout)["error"]
    assert result.stderr.startswith("context-center: ") and result.stderr.count("\n") == 1
    return error["code"], error["message"]


def test_full_lifecycle(home: Path, workspace: Path) -> None:
    created = ok(
        home,
        workspace,
        "memory",
        "save",
        "--name",
        "Release branch",
        "--type",
        "project",
        "--description",
        "Releases come from release/*",
        "--body",
        "Cut from release/*.",
    )
    fact = created["fact"]
    assert created["action"] == "created"
    assert (
        fact["ref"] == "project/release-branch.md"
        and fact["revision"] == 1
        and fact["scope"] == "project"
    )
    assert set(fact) == {
        "ref",
        "id",
        "revision",
        "name",
        "title",
        "description",
        "type",
        "scope",
        "freshness",
        "created_at",
        "updated_at",
        "body",
    }

    listed = ok(home, workspace, "memory", "list")
    assert [f["ref"] for f in listed["facts"]] == ["project/release-branch.md"]
    assert "body" not in listed["facts"][0]
    assert listed["conflicts"] == [] and listed["diagnostics"] == []

    read = ok(home, workspace, "memory", "read", fact["id"])["fact"]
    assert read["body"] == "Cut from release/*." and len(read["sha256"]) == 64

    updated = ok(
        home,
        workspace,
        "memory",
        "save",
        "project/release-branch.md",
        "--expected-revision",
        "1",
        "--body",
        "Cut from release/* only.",
    )
    assert updated["fact"]["revision"] == 2

    code, message = fail(
        home,
        workspace,
        "memory",
        "save",
        "release-branch",
        "--expected-revision",
        "1",
        "--body",
        "x",
    )
    assert code == "revision_conflict" and "expected 1, found 2" in message

    revs = ok(home, workspace, "memory", "revisions", "release-branch")
    assert [r["revision"] for r in revs["revisions"]] == [2, 1] and revs["revisions"][0]["current"]

    restored = ok(home, workspace, "memory", "restore", "release-branch", "1")
    assert restored["fact"]["revision"] == 3 and restored["fact"]["body"] == "Cut from release/*."

    forgotten = ok(home, workspace, "memory", "forget", "project/release-branch.md")
    assert forgotten["archive_ref"].startswith("project/.archive/")
    assert ok(home, workspace, "memory", "list")["facts"] == []
    archived = ok(home, workspace, "memory", "archived")["archived"]
    assert [a["archive_ref"] for a in archived] == [forgotten["archive_ref"]]

    recovered = ok(home, workspace, "memory", "recover", forgotten["archive_ref"])
    assert recovered["fact"]["revision"] == 4 and recovered["fact"]["id"] == fact["id"]
    code, _ = fail(home, workspace, "memory", "recover", forgotten["archive_ref"])
    assert code == "not_found"


def test_create_never_overwrites(home: Path, workspace: Path) -> None:
    ok(home, workspace, "memory", "save", "--name", "x", "--type", "user", "--body", "first")
    code, _ = fail(
        home, workspace, "memory", "save", "--name", "x", "--type", "user", "--body", "second"
    )
    assert code == "already_exists"
    assert ok(home, workspace, "memory", "read", "x")["fact"]["body"] == "first"


def test_hand_edit_needs_expected_hash(home: Path, workspace: Path) -> None:
    fact = ok(
        home, workspace, "memory", "save", "--name", "x", "--type", "user", "--body", "first"
    )["fact"]
    path = home / "projects"
    file = next(path.rglob("x.md"))
    file.write_text(file.read_text().replace("first", "edited by hand"))
    code, _ = fail(
        home, workspace, "memory", "save", "x", "--expected-revision", "1", "--body", "mine"
    )
    assert code == "content_conflict"
    sha = ok(home, workspace, "memory", "read", "x")["fact"]["sha256"]
    saved = ok(
        home,
        workspace,
        "memory",
        "save",
        fact["ref"],
        "--expected-revision",
        "1",
        "--expected-hash",
        sha,
        "--body",
        "mine",
    )
    assert saved["fact"]["revision"] == 2


def test_json_input_from_stdin(home: Path, workspace: Path) -> None:
    payload = json.dumps(
        {
            "name": "中文 约定",
            "type": "feedback",
            "scope": "global",
            "title": "提交信息",
            "description": "用中文写提交信息",
            "body": "提交信息使用中文。",
        }
    )
    fact = ok(home, workspace, "memory", "save", "--json-input", "-", stdin=payload)["fact"]
    assert (
        fact["ref"] == "global/中文-约定.md"
        and fact["type"] == "feedback"
        and fact["scope"] == "global"
    )
    code, message = fail(
        home, workspace, "memory", "save", "--json-input", "/nonexistent/file.json"
    )
    assert code == "invalid_request" and "cannot read" in message


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["memory", "read", "nope"], "not_found"),
        (["memory", "save", "--name", "...", "--type", "user", "--body", "b"], "invalid_name"),
        (["memory", "save", "--name", "n", "--type", "user"], "invalid_request"),
        (["memory", "save", "x", "--body", "b"], "invalid_request"),
        (["memory", "restore", "nope", "1"], "not_found"),
        (["memory", "recover", "/etc/passwd"], "recover_refused"),
        (["memory", "recover", "project/.archive/20260101-000000.000-nope.md"], "not_found"),
        (["memory", "forget", "project/../../x"], "invalid_request"),
    ],
)
def test_errors_have_codes(home: Path, workspace: Path, args: list[str], code: str) -> None:
    assert fail(home, workspace, *args)[0] == code


def test_usage_error_exits_2(home: Path, workspace: Path) -> None:
    result = run(home, workspace, "memory", "restore", "x", "not-a-number")
    assert result.returncode == 2


def test_list_reports_diagnostics_and_conflicts(home: Path, workspace: Path) -> None:
    ok(home, workspace, "memory", "save", "--name", "tabs", "--type", "user", "--body", "p")
    ok(
        home,
        workspace,
        "memory",
        "save",
        "--name",
        "tabs",
        "--type",
        "user",
        "--scope",
        "global",
        "--body",
        "g",
    )
    store = next((home / "projects").glob("*/memory"))
    (store / "broken.md").write_text("---\n- not a mapping\n---\n")
    listed = ok(home, workspace, "memory", "list")
    assert [
        (c["key"], c["project_ref"], c["global_ref"], c["resolution"]) for c in listed["conflicts"]
    ] == [("name", "project/tabs.md", "global/tabs.md", "project_over_global")]
    assert listed["diagnostics"] == [
        {
            "code": "frontmatter_not_mapping",
            "path": "broken.md",
            "message": "frontmatter must be a mapping of keys to values",
            "scope": "project",
        }
    ]
    text = run(home, workspace, "memory", "list")
    assert "project/tabs.md applies over global/tabs.md" in text.stdout
    # a filter that shows neither fact: the text does not name their conflict (JSON still does)
    assert "applies over" not in run(home, workspace, "memory", "list", "--type", "project").stdout
    assert ok(home, workspace, "memory", "list", "--type", "project")["conflicts"]


def test_migrate_is_idempotent(home: Path, workspace: Path) -> None:
    store = home / "memory" / "global"
    store.mkdir(parents=True)
    (store / "old.md").write_text("---\nname: old\ndescription: d\ntype: user\n---\nbody\n")
    first = ok(home, workspace, "memory", "migrate")
    assert {k: first[k] for k in ("migrated", "refs")} == {"migrated": 1, "refs": ["global/old.md"]}
    assert [c["ref"] for c in first["changes"]["facts"]] == ["global/old.md"]
    second = ok(home, workspace, "memory", "migrate")
    assert {k: second[k] for k in ("migrated", "refs")} == {"migrated": 0, "refs": []}
    assert second["changes"]["facts"] == []


def test_update_can_change_type_and_fields(home: Path, workspace: Path) -> None:
    ok(
        home,
        workspace,
        "memory",
        "save",
        "--name",
        "x",
        "--type",
        "user",
        "--body",
        "b",
        "--title",
        "T",
    )
    fact = ok(
        home,
        workspace,
        "memory",
        "save",
        "x",
        "--expected-revision",
        "1",
        "--type",
        "feedback",
        "--title",
        "  New title  ",
        "--description",
        " d ",
    )["fact"]
    assert (fact["type"], fact["title"], fact["description"], fact["revision"]) == (
        "feedback",
        "New title",
        "d",
        2,
    )
