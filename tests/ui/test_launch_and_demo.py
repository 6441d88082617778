"""The launcher (no-display message, --smoke-test contract) and the --demo sample."""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from context_center.demo import generate
from context_center.engine.facade import Engine
from context_center.engine.instructions.resolve import resolve_instructions
from context_center.engine.model import FactType, Freshness, Scope
from context_center.ui.launch import NO_DISPLAY_MESSAGE, has_display, launch


def test_has_display_rules() -> None:
    assert not has_display({}, "linux")
    assert has_display({"DISPLAY": ":0"}, "linux")
    assert has_display({"WAYLAND_DISPLAY": "wayland-0"}, "linux")
    assert has_display({"QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert has_display({}, "darwin")


def test_no_display_says_so_instead_of_aborting(monkeypatch, capsys) -> None:
    for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(sys, "platform", "linux")
    args = argparse.Namespace(home=None, workspace=None, demo=False, smoke_test=False)
    assert launch(args) == 1
    assert capsys.readouterr().err == NO_DISPLAY_MESSAGE


def test_smoke_test_on_the_demo(tmp_path: Path, cli_env) -> None:
    env = dict(cli_env, CONTEXT_CENTER_HOME=str(tmp_path / "not-yet"), LANG="C.UTF-8")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "config")
    result = subprocess.run(
        [sys.executable, "-m", "context_center", "--demo", "--smoke-test"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.strip().splitlines()
    assert len(lines) == 1
    report = json.loads(lines[0])
    assert report["smoke_test"] == "ok"
    assert report["desktop_file_name"] == "io.github.contextcenter.ContextCenter"
    assert report["application_name"] == "context-center"
    assert report["window_icon"] is True
    assert report["window_title"] == "shop-api — Context Center"  # the name once
    assert report["since_main_ms"] > 0
    assert "Signal source has been deleted" not in result.stderr
    assert "Traceback" not in result.stderr


def test_demo_has_everything_the_window_shows(tmp_path: Path) -> None:
    sample = generate(tmp_path)
    engine = Engine(home=sample.home, workspace=sample.workspace)
    view = engine.open()
    facts = view.facts
    assert {f.type for f in facts} == set(FactType)
    assert {(f.type, f.scope) for f in facts} >= {
        (FactType.USER, Scope.GLOBAL),
        (FactType.USER, Scope.PROJECT),
    }
    assert [(c.project_ref, c.global_ref, c.key) for c in view.conflicts] == [
        ("project/release-branch.md", "global/release-branch.md", "name")
    ]
    freshness = {f.freshness() for f in facts}
    assert {Freshness.FRESH, Freshness.STALE} <= freshness
    assert max(f.revision for f in facts) >= 4
    assert any(any("\u4e00" <= ch <= "\u9fff" for ch in f.title) for f in facts)
    archived = engine.memory.archived()
    assert len(archived) >= 3 and all(a.fact is not None for a in archived)
    res = resolve_instructions(
        engine.home, engine.workspace, sample.workspace / "services" / "payments"
    )
    labels = [d.label for d in res.documents]
    assert labels == [
        "user/AGENTS.md",
        "workspace/AGENTS.md",
        "workspace/AGENTS.local.md",
        "workspace/services/payments/AGENTS.md",
    ]
    assert [d.code for d in res.diagnostics] == ["import_outside_source"]
    assert any(imp.depth == 2 for d in res.documents for imp in d.imports)
    from context_center.engine.gate.approvals import ApprovalQueue

    assert len(ApprovalQueue.for_layout(engine.layout).pending()) == 4
    assert (engine.layout.state_dir / "history.jsonl").is_file()
    assert (engine.layout.state_dir / "recall-trace.json").is_file()
