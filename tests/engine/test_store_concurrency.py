"""Several processes on one store: create races, update races, and writers killed mid-write."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from context_center.engine.facade import Engine
from context_center.engine.model import FactType, Scope, utc_now
from context_center.engine.store.factfile import parse_fact_bytes

pytestmark = pytest.mark.slow

WORKER = r"""
import json, sys, time
from context_center.engine.facade import Engine
from context_center.engine.errors import EngineError
from context_center.engine.model import FactType
home, ws, mode, tag, start = sys.argv[1:6]
engine = Engine(home=home, workspace=ws)
while time.time() < float(start):
    time.sleep(0.001)
results = {}
if mode == "create":
    for i in range(int(sys.argv[6])):
        name = f"race-{i}"
        try:
            engine.memory.create(name=name, type=FactType.PROJECT, body=f"written by {tag}")
            results[name] = "won"
        except EngineError as exc:
            results[name] = exc.code
elif mode == "update":
    try:
        engine.memory.update("project/shared.md", expected_revision=1, body=f"update from {tag}")
        results["shared"] = "won"
    except EngineError as exc:
        results["shared"] = exc.code
print(json.dumps(results))
"""


def _run_all(args_list: list[list[str]]) -> list[dict[str, str]]:
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for args in args_list
    ]
    outs = []
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        outs.append(json.loads(out))
    return outs


def test_two_process_create_race_has_exactly_one_winner_per_name(engine: Engine) -> None:
    n = 60
    start = str(time.time() + 1.0)
    a, b = _run_all(
        [
            [str(engine.home), str(engine.workspace), "create", tag, start, str(n)]
            for tag in ("A", "B")
        ]
    )
    for i in range(n):
        name = f"race-{i}"
        outcomes = sorted([a[name], b[name]])
        assert outcomes == ["already_exists", "won"], (name, outcomes)
        winner = "A" if a[name] == "won" else "B"
        assert engine.memory.resolve(name).fact.body == f"written by {winner}"
    view = engine.memory.load()
    assert len(view.facts) == n and view.diagnostics == []
    assert not [p for p in engine.layout.project_store.iterdir() if p.name.startswith(".tmp-")]


def test_concurrent_updates_from_one_base_revision(engine: Engine) -> None:
    fact = engine.memory.create(name="shared", type=FactType.PROJECT, body="base")
    start = str(time.time() + 1.0)
    outs = _run_all(
        [[str(engine.home), str(engine.workspace), "update", f"P{i}", start] for i in range(4)]
    )
    results = [o["shared"] for o in outs]
    assert results.count("won") == 1
    assert sorted(r for r in results if r != "won") == ["revision_conflict"] * 3
    current = engine.memory.resolve("shared").fact
    assert current.revision == 2
    winner = f"P{results.index('won')}"
    assert current.body == f"update from {winner}"
    snaps = list((engine.layout.project_store / ".revisions" / fact.id).iterdir())
    assert [p.name for p in snaps] == ["000000001.md"]


KILLER = r"""
import sys
from context_center.engine.facade import Engine
from context_center.engine.model import FactType
home, ws, run = sys.argv[1:4]
engine = Engine(home=home, workspace=ws)
i = 0
print("ready", flush=True)
while True:
    i += 1
    for n in range(5):
        ref = f"project/fact-{n}.md"
        entry = engine.memory.resolve(ref)
        engine.memory.update(ref, expected_revision=entry.fact.revision, body=f"body {i} " + "x" * (i % 7) * 400)
    engine.memory.create(name=f"new-{run}-{i}", type=FactType.PROJECT, body=f"new body {i}")
    if i % 3 == 0:
        engine.memory.forget(f"project/new-{run}-{i}.md")
"""


def test_sigkill_at_random_points_never_tears_a_fact(engine: Engine) -> None:
    for n in range(5):
        engine.memory.create(name=f"fact-{n}", type=FactType.PROJECT, body="body 0 ")
    rng = random.Random(1234)
    for run in range(8):
        proc = subprocess.Popen(
            [sys.executable, "-c", KILLER, str(engine.home), str(engine.workspace), str(run)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"
        time.sleep(rng.uniform(0.05, 0.6))
        os.kill(proc.pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=30)
        assert proc.returncode == -signal.SIGKILL, err
        store = engine.layout.project_store
        for path in store.glob("*.md"):
            if path.name == "MEMORY.md":
                continue
            parsed = parse_fact_bytes(
                path.read_bytes(), stem=path.stem, directory_scope=Scope.PROJECT, mtime=utc_now()
            )
            body = parsed.fact.body
            assert body.startswith(("body ", "new body ")), body[:40]
        view = Engine(home=engine.home, workspace=engine.workspace).memory.load()
        assert [d for d in view.diagnostics if d.code != "duplicate_id"] == []
        assert {f"fact-{n}" for n in range(5)} <= {f.name for f in view.facts}
    # the lock is never left stuck: a new writer gets through at once
    start = time.monotonic()
    engine.memory.update(
        "project/fact-0.md",
        expected_revision=engine.memory.resolve("fact-0").fact.revision,
        body="after",
    )
    assert time.monotonic() - start < 5


RECOVER = r"""
import sys, time
from context_center.engine.facade import Engine
from context_center.engine.errors import EngineError
home, ws, path, start = sys.argv[1:5]
engine = Engine(home=home, workspace=ws)
while time.time() < float(start):
    time.sleep(0.001)
try:
    engine.memory.recover(path)
    print("won")
except EngineError as exc:
    print(exc.code)
"""


def test_two_concurrent_recovers_of_one_entry(engine: Engine) -> None:
    for round_ in range(3):
        fact = engine.memory.create(name=f"lost-{round_}", type=FactType.PROJECT, body="b")
        _, dest = engine.memory.forget(fact.ref)
        start = str(time.time() + 0.8)
        procs = [
            subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    RECOVER,
                    str(engine.home),
                    str(engine.workspace),
                    str(dest),
                    start,
                ],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        results = []
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert proc.returncode == 0, err
            results.append(out.strip())
        assert sorted(results) == ["not_found", "won"]
        current = engine.memory.resolve(fact.ref).fact
        assert current.revision == 2 and current.id == fact.id
        assert not dest.exists()
