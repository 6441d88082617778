"""The deterministic crash-point harness (issue 17): kill an operation at every file-system step.

An ``Operation`` builds a starting home once (``setup``), and names the one action to test
(``act``). The harness

1. runs ``act`` once in a forked child to completion, counting its *kill points* — every call
   that changes the file system: ``os.open`` for writing, ``write``, ``fsync``, ``link``,
   ``rename``, ``replace``, ``unlink``, ``mkdir``, ``rmdir``, ``ftruncate``, ``chmod``/``fchmod``
   and ``atomic.renameat2_noreplace`` (the no-replace rename goes through ctypes, not ``os``) —
   and records the state a person could see before and after (``observe``);
2. for every point k, restores the starting home into a fresh folder, forks a child that runs
   ``act`` and SIGKILLs itself just before point k (for a ``write``, optionally after writing
   half of the buffer: a torn write), then, in the parent, opens the home as the next process
   would and checks the invariants (``check``):

   * the store opens without diagnostics;
   * nothing is torn: every fact file, saved revision and archive entry parses;
   * nothing is doubled: one file per id in a store, no archive entry whose fact is active;
   * revisions are monotonic: no saved revision above the current one, and one equal to it
     holds the same bytes;
   * every acknowledged write is present and intact, and the operation took effect entirely or
     not at all: the visible state is exactly the state before or the state after;
   * a retry from the state before reaches the state after;
   * orphan temp files are swept once they are old (``atomic.ORPHAN_AGE_S``).

The child only runs engine code; fsync is a no-op there (a kill loses nothing the kernel holds,
only a power cut would), which keeps a full sweep fast. Operations come from ``crash_ops.py``;
another area's operation is one more ``Operation`` (it may add ``settle``, run before each
look, and ``extra_state``).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from context_center.engine import Engine
from context_center.engine.model import Scope
from context_center.engine.store import atomic
from context_center.engine.store.factfile import FactFileError, parse_fact_bytes
from context_center.engine.store.memory import Memory
from context_center.engine.store.paths import Layout

try:
    from context_center.engine.store.paths import store_cache_dir
except ImportError:  # an older build (the harness also runs against one, to show what it finds)

    def store_cache_dir(store_root: Path) -> Path:
        return store_root / ".cache"


_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
MUTATIONS = (
    "write",
    "fsync",
    "link",
    "rename",
    "replace",
    "unlink",
    "mkdir",
    "rmdir",
    "ftruncate",
    "chmod",
    "fchmod",
)
TEMP_NAME = re.compile(r"^\.tmp-[0-9a-f]{16}$")
ORPHAN_AGE_S = getattr(atomic, "ORPHAN_AGE_S", 3600.0)


@dataclass
class Operation:
    """One action under test. ``setup(engine)`` returns a context dict for ``act``."""

    name: str
    setup: Callable[[Engine], dict[str, Any]]
    act: Callable[[Engine, dict[str, Any]], object]
    files: tuple[str, ...] = ()  # instruction files (relative to home or workspace) to observe
    settle: Callable[[Engine], object] | None = None  # run before every look (e.g. a queue)
    extra_state: Callable[[Engine], object] | None = None


@dataclass
class Home:
    home: Path
    workspace: Path

    def engine(self) -> Engine:
        return Engine(home=self.home, workspace=self.workspace)


@dataclass
class Tally:
    kill_points: int = 0
    torn_points: int = 0
    checks: int = 0
    before: int = 0
    after: int = 0
    failures: list[str] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.kill_points += other.kill_points
        self.torn_points += other.torn_points
        self.checks += other.checks
        self.before += other.before
        self.after += other.after
        self.failures += other.failures


# -- the child ---------------------------------------------------------------------------------


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


@contextlib.contextmanager
def instrumented(kill_at: int | None, torn: bool, labels: list[str]) -> Iterator[None]:
    """Count kill points (labels[i] names point i+1); SIGKILL just before point ``kill_at``."""

    def point(label: str) -> bool:
        labels.append(label)
        return kill_at is not None and len(labels) == kill_at

    def wrap(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if point(_label(name, args)):
                if torn and name == "write" and len(args[1]) > 1:
                    fn(args[0], bytes(args[1])[: len(args[1]) // 2])
                _die()
            return fn(*args, **kwargs)

        return wrapper

    for name in MUTATIONS:
        setattr(os, name, wrap(name, getattr(os, name)))
    os.fsync = wrap("fsync", lambda fd: None)
    real_open = os.open

    def opener(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & _WRITE_FLAGS and point(_label("open", (path,))):
            _die()
        return real_open(path, flags, *args, **kwargs)

    os.open = opener  # type: ignore[assignment]
    if hasattr(atomic, "renameat2_noreplace"):
        atomic.renameat2_noreplace = wrap("renameat2", atomic.renameat2_noreplace)  # type: ignore[assignment]
    yield


def _label(name: str, args: tuple[Any, ...]) -> str:
    names = [Path(os.fsdecode(a)).name for a in args if isinstance(a, str | bytes | os.PathLike)]
    if name == "write":
        names = []
    return f"{name}({', '.join(names)})"


def run_child(
    action: Callable[[], object], *, kill_at: int | None = None, torn: bool = False
) -> tuple[bool, list[str], str | None]:
    """Run ``action`` in a forked child: (killed, kill point labels, error of a failed run)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the caller
        labels: list[str] = []
        error = None
        try:
            os.close(read_fd)
            with instrumented(kill_at, torn, labels):
                try:
                    action()
                except Exception as exc:  # reported to the parent
                    error = f"{type(exc).__name__}: {exc}"
            payload = json.dumps({"labels": labels, "error": error}).encode()
            view = memoryview(payload)
            while view:
                view = view[os.write(write_fd, view) :]
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as pipe:
        output = pipe.read()
    _, status = os.waitpid(pid, 0)
    killed = os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL
    if not output:
        return killed, [], None
    data = json.loads(output)
    return killed, data["labels"], data["error"]


