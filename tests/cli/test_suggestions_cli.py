"""`context-center suggestions …` and `history append`: JSON contract, exit codes, read-only scan."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from context_center.cli import main
from context_center.engine.store.paths import Layout


@pytest.fixture(autouse=True)
def _no_real_agent_homes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude-default"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex-default"))
    monkeypatch.delenv("CONTEXT_CENTER_SESSION", raising=False)


@pytest.fixture
def claude(tmp_path: Path, workspace: Path) -> Path:
    """A Claude Code transcript of this workspace, in the tool's own format."""
    root = tmp_path / "dot-claude"
    folder = (
        root
        / "projects"
        / "".join(c if c.isascii() and c.isalnum() else "-" for c in str(workspace))
    )
    folder.mkdir(parents=True)
    sid = "5b1d8f7a-0c2e-4e6b-9a41-3f2d7c9e8a10"
    common = {
        "isSidechain": False,
        "userType": "external",
        "cwd": str(workspace),
        "sessionId": sid,
        "version": "2.0.75",
        "gitBranch": "main",
    }
    lines = [
        common
        | {
            "parentUuid": None,
            "type": "user",
            "uuid": "u1",
            "timestamp": "2026-10-01T09:00:00.000Z",
            "message": {"role": "user", "content": "Never force-push to main."},
        },
        common
        | {
            "parentUuid": "u1",
            "type": "assistant",
            "uuid": "a1",
            "timestamp": "2026-10-01T09:00:03.000Z",
            "message": {
                "id": "msg_1",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-5",
                "content": [{"type": "text", "text": "I will always check first."}],
            },
        },
        common
        | {
            "parentUuid": "a1",
            "type": "user",
            "uuid": "u2",
            "timestamp": "2026-10-01T09:05:00.000Z",
            "message": {"role": "user", "content": "run the tests, then fix lint, then commit"},
        },
    ]
    (folder / f"{sid}.jsonl").write_text(
        "".join(json.dumps(x) + "\n" for x in lines) + "{torn", encoding="utf-8"
    )
    return root


def cli(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, *args: str
) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["--home", str(home), "--workspace", str(workspace), *args, "--json"])
    out = capsys.readouterr().out
    return code, json.loads(out)


def roots(tmp_path: Path) -> list[str]:
    return [
        "--claude-root",
        str(tmp_path / "dot-claude"),
        "--codex-root",
        str(tmp_path / "dot-codex"),
    ]


def _log_workflow(capsys: pytest.CaptureFixture[str], home: Path, workspace: Path) -> None:
    for session, text in [
        ("s1", "先跑测试，然后修复 lint，最后提交"),
        ("s2", "run the tests, then fix lint, then commit"),
        ("s2", "I prefer small pull requests over big ones."),
    ]:
        code, _ = cli(capsys, home, workspace, "history", "append", text, "--session", session)
        assert code == 0


def test_history_append_writes_the_documented_line(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path
) -> None:
    code, data = cli(
        capsys, home, workspace, "history", "append", "记住：提交信息用英文", "--session", "s9"
    )
    assert code == 0 and data["action"] == "appended"
    # no storage path in the output: only `memory archived` / `forget` show one
    assert set(data) == {"action", "entry"} and str(home) not in json.dumps(
        data, ensure_ascii=False
    )
    assert data["entry"]["text"] == "记住：提交信息用英文"
    path = Layout(home, workspace).state_dir / "history.jsonl"
    [line] = path.read_text(encoding="utf-8").splitlines()
    entry = json.loads(line)
    assert set(entry) == {"v", "session", "time", "role", "text", "cwd"}
    assert (entry["v"], entry["session"], entry["role"], entry["text"]) == (
        1,
        "s9",
        "user",
        "记住：提交信息用英文",
    )
    assert entry["cwd"] == str(workspace) and entry["time"].endswith("Z")
    code, data = cli(capsys, home, workspace, "history", "append", "   ")
    assert code == 1 and data["error"]["code"] == "invalid_request"


def test_history_append_reads_stdin(home: Path, workspace: Path, tmp_path: Path) -> None:
    env = os.environ | {"CONTEXT_CENTER_SESSION": "piped"}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "context_center",
            "--home",
            str(home),
            "--workspace",
            str(workspace),
            "history",
            "append",
            "-",
            "--json",
        ],
        input="Always run ruff before committing.\n",
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert result.returncode == 0, result.stderr
    entry = json.loads(result.stdout)["entry"]
    assert (entry["text"], entry["session"]) == ("Always run ruff before committing.", "piped")


