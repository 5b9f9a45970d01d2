"""A status badge: a shape, the status text and a colour (readable with NO_COLOR too)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from tui.resources.format import TONES as _TONES
from tui.resources.format import badge_text, status_tone


class StatusBadge(Static):
    """Shows one status, e.g. ``● running``; the tone is a CSS class (``-tone-ok`` ...)."""

    DEFAULT_CSS = """
    StatusBadge { width: auto; height: 1; padding: 0 1; }
    StatusBadge.-tone-ok { color: $text-success; }
    StatusBadge.-tone-busy { color: $text-warning; text-style: italic; }
    StatusBadge.-tone-warn { color: $text-warning; }
    StatusBadge.-tone-error { color: $text-error; text-style: bold; }
    StatusBadge.-tone-muted { color: $text-muted; }
    """

    def __init__(
        self,
        status: str | None = None,
        transitional: frozenset[str] = frozenset(),
        *,
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(id=id, classes=classes)
        self._transitional = transitional
        self.status: str | None = None
        self.set_status(status)

    def set_status(self, status: str | None) -> None:
        """Show another status (None hides the badge)."""
        self.status = status
        tone = status_tone(status, self._transitional)
        for other in _TONES:
            self.set_class(other == tone and status is not None, f"-tone-{other}")
        self.display = status is not None
        # Status text comes from the API: literal Text, never markup.
        self.update(Text(badge_text(status, self._transitional)))
