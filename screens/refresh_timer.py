"""The adaptive one-shot refresh timer shared by list panes and detail screens."""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.timer import Timer
from textual.widget import Widget

from screens.app_surface import surface
from tui.api.errors import CloudError
from tui.refresh import RefreshPolicy, RefreshSchedule


class RefreshTimer:
    """The one-shot refresh timer of one node (a list pane, a detail screen).

    After each refresh the owner reports success or failure; the timer is re-armed with the
    fast, slow or backed-off delay. While the owner is hidden the timer is stopped; when it is
    shown again it refreshes at once if the refresh was due meanwhile, else waits the rest.

    Args:
        node: The widget or screen whose ``set_timer`` runs the timer.
        refresh: Starts a refresh (the owner's worker).
    """

    def __init__(self, node: Widget, refresh: Callable[[], None]) -> None:
        self.node = node
        self._refresh = refresh
        self.schedule = RefreshSchedule(RefreshPolicy())
        self.visible = True
        self.last_delay = 0.0
        """Delay chosen after the last refresh."""
        self._timer: Timer | None = None
        self._due_at = 0.0

    def configure(self) -> None:
        """Take the intervals from the session's settings (call once mounted)."""
        session = surface(self.node).state.session
        if session is not None:
            self.schedule.policy = RefreshPolicy.from_settings(session.settings.refresh)

    def stop(self) -> None:
        """Cancel the pending refresh, if any."""
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _arm(self, delay: float) -> None:
        self.stop()
        self._due_at = time.monotonic() + delay
        if self.visible and self.node.is_mounted:
            self._timer = self.node.set_timer(delay, self.fire)

    def fire(self) -> None:
        """What the timer does when it fires (tests call it instead of waiting)."""
        self._timer = None
        if self.visible:
            self._refresh()

    def succeeded(self, *, transitional: bool) -> None:
        """A refresh got its answer: tell the app and re-arm fast or slow."""
        surface(self.node).state.api_succeeded()
        self.last_delay = self.schedule.succeeded(transitional=transitional)
        self._arm(self.last_delay)

    def failed(self, error: CloudError, *, transitional: bool) -> None:
        """A refresh failed: tell the app and re-arm with backoff (honouring Retry-After)."""
        surface(self.node).state.api_failed(error)
        self.last_delay = self.schedule.failed(error, transitional=transitional)
        self._arm(self.last_delay)

    def set_visible(self, visible: bool, *, loaded: bool) -> None:
        """The owner was shown or hidden."""
        self.visible = visible
        if not visible:
            self.stop()
        elif not loaded or time.monotonic() >= self._due_at:
            self._refresh()
        elif self._timer is None:
            self._arm(self._due_at - time.monotonic())
