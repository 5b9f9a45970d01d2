"""Whether the terminal can show the app at all (checked before Textual starts)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

INCAPABLE_TERMS = frozenset({"", "dumb", "unknown"})
"""``TERM`` values of terminals without cursor addressing: drawing there prints garbage."""


def terminal_problem(environ: Mapping[str, str]) -> str | None:
    """Why the app cannot draw in this terminal, or None when it can.

    Args:
        environ: The process environment (``TERM`` is read).

    Returns:
        A message for the user, naming what to do; None for a capable terminal.
    """
    term = environ.get("TERM", "").strip()
    if term.lower() not in INCAPABLE_TERMS:
        return None
    shown = f"TERM={term}" if term else "TERM is not set"
    return (
        f"cloudtui needs a capable terminal ({shown}): it draws a full-screen interface. "
        "Run it in a terminal emulator, tmux or screen, or over ssh with a terminal "
        "(ssh -t), with TERM set to e.g. xterm-256color."
    )


def output_problem(stdout: TextIO | None, stderr: TextIO | None) -> str | None:
    """Why the app cannot draw where its output goes, or None when both streams are terminals.

    The app draws on the terminal (standard error) and takes its size and modes from it; a
    pipe or a file would receive escape sequences instead of a screen, and nobody would see
    the app waiting for keys. The commands that print (``doctor``, ``profiles``, ``sim`` ...)
    are not affected.

    Args:
        stdout: Standard output.
        stderr: Standard error.

    Returns:
        One line for the user, naming the stream that is not a terminal; None when both are.
    """
    redirected = [
        name
        for name, stream in (("standard output", stdout), ("standard error", stderr))
        if not _is_terminal(stream)
    ]
    if not redirected:
        return None
    which = " and ".join(redirected)
    verb = "is" if len(redirected) == 1 else "are"
    return (
        f"cloudtui draws a full-screen interface, and its {which} {verb} not a terminal "
        "(redirected to a file or a pipe): run it in a terminal without redirecting it. "
        "The other commands (doctor, profiles, sim ...) can be redirected."
    )


def _is_terminal(stream: TextIO | None) -> bool:
    try:
        return stream is not None and stream.isatty()
    except ValueError:  # closed
        return False
