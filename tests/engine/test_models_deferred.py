"""The engine's pydantic models build their validators on first use (``defer_build``): a
process pays only for the models it validates (41 classes cost ~0.1 s of every start). The
first use may come from two threads at once (the window's worker and its main thread), which
pydantic makes safe from 2.14 on (a lock around the deferred build)."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
import threading
from datetime import UTC, datetime

import pydantic
from pydantic import BaseModel

import context_center.engine as engine_pkg


def _engine_models() -> list[type[BaseModel]]:
    for info in pkgutil.walk_packages(engine_pkg.__path__, "context_center.engine."):
        importlib.import_module(info.name)
    found: list[type[BaseModel]] = []
    todo = list(BaseModel.__subclasses__())
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("context_center.engine."):
            found.append(cls)
    return found


def test_every_engine_model_defers_its_build() -> None:
    models = _engine_models()
    assert len(models) >= 40, [m.__name__ for m in models]
    eager = [
        f"{m.__module__}.{m.__qualname__}" for m in models if not m.model_config.get("defer_build")
    ]
    assert eager == []


def test_the_pinned_pydantic_builds_deferred_models_under_a_lock() -> None:
    from pydantic import main as pydantic_main

    major, minor = (int(x) for x in pydantic.VERSION.split(".")[:2])
    assert (major, minor) >= (2, 14)
    assert hasattr(pydantic_main, "_rebuild_lock")


def test_a_fresh_process_imports_the_models_unbuilt_and_validates_them_from_many_threads() -> None:
    # in a process of its own: here other tests have long built the models
    code = r"""
import threading
from datetime import UTC, datetime
from context_center.engine.model import Diagnostic, Fact, FactType, Scope, new_fact_id
assert not Fact.__pydantic_complete__, "Fact was built at import"
now = datetime(2026, 11, 2, 9, 14, tzinfo=UTC)
errors, facts = [], []
barrier = threading.Barrier(8)
def make(i):
    barrier.wait()
    try:
        facts.append(Fact(id=new_fact_id(), name=f"n-{i}", title=f"T {i}", description="d",
                          type=FactType.PROJECT, scope=Scope.PROJECT, body="b", revision=1,
                          created_at=now, updated_at=now))
        Diagnostic(scope=Scope.PROJECT, path=f"p{i}.md", code="bad_yaml", message="m")
    except Exception as exc:
        errors.append(repr(exc))
threads = [threading.Thread(target=make, args=(i,)) for i in range(8)]
for t in threads: t.start()
for t in threads: t.join()
assert errors == [], errors
assert sorted(f.name for f in facts) == [f"n-{i}" for i in range(8)]
assert Fact.__pydantic_complete__
try:
    Fact(id=new_fact_id(), name="x", title="x", description="", type="project",
         scope=Scope.PROJECT, body="", revision=1, created_at=now, updated_at=now)
except Exception as exc:
    print("refused", type(exc).__name__)
"""
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "refused ValidationError"


def test_a_deferred_model_still_validates_strictly() -> None:
    from context_center.engine.model import Fact, FactType, Scope, new_fact_id

    now = datetime(2026, 11, 2, 9, 14, tzinfo=UTC)
    results: list[str] = []

    def bad() -> None:
        try:
            Fact(
                id=new_fact_id(), name="x", title="x", description="", type=FactType.PROJECT,
                scope=Scope.PROJECT, body="", revision="1", created_at=now, updated_at=now,  # type: ignore[arg-type]
            )  # fmt: skip
        except pydantic.ValidationError:
            results.append("refused")

    threads = [threading.Thread(target=bad) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["refused"] * 4
