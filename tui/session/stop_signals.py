"""SIGTERM and SIGHUP end the running app as quitting does.

Left to their default, either signal kills the process where it stands: nothing after it runs,
so the demo's folder (the bookmarks and activity log of that run, see
:func:`tui.session.datadir.demo_dir`) stays behind in the temporary folder, and a terminal
that is still there is left in the app's modes. Handled in the event loop instead, the app
leaves as on ctrl+q: the terminal is restored, the session closed, and the demo's folder
removed when the interpreter exits. SIGHUP is what a closed terminal window, a dropped ssh
connection or ``tmux kill-server`` sends.

Leaving can get stuck once the terminal is gone: Textual's output thread dies on the first
write that fails, and its last writes then wait for ever on that thread's full queue. So a
signal also sets a last resort: if the process is still there :data:`GRACE` seconds later,
the demo's folders are removed and the process ends with the same status.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Callable

from tui.session.datadir import remove_demo_dirs

STOP_SIGNALS: tuple[signal.Signals, ...] = (signal.SIGTERM, signal.SIGHUP)

GRACE = 3.0
"""Seconds the app has to leave after a stop signal before the process ends without it."""


def exit_status(number: int) -> int:
    """The status a program ended by signal ``number`` reports (as a shell says: 128 + N)."""
    return 128 + number


def stop_on_signals(stop: Callable[[int], object], *, grace: float = GRACE) -> None:
    """From now on, call ``stop(status)`` in the running event loop on SIGTERM or SIGHUP.

    The handlers belong to the loop: they go when it closes. Call from the main thread, in
    the loop (the app's ``on_mount``).

    Args:
        stop: Ends the app with the given exit status (see :func:`exit_status`).
        grace: Seconds before the last resort (see the module).
    """
    loop = asyncio.get_running_loop()
    armed = threading.Event()

    def stopping(status: int) -> None:
        if not armed.is_set():
            armed.set()
            last_resort = threading.Timer(grace, _end_now, (status,))
            last_resort.daemon = True  # it must not keep a process that leaves in time
            last_resort.start()
        stop(status)

    for number in STOP_SIGNALS:
        loop.add_signal_handler(number, stopping, exit_status(number))


def _end_now(status: int) -> None:
    """End the process at once: nothing else of it would run (see the module)."""
    try:
        remove_demo_dirs()
    finally:
        os._exit(status)  # even if a folder could not be removed (or went meanwhile)
