"""Recall over the stores as they are now (``Engine.recall`` without a view): a cold process
proven current by the store stamps reads only the facts a turn shows, and answers exactly as
a full load would; any write -- ours, another process's, a rename into place, an edit in
place of a fact the turn reads -- is seen by the next turn."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from context_center.engine import AlreadyExists, Engine, FactType, Scope
from context_center.engine.store import stamp

NOW = datetime(2026, 7, 27, 12, 0, tzinfo=UTC)
MESSAGES = (
    "how do we deploy the payments service to the staging cluster?",
    "发布流程是什么？先打标签吗",
    "what does tracking-plan.yaml say about checkout events?",
    "the release branch naming rule",
    "ok thanks",
    "kafka consumer retry backoff for the billing topic",
    "which node version do we use",
)


def _seed(engine: Engine) -> None:
    made = NOW - timedelta(days=3)
    m = engine.memory
    for i in range(12):
        m.create(
            name=f"deploy-step-{i}",
            title=f"Deploy step {i}",
            type=FactType.PROJECT,
            body=f"Deploy payments step {i} to the staging cluster c{i} with helm; retry {i} times.",
            now=made - timedelta(hours=i),
        )
    m.create(
        name="release-flow",
        title="发布流程",
        type=FactType.PROJECT,
        body="发布流程：先打标签，再更新变更日志，然后部署到预发布集群。",
        now=made,
    )
    m.create(
        name="tracking-plan",
        title="Tracking plan",
        type=FactType.REFERENCE,
        body="tracking-plan.yaml lists the checkout events and their owners.",
        now=made,
    )
    m.create(
        name="release-branch",
        title="Release branch naming",
        type=FactType.PROJECT,
        body="Release branches are named release/vX.Y and cut from main.",
        now=made,
    )
    # the same title in both scopes: the project one overrides the global one
    m.create(
        name="release-branch",
        title="Release branch naming",
        type=FactType.USER,
        scope=Scope.GLOBAL,
        body="Release branches are called rel-X.Y everywhere else.",
        now=made,
    )
    m.create(
        name="kafka-retry",
        title="Kafka retry",
        type=FactType.PROJECT,
        body="The billing topic consumer retries with exponential backoff, at most 5 times.",
        now=made - timedelta(days=10),
    )
    m.create(
        name="kafka-retry-v2",
        title="Kafka retry policy",
        type=FactType.PROJECT,
        body="Supersedes: project/kafka-retry.md\nThe billing consumer retries 8 times with jitter.",
        now=made,
    )
    m.create(
        name="node-version",
        title="Node version",
        type=FactType.PROJECT,
        body="We use Node 20 LTS in CI and locally.",
        now=made - timedelta(days=40),
    )
    m.create(
        name="node-version-2026",
        title="Node version",
        type=FactType.USER,
        scope=Scope.GLOBAL,
        body="Node 22 for personal projects.",
        now=made,
    )


def _age_stores(engine: Engine, seconds: float = 60.0) -> None:
    """Make the last change of both store folders lie in the past (a stamp taken right
    after a change is racy and never trusted alone)."""
    then = time.time() - seconds
    for root in (engine.layout.project_store, engine.layout.global_store):
        os.utime(root, (then, then))


def _answer(result: Any) -> tuple[str, dict[str, Any]]:
    trace = result.trace.model_dump(mode="json", exclude={"elapsed_ms"})
    return result.block, trace


def _full(home: Path, workspace: Path, message: str) -> tuple[str, dict[str, Any]]:
    engine = Engine(home=home, workspace=workspace)
    view = engine.open(persist_cache=False)
    return _answer(engine.recall(message, view=view, persist=False, now=NOW))


def _cold(home: Path, workspace: Path, message: str) -> tuple[Engine, tuple[str, dict[str, Any]]]:
    engine = Engine(home=home, workspace=workspace)  # a new process, as far as recall knows
    return engine, _answer(engine.recall(message, persist=False, now=NOW))


@pytest.fixture
def seeded(home: Path, workspace: Path) -> tuple[Path, Path]:
    engine = Engine(home=home, workspace=workspace)
    _seed(engine)
    _age_stores(engine)
    return home, workspace


def test_fast_path_gives_the_same_block_and_trace_as_a_full_load(
    seeded: tuple[Path, Path],
) -> None:
    home, workspace = seeded
    first, _ = _cold(home, workspace, MESSAGES[0])
    assert first.recaller.last_source == "stores"  # no cache yet: loaded, cache saved
    selected = 0
    for message in MESSAGES:
        engine, fast = _cold(home, workspace, message)
        assert engine.recaller.last_source == "cache"
        assert engine._memory is None  # the stores were never loaded (nor their modules used)
        assert fast == _full(home, workspace, message), message
        selected += len(fast[1]["selected"])
    assert selected >= 5  # the messages do recall facts (and suppress some)


def test_trace_of_the_fast_path_lists_overrides_and_superseded(
    seeded: tuple[Path, Path],
) -> None:
    home, workspace = seeded
    _cold(home, workspace, "warm up")
    for message, reason in (
        ("the release branch naming rule", "project_override"),
        ("kafka consumer retry backoff for the billing topic", "superseded"),
    ):
        _, (_, trace) = _cold(home, workspace, message)
        assert reason in {s["reason"] for s in trace["suppressed"]}, message


def test_a_warm_engine_stays_current_without_loading(seeded: tuple[Path, Path]) -> None:
    home, workspace = seeded
    engine = Engine(home=home, workspace=workspace)
    a = _answer(engine.recall(MESSAGES[0], persist=False, now=NOW))
    b = _answer(engine.recall(MESSAGES[0], persist=False, now=NOW))
    assert engine.recaller.last_source == "index"
    assert a == b


def _cli(home: Path, workspace: Path, *argv: str) -> str:
    env = dict(os.environ)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "context_center",
            "--home",
            str(home),
            "--workspace",
            str(workspace),
            *argv,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return out.stdout


def _save_zookeeper_quorum(home: Path, workspace: Path) -> None:
    """``memory save`` in another process (the CLI)."""
    _cli(home, workspace, "memory", "save", "--name", "zookeeper quorum", "--type", "project",
         "--body", "The zookeeper quorum runs five nodes.")  # fmt: skip


def test_a_save_by_another_process_is_seen_by_the_next_cold_recall(
    seeded: tuple[Path, Path],
) -> None:
    home, workspace = seeded
    _cold(home, workspace, "warm up")
    message = "which zookeeper quorum size do we run"
    _, before = _cold(home, workspace, message)
    assert not before[1]["selected"]
    _save_zookeeper_quorum(home, workspace)
    engine, after = _cold(home, workspace, message)
    assert engine.recaller.last_source == "journal"  # our write: only its file was read
    assert engine._memory is None
    assert [s["ref"] for s in after[1]["selected"]] == ["project/zookeeper-quorum.md"]
    assert after == _full(home, workspace, message)
    engine, again = _cold(home, workspace, message)
    assert engine.recaller.last_source == "journal"
    assert again == after


def test_a_refused_create_costs_the_next_cold_recall_no_load(seeded: tuple[Path, Path]) -> None:
    """A create refused because the name is taken still moved the folder (its temp file came
    and went); the journal names that one file, so the next reader re-reads it alone."""
    home, workspace = seeded
    message = "which node version do we use"
    _cold(home, workspace, message)
    engine = Engine(home=home, workspace=workspace)
    with pytest.raises(AlreadyExists):
        engine.create_fact(name="node-version", type=FactType.PROJECT, body="Node 99.")
    engine, after = _cold(home, workspace, message)
    assert engine.recaller.last_source == "journal"
    assert engine._memory is None  # no store was loaded
    assert after == _full(home, workspace, message)


def _rewrite(path: Path, old: str, new: str) -> bytes:
    data = path.read_bytes().replace(old.encode(), new.encode())
    assert new.encode() in data
    return data


def _replace_within_the_tick(target: Path, old: str, new: str) -> None:
    """Rename a changed copy of ``target`` over it, then put its folder's times back: a
    change within the same tick of the file system's clock as the folder's last one."""
    folder = target.parent
    before = os.stat(folder)
    tmp = target.with_name(".tmp-00000000000000aa")
    tmp.write_bytes(_rewrite(target, old, new))
    os.replace(tmp, target)
    os.utime(folder, ns=(before.st_atime_ns, before.st_mtime_ns))


def test_a_rename_into_place_is_seen(seeded: tuple[Path, Path]) -> None:
    home, workspace = seeded
    engine, _ = _cold(home, workspace, "warm up")
    target = engine.layout.project_store / "node-version.md"
    data = _rewrite(target, "Node 20 LTS", "Node 24 LTS with corepack")
    tmp = target.with_name(".tmp-0123456789abcdef")
    tmp.write_bytes(data)
    os.replace(tmp, target)  # how Reasonix (and we) write: the folder's mtime moves
    engine, got = _cold(home, workspace, "node version with corepack")
    assert engine.recaller.last_source == "stores"
    assert "corepack" in got[0]
    assert got == _full(home, workspace, "node version with corepack")


def test_an_edit_in_place_of_a_selected_fact_is_seen(seeded: tuple[Path, Path]) -> None:
    home, workspace = seeded
    message = "what does tracking-plan.yaml say about checkout events?"
    engine, before = _cold(home, workspace, message)
    engine, before = _cold(home, workspace, message)
    assert engine.recaller.last_source == "cache"
    assert "project/tracking-plan.md" in [s["ref"] for s in before[1]["selected"]]
    target = engine.layout.project_store / "tracking-plan.md"
    folder = os.stat(target.parent)
    data = _rewrite(target, "and their owners", "and the refund owners")
    with open(target, "r+b") as fh:  # in place: same inode, the folder does not change
        fh.write(data)
        fh.truncate()
    assert os.stat(target.parent).st_mtime_ns == folder.st_mtime_ns
    engine, after = _cold(home, workspace, message)
    assert "refund owners" in after[0]
    assert engine.recaller.last_source == "stores"  # the read file gave it away
    assert after == _full(home, workspace, message)


def test_a_warm_engine_sees_an_edit_in_place_of_a_fact_in_its_block(
    seeded: tuple[Path, Path],
) -> None:
    """The index in memory is proven current by the folder stamps, which an edit in place does
    not move: the files of the facts in the block are checked (a stat each) before it is
    answered, as a cold turn checks the files it reads."""
    home, workspace = seeded
    message = "what does tracking-plan.yaml say about checkout events?"
    engine = Engine(home=home, workspace=workspace)
    engine.recall(message, persist=False, now=NOW)
    engine.recall(message, persist=False, now=NOW)
    assert engine.recaller.last_source == "index"
    target = engine.layout.project_store / "tracking-plan.md"
    data = _rewrite(target, "and their owners", "and the refund owners")
    with open(target, "r+b") as fh:
        fh.write(data)
        fh.truncate()
    after = _answer(engine.recall(message, persist=False, now=NOW))
    assert "refund owners" in after[0]
    assert engine.recaller.last_source == "stores"
    assert after == _full(home, workspace, message)
    again = _answer(engine.recall(message, persist=False, now=NOW))
    assert engine.recaller.last_source in ("index", "journal")  # current again: no reload
    assert again == after


def test_a_stamp_that_does_not_match_falls_back_to_a_load(seeded: tuple[Path, Path]) -> None:
    home, workspace = seeded
    message = MESSAGES[0]
    _cold(home, workspace, message)
    engine, cached = _cold(home, workspace, message)
    assert engine.recaller.last_source == "cache"
    then = time.time() - 30
    os.utime(engine.layout.global_store, (then, then))  # the folder looks changed
    engine, got = _cold(home, workspace, message)
    assert engine.recaller.last_source == "stores"
    assert got == cached
    engine, got = _cold(home, workspace, message)
    assert engine.recaller.last_source == "cache"  # the new stamp was saved
    assert got == cached


def test_writes_through_the_engine_are_read_from_the_journal(
    seeded: tuple[Path, Path],
) -> None:
    home, workspace = seeded
    engine, _ = _cold(home, workspace, "warm up")
    m = engine.memory
    made = m.create(name="vault path", type=FactType.PROJECT, body="Secrets live in vault kv/app.")
    m.update("node-version", expected_revision=1, body="We use Node 22 LTS in CI and locally.")
    m.forget("release-flow")
    m.update(made.id, expected_revision=1, name="vault kv path")  # a rename
    for message in ("where does the vault kv path point", "which node version", "发布流程"):
        warm = _answer(engine.recall(message, persist=False, now=NOW))
        assert engine.recaller.last_source in ("journal", "index")
        cold_engine, cold = _cold(home, workspace, message)
        assert cold_engine.recaller.last_source == "journal"
        assert warm == cold == _full(home, workspace, message), message


def test_a_racy_stamp_is_checked_against_the_folder(
    seeded: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stamp, "FINE_RACY_NS", stamp.RACY_NS)  # slow steps stay in the window
    home, workspace = seeded
    engine, _ = _cold(home, workspace, "warm up")
    store = engine.layout.project_store
    now = time.time()
    os.utime(store, (now, now))  # looks like another program just changed the folder
    engine, _ = _cold(home, workspace, "warm up")
    assert engine.recaller.last_source == "stores"
    assert stamp.is_racy(stamp.store_stamp(store), stamp.now_ns())
    engine, _ = _cold(home, workspace, "warm up")
    assert engine.recaller.last_source == "journal"  # not trusted alone: the folder listed
    # a file renamed into place within the same tick (the folder's mtime put back)
    _replace_within_the_tick(store / "kafka-retry.md", "exponential backoff", "linear backoff")
    engine, _ = _cold(home, workspace, "warm up")  # reads no fact file: the listing finds it
    assert engine.recaller.last_source == "stores"
    message = "kafka consumer retry backoff for the billing topic"
    assert _cold(home, workspace, message)[1] == _full(home, workspace, message)


def test_only_the_store_whose_stamp_was_racy_is_listed(
    seeded: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A racy stamp of one store costs a listing of that folder only: the other store's
    stamp was taken long after its last change, so any change since has moved it."""
    from context_center.engine.recall import catchup

    monkeypatch.setattr(stamp, "FINE_RACY_NS", stamp.RACY_NS)  # slow steps stay in the window
    home, workspace = seeded
    engine, _ = _cold(home, workspace, "warm up")
    _age_stores(engine)
    glob = engine.layout.global_store
    now = time.time()
    os.utime(glob, (now, now))  # only the global folder looks just changed
    engine, _ = _cold(home, workspace, "warm up")
    assert engine.recaller.last_source == "stores"
    listed: list[str] = []
    real = catchup.files_match

    def counted(index: Any, scope: Scope, root: Path) -> bool:
        listed.append(scope.value)
        return real(index, scope, root)

    monkeypatch.setattr(catchup, "files_match", counted)
    engine, _ = _cold(home, workspace, "warm up")
    assert engine.recaller.last_source == "journal"
    assert listed == [Scope.GLOBAL.value]
    # a global file renamed into place within the same tick is still found
    # (by the listing: the turn reads no file of that store)
    _replace_within_the_tick(glob / "release-branch.md", "rel-X.Y", "rel/X.Y")
    engine, _ = _cold(home, workspace, "warm up")
    assert engine.recaller.last_source == "stores"
    message = "the release branch naming rule"
    assert _cold(home, workspace, message)[1] == _full(home, workspace, message)


