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


def _run_demo_and_signal(tmp_path: Path, cli_env: dict[str, str], signum: int) -> tuple[int, str]:
    import os
    import signal as _signal  # noqa: F401  (the caller passes its constants)
    import time

    tmp = tmp_path / "tmp"
    tmp.mkdir()
    cache = tmp_path / "cache"
    env = dict(
        cli_env,
        TMPDIR=str(tmp),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_CACHE_HOME=str(cache),
    )
    env.pop("CONTEXT_CENTER_CACHE", None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "context_center", "--demo"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(
        p.name.startswith("context-center-demo-") for p in tmp.iterdir()
    ):
        time.sleep(0.05)
    time.sleep(3.0)  # the window is up by now (and the handler works before, too)
    os.kill(proc.pid, signum)
    _out, err = proc.communicate(timeout=60)
    left = [p.name for p in tmp.iterdir() if p.name.startswith("context-center-demo-")]
    assert left == [], "the demo home was not removed"
    config = "".join(p.read_text() for p in (tmp_path / "config").rglob("*.conf"))
    assert "context-center-demo-" not in config  # never a recent workspace
    assert "Traceback" not in err, err
    assert not list(cache.rglob("stores")), "the demo left caches behind"
    return proc.returncode, err


def test_sigterm_closes_cleanly_and_removes_the_demo(tmp_path: Path, cli_env) -> None:
    import signal

    code, _err = _run_demo_and_signal(tmp_path, cli_env, signal.SIGTERM)
    assert code == 0


def test_ctrl_c_closes_cleanly_with_130(tmp_path: Path, cli_env) -> None:
    import signal

    code, _err = _run_demo_and_signal(tmp_path, cli_env, signal.SIGINT)
    assert code == 130


def test_demo_home_is_removed_when_start_up_fails(
    tmp_path: Path, monkeypatch, qapp, app_style
) -> None:  # type: ignore[no-untyped-def]
    import tempfile

    import pytest
    import qasync

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def boom(_coro):  # type: ignore[no-untyped-def]
        _coro.close()
        raise RuntimeError("the window failed to start")

    monkeypatch.setattr(qasync, "run", boom)
    monkeypatch.setenv("QT_QPA_PLATFORM", "offscreen")
    args = argparse.Namespace(home=None, workspace=None, demo=True, smoke_test=False)
    with pytest.raises(RuntimeError, match="failed to start"):
        launch(args)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("context-center-demo-")]


def test_a_demo_workspace_is_never_remembered(qtbot, ctx, settings, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from context_center.ui.widgets.workspace_picker import RECENT_KEY, WorkspacePicker

    demo = tmp_path / "context-center-demo-x"
    picker = WorkspacePicker(settings, transient_roots=(demo,))
    qtbot.addWidget(picker)
    picker.set_current(demo / "workspace" / "shop-api")
    assert settings.value(RECENT_KEY, []) in ([], None)
    assert picker.currentData() == str(demo / "workspace" / "shop-api")  # shown, not stored
    real = tmp_path / "real"
    picker.set_current(real)
    assert settings.value(RECENT_KEY) in ([str(real)], str(real))