# -- what a person can see ---------------------------------------------------------------------


def observe(op: Operation, home: Home, known: set[str] | None = None) -> dict[str, Any]:
    """Facts, archive entries, observed instruction files (and the operation's extra state).
    An id not in ``known`` (the starting home's) is a new fact's random id: shown as "new"."""
    engine = home.engine()
    if op.settle is not None:
        op.settle(engine)
    memory = Memory(Layout(home.home, home.workspace))
    view = memory.load(persist_cache=False)

    def named(fact_id: str) -> str:
        return fact_id if known is None or fact_id in known else "new"

    facts = sorted(
        (
            f.scope.value,
            f.name,
            named(f.id),
            f.revision,
            f.title,
            f.description,
            f.type.value,
            f.body,
            f.updated_at.isoformat() if f.updated_at else None,
        )
        for f in view.facts
    )
    archived = sorted(
        (a.path.parent.parent.name, named(a.fact.id), a.fact.revision, a.fact.body)
        if a.fact
        else (a.path.name, a.error)
        for a in memory.archived()
    )
    files = {}
    for rel in op.files:
        base, _, tail = rel.partition("/")
        path = (home.home if base == "home" else home.workspace) / tail
        files[rel] = path.read_bytes().hex() if path.exists() else None
    state: dict[str, Any] = {"facts": facts, "archived": archived, "files": files}
    if op.extra_state is not None:
        state["extra"] = op.extra_state(engine)
    return state


# -- the invariants ------------------------------------------------------------------------------


class Checker:
    def __init__(self, where: str) -> None:
        self.where = where
        self.count = 0
        self.failures: list[str] = []

    def __call__(self, ok: bool, what: str) -> bool:
        self.count += 1
        if not ok:
            self.failures.append(f"{self.where}: {what}")
        return ok


def _stores(home: Home) -> list[tuple[Scope, Path]]:
    layout = Layout(home.home, home.workspace)
    return [(Scope.PROJECT, layout.project_store), (Scope.GLOBAL, layout.global_store)]


def _parse(path: Path, scope: Scope) -> Any:
    return parse_fact_bytes(
        path.read_bytes(), stem=path.name[:-3], directory_scope=scope, mtime=_EPOCH
    ).fact


