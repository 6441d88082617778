"""``None`` (and ``True``) keep their reference counts under qasync and Qt calls (issue 11).

PySide6-Essentials 6.12.0 drops a reference to ``None`` on every call of a wrapped method that
returns nothing: ``QObject.killTimer`` (qasync calls it for every loop callback),
``QTimer.start``/``stop``, ``processEvents``, setters. ``Signal.emit`` drops one to ``True``.
On Python 3.11 the singletons are not immortal, so a window that keeps working ends with
``Fatal Python error: none_dealloc``. Here each path runs many times after a warm-up, and the
counts must stay flat within a small tolerance; on 6.12.0 they fall by one per call.

A leaking build must fail these tests, not abort the whole run: ``cushion`` holds extra
references while a test measures and keeps as many as the test lost, so the counts end where
they started.
"""

from __future__ import annotations

import asyncio
import ctypes
import gc
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication

CALLS = 1000
STEPS = 2000
TOLERANCE = 20  # references, per measurement of CALLS or STEPS
SINGLETONS: dict[str, object] = {"None": None, "True": True, "False": False}
CUSHION = 50_000


def _refs() -> dict[str, int]:
    gc.collect()
    return {name: sys.getrefcount(obj) for name, obj in SINGLETONS.items()}


@contextmanager
def cushion() -> Iterator[None]:
    """Hold CUSHION extra references to each singleton while the body runs. Afterwards give
    them back, except as many as the body lost: those stay, so a leaking build cannot bring a
    count to zero later in the run (a crash at exit would hide the failure report)."""
    start = _refs()
    for obj in SINGLETONS.values():
        for _ in range(CUSHION):
            ctypes.pythonapi.Py_IncRef(ctypes.py_object(obj))
    try:
        yield
    finally:
        now = _refs()
        for name, obj in SINGLETONS.items():
            lost = max(0, start[name] + CUSHION - now[name])
            for _ in range(max(0, CUSHION - lost)):
                ctypes.pythonapi.Py_DecRef(ctypes.py_object(obj))


def drift(action: Callable[[], None]) -> dict[str, int]:
    """The change in each singleton's count across ``action()``, after one warm-up run (the
    first calls fill caches that hold references for good)."""
    with cushion():
        action()
        before = _refs()
        action()
        after = _refs()
    return {name: after[name] - before[name] for name in SINGLETONS}


def assert_flat(change: dict[str, int]) -> None:
    assert all(abs(delta) <= TOLERANCE for delta in change.values()), change


class Emitter(QObject):
    sig = Signal(object)


def _timers(obj: QObject) -> None:
    for _ in range(CALLS):
        obj.killTimer(obj.startTimer(1000))


def _qtimer(timer: QTimer) -> None:
    for _ in range(CALLS):
        timer.start(1000)
        timer.stop()


def _setter(obj: QObject) -> None:
    for i in range(CALLS):
        obj.setObjectName(f"name-{i % 7}")


def _process_events(app: QApplication) -> None:
    for _ in range(CALLS):
        app.processEvents()


def _emit(emitter: Emitter) -> None:
    for _ in range(CALLS):
        emitter.sig.emit(1)


def test_start_and_kill_timer(qapp: QApplication) -> None:
    """The call qasync makes for every callback (the leak issue 11 found)."""
    assert_flat(drift(lambda: _timers(QObject())))


@pytest.mark.parametrize("path", ["qtimer", "setter", "process_events", "emit"])
def test_other_qt_calls_the_window_makes(qapp: QApplication, path: str) -> None:
    """The watcher's poll and debounce timers, any setter, the event loop, signals."""
    actions: dict[str, Callable[[], None]] = {
        "qtimer": lambda: _qtimer(QTimer()),
        "setter": lambda: _setter(QObject()),
        "process_events": lambda: _process_events(qapp),
        "emit": lambda: _emit(emitter),
    }
    emitter = Emitter()
    emitter.sig.connect(lambda _value: None)
    assert_flat(drift(actions[path]))


def _run_steps(app: QApplication, loop: asyncio.AbstractEventLoop, make) -> None:  # type: ignore[no-untyped-def]
    """Run the coroutine ``make()`` on the qasync loop to its end by spinning Qt events
    (not ``qtbot.waitUntil``, which itself keeps a few references to ``None`` per call)."""
    task = loop.create_task(make())
    deadline = time.monotonic() + 20
    while not task.done():
        assert time.monotonic() < deadline, "the loop stopped running callbacks"
        app.processEvents()
    task.result()


def test_qasync_loop_steps(qapp: QApplication, qloop: asyncio.AbstractEventLoop) -> None:
    """``await asyncio.sleep(0)`` and timed callbacks: one Qt timer each under qasync."""

    async def steps() -> None:
        for _ in range(STEPS):
            await asyncio.sleep(0)

    async def timed() -> None:
        done = qloop.create_future()
        left = [CALLS]

        def tick() -> None:
            left[0] -= 1
            if left[0] == 0:
                done.set_result(None)

        for _ in range(CALLS):
            qloop.call_later(0.001, tick)
        await done

    assert_flat(drift(lambda: _run_steps(qapp, qloop, steps)))
    assert_flat(drift(lambda: _run_steps(qapp, qloop, timed)))


def test_worker_round_trips(qapp: QApplication, qloop: asyncio.AbstractEventLoop, ctx) -> None:  # type: ignore[no-untyped-def]
    """The engine worker: ``AppContext.run`` hands each call to a thread and back."""

    async def round_trips() -> None:
        for _ in range(CALLS // 4):
            assert await ctx.run(int, "7") == 7

    assert_flat(drift(lambda: _run_steps(qapp, qloop, round_trips)))


def test_the_guard_sees_a_leak(qapp: QApplication) -> None:
    """The measurement can fail: dropping references by hand shows up as a loss."""

    def leak() -> None:
        for _ in range(CALLS):
            ctypes.pythonapi.Py_DecRef(ctypes.py_object(None))

    change = drift(leak)
    assert change["None"] == -CALLS
    with pytest.raises(AssertionError):
        assert_flat(change)
