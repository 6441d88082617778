"""Hand memory freed by a bulk step back to the system (glibc's ``malloc_trim``).

Writing the recall cache or compacting the index at 50,000 facts allocates and frees some
40 MB of temporaries (packed strings, the new postings). glibc keeps freed heap memory for
later use, and once a large block has been freed it serves the next large ones from the heap
too: a window or warm server that saved its cache stays about 44 MB larger for good (measured:
265 -> 307 MB at 50k facts, back to 263 MB after a trim), and the next compaction's arrays come
on top. ``release()`` after such a step returns what is free; it costs well under a
millisecond and changes nothing a program can see but its resident size.

No library offers this call; it is one symbol of the C library this process already has
(``ctypes.CDLL(None)``, as ``store.atomic`` finds ``renameat2``). Elsewhere (musl, macOS,
Windows) there is no such symbol and ``release`` does nothing.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable

_trim: Callable[[int], int] | None = None
_looked = False
_lock = threading.Lock()


def _find() -> Callable[[int], int] | None:
    global _trim, _looked
    with _lock:
        if not _looked:
            _looked = True
            with contextlib.suppress(OSError, AttributeError, TypeError, ImportError):
                import ctypes

                fn = ctypes.CDLL(None).malloc_trim
                fn.argtypes = [ctypes.c_size_t]
                fn.restype = ctypes.c_int
                _trim = fn
        return _trim


def release() -> bool:
    """Return the free memory of the C heap to the system; True when the call exists here."""
    fn = _find()
    if fn is None:
        return False
    fn(0)
    return True