def test_suggestions_json_lists_candidates_with_evidence_and_counts(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, tmp_path: Path, claude: Path
) -> None:
    _log_workflow(capsys, home, workspace)
    code, data = cli(capsys, home, workspace, "suggestions", *roots(tmp_path))
    assert code == 0 and data["available"] is True
    titles = {m["title"]: m["type"] for m in data["memories"]}
    assert titles == {
        "Never force-push to main": "project",
        "I prefer small pull requests over big ones": "project",
    }
    [skill] = data["skills"]
    assert (
        skill["name"] == "test-fix-lint-commit" and skill["turns"] == 3 and skill["sessions"] == 3
    )
    counts = {s["source"]: (s["status"], s["turns"], s["malformed"]) for s in data["sources"]}
    assert counts == {"history": ("ok", 3, 0), "claude": ("ok", 2, 1), "codex": ("missing", 0, 0)}
    force = next(m for m in data["memories"] if "force" in m["title"])
    assert force["evidence"] == [
        {
            "source": "claude",
            "session": "5b1d8f7a-0c2e-4e6b-9a41-3f2d7c9e8a10",
            "time": "2026-10-01T09:00:00.000Z",
            "quote": "Never force-push to main.",
        }
    ]


def test_suggestions_text(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, tmp_path: Path, claude: Path
) -> None:
    _log_workflow(capsys, home, workspace)
    code = main(
        ["--home", str(home), "--workspace", str(workspace), "suggestions", *roots(tmp_path)]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "skill-" in out and "memory-" in out and "1. Run the tests" in out
    assert "codex    missing" in out


def test_scan_through_the_cli_writes_nothing(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, tmp_path: Path, claude: Path
) -> None:
    _log_workflow(capsys, home, workspace)
    assert (
        cli(
            capsys,
            home,
            workspace,
            "memory",
            "save",
            "--name",
            "pr",
            "--type",
            "user",
            "--body",
            "Prefer small pull requests.",
        )[0]
        == 0
    )
    (workspace / "AGENTS.md").write_text("- Never force-push to main.\n")
    cache = home / "projects"
    for path in cache.rglob("facts-v4.bin"):
        path.unlink()  # a missing store cache must not be rebuilt by a scan

    def snap() -> dict[str, tuple[int, int]]:
        return {
            str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in sorted(tmp_path.rglob("*"))
        }

    before = snap()
    code, data = cli(capsys, home, workspace, "suggestions", *roots(tmp_path))
    assert code == 0 and data["skills"]
    # the AGENTS.md rule dedups the Claude turn; the fact dedups the history turn
    assert data["memories"] == []
    assert snap() == before


def test_accept_edit_and_dismiss(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, tmp_path: Path, claude: Path
) -> None:
    _log_workflow(capsys, home, workspace)
    _, data = cli(capsys, home, workspace, "suggestions", *roots(tmp_path))
    force = next(m for m in data["memories"] if "force" in m["title"])
    prs = next(m for m in data["memories"] if "pull" in m["title"])
    [skill] = data["skills"]

    edited = tmp_path / "edit.json"
    edited.write_text(
        json.dumps({"name": "no-force-push", "scope": "global", "title": "No force-push"})
    )
    code, out = cli(
        capsys,
        home,
        workspace,
        "suggestions",
        "accept",
        force["id"],
        "--edited",
        str(edited),
        *roots(tmp_path),
    )
    assert (
        code == 0
        and out["ref"] == "global/no-force-push.md"
        and out["fact"]["title"] == "No force-push"
    )
    _, listed = cli(capsys, home, workspace, "memory", "list")
    assert [f["ref"] for f in listed["facts"]] == ["global/no-force-push.md"]

    md = tmp_path / "skill.md"
    md.write_text(
        "---\nname: ship-it\ndescription: Test, lint, commit.\n---\n# Ship it\n\n1. Test\n2. Lint\n3. Commit\n"
    )
    code, out = cli(
        capsys,
        home,
        workspace,
        "suggestions",
        "accept",
        skill["id"],
        "--edited",
        str(md),
        *roots(tmp_path),
    )
    assert code == 0 and out["ref"] == ".agents/skills/ship-it/SKILL.md"
    text = (workspace / ".agents" / "skills" / "ship-it" / "SKILL.md").read_text()
    assert (
        text.startswith("---\nname: ship-it\ndescription: Test, lint, commit.\n---\n")
        and "2. Lint" in text
    )

    code, out = cli(capsys, home, workspace, "suggestions", "dismiss", prs["id"], *roots(tmp_path))
    assert code == 0 and out["decision"] == "dismissed"
    _, again = cli(capsys, home, workspace, "suggestions", *roots(tmp_path))
    assert again["memories"] == [] and again["skills"] == []

    code, err = cli(capsys, home, workspace, "suggestions", "accept", skill["id"], *roots(tmp_path))
    assert code == 1 and err["error"]["code"] == "invalid_request"
    code, err = cli(
        capsys,
        home,
        workspace,
        "suggestions",
        "dismiss",
        "memory-ffffffffffffffff",
        *roots(tmp_path),
    )
    assert code == 1 and err["error"]["code"] == "not_found"


def test_bad_edit_file_is_refused(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, tmp_path: Path
) -> None:
    _log_workflow(capsys, home, workspace)
    _, data = cli(capsys, home, workspace, "suggestions", *roots(tmp_path))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"colour": "blue"}))
    code, err = cli(
        capsys,
        home,
        workspace,
        "suggestions",
        "accept",
        data["memories"][0]["id"],
        "--edited",
        str(bad),
        *roots(tmp_path),
    )
    assert (
        code == 1
        and err["error"]["code"] == "invalid_request"
        and "colour" in err["error"]["message"]
    )


