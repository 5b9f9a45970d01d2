"""``:account``: switch the running app to another profile, with a picker when no name is given.

The session side (which profiles exist, reading the chosen one's token, building its client)
is :mod:`tui.accounts.switch`; this module does the screen side. A switch drops every screen of
the old account, the dialogs on top included: their workers are cancelled with them, so what a
dialog would have sent reaches neither account (``CloudApp.move_to_account``, asked with
:class:`~screens.navigation.AccountOpened`). The app then takes the new account's state whole
(``CloudApp.adopt_account``: its read-only mode, colour, user, API health, lists, activity
log, watchlist and undo journal, see :mod:`tui.accounts.state`) and the areas open afresh on it;
no toast of the old one stays up.

Bindings of the picker:

| Key | Id | Description |
| :- | :- | :- |
| up, down | (list) | Move the highlight |
| enter | (list) | Switch to the highlighted profile |
| escape | account.cancel | Close without switching |
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static

from screens.app_surface import surface
from screens.dialogs.pick_one import PickOneModal
from screens.navigation import AccountOpened
from tui.accounts.switch import AccountUnavailable, profile_names
from tui.untrusted import shown

SWITCH_MODE = "_account_switch"
"""The mode shown while the areas are rebuilt for the new account."""


class AccountPicker(PickOneModal):
    """Pick a profile to switch to (the current one is marked and highlighted)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel", "Cancel", id="account.cancel"),
    ]

    def __init__(self, names: list[str], current: str) -> None:
        options = [(f"{name}  (in use)" if name == current else name, name) for name in names]
        super().__init__("Switch to which account?", options, "enter switch · esc cancel", current)
        self.names = names
        self.current = current


class SwitchingScreen(Screen[None]):
    """Shown for the moment the areas are rebuilt: nothing of either account on it."""

    def compose(self) -> ComposeResult:
        yield Static(Text("Switching account…"))


def account_command(app: App[Any], name: str) -> None:
    """``:account NAME`` switches; ``:account`` opens the picker."""
    state = surface(app).state
    names = profile_names(state.settings)
    if name:
        switch_account(app, name)
        return
    if not names:
        app.notify(
            "No profiles in the config file yet: run `cloudtui login --profile NAME`.",
            title="Accounts",
            severity="warning",
            markup=False,
        )
        return
    current = state.session.profile_name if state.session is not None else ""

    def chosen(picked: str | None) -> None:
        if picked:
            switch_account(app, picked)

    app.push_screen(AccountPicker(names, current), chosen)


def switch_account(app: App[Any], name: str, *, then: Callable[[], object] | None = None) -> None:
    """Open profile ``name`` (its token is read now) and ask the app to move onto it.

    Args:
        app: The app.
        name: The profile to move to.
        then: Called once the app is on it (a cross-account list opens the row's item).
    """
    state = surface(app).state
    current = state.session.profile_name if state.session is not None else None
    if name == current:
        app.notify(f"Already on {shown(name)}.", title="Accounts", markup=False)
        return
    try:
        session = state.account_opener(state.settings, name)
    except AccountUnavailable as exc:
        app.notify(shown(exc), title="Accounts", severity="error", markup=False)
        return
    app.post_message(AccountOpened(session, then))