def test_a_cache_without_racy_scopes_lists_every_store() -> None:
    from context_center.engine.recall.current import DiskState

    stamps = {s.value: (1, 2, 3) for s in Scope}
    old = DiskState.from_meta({"stamps": {k: list(v) for k, v in stamps.items()}, "racy": True})
    assert old is not None and all(old.racy_in(s.value) for s in Scope)
    one = DiskState(stamps, frozenset({Scope.PROJECT.value}))
    back = DiskState.from_meta(one.to_meta())
    assert back == one and back.racy_in("project") and not back.racy_in("global")
    hostile = dict(one.to_meta(), racy_scopes=[{"x": 1}, "elsewhere"])
    read = DiskState.from_meta(hostile)
    assert read is not None and all(read.racy_in(s.value) for s in Scope)  # every store
    assert not DiskState(stamps).racy_in("project")


def test_the_first_fact_of_a_new_workspace_costs_the_next_cold_recall_no_load(
    home: Path, workspace: Path
) -> None:
    """A workspace with no project store yet (its stamp is that of a missing folder): the
    write that creates the folder journals the folder as missing before it, so the next
    reader reads that one file instead of loading both stores (the global one can hold
    tens of thousands of facts)."""
    engine = Engine(home=home, workspace=workspace)
    for i in range(5):
        engine.memory.create(
            name=f"global-rule-{i}",
            title=f"Global rule {i}",
            type=FactType.USER,
            scope=Scope.GLOBAL,
            body=f"Everywhere: lint {i} before committing.",
            now=NOW - timedelta(days=2),
        )
    then = time.time() - 60.0
    os.utime(engine.layout.global_store, (then, then))
    assert not engine.layout.project_store.exists()
    message = "which zookeeper quorum size do we run"
    _cold(home, workspace, message)  # loads, saves the cache (project store: missing)
    engine, _ = _cold(home, workspace, message)
    assert engine.recaller.last_source == "cache"
    _save_zookeeper_quorum(home, workspace)
    assert engine.layout.project_store.is_dir()
    engine, after = _cold(home, workspace, message)
    assert engine.recaller.last_source == "journal"  # only the new file was read
    assert engine._memory is None
    assert [s["ref"] for s in after[1]["selected"]] == ["project/zookeeper-quorum.md"]
    assert after == _full(home, workspace, message)


