"""Cutting many facts into phrases on two cores: half of them in a forked copy of the process.

The first scan of a workspace without a phrase index, and the ``suggestions index`` command
that writes one, cut every fact: seconds of pure Python at 20,000 facts, on one core. A process
that runs alone (no other thread: the command line, the window's ``suggestions index`` child)
forks once, lets the copy cut the second half and send the results back through a pipe
(pickled: plain strings and tuples), and cuts the first half meanwhile. The results are the
ones ``known._entry`` gives, in the same order.

Forking is only done where it is safe and worth it: no other thread runs (a fork copies only
the calling thread, and a lock another thread held would stay held in the copy), the machine
has a second core, there are at least ``FORK_MIN`` facts, and ``os.fork`` exists. Anything that
goes wrong in the copy (it dies, sends less than it should, cannot be started) costs only
time: the second half is then cut here as well.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from context_center.engine.model import Fact
from context_center.engine.suggestions.known import Origin, Piece, _entry, _FactEntry

K = TypeVar("K")
FORK_MIN = 4000  # fewer facts are cut faster than a fork and a pickle round trip
_READ = 1 << 20
Cut = tuple[tuple[str, ...], tuple[Piece, ...]]  # one fact's text keys and phrases


def can_fork(count: int) -> bool:
    """Whether cutting ``count`` facts should use a forked copy (see the module docstring)."""
    return (
        count >= FORK_MIN
        and hasattr(os, "fork")
        and (os.cpu_count() or 1) > 1
        and threading.active_count() == 1
    )


def _cut(facts: Sequence[Fact]) -> list[Cut]:
    return [(e.keys, e.pieces) for e in map(_entry, facts)]


def cut_in_two(
    items: Sequence[tuple[K, Fact]],
    cut_here: Callable[[Sequence[tuple[K, Fact]]], Iterator[tuple[K, _FactEntry]]],
) -> Iterator[tuple[K, _FactEntry]]:
    """``(key, entry)`` for every item, in order: the first half by ``cut_here`` in this
    process while a forked copy cuts the second (or this process too, if the copy fails)."""
    half = len(items) // 2
    second = [fact for _, fact in items[half:]]
    try:
        reader, writer = os.pipe()
    except OSError:
        yield from cut_here(items)
        return
    try:
        pid = os.fork()
    except OSError:
        os.close(reader)
        os.close(writer)
        yield from cut_here(items)
        return
    if pid == 0:  # the copy: cut, send, and leave without running anything of the parent's
        code = 1
        try:
            os.close(reader)
            data = pickle.dumps(_cut(second), protocol=pickle.HIGHEST_PROTOCOL)
            view = memoryview(data)
            while view:
                view = view[os.write(writer, view) :]
            code = 0
        finally:
            os._exit(code)
    os.close(writer)
    received = False
    try:
        yield from cut_here(items[:half])
        cuts = _receive(reader, pid, len(second))
        received = True
    finally:
        if not received:  # the caller stopped early (an error, an interrupt): end the copy
            _abandon(reader, pid)
    if cuts is None:
        yield from cut_here(items[half:])
        return
    for (key, fact), (keys, pieces) in zip(items[half:], cuts, strict=True):
        yield key, _FactEntry(Origin.of_fact(fact), keys, pieces)


def _abandon(reader: int, pid: int) -> None:
    with contextlib.suppress(OSError):
        os.close(reader)
    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError, OSError):
        os.waitpid(pid, 0)


def _receive(reader: int, pid: int, count: int) -> list[Cut] | None:
    """What the copy sent (None when it failed or sent something else)."""
    chunks: list[bytes] = []
    try:
        while chunk := os.read(reader, _READ):
            chunks.append(chunk)
    except OSError:
        chunks = []
    finally:
        os.close(reader)
    status = 1
    with contextlib.suppress(ChildProcessError, OSError):
        status = os.waitpid(pid, 0)[1]
    if status != 0 or not chunks:
        return None
    try:
        cuts = pickle.loads(b"".join(chunks))  # our own copy's bytes, never a file's
    except Exception:  # a torn message: cut here instead
        return None
    return cuts if isinstance(cuts, list) and len(cuts) == count else None