def test_remote_workspace_fails_closed(
    capsys: pytest.CaptureFixture[str], home: Path, tmp_path: Path
) -> None:
    # Named as a remote location, the workspace is refused before anything is read or written
    # (every command does that, not only suggestions).
    code, data = cli(capsys, home, Path("ssh://box/srv/shop"), "suggestions", *roots(tmp_path))  # type: ignore[arg-type]
    assert code == 1 and data["error"]["code"] == "remote_workspace"
    assert "remote location" in data["error"]["message"]
    code, err = cli(
        capsys,
        home,
        Path("ssh://box/srv/shop"),
        "suggestions",
        "accept",
        "memory-0",
        *roots(tmp_path),
    )
    assert code == 1 and err["error"]["code"] == "remote_workspace"
    assert not (home / "projects").exists()


@pytest.mark.parametrize("before", [True, False], ids=["roots-before-action", "roots-after-action"])
def test_roots_work_before_or_after_the_action(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    tmp_path: Path,
    claude: Path,
    before: bool,
) -> None:
    """The default roots ($CLAUDE_CONFIG_DIR, $CODEX_HOME) are empty here, so accept and dismiss
    find their candidate only when --claude-root reaches them, wherever it is written."""

    def run(action: str, cid: str) -> tuple[int, dict]:  # type: ignore[type-arg]
        where = (
            ["suggestions", *roots(tmp_path), action, cid]
            if before
            else ["suggestions", action, cid, *roots(tmp_path)]
        )
        return cli(capsys, home, workspace, *where)

    _, data = cli(capsys, home, workspace, "suggestions", *roots(tmp_path))
    [force] = data["memories"]  # only in the Claude transcript
    code, out = run("accept", force["id"])
    assert code == 0, out
    assert out["action"] == "accepted" and out["ref"] == f"project/{force['name']}.md"

    # two logged requests plus the Claude one make the workflow a skill candidate
    for session in ("h1", "h2"):
        text = "run the tests, then fix lint, then commit"
        assert cli(capsys, home, workspace, "history", "append", text, "--session", session)[0] == 0
    _, data = cli(capsys, home, workspace, "suggestions", *roots(tmp_path))
    assert data["memories"] == []
    [skill] = data["skills"]
    assert skill["turns"] == 3
    code, out = run("dismiss", skill["id"])
    assert code == 0, out
    assert out["action"] == "dismissed" and out["id"] == skill["id"]


