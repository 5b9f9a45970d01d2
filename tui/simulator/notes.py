"""What a form tells a demo user about the simulated world (which nameserver allows transfers)."""

from __future__ import annotations


def demo_note(endpoint: str) -> str:
    """The demo note of operation ``endpoint`` ('' when it has none; see ``DEMO_NOTES``)."""
    from tui.simulator import handlers  # noqa: F401  (registers the notes with the handlers)
    from tui.simulator.registry import DEMO_NOTES

    return DEMO_NOTES.get(endpoint, "")