def check_files(home: Home, c: Checker) -> None:
    """Torn, doubled and revision invariants, read straight from the disk."""
    for scope, root in _stores(home):
        if not root.is_dir():
            continue
        active: dict[str, bytes] = {}
        current: dict[str, Any] = {}
        for path in sorted(root.glob("*.md")):
            if path.name == "MEMORY.md":
                continue
            try:
                fact = _parse(path, scope)
            except (OSError, FactFileError) as exc:
                c(False, f"{path.name} does not parse: {exc}")
                continue
            c(fact.id not in active, f"id {fact.id} is in two files of the {scope.value} store")
            active[fact.id] = path.read_bytes()
            current[fact.id] = fact
        _check_revisions(root, scope, active, current, c)
        _check_archive(root, scope, active, c)


def _check_revisions(
    root: Path, scope: Scope, active: dict[str, bytes], current: dict[str, Any], c: Checker
) -> None:
    for folder in sorted((root / ".revisions").glob("*")):
        for path in sorted(folder.glob("*.md")):
            try:
                snap = _parse(path, scope)
            except (OSError, FactFileError) as exc:
                c(False, f"revision {folder.name}/{path.name} does not parse: {exc}")
                continue
            now = current.get(folder.name)
            if now is None:
                continue
            c(snap.revision <= now.revision, f"saved revision {snap.revision} above current")
            if snap.revision == now.revision:
                c(
                    path.read_bytes() == active[folder.name],
                    f"saved revision {snap.revision} differs from the current file",
                )


def _check_archive(root: Path, scope: Scope, active: dict[str, bytes], c: Checker) -> None:
    for path in sorted((root / ".archive").glob("*.md")):
        try:
            fact = parse_fact_bytes(
                path.read_bytes(),
                stem=path.name[:-3],
                directory_scope=scope,
                mtime=_EPOCH,
                prefer_declared_name=True,
            ).fact
        except (OSError, FactFileError) as exc:
            c(False, f"archive entry {path.name} does not parse: {exc}")
            continue
        c(fact.id not in active, f"archive entry {path.name} is also active")


def check_orphans_swept(home: Home, c: Checker) -> None:
    """Age every temp file (and the sweep marker), open again: none of ours may be left."""
    then = time.time() - 2 * ORPHAN_AGE_S
    temps = [p for p in _walk(home) if TEMP_NAME.match(p.name)]
    if not temps:
        return
    for path in temps:
        os.utime(path, (then, then), follow_symlinks=False)
    for _, root in _stores(home):
        marker = store_cache_dir(root) / "maintained"
        if marker.exists():
            os.utime(marker, (then, then))
    home.engine().open()
    left = [str(p.relative_to(p.parents[1])) for p in temps if p.exists()]
    c(not left, f"orphan temp files left after the sweep: {left}")


_EPOCH = datetime(2000, 1, 1, tzinfo=UTC)


def _walk(home: Home) -> Iterator[Path]:
    yield from (p for p in home.home.rglob("*") if p.is_file())
    yield from (p for p in home.workspace.iterdir() if p.is_file())


def _difference(state: dict[str, Any], before: dict[str, Any], after: dict[str, Any]) -> str:
    parts = []
    for key in sorted(set(state) | set(before) | set(after)):
        if state.get(key) not in (before.get(key), after.get(key)):
            parts.append(
                f"{key}={state.get(key)!r} (before {before.get(key)!r}, after {after.get(key)!r})"
            )
    if not parts:
        parts.append("a mix: some parts as before, others as after")
    return "; ".join(parts)[:1500]


# -- the sweep ---------------------------------------------------------------------------------


@dataclass
class Prepared:
    """The starting home (``template``) and what one complete run does to it.

    Every run gets a copy of the home in a folder of its own, while the workspace is restored
    in place: the project store and approval records are keyed by the workspace's path."""

    op: Operation
    base: Path
    template: Home
    ctx: dict[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]
    labels: list[str]
    known: set[str] = field(default_factory=set)
    runs: int = 0

    @property
    def workspace(self) -> Path:
        return self.base / "workspace"

    def observe(self, home: Home) -> dict[str, Any]:
        return observe(self.op, home, self.known)

    def fresh(self) -> Home:
        self.runs += 1
        home = self.base / f"run-{self.runs}"
        shutil.copytree(self.template.home, home, symlinks=True)
        shutil.rmtree(self.workspace, ignore_errors=True)
        shutil.copytree(self.template.workspace, self.workspace, symlinks=True)
        return Home(home, self.workspace)


