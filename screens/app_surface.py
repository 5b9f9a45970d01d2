"""The app as screens see it: one typed surface, declared below every screen.

Screens, panes and their flows never reach the app by name. What they read of it is
:class:`AppSurface`: the app's state as one typed object (:class:`~tui.accounts.state.AppState`:
the settings, the account with its session, read-only mode, activity log, watchlist and undo
journal) and two signals that announce changes instead of counters that are polled. What
they ask of it goes up as messages (:mod:`screens.navigation`): attributes down, messages up.

The app (``tui/app.py``) implements the surface; it sits above every screen, so the screens
name only this Protocol, and a test can build an app of its own that implements it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

if TYPE_CHECKING:
    from textual.message_pump import MessagePump
    from textual.screen import Screen
    from textual.signal import Signal

    from tui.accounts.state import AppState, StateChange
    from tui.session.runtime import Session

Runner = Callable[[list[str], dict[str, str]], int]
"""Runs a program (argv, environment) to its end and returns its exit status (a hand-off)."""


@dataclass(frozen=True)
class Change:
    """A change was sent through the app (an action, a bulk run, an undo, an upload ...).

    Lists out of sight refresh when they are shown again.

    Attributes:
        answer_lost: The change may have been carried out though its answer was lost: the
            lists under the top screen refresh now, so the user sees whether it was.
    """

    answer_lost: bool = False


class ActionGate(Protocol):
    """Holds keys for a screen while an action started from it opens its dialog (the app's
    key gate, :mod:`screens.keys.gate`)."""

    def begin(self, base: Screen[Any]) -> object:
        """An action started from ``base``; returns the token :meth:`end` takes."""
        ...

    def end(self, token: object) -> None:
        """The action of ``token`` finished (sent, cancelled or failed)."""
        ...


class AppSurface(Protocol):
    """What screens and their flows may read of the app."""

    @property
    def state(self) -> AppState:
        """The app's state: settings, read-only rules, the account and all it holds."""
        ...

    @property
    def change_signal(self) -> Signal[Change]:
        """Published when a change was sent through the app."""
        ...

    @property
    def account_signal(self) -> Signal[StateChange]:
        """Published when the account's health, user or read-only mode changed (the status
        bar repaints; actions are checked again)."""
        ...

    @property
    def key_gate(self) -> ActionGate:
        """The app's key gate (an action gates the screen it was started from)."""
        ...

    @property
    def handoff_runner(self) -> Runner | None:
        """Runs a hand-off's program instead of the terminal (tests; None: the terminal)."""
        ...


def surface(node: MessagePump) -> AppSurface:
    """The app ``node`` runs in, as screens see it.

    The app's class implements :class:`AppSurface` (``tui/app.py`` asks mypy to check it);
    this is the one place a screen's ``app`` is seen as more than Textual's ``App``.
    """
    return cast("AppSurface", node.app)


def signed_in(node: MessagePump) -> Session:
    """The session of the account ``node``'s app is on.

    Raises:
        RuntimeError: The app is not signed in (an area's screens exist only once it is).
    """
    session = surface(node).state.session
    if session is None:
        raise RuntimeError("not signed in to any account")
    return session
