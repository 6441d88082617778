"""`agent remember` and `agent forget` through the real argument parser."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from context_center.cli import main
from context_center.engine.facade import Engine
from context_center.engine.gate.approvals import ApprovalQueue
from context_center.engine.model import FactType


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    data = json.loads(out.out) if "--json" in argv and out.out.strip() else out.out
    return code, data, out.err


@pytest.fixture
def base(home: Path, workspace: Path) -> list[str]:
    return ["--home", str(home), "--workspace", str(workspace)]


def write_input(tmp_path: Path, **fields: Any) -> str:
    path = tmp_path / "input.json"
    path.write_text(json.dumps(fields), encoding="utf-8")
    return str(path)


LOW_RISK = {
    "name": "test command",
    "title": "Test command",
    "description": "how to run the suite",
    "type": "project",
    "body": "pytest -q",
}


def test_remember_applied(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path, engine: Engine
) -> None:
    code, data, _ = run(
        capsys,
        *base,
        "agent",
        "remember",
        "--json-input",
        write_input(tmp_path, **LOW_RISK),
        "--agent",
        "claude-code",
        "--json",
    )
    assert code == 0
    assert data["outcome"] == "applied"
    assert data["reasons"] == []
    assert data["agent"] == "claude-code"
    assert data["controller"] == "headless"
    assert data["fact"]["ref"] == "project/test-command.md"
    assert engine.memory.resolve("test-command").fact.body == "pytest -q"


def test_remember_queued_prints_pending_id(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path, engine: Engine
) -> None:
    inp = write_input(tmp_path, **{**LOW_RISK, "type": "user"})
    code, data, _ = run(
        capsys,
        *base,
        "agent",
        "remember",
        "--json-input",
        inp,
        "--controller",
        "interactive",
        "--json",
    )
    assert code == 0
    assert data["outcome"] == "queued"
    assert [r["code"] for r in data["reasons"]] == ["type_needs_confirmation"]
    assert [r.id for r in ApprovalQueue.for_layout(engine.layout).pending()] == [data["pending_id"]]
    assert "pytest -q" not in json.dumps(data)  # the proposed body is not echoed


def test_remember_text_output(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path
) -> None:
    inp = write_input(tmp_path, **{**LOW_RISK, "scope": "global"})
    code, text, _ = run(capsys, *base, "agent", "remember", "--json-input", inp)
    assert code == 0
    assert text.startswith("queued for approval: apr-")
    assert "global_scope: global memory requires confirmation" in text


@pytest.mark.parametrize(
    ("flags", "code_expected"),
    [
        (["--controller", "subagent"], "subagent"),
        (["--controller", "headless", "--not-owner"], "headless_not_owner"),
    ],
)
def test_remember_refused(
    capsys: pytest.CaptureFixture[str],
    base: list[str],
    tmp_path: Path,
    engine: Engine,
    flags: list[str],
    code_expected: str,
) -> None:
    code, data, _ = run(
        capsys,
        *base,
        "agent",
        "remember",
        "--json-input",
        write_input(tmp_path, **LOW_RISK),
        *flags,
        "--json",
    )
    assert code == 1
    assert data["outcome"] == "refused"
    assert [r["code"] for r in data["reasons"]] == [code_expected]
    assert engine.memory.load().facts == []


def test_interactive_not_owner_is_queued(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path
) -> None:
    code, data, _ = run(
        capsys,
        *base,
        "agent",
        "remember",
        "--json-input",
        write_input(tmp_path, **LOW_RISK),
        "--controller",
        "interactive",
        "--not-owner",
        "--json",
    )
    assert code == 0
    assert [r["code"] for r in data["reasons"]] == ["not_store_owner"]


def test_json_input_cannot_claim_ownership(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path
) -> None:
    inp = write_input(tmp_path, **LOW_RISK, controller="interactive", owns_store=True)
    code, data, _ = run(
        capsys,
        *base,
        "agent",
        "remember",
        "--json-input",
        inp,
        "--controller",
        "subagent",
        "--json",
    )
    assert code == 1
    assert [r["code"] for r in data["reasons"]] == ["subagent"]


def test_unknown_field_is_refused(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path
) -> None:
    code, data, _ = run(
        capsys,
        *base,
        "agent",
        "remember",
        "--json-input",
        write_input(tmp_path, **LOW_RISK, priority="high"),
        "--json",
    )
    assert code == 1
    assert data["outcome"] == "refused"
    assert data["reasons"][0]["code"] == "invalid_request"


def test_remember_reads_stdin(
    capsys: pytest.CaptureFixture[str], base: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(json.dumps(LOW_RISK)))
    code, data, _ = run(capsys, *base, "agent", "remember", "--json-input", "-", "--json")
    assert (code, data["outcome"]) == (0, "applied")


@pytest.mark.parametrize("payload", ["not json", "[1, 2]"])
def test_bad_json_input_is_an_error(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path, payload: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(payload)
    code, data, _ = run(capsys, *base, "agent", "remember", "--json-input", str(path), "--json")
    assert code == 1
    assert data["error"]["code"] == "invalid_request"


def test_remember_with_id_is_an_update(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path, engine: Engine
) -> None:
    fact = engine.memory.create(name="notes", type=FactType.PROJECT, body="old")
    code, data, _ = run(
        capsys,
        *base,
        "agent",
        "remember",
        "--json-input",
        write_input(tmp_path, id=fact.id, body="new"),
        "--json",
    )
    assert code == 0
    assert data["outcome"] == "queued"
    assert data["operation"] == "update"
    assert data["target_ref"] == "project/notes.md"
    assert engine.memory.resolve(fact.id).fact.body == "old"


def test_forget_is_queued(
    capsys: pytest.CaptureFixture[str], base: list[str], engine: Engine
) -> None:
    engine.memory.create(name="notes", type=FactType.PROJECT, body="b")
    code, data, _ = run(
        capsys, *base, "agent", "forget", "project/notes.md", "--agent", "codex", "--json"
    )
    assert code == 0
    assert data["outcome"] == "queued"
    assert data["operation"] == "forget"
    assert [r["code"] for r in data["reasons"]] == ["forget_needs_confirmation"]
    assert engine.memory.resolve("notes").fact.body == "b"


def test_forget_missing_is_refused(capsys: pytest.CaptureFixture[str], base: list[str]) -> None:
    code, data, _ = run(capsys, *base, "agent", "forget", "nope", "--json")
    assert code == 1
    assert data["outcome"] == "refused"
    assert data["reasons"][0]["code"] == "target_not_found"


def test_forget_by_subagent_is_refused(
    capsys: pytest.CaptureFixture[str], base: list[str], engine: Engine
) -> None:
    engine.memory.create(name="notes", type=FactType.PROJECT, body="b")
    code, data, _ = run(
        capsys, *base, "agent", "forget", "notes", "--controller", "subagent", "--json"
    )
    assert code == 1
    assert data["reasons"][0]["code"] == "subagent"


def test_remember_without_name_derives_it_from_the_title(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path, engine: Engine
) -> None:
    fields = {k: v for k, v in LOW_RISK.items() if k != "name"}
    code, data, _ = run(
        capsys,
        *base,
        "agent",
        "remember",
        "--json-input",
        write_input(tmp_path, **fields),
        "--json",
    )
    assert (code, data["outcome"]) == (0, "applied")
    assert data["fact"]["ref"] == "project/test-command.md"


def test_remember_without_name_or_title_is_refused(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path
) -> None:
    fields = {k: v for k, v in LOW_RISK.items() if k not in ("name", "title")}
    code, data, _ = run(
        capsys,
        *base,
        "agent",
        "remember",
        "--json-input",
        write_input(tmp_path, **fields),
        "--json",
    )
    assert (code, data["outcome"]) == (1, "refused")
    assert [r["code"] for r in data["reasons"]] == ["missing_field"]


def test_help_says_the_name_is_derived(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["agent", "remember", "--help"])
    assert "missing name is derived from the title" in " ".join(capsys.readouterr().out.split())


def test_ref_contradicting_scope_lists_each_code_once(
    capsys: pytest.CaptureFixture[str], base: list[str], tmp_path: Path, engine: Engine
) -> None:
    engine.memory.create(name="test command", type=FactType.PROJECT, body="b")
    inp = write_input(tmp_path, **{**LOW_RISK, "ref": "project/test-command.md", "scope": "global"})
    code, data, _ = run(capsys, *base, "agent", "remember", "--json-input", inp, "--json")
    assert (code, data["outcome"]) == (1, "refused")
    reason_codes = [r["code"] for r in data["reasons"]]
    assert reason_codes.count("ref_scope_mismatch") == 1
    assert len(reason_codes) == len(set(reason_codes))