def _codex_review(tmp_path: Path, workspace: Path) -> None:
    """A Codex /review rollout of this workspace: its prompt is Codex's, not the person's."""
    day = tmp_path / "dot-codex" / "sessions" / "2026" / "10" / "07"
    day.mkdir(parents=True)
    sid = "019a0000-aaaa-7bbb-8ccc-000000000001"
    text = "Review the current changes. Always flag missing tests as P1 findings."
    lines = [
        {
            "timestamp": "2026-10-07T10:00:00.000Z",
            "type": "session_meta",
            "payload": {
                "id": sid,
                "timestamp": "2026-10-07T10:00:00.000Z",
                "cwd": str(workspace),
                "originator": "codex_cli_rs",
                "cli_version": "0.98.0",
                "source": {"subagent": "review"},
            },
        },
        {
            "timestamp": "2026-10-07T10:00:01.000Z",
            "type": "response_item",
            "payload": {
                "type": "message",
                "role": "user",
                "content": [{"type": "input_text", "text": text}],
            },
        },
    ]
    (day / f"rollout-2026-10-07T10-00-00-{sid}.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8"
    )


def test_agent_sessions_redaction_and_duplicate_notes(
    capsys: pytest.CaptureFixture[str], home: Path, workspace: Path, tmp_path: Path
) -> None:
    _codex_review(tmp_path, workspace)
    for text in (
        "Always send the nightly report to ana.lima@example.com.",
        "Always run ruff before committing.",
    ):
        code, _ = cli(capsys, home, workspace, "history", "append", text, "--session", "s1")
        assert code == 0
    code, _ = cli(
        capsys, home, workspace, "memory", "save", "--name", "ruff", "--title", "Ruff first",
        "--type", "feedback", "--body", "Always run ruff before you commit.",
    )  # fmt: skip
    assert code == 0
    code, data = cli(capsys, home, workspace, "suggestions", *roots(tmp_path))
    assert code == 0
    codex = next(s for s in data["sources"] if s["source"] == "codex")
    assert codex["agent_sessions"] == 1 and codex["turns"] == 0
    assert "P1 findings" not in json.dumps(data)
    [memory] = data["memories"]
    assert memory["title"] == "Always send the nightly report to [email]"
    assert memory["redacted"] == ["email address"] and "ana.lima" not in json.dumps(data)
    assert any("project/ruff.md (“Ruff first”)" in note for note in data["notes"])
    main(["--home", str(home), "--workspace", str(workspace), "suggestions", *roots(tmp_path)])
    out = capsys.readouterr().out
    assert "(taken out: email address)" in out
    assert "1 session(s) an agent started not read" in out
    assert "note: Left out “Always run ruff before committing”" in out


def test_index_writes_the_phrase_index_only_where_a_scan_would_read_facts(
    capsys: pytest.CaptureFixture[str],
    home: Path,
    workspace: Path,
    tmp_path: Path,
    claude: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``suggestions index``: the maintenance the window runs in a child process."""
    from context_center.engine import Engine

    engine = Engine(home=home, workspace=workspace)
    path = engine._phrase_index_path()
    for i, body in enumerate(["Prefer small pull requests.", "提交前先跑测试。"]):
        code, _ = cli(
            capsys,
            home,
            workspace,
            "memory",
            "save",
            "--name",
            f"f{i}",
            "--type",
            "user",
            "--body",
            body,
        )
        assert code == 0
    code, data = cli(capsys, home, workspace, "suggestions", "index")  # no turns anywhere
    assert (code, data) == (0, {"action": "indexed", "facts_added": 0})
    assert not path.exists()
    code, data = cli(capsys, home, workspace, "suggestions", "index", *roots(tmp_path))
    assert (code, data) == (0, {"action": "indexed", "facts_added": 2})
    written = path.stat().st_mtime_ns
    code, data = cli(capsys, home, workspace, "suggestions", *roots(tmp_path), "index")
    assert (code, data["facts_added"]) == (0, 0)
    assert path.stat().st_mtime_ns == written  # current: nothing written
    assert (
        main(
            [
                "--home",
                str(home),
                "--workspace",
                str(workspace),
                "suggestions",
                "index",
                *roots(tmp_path),
            ]
        )
        == 0
    )
    assert "nothing to add" in capsys.readouterr().out
    blocker = tmp_path / "cache-is-a-file"
    blocker.write_text("x")
    monkeypatch.setenv("CONTEXT_CENTER_CACHE", str(blocker))
    code, data = cli(capsys, home, workspace, "suggestions", "index", *roots(tmp_path))
    assert code == 1 and data["error"]["code"] == "store_unavailable"
