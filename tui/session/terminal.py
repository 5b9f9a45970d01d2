"""Whether the terminal can show the app at all (checked before Textual starts)."""

from __future__ import annotations

from collections.abc import Mapping

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