def test_a_foreign_file_written_while_the_first_fact_is_saved_is_not_missed(
    home: Path, workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reasonix takes no lock: a fact file it renames into the new project folder while our
    write holds the lock is not among the write's files, so the journal must not claim the
    folder went from missing to just ours (the next reader loads and finds the file)."""
    engine = Engine(home=home, workspace=workspace)
    engine.memory.create(
        name="global-rule", title="Global rule", type=FactType.USER, scope=Scope.GLOBAL,
        body="Everywhere: lint before committing.", now=NOW - timedelta(days=2),
    )  # fmt: skip
    then = time.time() - 60.0
    os.utime(engine.layout.global_store, (then, then))
    other = Engine(home=home / "elsewhere", workspace=workspace)
    made = other.memory.create(
        name="zookeeper quorum", type=FactType.PROJECT, body="The zookeeper quorum runs five nodes."
    )
    foreign = (other.layout.project_store / f"{made.name}.md").read_bytes()
    message = "which zookeeper quorum size do we run"
    _cold(home, workspace, message)  # the cache, with the project store missing
    real = stamp.bump
    root = engine.layout.project_store

    def foreign_write(at: Path, *args: Any, **kwargs: Any) -> None:
        if at == root and not (root / f"{made.name}.md").exists():
            (root / ".tmp-foreign").write_bytes(foreign)
            os.rename(root / ".tmp-foreign", root / f"{made.name}.md")
        real(at, *args, **kwargs)

    monkeypatch.setattr(stamp, "bump", foreign_write)
    Engine(home=home, workspace=workspace).memory.create(
        name="css rule", type=FactType.PROJECT, body="Unrelated: tabs in css files."
    )
    monkeypatch.setattr(stamp, "bump", real)
    engine, after = _cold(home, workspace, message)
    assert [s["ref"] for s in after[1]["selected"]] == ["project/zookeeper-quorum.md"]
    assert after == _full(home, workspace, message)
