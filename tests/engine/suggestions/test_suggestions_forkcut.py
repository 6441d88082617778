"""Cutting facts in two processes gives exactly what cutting them in one gives (issue 19), and
a copy that fails costs only time."""

from __future__ import annotations

import os
import random
import threading
from collections.abc import Iterator, Sequence

import pytest
from test_suggestions_known_index import POOL, _fact, _text

from context_center.engine.model import Fact
from context_center.engine.suggestions import facttexts, forkcut
from context_center.engine.suggestions.facttexts import FactTexts, known_texts
from context_center.engine.suggestions.known import _entry, _FactEntry

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork here")


def _facts(n: int, seed: int = 7) -> list[Fact]:
    rng = random.Random(seed)
    return [
        _fact(
            i,
            _text(rng, rng.randint(1, 4), POOL),
            _text(rng, rng.randint(0, 24), POOL),
            _text(rng, rng.randint(0, 3), POOL),
        )
        for i in range(n)
    ]


def _here(items: Sequence[tuple[int, Fact]]) -> Iterator[tuple[int, _FactEntry]]:
    for key, fact in items:
        yield key, _entry(fact)


def test_two_processes_cut_what_one_cuts_in_the_same_order() -> None:
    facts = _facts(301)
    items = list(enumerate(facts))
    pids_before = os.getpid()
    got = list(forkcut.cut_in_two(items, _here))
    assert os.getpid() == pids_before  # the copy never comes back here
    assert [k for k, _ in got] == list(range(301))
    assert [e for _, e in got] == [_entry(f) for f in facts]


def test_a_copy_that_dies_or_sends_nothing_costs_only_time(monkeypatch: pytest.MonkeyPatch) -> None:
    facts = _facts(40)
    items = list(enumerate(facts))

    def dies(_facts: Sequence[Fact]) -> list[object]:
        os._exit(3)

    monkeypatch.setattr(forkcut, "_cut", dies)
    assert [e for _, e in forkcut.cut_in_two(items, _here)] == [_entry(f) for f in facts]

    monkeypatch.setattr(forkcut, "_cut", lambda _f: ["not", "enough"])
    assert [e for _, e in forkcut.cut_in_two(items, _here)] == [_entry(f) for f in facts]

    def no_fork() -> int:
        raise OSError("no more processes")

    monkeypatch.setattr(os, "fork", no_fork)
    assert [e for _, e in forkcut.cut_in_two(items, _here)] == [_entry(f) for f in facts]


def test_only_a_process_alone_with_many_facts_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not forkcut.can_fork(forkcut.FORK_MIN - 1)
    if (os.cpu_count() or 1) > 1 and threading.active_count() == 1:
        assert forkcut.can_fork(forkcut.FORK_MIN)
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not forkcut.can_fork(10 * forkcut.FORK_MIN)  # a window: threads run
    finally:
        release.set()
        other.join()


def test_a_scan_that_forks_says_what_one_that_does_not_says(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    facts = _facts(200, seed=11)
    rng = random.Random(3)
    probes = [(_text(rng, rng.randint(2, 10), POOL), "") for _ in range(150)]
    probes += [(f.body.split("\n")[0], "") for f in facts[::7] if f.body.strip()]

    def answers(fork: bool) -> list[str | None]:
        monkeypatch.setattr(facttexts, "_CACHE", FactTexts())
        monkeypatch.setattr(facttexts, "can_fork", lambda _n: fork)
        known = known_texts(facts, [])
        out = []
        for statement, key in probes:
            origin = known.covering(statement, key)
            out.append(origin.label if origin else None)
        assert facttexts.fact_texts_cache().cuts == len(facts)
        return out

    forked = answers(True)
    assert forked == answers(False)
    assert any(forked) and not all(forked)


def test_a_caller_that_stops_early_ends_the_copy(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error while the first half is consumed: the copy is killed and reaped, the pipe
    closed (no process blocked on it, no descriptor left)."""
    facts = _facts(60)
    items = list(enumerate(facts))
    forked: list[int] = []
    real_fork = os.fork

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    def boom(items: Sequence[tuple[int, Fact]]) -> Iterator[tuple[int, _FactEntry]]:
        yield items[0][0], _entry(items[0][1])
        raise RuntimeError("the consumer failed")

    monkeypatch.setattr(os, "fork", fork)
    fds = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    with pytest.raises(RuntimeError):
        list(forkcut.cut_in_two(items, boom))
    [pid] = forked
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reaped already
    if fds is not None:
        assert len(os.listdir("/proc/self/fd")) == fds
