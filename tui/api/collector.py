"""Holding off Python's cyclic garbage collector while a listing's objects are made (headless).

A listing of 10,000 items allocates tens of thousands of containers, and every one survives:
they are the list. With the collector on, each young collection set off meanwhile re-scans
all of them, and the middle generation's passes scan them again (measured on a
10,000-instance listing: 25-30 young and 2-3 middle passes, 80-100 ms of CPU, as much as
fetching and decoding it). Held off, reference counting still frees everything acyclic at
once; the collector looks at the survivors once, after the listing.

Holds nest and overlap (several listings at once, a page parsed inside a listing): the
collector is off while any hold is out and comes back, if it was on, when the last one ends.
Code that turns the collector on for good while a hold is out (the start-up's pause ending)
calls :func:`resume`, which waits for the holds.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_holds = 0
_enable_after = False
"""Whether the collector comes back on when the last hold ends."""


def hold() -> Callable[[], None]:
    """Hold the collector off until the returned function is called.

    Returns:
        The release; calling it more than once releases once.
    """
    global _holds, _enable_after
    with _lock:
        if _holds == 0:
            _enable_after = gc.isenabled()
            gc.disable()
        _holds += 1
    released = False

    def release() -> None:
        global _holds
        nonlocal released
        with _lock:
            if released:
                return
            released = True
            _holds -= 1
            if _holds == 0 and _enable_after:
                gc.enable()

    return release


@contextmanager
def held() -> Iterator[None]:
    """The collector held off for the ``with`` block (see :func:`hold`)."""
    release = hold()
    try:
        yield
    finally:
        release()


def resume() -> None:
    """Turn the collector on now, or when the holds out now end."""
    global _enable_after
    with _lock:
        if _holds:
            _enable_after = True
        else:
            gc.enable()


def release_and_sweep(release: Callable[[], None]) -> None:
    """Release a hold; if that turns the collector back on, collect its youngest generation.

    A listing's survivors are all in the youngest generation when its hold ends, and the next
    allocation would set off the pass over them inside whatever runs then (a refresh's diff,
    adding ~15 ms for 10,000 rows to its longest turn). Collected here, in a turn of the
    event loop of its own, the pass costs the same and blocks nothing else.
    """
    release()
    with _lock:
        sweep = _holds == 0 and gc.isenabled()
    if sweep:
        gc.collect(0)


def holds() -> int:
    """Holds out now (tests read it)."""
    return _holds
