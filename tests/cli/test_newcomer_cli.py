"""What a newcomer meets first: typos are errors, hashes are shown, columns line up."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inproc import run_inprocess

from context_center import __version__
from context_center.cli.common import display_width, pad

# Every command that takes the workspace, with arguments that would otherwise succeed.
WORKSPACE_COMMANDS = [
    ["memory", "list"],
    ["memory", "save", "--name", "x", "--type", "project", "--body", "y"],
    ["memory", "read", "project/x.md"],
    ["memory", "search", "x"],
    ["memory", "instructions"],
    ["memory", "recall"],
    ["memory", "archived"],
    ["memory", "migrate"],
    ["recall", "how do we deploy?"],
    ["prefix"],
    ["instructions", "add", "Always run the tests.", "--scope", "project"],
    ["history", "append", "Remember to run ruff."],
    ["approvals", "list"],
    ["suggestions"],
]


def _tree(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


@pytest.mark.parametrize("argv", WORKSPACE_COMMANDS, ids=" ".join)
def test_a_workspace_that_does_not_exist_is_an_error_and_writes_nothing(
    tmp_path: Path, argv: list[str]
) -> None:
    home = tmp_path / "home"
    home.mkdir()
    before = _tree(tmp_path)
    missing = tmp_path / "does-not-exist"
    proc = run_inprocess(["--home", str(home), "--workspace", str(missing), "--json", *argv])
    assert proc.returncode == 1, proc.stderr
    assert json.loads(proc.stdout)["error"]["code"] == "workspace_not_found"
    assert "does-not-exist does not exist" in proc.stderr
    assert _tree(tmp_path) == before


def test_a_file_given_as_workspace_is_refused(tmp_path: Path, home: Path) -> None:
    file = tmp_path / "notes.txt"
    file.write_text("x")
    proc = run_inprocess(["--home", str(home), "--workspace", str(file), "memory", "list"])
    assert proc.returncode == 1
    assert "is not a folder" in proc.stderr


def _cli(home: Path, workspace: Path, *argv: str, stdin: str | None = None) -> object:
    return run_inprocess(["--home", str(home), "--workspace", str(workspace), *argv], stdin)


def test_memory_read_shows_the_hash_and_a_hand_edit_refusal_names_the_flag(
    home: Path, workspace: Path
) -> None:
    made = run_inprocess(
        [
            "--home",
            str(home),
            "--workspace",
            str(workspace),
            "--json",
            "memory",
            "save",
            "--name",
            "api-rate",
            "--type",
            "project",
            "--body",
            "150 requests per minute",
        ]
    )
    assert made.returncode == 0, made.stderr
    path = next((home / "projects").rglob("api-rate.md"))
    path.write_text(path.read_text() + "\nEdited by hand.\n")
    read = run_inprocess(
        [
            "--home",
            str(home),
            "--workspace",
            str(workspace),
            "memory",
            "read",
            "project/api-rate.md",
        ]
    )
    hash_line = next(line for line in read.stdout.splitlines() if line.startswith("hash:"))
    sha = hash_line.split()[1]
    assert len(sha) == 64 and "--expected-hash" in hash_line
    refused = run_inprocess(
        [
            "--home",
            str(home),
            "--workspace",
            str(workspace),
            "memory",
            "save",
            "project/api-rate.md",
            "--expected-revision",
            "1",
            "--body",
            "200 requests per minute",
        ]
    )
    assert refused.returncode == 1
    assert f"--expected-hash {sha}" in refused.stderr
    saved = run_inprocess(
        [
            "--home",
            str(home),
            "--workspace",
            str(workspace),
            "memory",
            "save",
            "project/api-rate.md",
            "--expected-revision",
            "1",
            "--expected-hash",
            sha,
            "--body",
            "200 requests per minute",
        ]
    )
    assert saved.returncode == 0, saved.stderr


def _second_column(row: str) -> int:
    """The terminal column where the text after the first column starts."""
    first = row.split()[0]
    rest = row[len(first) :]
    return display_width(first) + len(rest) - len(rest.lstrip())


def test_columns_line_up_by_display_width(home: Path, workspace: Path) -> None:
    for name in ("发布流程", "release-branch", "混合-mixed-名字"):
        made = run_inprocess(
            [
                "--home",
                str(home),
                "--workspace",
                str(workspace),
                "memory",
                "save",
                "--name",
                name,
                "--type",
                "project",
                "--body",
                f"{name} body about releases",
            ]
        )
        assert made.returncode == 0, made.stderr
    for argv in (["memory", "list"], ["memory", "search", "releases body"]):
        out = run_inprocess(["--home", str(home), "--workspace", str(workspace), *argv]).stdout
        rows = [line for line in out.splitlines() if line.startswith("project/")]
        assert len(rows) == 3, out
        # the second column starts at the same terminal column on every row
        starts = {_second_column(row) for row in rows}
        assert len(starts) == 1, rows


def test_pad_counts_wide_characters_twice() -> None:
    assert display_width("发布") == 4
    assert pad("发布", 6) == "发布  "
    assert pad("abc", 6) == "abc   "
    assert pad("toolong", 3) == "toolong"


def test_an_unknown_option_shows_the_subcommand_usage() -> None:
    proc = run_inprocess(["memory", "list", "--foo"])
    assert proc.returncode == 2
    assert "usage: context-center memory list" in proc.stderr
    assert "unrecognized arguments: --foo" in proc.stderr


def test_version_with_json() -> None:
    assert json.loads(run_inprocess(["--json", "--version"]).stdout) == {"version": __version__}
    assert json.loads(run_inprocess(["--version", "--json"]).stdout) == {"version": __version__}
    assert run_inprocess(["--version"]).stdout == f"context-center {__version__}\n"


@pytest.mark.parametrize("where", ["host:/srv/shop", "build.example.com:/srv/x", "ssh://box/x"])
def test_a_remote_workspace_is_refused_as_remote(tmp_path: Path, where: str) -> None:
    home = tmp_path / "home"
    proc = run_inprocess(["--home", str(home), "--workspace", where, "--json", "memory", "list"])
    assert proc.returncode == 1
    assert json.loads(proc.stdout)["error"]["code"] == "remote_workspace"
    assert not home.exists()


def test_a_rename_needs_the_id(home: Path, workspace: Path) -> None:
    base = ["--home", str(home), "--workspace", str(workspace), "--json"]
    made = json.loads(
        run_inprocess(
            [
                *base,
                "memory",
                "save",
                "--name",
                "release-branch",
                "--type",
                "project",
                "--body",
                "Cut from release/*.",
            ]
        ).stdout
    )
    by_name = run_inprocess(
        [*base, "memory", "save", "release-branch", "--expected-revision", "1", "--name", "renamed"]
    )
    assert by_name.returncode == 1
    assert "only done through its id" in json.loads(by_name.stdout)["error"]["message"]
    fact_id = made["fact"]["id"]
    by_id = run_inprocess(
        [*base, "memory", "save", fact_id, "--expected-revision", "1", "--name", "renamed"]
    )
    assert by_id.returncode == 0, by_id.stderr
    kinds = {c["ref"]: c["kind"] for c in json.loads(by_id.stdout)["changes"]["facts"]}
    assert kinds == {"project/renamed.md": "updated", "project/release-branch.md": "renamed"}