def prepare(op: Operation, base: Path) -> Prepared:
    """Build the starting home, then the states before and after one complete run."""
    base.mkdir(parents=True, exist_ok=True)
    (base / "workspace" / ".git").mkdir(parents=True)
    built = Home(base / "template-home", base / "workspace")
    built.home.mkdir()
    ctx = op.setup(built.engine())
    shutil.copytree(built.workspace, base / "template-workspace", symlinks=True)
    template = Home(built.home, base / "template-workspace")
    prepared = Prepared(op, base, template, ctx, {}, {}, [])
    home = prepared.fresh()
    start = observe(op, home)
    prepared.known = {f[2] for f in start["facts"]} | {a[1] for a in start["archived"]}
    prepared.before = prepared.observe(home)
    home = prepared.fresh()
    killed, labels, error = run_child(lambda: op.act(home.engine(), ctx))
    assert not killed and error is None, f"{op.name}: the complete run failed: {error}"
    assert labels, f"{op.name}: no kill points"
    prepared.after = prepared.observe(home)
    assert prepared.after != prepared.before, f"{op.name}: the operation changed nothing"
    prepared.labels = labels
    return prepared


def check_run(p: Prepared, home: Home, c: Checker) -> str | None:
    """The invariants after one kill, then the retry. Returns "before", "after" or None."""
    engine = home.engine()
    if p.op.settle is not None:
        p.op.settle(engine)
    view = engine.open()
    c(
        not view.diagnostics,
        f"the store opens with diagnostics {[d.code for d in view.diagnostics]}",
    )
    check_files(home, c)
    state = p.observe(home)
    which = "before" if state == p.before else "after" if state == p.after else None
    if not c(
        which is not None, f"neither before nor after: {_difference(state, p.before, p.after)}"
    ):
        return None
    if which == "before":
        try:
            p.op.act(home.engine(), p.ctx)
        except Exception as exc:
            c(False, f"the retry failed: {type(exc).__name__}: {exc}")
        again = p.observe(home)
        c(
            again == p.after,
            f"the retry does not reach the state after: {_difference(again, p.before, p.after)}",
        )
        check_files(home, c)
    check_orphans_swept(home, c)
    return which


STRUCTURAL = ("link", "rename", "renameat2", "replace", "unlink")


def fast_points(labels: list[str], every: int = 3) -> list[int]:
    """The fast subset: every point that moves or removes a name (where the windows are),
    and every ``every``-th of the others (writes, syncs, opens, folders)."""
    return [
        k
        for k, label in enumerate(labels, start=1)
        if label.startswith(STRUCTURAL) or k % every == 0
    ]


def sweep(op: Operation, base: Path, *, torn: bool = False, fast: bool = False) -> Tally:
    """Kill ``op`` before each of its kill points (only ``fast_points`` with ``fast``; with
    ``torn``, also in the middle of each write) and check the invariants after each kill."""
    with _no_fsync():
        return _sweep(op, base, torn=torn, fast=fast)


@contextlib.contextmanager
def _no_fsync() -> Iterator[None]:
    """The parent's own writes (retries, repairs) need no disk flush either: what is checked
    is what a kill leaves, and a kill loses nothing the kernel holds."""
    real = os.fsync
    os.fsync = lambda fd: None
    try:
        yield
    finally:
        os.fsync = real


def _sweep(op: Operation, base: Path, *, torn: bool, fast: bool) -> Tally:
    p = prepare(op, base)
    tally = Tally()
    total = len(p.labels)
    chosen = fast_points(p.labels) if fast else range(1, total + 1)
    points = [(k, False) for k in chosen]
    if torn:
        points += [(k, True) for k in range(1, total + 1) if p.labels[k - 1] == "write()"]
    for k, half in points:
        where = f"{op.name} killed {'mid-' if half else 'before '}{k}/{total} {p.labels[k - 1]}"
        home = p.fresh()
        killed, _, error = run_child(lambda h=home: op.act(h.engine(), p.ctx), kill_at=k, torn=half)
        c = Checker(where)
        if c(killed, f"not killed (the run took another path; error {error})"):
            which = check_run(p, home, c)
            if which is not None:
                setattr(tally, which, getattr(tally, which) + 1)
        tally.checks += c.count
        tally.failures += c.failures
        tally.torn_points += half
        tally.kill_points += not half
    return tally
