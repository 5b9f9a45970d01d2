"""The one-line status bar: profile (or DEMO), API host, user, restriction, last refresh, health.

It reads the app's state (``session``, ``user_context``, ``api_health``, ``last_refresh``: the
account's, see :mod:`tui.accounts.state`) and repaints when those change; it never calls the API
itself.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, get_args

from rich.text import Text
from textual.widgets import Static

from tui.session.config import AccountColor
from tui.untrusted import shown

HEALTH_TEXT = {
    "online": ("● online", "status-bar--ok"),
    "connecting": ("◐ connecting", "status-bar--busy"),
    "unreachable": ("✖ API UNREACHABLE", "status-bar--error"),
    "rate_limited": ("▲ RATE LIMITED", "status-bar--warn"),
    "error": ("▲ API errors", "status-bar--warn"),
}
"""Health -> (text, component class); the text alone says it, colour only adds to it."""


def status_parts(app: Any) -> list[tuple[str, str]]:
    """The bar's segments as ``(text, component class)`` pairs, left to right.

    The API's health comes right after the profile so it stays visible at 80 columns; the
    host, the longest and least urgent part, comes last.

    Args:
        app: The running app (duck-typed: ``session``, ``user_context``, ``api_health``,
            ``last_refresh``).
    """
    parts: list[tuple[str, str]] = []
    session = getattr(app, "session", None)
    if session is None:
        parts.append(("not signed in", "status-bar--muted"))
    elif session.demo:
        parts.append((" DEMO ", "status-bar--demo"))
    else:
        # The account's name always; its configured colour (if any) marks it as well.
        color = session.mark.color
        cls = f"status-bar--account-{color}" if color else "status-bar--profile"
        parts.append((f"profile {session.profile_name}", cls))
    if getattr(app, "read_only", False):
        # Second, so it shows on the narrowest terminal: the session cannot change anything.
        parts.append(("READ-ONLY", "status-bar--warn"))
    health = getattr(app, "api_health", "online")
    retrying = getattr(app, "retry_text", "")
    if health == "retrying":
        # Says what is going on: why nothing arrived yet, and that it is being retried.
        parts.append((f"◐ {retrying or 'retrying'}", "status-bar--busy"))
    else:
        parts.append(HEALTH_TEXT.get(health, HEALTH_TEXT["error"]))
        if health == "unreachable" and retrying:
            parts.append((f"◐ {retrying}", "status-bar--busy"))  # and it is being tried again
    user: Any = getattr(app, "user_context", None)
    username = str(user.username or "") if user is not None else ""
    if username:
        parts.append((username, "status-bar--user"))
        if getattr(user, "restricted", False):
            parts.append(("RESTRICTED", "status-bar--warn"))
        else:
            parts.append(("unrestricted", "status-bar--muted"))
        scopes = getattr(user, "scopes", None)
        if scopes is not None and not any(str(x).endswith(":read_write") for x in scopes):
            parts.append(("READ-ONLY token", "status-bar--warn"))
    last = getattr(app, "last_refresh", None)
    if last:
        stamp = datetime.fromtimestamp(last, UTC).strftime("%H:%M:%S")
        parts.append((f"↻ {stamp} UTC", "status-bar--muted"))
    if session is not None:
        parts.append((session.api_host, "status-bar--muted"))
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

    def on_mount(self) -> None:
        for attribute in ("status_version", "user_version"):
            if hasattr(self.app, attribute):
                self.watch(self.app, attribute, self._changed, init=False)
        self._changed()

    def _changed(self, *_args: object) -> None:
        text = Text(no_wrap=True, overflow="ellipsis")
        for index, (part, cls) in enumerate(status_parts(self.app)):
            if index:
                text.append(" │ ", self.get_component_rich_style("status-bar--muted"))
            # Host and user names come from config and the API.
            text.append(shown(part), self.get_component_rich_style(cls))
        # One line of fixed size: no layout of the screen on every refresh's timestamp.
        self.update(text, layout=False)
