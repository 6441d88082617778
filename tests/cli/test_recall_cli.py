"""`recall`, `memory recall` and `memory search` through the real argument parser."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from context_center.cli import main
from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, Any]:
    code = main(list(argv))
    out = capsys.readouterr().out
    return code, json.loads(out) if "--json" in argv else out


@pytest.fixture
def eng(home: Path, workspace: Path) -> Engine:
    e = Engine(home=home, workspace=workspace)
    m = e.memory
    m.create(
        name="authhandler-6928",
        title="AuthHandler issue 6928",
        type=FactType.PROJECT,
        description="AuthHandler panic tracked by issue 6928",
        body="AuthHandler panics when session metadata is missing; see /home/alice/x.log",
    )
    m.create(
        name="发布流程",
        title="发布流程",
        type=FactType.PROJECT,
        description="项目的发布流程约定",
        body="发布流程：先打标签，再更新变更日志，最后部署。",
    )
    m.create(
        name="response-style",
        title="Response style",
        type=FactType.USER,
        scope=Scope.GLOBAL,
        body="Keep technical explanations concise and concrete.",
    )
    m.create(
        name="deploy-target",
        title="Deploy target",
        type=FactType.PROJECT,
        scope=Scope.GLOBAL,
        body="Deploy payments to the legacy cluster.",
    )
    m.create(
        name="deploy-target",
        title="Deploy target",
        type=FactType.PROJECT,
        body="Deploy payments to the green cluster.",
    )
    return e


def base(eng: Engine) -> list[str]:
    return ["--home", str(eng.home), "--workspace", str(eng.workspace)]


def test_recall_json_block_trace_and_last_trace(
    capsys: pytest.CaptureFixture[str], eng: Engine
) -> None:
    code, data = run(capsys, *base(eng), "recall", "fix AuthHandler panic from #6928", "--json")
    assert code == 0
    trace = data["trace"]
    assert [s["ref"] for s in trace["selected"]] == ["project/authhandler-6928.md"]
    assert trace["selected"][0]["reason"] == "matched authhandler, panic, 6928; project scope"
    assert data["block"].count("</memory-recall>") == 1
    assert "<local-home>/x.log" in data["block"] and "alice" not in data["block"]
    assert str(eng.home) not in data["block"]
    assert trace["chars_used"] == len(data["block"])
    code, last = run(capsys, *base(eng), "memory", "recall", "--json")
    assert code == 0
    assert last["trace"] == trace


def test_recall_text_output(capsys: pytest.CaptureFixture[str], eng: Engine) -> None:
    code, out = run(capsys, *base(eng), "recall", "发布流程是怎样的？")
    assert code == 0
    assert out.startswith("<memory-recall>\n")
    assert "recalled 1 fact(s): project/发布流程.md" in out
    assert "selected:" in out


def test_generic_turn_recalls_nothing(capsys: pytest.CaptureFixture[str], eng: Engine) -> None:
    code, data = run(capsys, *base(eng), "recall", "继续", "--json")
    assert code == 0
    assert data["block"] == ""
    assert data["trace"]["suppressed"][0]["reason"] == "generic_turn"
    code, out = run(capsys, *base(eng), "memory", "recall")
    assert "nothing recalled: generic user turn" in out


def test_project_override_and_stable_guidance(
    capsys: pytest.CaptureFixture[str], eng: Engine
) -> None:
    _, data = run(capsys, *base(eng), "recall", "deploy payments target cluster", "--json")
    assert [s["ref"] for s in data["trace"]["selected"]] == ["project/deploy-target.md"]
    reasons = {(s["reason"], s["ref"]) for s in data["trace"]["suppressed"]}
    assert ("project_override", "global/deploy-target.md") in reasons
    _, data = run(capsys, *base(eng), "recall", "keep technical explanations concise", "--json")
    assert data["block"] == ""
    assert data["trace"]["suppressed"][0]["reason"] == "stable_guidance"


def test_budget_flags(capsys: pytest.CaptureFixture[str], eng: Engine) -> None:
    _, data = run(
        capsys,
        *base(eng),
        "recall",
        "AuthHandler 6928",
        "--max-chars",
        "500",
        "--max-facts",
        "1",
        "--json",
    )
    assert data["trace"]["char_budget"] == 500
    assert data["trace"]["max_facts"] == 1
    assert len(data["block"]) <= 500


def test_memory_recall_before_any_recall(capsys: pytest.CaptureFixture[str], eng: Engine) -> None:
    code, data = run(capsys, *base(eng), "memory", "recall", "--json")
    assert code == 0
    assert data == {"trace": None}


def test_memory_search(capsys: pytest.CaptureFixture[str], eng: Engine) -> None:
    code, data = run(capsys, *base(eng), "memory", "search", "deploy cluster", "--json")
    assert code == 0
    refs = [h["ref"] for h in data["hits"]]
    # Search crosses languages like recall: the Chinese fact says 发布, 部署 (deploy), ranked after
    # the direct matches and marked as reached through the vocabulary.
    assert refs == ["project/deploy-target.md", "global/deploy-target.md", "project/发布流程.md"]
    assert [m.endswith(" via deploy") for m in data["hits"][2]["matched"]] == [True]
    assert data["hits"][2]["score"] < data["hits"][1]["score"]
    assert "body" not in data["hits"][0] and "snippet" in data["hits"][0]
    _, data = run(capsys, *base(eng), "memory", "search", "concise", "--json")
    assert [h["ref"] for h in data["hits"]] == ["global/response-style.md"]  # not suppressed
    _, data = run(capsys, *base(eng), "memory", "search", "deploy", "--scope", "global", "--json")
    assert [h["ref"] for h in data["hits"]] == ["global/deploy-target.md"]
    _, data = run(capsys, *base(eng), "memory", "search", "deploy", "--type", "user", "--json")
    assert data["hits"] == []
    code, out = run(capsys, *base(eng), "memory", "search", "发布流程")
    assert "project/发布流程.md" in out


def test_search_excludes_archived(capsys: pytest.CaptureFixture[str], eng: Engine) -> None:
    eng.open()
    eng.memory.forget("project/authhandler-6928.md")
    _, data = run(capsys, *base(eng), "memory", "search", "AuthHandler", "--json")
    assert data["hits"] == []
    _, data = run(capsys, *base(eng), "recall", "AuthHandler #6928", "--json")
    assert data["block"] == ""


@pytest.mark.parametrize("message", ["ok continue", "keep going, continue", "好的，继续执行吧"])
def test_generic_turn_with_filler_recalls_nothing(
    capsys: pytest.CaptureFixture[str], eng: Engine, message: str
) -> None:
    code, data = run(capsys, *base(eng), "recall", message, "--json")
    assert code == 0
    assert data["block"] == ""
    assert [s["reason"] for s in data["trace"]["suppressed"]] == ["generic_turn"]


def test_message_from_stdin_drops_the_trailing_newline(
    capsys: pytest.CaptureFixture[str], eng: Engine, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("fix AuthHandler panic from #6928\n"))
    code, data = run(capsys, *base(eng), "recall", "-", "--json")
    assert code == 0
    assert data["trace"]["query"] == "fix AuthHandler panic from #6928"
    assert [s["ref"] for s in data["trace"]["selected"]] == ["project/authhandler-6928.md"]


@pytest.mark.parametrize(
    "flags",
    [
        ["--max-facts", "0"],
        ["--max-facts", "-1"],
        ["--max-chars", "0"],
        ["--max-chars", "-480"],
        ["--max-facts", "many"],
    ],
)
def test_non_positive_limits_are_usage_errors(
    capsys: pytest.CaptureFixture[str], eng: Engine, flags: list[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main([*base(eng), "recall", "deploy payments", *flags, "--json"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert flags[0] in err


def test_limits_out_of_range_are_clamped(capsys: pytest.CaptureFixture[str], eng: Engine) -> None:
    _, data = run(
        capsys,
        *base(eng),
        "recall",
        "deploy payments cluster",
        "--max-facts",
        "20",
        "--max-chars",
        "100",
        "--json",
    )
    assert (data["trace"]["max_facts"], data["trace"]["char_budget"]) == (8, 480)
    assert len(data["block"]) <= 480


def test_trace_time_and_suppressions_in_the_output(
    capsys: pytest.CaptureFixture[str], eng: Engine
) -> None:
    _, data = run(capsys, *base(eng), "recall", "panics in production today", "--json")
    trace = data["trace"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", trace["at"])
    assert data["block"] == ""
    assert [(s["reason"], s["ref"]) for s in trace["suppressed"]] == [
        ("no_distinctive_match", None),
        ("no_distinctive_match", "project/authhandler-6928.md"),
    ]
    _, out = run(capsys, *base(eng), "memory", "recall")
    assert "no_distinctive_match" in out and "project/authhandler-6928.md" in out


def test_search_limit_must_be_positive(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    for bad in ("0", "-3", "x"):
        result = subprocess.run(
            [
                sys.executable,
                "-m",
                "context_center",
                "--home",
                str(tmp_path / "h"),
                "--workspace",
                str(tmp_path),
                "memory",
                "search",
                "q",
                "--limit",
                bad,
            ],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert result.returncode == 2, bad
