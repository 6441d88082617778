"""Pausing Python's cyclic garbage collector around a bulk build, for front ends that want it.

Building tens of thousands of small objects (a 50k-fact open, the window's rows) triggers the
cyclic GC again and again, and it rescans the growing heap each time; none of those objects
form cycles. ``gc_paused()`` disables the collector for the ``with`` body and restores it.

``gc_paused(freeze=True)`` also moves every surviving object to the permanent generation
(``gc.freeze``) on the way out, so the first collection afterwards does not rescan them. That
is a process-wide decision (objects frozen are never cycle-collected), so the engine never makes
it: only a front end that owns the process (the window) passes ``freeze=True``. Frozen objects
are still freed by reference counting when dropped.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def gc_paused(*, freeze: bool = False) -> Iterator[None]:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            if freeze:
                gc.freeze()
            gc.enable()
