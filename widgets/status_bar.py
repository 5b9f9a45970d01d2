"""The one-line status bar: profile (or DEMO), API host, user, restriction, last refresh, health.

It is handed what it shows (:class:`StatusSource`: the app's state, whose answers are the
account's, see :mod:`tui.accounts.state`, and the signal that says they changed) and repaints
when told; it never calls the API itself.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol, get_args

from rich.text import Text
from textual.widgets import Static

from tui.session.config import AccountColor
from tui.untrusted import shown

if TYPE_CHECKING:
    from textual.signal import Signal

    from tui.accounts.state import AppState
    from tui.session.runtime import Session


class StatusSource(Protocol):
    """What the bar shows, and what tells it that it changed (the app is one)."""

    @property
    def state(self) -> AppState:
        """The app's state: the account, its user and health."""
        ...

    @property
    def account_signal(self) -> Signal[Any]:
        """Published when the account's health, user or read-only mode changed."""
        ...


HEALTH_TEXT = {
    "online": ("● online", "status-bar--ok"),
    "connecting": ("◐ connecting", "status-bar--busy"),
    "unreachable": ("✖ API UNREACHABLE", "status-bar--error"),
    "rate_limited": ("▲ RATE LIMITED", "status-bar--warn"),
    "error": ("▲ API errors", "status-bar--warn"),
}
"""Health -> (text, component class); the text alone says it, colour only adds to it."""


def status_parts(state: AppState) -> list[tuple[str, str]]:
    """The bar's segments as ``(text, component class)`` pairs, left to right.

    The API's health comes right after the profile so it stays visible at 80 columns; the
    host, the longest and least urgent part, comes last.

    Args:
        state: The app's state.
    """
    session = state.session
    parts = [_account_part(session)]
    if state.read_only:
        # Second, so it shows on the narrowest terminal: the session cannot change anything.
        parts.append(("READ-ONLY", "status-bar--warn"))
    parts += _health_parts(state.api_health, state.retry_text)
    user = state.user_context
    if user is not None and user.username:
        parts.append((str(user.username), "status-bar--user"))
        if user.restricted:
            parts.append(("RESTRICTED", "status-bar--warn"))
        else:
            parts.append(("unrestricted", "status-bar--muted"))
        scopes = user.scopes
        if scopes is not None and not any(str(x).endswith(":read_write") for x in scopes):
            parts.append(("READ-ONLY token", "status-bar--warn"))
    last = state.last_refresh
    if last:
        stamp = datetime.fromtimestamp(last, UTC).strftime("%H:%M:%S")
        parts.append((f"↻ {stamp} UTC", "status-bar--muted"))
    if session is not None:
        parts.append((session.api_host, "status-bar--muted"))
    return parts


def _account_part(session: Session | None) -> tuple[str, str]:
    """Who: not signed in, the demo, or the profile (in its configured colour, if any)."""
    if session is None:
        return ("not signed in", "status-bar--muted")
    if session.demo:
        return (" DEMO ", "status-bar--demo")
    color = session.mark.color
    cls = f"status-bar--account-{color}" if color else "status-bar--profile"
    return (f"profile {session.profile_name}", cls)


def _health_parts(health: str, retrying: str) -> list[tuple[str, str]]:
    """The API's health, and what a request being retried waits for."""
    if health == "retrying":
        # Says what is going on: why nothing arrived yet, and that it is being retried.
        return [(f"◐ {retrying or 'retrying'}", "status-bar--busy")]
    parts = [HEALTH_TEXT.get(health, HEALTH_TEXT["error"])]
    if health == "unreachable" and retrying:
        parts.append((f"◐ {retrying}", "status-bar--busy"))  # and it is being tried again
    return parts


ACCOUNT_COLORS: tuple[str, ...] = get_args(AccountColor)
"""Colours a profile may give its account (one component class each)."""


class StatusBar(Static):
    """Profile, host, user and API health in one line."""

    COMPONENT_CLASSES = {
        *(f"status-bar--account-{color}" for color in ACCOUNT_COLORS),
        "status-bar--demo",
        "status-bar--profile",
        "status-bar--user",
        "status-bar--muted",
        "status-bar--ok",
        "status-bar--busy",
        "status-bar--warn",
        "status-bar--error",
    }

    DEFAULT_CSS = """
    StatusBar {
        dock: top;
        width: 1fr;
        height: 1;
        background: $panel;
        color: $foreground;
        padding: 0 1;
    }
    StatusBar > .status-bar--demo { background: $warning; color: $text; text-style: bold; }
    StatusBar > .status-bar--profile { color: $text-primary; text-style: bold; }
    StatusBar > .status-bar--user { color: $text-accent; }
    StatusBar > .status-bar--muted { color: $text-muted; }
    StatusBar > .status-bar--ok { color: $text-success; }
    StatusBar > .status-bar--busy { color: $text-warning; }
    StatusBar > .status-bar--warn { color: $text-warning; text-style: bold; }
    StatusBar > .status-bar--error { color: $text-error; text-style: bold reverse; }
    """ + "".join(
        # The user's choice of terminal colour: shown reversed, a band that is hard to miss.
        f"StatusBar > .status-bar--account-{c} {{ color: ansi_{c}; text-style: bold reverse; }}\n"
        for c in ACCOUNT_COLORS
    )

    def __init__(self, source: StatusSource) -> None:
        super().__init__()
        self.source = source

    def on_mount(self) -> None:
        self.source.account_signal.subscribe(self, self._changed, immediate=True)
        self._changed()

    def _changed(self, *_args: object) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, (part, cls) in enumerate(status_parts(self.source.state)):
            if index:
                text.append(" │ ", self.get_component_rich_style("status-bar--muted"))
            # Host and user names come from config and the API.
            text.append(shown(part), self.get_component_rich_style(cls))
        # One line of fixed size: no layout of the screen on every refresh's timestamp.
        self.update(text, layout=False)
